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

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::mpmd::driver {

struct MeasuredStep {
  /// Seconds: the fastest step of the measured runs.
  double fastestStepSeconds = 0;
  /// Seconds: the replay of that run's own fragment and copy times
  /// (`runtime::replayMeasured`), the step without the executor's waits.
  double replaySeconds = 0;
  /// Seconds: the fragments of that run, summed over all devices (what the
  /// devices computed, without transfers and waits).
  double fragmentSeconds = 0;
};

/// Lowers a copy of `model` with `config`, runs it once to warm the buffer
/// pool and caches, then `runs` times on the random inputs of `seed` (as
/// `mpmd run --random-inputs SEED`). Fails when `runs` < 1, when the
/// lowering fails (the message says its first error; its diagnostics do
/// not reach the module's context) or a run fails. O(lowering + (runs + 1)
/// steps).
llvm::Expected<MeasuredStep> measureStep(ModuleOp model, const Config &config,
                                         int64_t runs, uint64_t seed);

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_STEPMEASUREMENT_H
