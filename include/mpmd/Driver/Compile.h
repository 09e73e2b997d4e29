//===- Compile.h - Lowering a program with a config --------------*- C++
//-*-===//
//
// The C++ counterpart of upstream's JAX `jit(f, config).lower(...)`: runs the
// import, optimize and export pipelines (their C++ builders, with options
// taken from the `Config`) on a copy of the program and keeps, on request,
// the IR after each phase. Sharding propagation between optimize and export has no
// engine yet: values without a user sharding stay replicated on their mesh.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_COMPILE_H
#define MPMD_DRIVER_COMPILE_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Driver/Config.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd::runtime {
class Executable;
} // namespace mlir::mpmd::runtime

namespace mlir::mpmd::driver {

/// The phases `lower` runs, in order.
enum class Phase { kImport, kOptimize, kShardingPropagation, kExport };
inline constexpr std::array<Phase, 4> kAllPhases = {
    Phase::kImport, Phase::kOptimize, Phase::kShardingPropagation,
    Phase::kExport};

/// "import", "optimize", "sharding-propagation", "export".
llvm::StringRef getPhaseName(Phase phase);

/// Where an input or output of the entry function lives (upstream's
/// `NamedSharding`): mesh, sharding (null: replicated) and memory kind
/// (none: device memory).
struct NamedSharding {
  std::string meshName;
  sdy::TensorShardingAttr sharding;
  std::optional<std::string> memoryKind;
};

/// upstream's `FunctionNamedShardings`, one entry per input / output.
struct FunctionNamedShardings {
  std::vector<NamedSharding> inputs;
  std::vector<NamedSharding> outputs;
};

struct LowerOptions {
  /// Keep the IR text after each phase before export, for `asText`. Off by
  /// default: printing a large module costs as much as a phase.
  bool keepPhaseTexts = false;
  /// Called after each phase has run and been verified (progress reports).
  std::function<void(Phase)> phaseDone;
};

/// The lowered program and, if asked for, its IR after each phase.
class Lowered {
public:
  /// The exported module (fragment calls of outlined functions).
  ModuleOp getModule() const { return *module; }
  /// The IR right after `phase`: the export text is the final module's,
  /// printed now; the others were kept by `LowerOptions::keepPhaseTexts`
  /// (empty otherwise).
  std::string asText(Phase phase = Phase::kExport) const;
  /// Mesh, sharding and memory kind of every input and output of @main.
  FunctionNamedShardings functionNamedShardings() const;
  /// The exported program ready to run on virtual CPU devices (upstream's
  /// `Lowered.compile()`); failure after a diagnostic. The executable reads
  /// this object's module: it must not outlive it.
  FailureOr<std::unique_ptr<runtime::Executable>> compile() const;
  /// Per mesh: fragment calls, distinct functions, transfers in and out
  /// with their bytes, reserved bytes; per mesh of several devices, the
  /// functions -mpmd-partition-fragment-bodies partitioned; then the mesh
  /// and sharding of each input and output (`mpmd compile --summary`, the
  /// Python `summary()`).
  /// O(ops of @main + outlined functions).
  void printSummary(llvm::raw_ostream &os) const;

private:
  friend FailureOr<Lowered> lower(ModuleOp, const Config &,
                                  const LowerOptions &);
  OwningOpRef<ModuleOp> module;
  /// The IR after each phase before export, if kept.
  std::array<std::string, kAllPhases.size() - 1> phaseTexts;
};

/// Emits an error at each named computation (and named tensor) of `module`
/// whose name `config.assignment` lacks. O(ops × log assignments).
LogicalResult verifyAssignmentCoversModule(ModuleOp module,
                                           const Config &config);

/// Lowers a copy of `module` (left unchanged) with `config`: sets @main's
/// topology from the config (an error if @main has a different one), then
/// runs import → optimize → sharding propagation → export, verifying the IR
/// after each phase (then calling `options.phaseDone`). Errors are MLIR
/// diagnostics on the module's context;
/// any error diagnostic, also one a pass reports without failing, fails the
/// lowering.
FailureOr<Lowered> lower(ModuleOp module, const Config &config,
                         const LowerOptions &options = {});

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_COMPILE_H
