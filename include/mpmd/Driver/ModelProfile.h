//===- ModelProfile.h - The cost table of a model, measured here -*- C++
//-*-===//
//
// What `mpmd profile` writes (mpmd/Plan/CostFile.h): an unpartitioned
// model run on the interpreter, once to warm up (buffer pool, constants)
// and `kProfiledRuns` times timed. Times are the mean thread CPU time of
// each named computation and transpose count per call (one call per
// microbatch), the smallest of the timed runs; bytes come from the types
// of the forward computation's values:
// * parameters: the operands that every microbatch receives unchanged
//   (the same value at that argument of each mpmd.call of the enclosing
//   function), counted twice (the weights and their gradient sums);
// * activations: the forward's other operands and results that the
//   backward of the same name takes;
// * boundary: the forward's results that another layer's forward takes.
// The ops outside the named computations are timed too and charged to a
// layer: those that run per microbatch (in a function that mpmd.call
// calls, or reading a call's results: the gradient sums) as its
// `accumulate_seconds`, the others (the optimizer update, the input
// slices) as its `update_seconds`.
// The executor's fixed costs come from its calibration on this machine
// (ExecutorCalibration.h): the action overhead, link latency and link
// bandwidth. The compute factor (of every computed time of every
// candidate) is measured on the model itself: its even split over two
// meshes of one device with 1F1B, compiled and run in turns with the
// unpartitioned model, its fastest fragments against the profiled time of
// the same work; a model of one layer, or one that does not lower so,
// gets 1.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_MODELPROFILE_H
#define MPMD_DRIVER_MODELPROFILE_H

#include "mpmd/Plan/CostFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::mpmd::driver {

/// The runs of the unpartitioned model measured after its warm-up, each
/// followed by a step of the model's even split over two meshes.
constexpr int64_t kProfiledRuns = 7;

/// The cost table of `module` (see the file comment), its @main run on the
/// random inputs of `seed`. Fails when the module has no named computation
/// or no @main, when @main takes an argument the interpreter cannot hold or
/// fails on it, or when the executor's calibration cannot run. O(lowering +
/// (kProfiledRuns + 1) x (an unpartitioned run + a pipelined step)).
llvm::Expected<plan::CostFile> profileModel(ModuleOp module, uint64_t seed);

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_MODELPROFILE_H
