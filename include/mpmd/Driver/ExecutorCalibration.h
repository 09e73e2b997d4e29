//===- ExecutorCalibration.h - The executor's fixed costs -------*- C++ -*-===//
//
// What a step on the MPMD executor costs beyond its kernels, measured on
// this machine with small generated programs on two meshes of one device:
// * per fragment: a chain of fragments on one mesh whose bodies do almost
//   nothing (waits, bookkeeping, the interpreter's frame);
// * per transfer: a chain of such fragments alternating between the two
//   meshes, less the fragments' own cost (the handoff to the receiving
//   device's copy engine and back to its worker);
// * the bandwidth of a transfer: the same chain on a larger tensor.
// Each is the fastest of several runs, so that other work on a shared
// machine inflates it less. What `mpmd profile` writes as the cost file's
// `action_overhead_seconds`, `link_latency_seconds` and
// `link_bandwidth_bytes_per_second`.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_EXECUTORCALIBRATION_H
#define MPMD_DRIVER_EXECUTORCALIBRATION_H

#include "llvm/Support/Error.h"

namespace mlir::mpmd::driver {

struct ExecutorCosts {
  /// Seconds per fragment beyond its kernels.
  double fragmentSeconds = 0;
  /// Seconds per transfer beyond its bytes.
  double transferSeconds = 0;
  /// Bytes per second a transfer moves.
  double transferBandwidth = 0;
};

/// Runs the calibration programs (about 0.1 s on an idle machine). Fails
/// only when the executor cannot run them.
llvm::Expected<ExecutorCosts> calibrateExecutor();

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_EXECUTORCALIBRATION_H
