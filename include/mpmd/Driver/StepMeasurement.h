//===- StepMeasurement.h - A configuration's step, run here -----*- C++ -*-===//
//
// What a pipeline configuration's step takes on this machine: the model
// lowered with it, run on the executor a few times with seeded random
// inputs. `mpmd plan --measure` ranks its best candidates by it, so that
// costs the planner's model leaves out (the executor's per-fragment work
// that grows with a fragment's operands, two devices' threads slowing each
// other) decide between candidates the model scores alike.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_STEPMEASUREMENT_H
#define MPMD_DRIVER_STEPMEASUREMENT_H

#include "mpmd/Driver/Config.h"
#include "mpmd/Runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace mlir::mpmd::runtime {
class Executable;
} // namespace mlir::mpmd::runtime

namespace mlir::mpmd::driver {

class Lowered;

/// One step as run (of `measureStep`: its fastest run).
struct MeasuredStep {
  /// Seconds: the step.
  double stepSeconds = 0;
  /// Seconds: the replay of the run's own fragment and copy times
  /// (`runtime::replayMeasured`), the step without the executor's waits.
  double replaySeconds = 0;
  /// Seconds: the run's fragments, summed over all devices (what the
  /// devices computed, without transfers and waits).
  double fragmentSeconds = 0;
};

/// A configuration lowered and loaded once, whose steps run on the random
/// inputs of one seed as often as asked: what `measureStep` repeats, and
/// what `mpmd profile` runs in turns with the unpartitioned model so that
/// both see the machine in the same state.
class StepRunner {
public:
  /// Lowers a copy of `model` with `config` and loads it. Fails when the
  /// lowering fails (the message says its first error; its diagnostics do
  /// not reach the module's context) or the program does not load.
  /// O(lowering).
  static llvm::Expected<std::unique_ptr<StepRunner>>
  create(ModuleOp model, const Config &config, uint64_t seed);
  ~StepRunner();

  /// Runs one step (as `mpmd run --random-inputs SEED`): its step, replay
  /// and fragment seconds. Fails when the run fails. O(a step).
  llvm::Expected<MeasuredStep> run();

private:
  StepRunner(std::unique_ptr<Lowered> lowered,
             std::unique_ptr<runtime::Executable> executable, uint64_t seed);

  std::unique_ptr<Lowered> lowered;
  /// Reads `lowered`'s module.
  std::unique_ptr<runtime::Executable> executable;
  std::vector<runtime::Tensor> inputs;
};

/// A `StepRunner`'s step run once to warm the buffer pool and caches, then
/// `runs` times: the fastest. Fails when `runs` < 1, or as `StepRunner`.
/// O(lowering + (runs + 1) steps).
llvm::Expected<MeasuredStep> measureStep(ModuleOp model, const Config &config,
                                         int64_t runs, uint64_t seed);

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_STEPMEASUREMENT_H
