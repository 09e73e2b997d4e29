//===- TransformerStep.h - Generated StableHLO training steps ---*- C++ -*-===//
//
// Generates the text of a plain StableHLO transformer training step (no
// mpmd ops) for the sharding-propagation benchmark: `layers` blocks of
// attention and MLP, forward and backward (dot_general, reduce, broadcast,
// element-wise ops, transposes), an SGD update of every weight, and user
// shardings on the inputs only: the activations on "data", the weights
// Megatron-style on "model" (column-parallel q/k/v/up, row-parallel
// out/down) on `sdy.mesh @mesh = <["data"=2, "model"=2]>`.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_BENCH_TRANSFORMERSTEP_H
#define MPMD_BENCH_TRANSFORMERSTEP_H

#include <cstdint>
#include <string>

namespace mlir::mpmd::bench {

struct TransformerStepShape {
  int64_t layers = 2;
  int64_t tokens = 16;
  int64_t model = 8;
  int64_t hidden = 32;
};

struct TransformerStep {
  std::string text;
  /// Number of operations in the module (module and function included).
  int64_t numOps = 0;
};

TransformerStep generateTransformerStep(const TransformerStepShape &shape);

/// Operations per layer of the generated step, for sizing.
int64_t getTransformerStepOpsPerLayer();

} // namespace mlir::mpmd::bench

#endif // MPMD_BENCH_TRANSFORMERSTEP_H
