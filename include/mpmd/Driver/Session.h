//===- Session.h - The driver for embedders, without MLIR types -*- C++ -*-===//
//
// The compiler and runtime as an embedding API whose header names no MLIR
// type, for front ends built with other compiler flags than LLVM's (the
// Python extension needs exceptions and RTTI, which Debian's LLVM and MLIR
// are built without, so its translation unit must not instantiate MLIR
// code). Every decision is the driver's (Compile.h, Config.h, Validate.h),
// the runtime's (Executor.h, Trace.h, Prediction.h) and the schedule
// library's; this file only converts: programs and configs are parsed here,
// diagnostics are collected as records, and every failure is a
// `SessionError` of a kind a front end maps to its own error types.
//
// Lifetimes: a `LoweredProgram` keeps its `Program` (whose MLIR context
// holds the lowered module) alive, a `CompiledProgram` its
// `LoweredProgram`, a `ProgramRun` its `CompiledProgram`; all are
// immutable after creation, so they can be shared.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_SESSION_H
#define MPMD_DRIVER_SESSION_H

#include "mpmd/Driver/DiagnosticRecord.h"
#include "mpmd/Examples/Cnn.h"
#include "mpmd/Examples/Example.h"
#include "mpmd/Examples/Mlp.h"
#include "mpmd/Examples/Transformer.h"
#include "mpmd/Runtime/Tensor.h"
#include "mpmd/Schedule/Schedule.h"
#include "mpmd/Schedule/Simulator.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mlir::mpmd::session {

/// What went wrong, in the exit-code classes of the CLI
/// (docs/reliability.md).
enum class ErrorKind {
  /// The program: it does not parse, verify or lower (exit code 1).
  kProgram,
  /// The configuration or an option value (exit code 2).
  kConfig,
  /// Arguments that do not fit the program: count, dtype, shape.
  kInput,
  /// Running failed: a kernel, the memory cap, the reference run.
  kRuntime,
};

struct SessionError {
  ErrorKind kind;
  std::string message;
  /// The MLIR diagnostics emitted while failing, in order.
  std::vector<driver::DiagnosticRecord> diagnostics;
};

/// A value or the error that prevented it.
template <typename T> class Outcome {
public:
  Outcome(T value) : state(std::move(value)) {}
  Outcome(SessionError error) : state(std::move(error)) {}

  bool ok() const { return state.index() == 0; }
  T &value() { return std::get<0>(state); }
  SessionError &error() { return std::get<1>(state); }

private:
  std::variant<T, SessionError> state;
};

/// A configuration (docs/config.md), parsed and validated.
class ParsedConfig {
public:
  /// Errors (kConfig) name the JSON path of the offending field.
  static Outcome<std::shared_ptr<const ParsedConfig>>
  parse(const std::string &json);
  ~ParsedConfig();

  /// The topology's mesh names, in pipeline order.
  std::vector<std::string> getMeshNames() const;

  struct Impl;
  const Impl &getImpl() const { return *impl; }

private:
  ParsedConfig();
  std::unique_ptr<Impl> impl;
};

class LoweredProgram;

/// A StableHLO program (plain, or with mpmd ops) with its own MLIR context.
class Program : public std::enable_shared_from_this<Program> {
public:
  /// Parses `text`; diagnostics name `bufferName` as the file.
  static Outcome<std::shared_ptr<Program>> parse(const std::string &text,
                                                 const std::string &bufferName);
  static Outcome<std::shared_ptr<Program>> readFile(const std::string &path);
  ~Program();

  /// The dtype and shape of each argument of @main.
  Outcome<std::vector<runtime::TensorSpec>> getMainInputSpecs() const;

  /// `driver::lower` with `config`: a name the assignment lacks is a
  /// kConfig error, anything else kProgram. `keepPhaseTexts` keeps the IR
  /// after each phase for `LoweredProgram::asText`.
  Outcome<std::shared_ptr<const LoweredProgram>>
  lower(const ParsedConfig &config, bool keepPhaseTexts) const;

  struct Validation {
    bool passed = false;
    /// `ValidationReport::print`: a line per output and the verdict.
    std::string report;
  };
  /// `driver::validateAgainstReference`: runs this (unpartitioned) program
  /// on `inputs` with the interpreter and compares with `outputs`.
  Outcome<Validation> validate(const std::vector<runtime::Tensor> &inputs,
                               const std::vector<runtime::Tensor> &outputs,
                               std::optional<double> tolerance) const;

  struct Impl;

private:
  Program();
  std::unique_ptr<Impl> impl;
};

class CompiledProgram;

/// Where an input or output of @main lives.
struct IoSharding {
  /// Empty when the value is not on a mesh.
  std::string meshName;
  /// Per dimension, the mesh axes it is sharded over, major first; a
  /// sub-axis is written `"x":(1)2`. Empty lists: replicated.
  std::vector<std::vector<std::string>> dimAxes;
  /// The `#sdy.sharding` text, or "replicated".
  std::string shardingText;
  std::optional<std::string> memoryKind;
  /// The rank of the (global) tensor; 0 when it is not a ranked tensor.
  int64_t rank = 0;
};

