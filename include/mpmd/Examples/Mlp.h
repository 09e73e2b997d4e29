//===- Mlp.h - A generated MLP training step and its config -----*- C++ -*-===//
//
// `mpmd example mlp` in a library: the text of a real training step of an
// MLP as StableHLO + mpmd ops, with a backward we derive here, and the
// `mpmd compile` configuration that pipelines it. Plain C++ without MLIR,
// so anything can generate models (the CLI, tests, benchmarks).
//
// The model, for inputs x[B,W], targets y[B,W] and weights w_i[W,W]:
//   h_0 = x, h_{i+1} = tanh(h_i w_i) for i < L-1, h_L = h_{L-1} w_{L-1}
//   loss = 0.5 * sum((h_L - y)^2) / B
// `@main` slices x and y into M microbatches along dim 0 and calls
// `@microbatch` once per microbatch (`mpmd.call`, call_counter k), sums
// the losses and returns (loss, w_i - lr * dloss/dw_i ...). The gradients
// are summed inside the calls: call k takes the sums g_i of the earlier
// microbatches' dw_i (zeros for the first call, then the previous call's
// results) and "layer_i"(1) returns g_i + dw_i, so the runtime computes
// dw_i into the sum (a gemm with beta = 1).
// `@microbatch` runs layer i forward as `mpmd.named_computation<"layer_i">`
// (the last one also computes the loss) and backward, in reverse, as
// `"layer_i"(1)`: dz = dh * (1 - h_{i+1}^2) (dz = (h_L - y) / B for the
// last layer), dw_i = h_i^T dz, dh_i = dz w_i^T (not for layer 0).
// With ElementType::kBF16 (Example.h) x, y, the weights, the loss and the
// update stay f32: @main converts each microbatch of x to bf16, each layer
// its weight (%w_master -> %w), the last layer widens h_L for the loss and
// narrows dz, and each dw_i is converted to f32 before it is summed.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_EXAMPLES_MLP_H
#define MPMD_EXAMPLES_MLP_H

#include "mpmd/Examples/Example.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::mpmd::examples {

struct MlpOptions : ExampleTrainingOptions {
  MlpOptions() { batch = 16; }

  /// W: the width of every layer.
  int64_t width = 16;
};

/// Generates the model and its configuration, or an error saying which
/// size is wrong (e.g. a batch not divisible by the microbatches, fewer
/// layers than stages). O(L * M) text.
llvm::Expected<ExampleModel> generateMlp(const MlpOptions &options);

} // namespace mlir::mpmd::examples

#endif // MPMD_EXAMPLES_MLP_H
