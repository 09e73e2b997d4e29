//===- Session.cpp - The driver for embedders, without MLIR types ---------===//

#include "mpmd/Driver/Session.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Driver/Compile.h"
#include "mpmd/Driver/Config.h"
#include "mpmd/Driver/ModuleFile.h"
#include "mpmd/Driver/Validate.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/Prediction.h"
#include "mpmd/Runtime/ProgramIO.h"
#include "mpmd/Runtime/Trace.h"
#include "mpmd/Schedule/Generators.h"
#include "mpmd/Schedule/Render.h"
#include "mpmd/Transforms/Optimize/PipelineSchedule.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

namespace mlir::mpmd::session {

struct ParsedConfig::Impl {
  driver::Config config;
};

struct Program::Impl {
  std::unique_ptr<driver::ModuleFile> file;
  /// One operation at a time per program: its diagnostics are collected
  /// per operation, and the interpreter shares the module's context.
  mutable std::mutex operationMutex;
};

struct LoweredProgram::Impl {
  driver::Lowered lowered;
  /// The program's, kept alive by `LoweredProgram::program`.
  Program::Impl *programImpl;
};

struct CompiledProgram::Impl {
  std::unique_ptr<runtime::Executable> executable;
  Program::Impl *programImpl;
  std::vector<MeshInfo> meshes;
  std::vector<int64_t> inputMeshes, outputMeshes;
};

struct ProgramRun::Impl {
  runtime::RunResult result;
  const runtime::Executable *executable;
};

namespace {

/// The error of an operation on `program`, with the diagnostics it
/// emitted; without a message, the first error diagnostic's.
SessionError makeError(ErrorKind kind, std::string message,
                       driver::ModuleFile &file) {
  SessionError error{kind, std::move(message), file.takeDiagnostics()};
  if (error.message.empty()) {
    for (const driver::DiagnosticRecord &record : error.diagnostics)
      if (record.severity == "error") {
        error.message = record.message;
        break;
      }
  }
  if (error.message.empty())
    error.message = "failed";
  return error;
}

SessionError makeError(ErrorKind kind, llvm::Error error) {
  return {kind, llvm::toString(std::move(error)), {}};
}

/// `"x"`, or `"x":(1)2` for a sub-axis.
std::string getAxisText(sdy::AxisRefAttr axis) {
  std::string text = axis.getName().str();
  if (sdy::SubAxisInfoAttr subAxis = axis.getSubAxisInfo())
    text += ":(" + std::to_string(subAxis.getPreSize()) + ")" +
            std::to_string(subAxis.getSize());
  return text;
}

int64_t getRank(Type type) {
  if (auto meshTensor = dyn_cast<MeshTensorType>(type))
    return meshTensor.getRankedTensorType().getRank();
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getRank();
  return 0;
}

std::vector<IoSharding>
convertShardings(const std::vector<driver::NamedSharding> &shardings,
                 TypeRange types) {
  std::vector<IoSharding> converted;
  for (auto [sharding, type] : llvm::zip(shardings, types)) {
    IoSharding io;
    io.rank = getRank(type);
    io.meshName = sharding.meshName;
    io.memoryKind = sharding.memoryKind;
    if (!sharding.sharding) {
      io.shardingText = "replicated";
    } else {
      for (sdy::DimensionShardingAttr dim :
           sharding.sharding.getDimShardings()) {
        std::vector<std::string> axes;
        for (sdy::AxisRefAttr axis : dim.getAxes())
          axes.push_back(getAxisText(axis));
        io.dimAxes.push_back(std::move(axes));
      }
      llvm::raw_string_ostream os(io.shardingText);
      os << sharding.sharding;
    }
    converted.push_back(std::move(io));
  }
  return converted;
}

} // namespace

//===----------------------------------------------------------------------===//
// ParsedConfig
//===----------------------------------------------------------------------===//

ParsedConfig::ParsedConfig() : impl(std::make_unique<Impl>()) {}
ParsedConfig::~ParsedConfig() = default;

Outcome<std::shared_ptr<const ParsedConfig>>
ParsedConfig::parse(const std::string &json) {
  llvm::Expected<driver::Config> config = driver::parseConfig(json);
  if (!config)
    return makeError(ErrorKind::kConfig, config.takeError());
  std::shared_ptr<ParsedConfig> parsed(new ParsedConfig());
  parsed->impl->config = std::move(*config);
  return std::shared_ptr<const ParsedConfig>(std::move(parsed));
}

std::vector<std::string> ParsedConfig::getMeshNames() const {
  std::vector<std::string> names;
  for (const driver::TopologyMesh &mesh : impl->config.topology)
    names.push_back(mesh.name);
  return names;
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

Program::Program() : impl(std::make_unique<Impl>()) {}
Program::~Program() = default;

Outcome<std::shared_ptr<Program>>
Program::parse(const std::string &text, const std::string &bufferName) {
  std::unique_ptr<driver::ModuleFile> file = driver::ModuleFile::parse(
      text, bufferName, driver::DiagnosticMode::kCollect);
  if (!file->getModule())
    return makeError(ErrorKind::kProgram, "cannot parse " + bufferName, *file);
  std::shared_ptr<Program> program(new Program());
  program->impl->file = std::move(file);
  return program;
}

Outcome<std::shared_ptr<Program>> Program::readFile(const std::string &path) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, &error);
  if (!buffer)
    return SessionError{ErrorKind::kProgram, error, {}};
  return parse(buffer->getBuffer().str(), path);
}

