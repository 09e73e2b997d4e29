//===- StepMeasurement.cpp - A configuration's step, run here -------------===//

#include "mpmd/Driver/StepMeasurement.h"

#include "mpmd/Driver/Compile.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Runtime/ProgramIO.h"
#include "mpmd/Runtime/Trace.h"

#include "mlir/IR/Diagnostics.h"

#include <optional>

namespace mlir::mpmd::driver {

namespace {

llvm::Error makeMeasurementError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

llvm::Expected<std::unique_ptr<StepRunner>>
StepRunner::create(ModuleOp model, const Config &config, uint64_t seed) {
  // The lowering's diagnostics are about this configuration, not the
  // caller's program: the first error becomes the message, the rest (and
  // warnings, such as a schedule the data flow reorders) are dropped.
  std::string firstError;
  FailureOr<Lowered> lowered = failure();
  {
    ScopedDiagnosticHandler capture(model.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
        firstError = d.str();
      return success();
    });
    lowered = lower(model, config);
  }
  if (failed(lowered))
    return makeMeasurementError("the configuration does not lower: " +
                                firstError);
  auto owned = std::make_unique<Lowered>(std::move(*lowered));
  FailureOr<std::unique_ptr<runtime::Executable>> executable = owned->compile();
  if (failed(executable))
    return makeMeasurementError("the lowered program does not load");
  return std::unique_ptr<StepRunner>(
      new StepRunner(std::move(owned), std::move(*executable), seed));
}

StepRunner::StepRunner(std::unique_ptr<Lowered> lowered,
                       std::unique_ptr<runtime::Executable> executable,
                       uint64_t seed)
    : lowered(std::move(lowered)), executable(std::move(executable)),
      inputs(runtime::randomInputs(seed, this->executable->getInputSpecs())) {}

StepRunner::~StepRunner() = default;

llvm::Expected<MeasuredStep> StepRunner::run() {
  llvm::Expected<runtime::RunResult> result =
      executable->run(inputs, runtime::ExecutorOptions());
  if (!result)
    return result.takeError();
  const runtime::DeviceProgram &program = executable->getProgram();
  llvm::Expected<runtime::SimulatedRun> replay =
      runtime::replayMeasured(program, *result);
  if (!replay)
    return replay.takeError();
  MeasuredStep measured;
  measured.stepSeconds = result->stepUs * 1e-6;
  measured.replaySeconds = replay->makespan * 1e-6;
  for (const runtime::ExecutedStep &executed : result->executed)
    if (program.steps[executed.step].kind ==
        runtime::DeviceProgram::StepKind::kFragment)
      measured.fragmentSeconds += (executed.endUs - executed.startUs) * 1e-6;
  return measured;
}

llvm::Expected<MeasuredStep> measureStep(ModuleOp model, const Config &config,
                                         int64_t runs, uint64_t seed) {
  if (runs < 1)
    return makeMeasurementError("the measured runs must be at least 1");
  llvm::Expected<std::unique_ptr<StepRunner>> runner =
      StepRunner::create(model, config, seed);
  if (!runner)
    return runner.takeError();
  std::optional<MeasuredStep> fastest;
  // Run 0 warms up and is not counted.
  for (int64_t run = 0; run <= runs; ++run) {
    llvm::Expected<MeasuredStep> step = (*runner)->run();
    if (!step)
      return step.takeError();
    if (run > 0 && (!fastest || step->stepSeconds < fastest->stepSeconds))
      fastest = *step;
  }
  return *fastest;
}

} // namespace mlir::mpmd::driver