class LoweredProgram : public std::enable_shared_from_this<LoweredProgram> {
public:
  ~LoweredProgram();
  /// The IR after "import", "optimize", "sharding-propagation" (kept only
  /// when lowered with `keepPhaseTexts`) or "export".
  Outcome<std::string> asText(const std::string &phase) const;
  std::vector<IoSharding> getInputShardings() const;
  std::vector<IoSharding> getOutputShardings() const;
  /// `Lowered::printSummary`.
  std::string getSummary() const;
  /// The executable (kProgram errors).
  Outcome<std::shared_ptr<const CompiledProgram>> compile() const;

  struct Impl;
  LoweredProgram(std::shared_ptr<const Program> program,
                 std::unique_ptr<Impl> impl);

private:
  std::shared_ptr<const Program> program;
  std::unique_ptr<Impl> impl;
};

class ProgramRun;

struct MeshInfo {
  std::string name;
  int64_t numDevices = 1;
};

class CompiledProgram : public std::enable_shared_from_this<CompiledProgram> {
public:
  ~CompiledProgram();
  const std::vector<MeshInfo> &getMeshes() const;
  const std::vector<runtime::TensorSpec> &getInputSpecs() const;
  const std::vector<runtime::TensorSpec> &getOutputSpecs() const;
  /// The mesh (index into `getMeshes`) of each input and output.
  const std::vector<int64_t> &getInputMeshes() const;
  const std::vector<int64_t> &getOutputMeshes() const;

  /// Runs @main once. Inputs that do not fit are a kInput error, failures
  /// while running kRuntime. Blocks the calling thread only (the devices
  /// are threads of their own).
  Outcome<std::shared_ptr<const ProgramRun>>
  run(std::vector<runtime::Tensor> inputs,
      std::optional<int64_t> deviceMemoryBytes) const;

  struct Impl;
  CompiledProgram(std::shared_ptr<const LoweredProgram> lowered,
                  std::unique_ptr<Impl> impl);
  const Impl &getImpl() const { return *impl; }

private:
  std::shared_ptr<const LoweredProgram> lowered;
  std::unique_ptr<Impl> impl;
};

/// The schedule simulator fed with the mean measured cost of each action
/// kind of a run (`runtime::predictWithScheduleSimulator`), in ms.
struct Prediction {
  schedule::Schedule schedule;
  schedule::ActionCosts costs;
  schedule::SimulationResult simulation;
};

class ProgramRun {
public:
  ~ProgramRun();
  const std::vector<runtime::Tensor> &getOutputs() const;
  /// From the start of the first step to the end of the last, in µs.
  double getStepMicros() const;
  /// The Chrome trace JSON of the run (`runtime::writeChromeTrace`).
  std::string getChromeTrace() const;
  /// `mpmd run --summary`'s table, replay and prediction.
  std::string getSummary() const;
  /// kRuntime error when the program has no pipeline schedule.
  Outcome<Prediction> predict() const;

  struct Impl;
  ProgramRun(std::shared_ptr<const CompiledProgram> compiled,
             std::unique_ptr<Impl> impl);

private:
  std::shared_ptr<const CompiledProgram> compiled;
  std::unique_ptr<Impl> impl;
};

/// The seeded random inputs of `mpmd run --random-inputs SEED`.
std::vector<runtime::Tensor>
makeRandomInputs(uint64_t seed, const std::vector<runtime::TensorSpec> &specs);

/// A simulated built-in schedule (`mpmd schedule`).
struct ScheduleSimulation {
  /// "1F1B, p=4, v=1, m=8".
  std::string title;
  schedule::Schedule schedule;
  schedule::SimulationResult result;
  /// `schedule::printSummary`: makespan, bubbles, peak activations.
  std::string summary;
};

/// Builds the schedule `name` (any `mpmd schedule` name) for `meshes` and
/// `microbatches` with `stagesPerMesh` (the schedule's default when unset)
/// and simulates it with uniform `costs` or, when `stageCosts` is not
/// empty, one entry per stage. Bad parameters are kConfig errors.
Outcome<ScheduleSimulation>
simulateSchedule(const std::string &name, int64_t meshes, int64_t microbatches,
                 std::optional<int64_t> stagesPerMesh,
                 const schedule::ActionCosts &costs,
                 const std::vector<schedule::StageCosts> &stageCosts);

/// A schedule name of `mpmd example --schedule`: a built-in schedule of the
/// compiler first, else a generated one; kConfig error for neither.
Outcome<examples::ExampleSchedule>
resolveExampleSchedule(const std::string &name);

/// `examples::generateMlp` / `generateTransformer` / `generateCnn`: sizes
/// that do not fit are kConfig errors.
Outcome<examples::ExampleModel>
generateMlpExample(const examples::MlpOptions &options);
Outcome<examples::ExampleModel>
generateTransformerExample(const examples::TransformerOptions &options);
Outcome<examples::ExampleModel>
generateCnnExample(const examples::CnnOptions &options);

} // namespace mlir::mpmd::session

#endif // MPMD_DRIVER_SESSION_H
