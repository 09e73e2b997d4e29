//===- Cnn.h - A generated convolutional training step ----------*- C++ -*-===//
//
// `mpmd example cnn`: like the MLP (Mlp.h), a real training step with a
// backward we derive here, but of a small ResNet-style network, so
// pipelines get layers of convolutions, max pooling (reduce_window, and
// select_and_scatter in its backward) and residual blocks. Plain C++
// without MLIR.
//
// The model, for images x[B,S,S,3] (NHWC, S even), targets y[B,K] and per
// layer i a 3x3 kernel conv_i [3,3,Ci,C] (HWIO; Ci = 3 for layer 0, else
// C) plus a dense head [C,K], with conv(h, w) the stride-1 convolution
// padded by 1 (same size), norm(z) = (z - mean(z)) * r,
// r = 1 / sqrt(var(z) + 1e-5) over the channels of each position (no
// learned scale or shift, so the math does not depend on how the batch is
// cut into microbatches) and relu(n) = max(n, 0):
//   layer 0 (stem):  n = norm(conv(x, conv_0)), a = relu(n),
//                    h_1 = maxpool(a) (2x2 windows, stride 2)
//   layer i > 0:     n = norm(conv(h_i, conv_i)), h_{i+1} = h_i + relu(n)
//   the last layer then: g = mean of h_L over the S/2 x S/2 positions
//                    [B,C], o = g head, loss = 0.5 * sum((o - y)^2) / B
// `@main(x, y, conv_0, ..., conv_{L-1}, head)` slices x and y into M
// microbatches along dim 0, calls `@microbatch` once per microbatch
// (`mpmd.call`, call_counter k), sums the losses and returns (loss,
// w - lr * dloss/dw for every weight in argument order). The gradients are
// summed inside the calls, as in the MLP (Mlp.h): call k takes the sums of
// the earlier microbatches' gradients (zeros for the first) and each
// "layer_i"(1) returns them plus its dconv_i (and dhead).
// `@microbatch` runs layer i forward as `mpmd.named_computation<"layer_i">`
// (returning h_{i+1} and the residuals n, r, and a for the stem; the last
// layer first the loss, o - y and g) and backward, in reverse, as
// `"layer_i"(1)` from dh_{i+1}:
//   last layer:  do = (o - y) / B, dhead = g^T do,
//                dh_L = broadcast(do head^T) / (S/2)^2 over the positions
//   layer i > 0: dn = dh_{i+1} * (n > 0), dz = normback(dn; n, r),
//                dconv_i = the filter gradient of conv(h_i, .) at dz,
//                dh_i = dh_{i+1} + conv(dz, conv_i reversed spatially with
//                its input and output features swapped)
//   layer 0:     da = select_and_scatter(a, dh_1) (each window's first
//                maximum gets the window's gradient), dn = da * (n > 0),
//                dz = normback(dn; n, r), dconv_0 = filter gradient at x
// with normback(dn; n, r) = r * (dn - mean(dn) - n * mean(dn * n)) over the
// channels (as the transformer's norm, Transformer.h).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_EXAMPLES_CNN_H
#define MPMD_EXAMPLES_CNN_H

#include "mpmd/Examples/Example.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::mpmd::examples {

/// Channels of the input images (RGB).
constexpr int64_t kCnnInputChannels = 3;

/// The meshes' axes come from `parallelism`; the CNN writes no sharding
/// rules yet (its weights run replicated on every device of a mesh), so its
/// `sharding` must be none.
struct CnnOptions : ExampleTrainingOptions {
  /// S: the side of the square input images (even: the stem pools 2x2).
  int64_t image = 8;
  /// C: channels of every convolution's output.
  int64_t channels = 8;
  /// K: outputs of the dense head (the targets' width).
  int64_t classes = 4;
};

/// Generates the model and its configuration (as the MLP's), or an error
/// saying which size or option is wrong. O(L * M) text.
llvm::Expected<ExampleModel> generateCnn(const CnnOptions &options);

} // namespace mlir::mpmd::examples

#endif // MPMD_EXAMPLES_CNN_H