Outcome<std::vector<runtime::TensorSpec>> Program::getMainInputSpecs() const {
  std::lock_guard<std::mutex> lock(impl->operationMutex);
  driver::ModuleFile &file = *impl->file;
  file.takeDiagnostics();
  func::FuncOp main = getMainFunction(file.getModule());
  if (!main)
    return SessionError{
        ErrorKind::kProgram, "the program has no @main function", {}};
  FailureOr<std::vector<runtime::TensorSpec>> specs =
      runtime::getArgumentSpecs(main);
  if (failed(specs))
    return makeError(ErrorKind::kProgram, "", file);
  return std::move(*specs);
}

Outcome<std::shared_ptr<const LoweredProgram>>
Program::lower(const ParsedConfig &config, bool keepPhaseTexts) const {
  std::lock_guard<std::mutex> lock(impl->operationMutex);
  driver::ModuleFile &file = *impl->file;
  file.takeDiagnostics();
  const driver::Config &parsed = config.getImpl().config;
  // A computation the assignment misses is a configuration error, as in
  // `mpmd compile`.
  if (failed(driver::verifyAssignmentCoversModule(file.getModule(), parsed)))
    return makeError(ErrorKind::kConfig, "", file);
  driver::LowerOptions options;
  options.keepPhaseTexts = keepPhaseTexts;
  FailureOr<driver::Lowered> lowered =
      driver::lower(file.getModule(), parsed, options);
  if (failed(lowered))
    return makeError(ErrorKind::kProgram, "", file);
  return std::make_shared<const LoweredProgram>(
      shared_from_this(),
      std::make_unique<LoweredProgram::Impl>(
          LoweredProgram::Impl{std::move(*lowered), impl.get()}));
}

Outcome<Program::Validation>
Program::validate(const std::vector<runtime::Tensor> &inputs,
                  const std::vector<runtime::Tensor> &outputs,
                  std::optional<double> tolerance) const {
  std::lock_guard<std::mutex> lock(impl->operationMutex);
  driver::ModuleFile &file = *impl->file;
  file.takeDiagnostics();
  llvm::Expected<driver::ValidationReport> report =
      driver::validateAgainstReference(file.getModule(), inputs, outputs,
                                       tolerance);
  if (!report)
    return makeError(ErrorKind::kRuntime, llvm::toString(report.takeError()),
                     file);
  Validation validation;
  validation.passed = report->passed();
  llvm::raw_string_ostream os(validation.report);
  report->print(os);
  return validation;
}

//===----------------------------------------------------------------------===//
// LoweredProgram
//===----------------------------------------------------------------------===//

LoweredProgram::LoweredProgram(std::shared_ptr<const Program> program,
                               std::unique_ptr<Impl> impl)
    : program(std::move(program)), impl(std::move(impl)) {}
LoweredProgram::~LoweredProgram() = default;

Outcome<std::string> LoweredProgram::asText(const std::string &phase) const {
  for (driver::Phase candidate : driver::kAllPhases) {
    if (driver::getPhaseName(candidate) != phase)
      continue;
    std::string text = impl->lowered.asText(candidate);
    if (text.empty())
      return SessionError{ErrorKind::kConfig,
                          "the IR after phase '" + phase +
                              "' was not kept: lower with keep_phase_texts",
                          {}};
    return text;
  }
  return SessionError{ErrorKind::kConfig,
                      "unknown phase '" + phase +
                          "'; expected import, optimize, "
                          "sharding-propagation or export",
                      {}};
}

std::vector<IoSharding> LoweredProgram::getInputShardings() const {
  func::FuncOp main = getMainFunction(impl->lowered.getModule());
  return convertShardings(impl->lowered.functionNamedShardings().inputs,
                          main.getArgumentTypes());
}

std::vector<IoSharding> LoweredProgram::getOutputShardings() const {
  func::FuncOp main = getMainFunction(impl->lowered.getModule());
  return convertShardings(impl->lowered.functionNamedShardings().outputs,
                          main.getResultTypes());
}

std::string LoweredProgram::getSummary() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  impl->lowered.printSummary(os);
  return text;
}

Outcome<std::shared_ptr<const CompiledProgram>>
LoweredProgram::compile() const {
  Program::Impl &programImpl = *impl->programImpl;
  std::lock_guard<std::mutex> lock(programImpl.operationMutex);
  programImpl.file->takeDiagnostics();
  FailureOr<std::unique_ptr<runtime::Executable>> executable =
      impl->lowered.compile();
  if (failed(executable))
    return makeError(ErrorKind::kProgram, "", *programImpl.file);
  auto compiled = std::make_unique<CompiledProgram::Impl>();
  compiled->executable = std::move(*executable);
  compiled->programImpl = &programImpl;
  const runtime::DeviceProgram &deviceProgram =
      compiled->executable->getProgram();
  for (const auto &mesh : deviceProgram.meshes)
    compiled->meshes.push_back({mesh.name, mesh.numDevices});
  for (int64_t value : deviceProgram.inputs)
    compiled->inputMeshes.push_back(deviceProgram.values[value].mesh);
  for (int64_t value : deviceProgram.outputs)
    compiled->outputMeshes.push_back(deviceProgram.values[value].mesh);
  return std::make_shared<const CompiledProgram>(shared_from_this(),
                                                 std::move(compiled));
}

//===----------------------------------------------------------------------===//
// CompiledProgram
//===----------------------------------------------------------------------===//

CompiledProgram::CompiledProgram(std::shared_ptr<const LoweredProgram> lowered,
                                 std::unique_ptr<Impl> impl)
    : lowered(std::move(lowered)), impl(std::move(impl)) {}
CompiledProgram::~CompiledProgram() = default;

const std::vector<MeshInfo> &CompiledProgram::getMeshes() const {
  return impl->meshes;
}
const std::vector<runtime::TensorSpec> &CompiledProgram::getInputSpecs() const {
  return impl->executable->getInputSpecs();
}
const std::vector<runtime::TensorSpec> &
CompiledProgram::getOutputSpecs() const {
  return impl->executable->getOutputSpecs();
}
const std::vector<int64_t> &CompiledProgram::getInputMeshes() const {
  return impl->inputMeshes;
}
const std::vector<int64_t> &CompiledProgram::getOutputMeshes() const {
  return impl->outputMeshes;
}

Outcome<std::shared_ptr<const ProgramRun>>
CompiledProgram::run(std::vector<runtime::Tensor> inputs,
                     std::optional<int64_t> deviceMemoryBytes) const {
  const runtime::Executable &executable = *impl->executable;
  if (llvm::Error error = executable.checkInputs(inputs))
    return makeError(ErrorKind::kInput, std::move(error));
  Program::Impl &programImpl = *impl->programImpl;
  std::lock_guard<std::mutex> lock(programImpl.operationMutex);
  programImpl.file->takeDiagnostics();
  runtime::ExecutorOptions options;
  options.deviceMemoryBytes = deviceMemoryBytes;
  llvm::Expected<runtime::RunResult> result =
      executable.run(std::move(inputs), options);
  if (!result)
    return makeError(ErrorKind::kRuntime, llvm::toString(result.takeError()),
                     *programImpl.file);
  return std::make_shared<const ProgramRun>(
      shared_from_this(), std::make_unique<ProgramRun::Impl>(ProgramRun::Impl{
                              std::move(*result), &executable}));
}

//===----------------------------------------------------------------------===//
// ProgramRun
//===----------------------------------------------------------------------===//

ProgramRun::ProgramRun(std::shared_ptr<const CompiledProgram> compiled,
                       std::unique_ptr<Impl> impl)
    : compiled(std::move(compiled)), impl(std::move(impl)) {}
ProgramRun::~ProgramRun() = default;

const std::vector<runtime::Tensor> &ProgramRun::getOutputs() const {
  return impl->result.outputs;
}

double ProgramRun::getStepMicros() const { return impl->result.stepUs; }

std::string ProgramRun::getChromeTrace() const {
  std::string trace;
  llvm::raw_string_ostream os(trace);
  runtime::writeChromeTrace(impl->executable->getProgram(), impl->result, os);
  return trace;
}

std::string ProgramRun::getSummary() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (llvm::Error error =
          runtime::printRunReport(*impl->executable, impl->result, os))
    os << "no summary: " << llvm::toString(std::move(error)) << "\n";
  return text;
}

Outcome<Prediction> ProgramRun::predict() const {
  llvm::Expected<runtime::PipelinePrediction> prediction =
      runtime::predictWithScheduleSimulator(*impl->executable, impl->result);
  if (!prediction)
    return makeError(ErrorKind::kRuntime, prediction.takeError());
  return Prediction{std::move(prediction->schedule), prediction->costs,
                    std::move(prediction->simulation)};
}

//===----------------------------------------------------------------------===//
// Inputs, schedules, examples
//===----------------------------------------------------------------------===//

std::vector<runtime::Tensor>
makeRandomInputs(uint64_t seed, const std::vector<runtime::TensorSpec> &specs) {
  return runtime::randomInputs(seed, specs);
}

Outcome<ScheduleSimulation>
simulateSchedule(const std::string &name, int64_t meshes, int64_t microbatches,
                 std::optional<int64_t> stagesPerMesh,
                 const schedule::ActionCosts &costs,
                 const std::vector<schedule::StageCosts> &stageCosts) {
  std::optional<schedule::ScheduleKind> kind =
      schedule::parseScheduleKind(name);
  if (!kind)
    return SessionError{ErrorKind::kConfig,
                        "unknown schedule '" + name + "'; expected one of " +
                            schedule::getScheduleNameList(),
                        {}};
  schedule::ScheduleParams params;
  params.meshes = meshes;
  params.microbatches = microbatches;
  params.stagesPerMesh =
      stagesPerMesh.value_or(schedule::getDefaultStagesPerMesh(*kind));
  llvm::Expected<schedule::Schedule> built =
      schedule::buildSchedule(*kind, params);
  if (!built)
    return makeError(ErrorKind::kConfig, built.takeError());
  if (!stageCosts.empty() &&
      int64_t(stageCosts.size()) != built->getNumStages())
    return SessionError{
        ErrorKind::kConfig,
        "the schedule has " + std::to_string(built->getNumStages()) +
            " stages, got costs for " + std::to_string(stageCosts.size()),
        {}};
  llvm::Expected<schedule::SimulationResult> result =
      stageCosts.empty() ? schedule::simulate(*built, costs)
                         : schedule::simulate(*built, stageCosts);
  if (!result)
    return makeError(ErrorKind::kConfig, result.takeError());
  ScheduleSimulation simulation;
  simulation.title = schedule::getScheduleName(*kind).str() +
                     ", p=" + std::to_string(params.meshes) +
                     ", v=" + std::to_string(params.stagesPerMesh) +
                     ", m=" + std::to_string(params.microbatches);
  llvm::raw_string_ostream os(simulation.summary);
  schedule::printSummary(*result, os);
  simulation.schedule = std::move(*built);
  simulation.result = std::move(*result);
  return simulation;
}

Outcome<examples::ExampleSchedule>
resolveExampleSchedule(const std::string &name) {
  if (std::optional<PipelineSchedule> builtin = symbolizePipelineSchedule(name))
    return examples::ExampleSchedule{stringifyPipelineSchedule(*builtin).str(),
                                     /*generated=*/false};
  if (std::optional<schedule::ScheduleKind> kind =
          schedule::parseScheduleKind(name))
    return examples::ExampleSchedule{schedule::getScheduleName(*kind).str(),
                                     /*generated=*/true};
  return SessionError{ErrorKind::kConfig,
                      "unknown schedule '" + name +
                          "'; built-in: " + getPipelineScheduleNameList() +
                          "; generated: " + schedule::getScheduleNameList(),
                      {}};
}

Outcome<examples::ExampleModel>
generateMlpExample(const examples::MlpOptions &options) {
  llvm::Expected<examples::ExampleModel> model = examples::generateMlp(options);
  if (!model)
    return makeError(ErrorKind::kConfig, model.takeError());
  return std::move(*model);
}

Outcome<examples::ExampleModel>
generateTransformerExample(const examples::TransformerOptions &options) {
  llvm::Expected<examples::ExampleModel> model =
      examples::generateTransformer(options);
  if (!model)
    return makeError(ErrorKind::kConfig, model.takeError());
  return std::move(*model);
}

Outcome<examples::ExampleModel>
generateCnnExample(const examples::CnnOptions &options) {
  llvm::Expected<examples::ExampleModel> model = examples::generateCnn(options);
  if (!model)
    return makeError(ErrorKind::kConfig, model.takeError());
  return std::move(*model);
}

} // namespace mlir::mpmd::session
