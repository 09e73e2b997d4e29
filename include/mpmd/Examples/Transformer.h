//===- Transformer.h - A generated transformer training step ----*- C++ -*-===//
//
// `mpmd example transformer`: like the MLP (Mlp.h), a real training step
// with a backward we derive here, but of decoder blocks, so pipelines get
// layers whose fragments mix batched attention GEMMs, softmax reductions
// and several weights. Plain C++ without MLIR.
//
// The model, for inputs x[B,S,D] (already embedded), targets y[B,S,D] and
// per layer i the weights wq_i, wk_i, wv_i, wo_i [D,D], w1_i [D,F],
// w2_i [F,D] (one head, no biases), is a pre-norm decoder block. With
// norm(x) = (x - mean(x)) * r, r = 1 / sqrt(var(x) + 1e-5) over the last
// axis (no learned scale or shift) and h_0 = x, layer i maps h to h':
//   n1 = norm(h), q = n1 wq, k = n1 wk, v = n1 wv   (per position)
//   s[b,n,m] = q[b,n,:].k[b,m,:] / sqrt(D) for m <= n, else -inf (causal)
//   p = exp(s - max_m s) / sum_m exp(s - max_m s)   (softmax over keys m)
//   c = p v (per sequence), g = h + c wo            (attention, residual)
//   n2 = norm(g), a = tanh(n2 w1), h' = g + a w2     (MLP, residual)
//   loss = 0.5 * sum((h_L - y)^2) / (B * S)
// `@main(x, y, wq_0, wk_0, wv_0, wo_0, w1_0, w2_0, wq_1, ...)` slices x and
// y into M microbatches along dim 0, calls `@microbatch` once per
// microbatch (`mpmd.call`, call_counter k), sums the losses and returns
// (loss, w - lr * dloss/dw for every weight in argument order). The
// gradients are summed inside the calls, as in the MLP (Mlp.h): call k
// takes the sums g_w of the earlier microbatches' gradients (zeros for the
// first) and each "layer_i"(1) returns g_w + dw for its six weights.
// `@microbatch` runs layer i forward as `mpmd.named_computation<"layer_i">`,
// which returns h' and the residuals n1, r1, q, k, v, p, c, n2, r2, a (the
// last layer first the loss and h_L - y instead of h'), and backward, in
// reverse, as `"layer_i"(1)` from dh' (= (h_L - y) / (B*S) for the last):
//   dw2 = a^T dh', dz = (dh' w2^T) * (1 - a^2), dw1 = n2^T dz,
//   dg = dh' + normback(dz w1^T; n2, r2), dwo = c^T dg, dc = dg wo^T,
//   dv = p^T dc, dp = dc v^T, ds = p * (dp - sum_m(p * dp)) / sqrt(D),
//   dq = ds k, dk = ds^T q, dwq = n1^T dq, dwk = n1^T dk, dwv = n1^T dv,
//   dh = dg + normback(dq wq^T + dk wk^T + dv wv^T; n1, r1) (not layer 0),
// with normback(dn; n, r) = r * (dn - mean(dn) - n * mean(dn * n)) over the
// last axis; p^T dc, dc v^T, ds k, ds^T q multiply per sequence and the
// weight gradients a^T dh', n1^T dq, ... sum over sequences and positions.
// With dropout rate R > 0, c wo and a w2 each pass through dropout before
// their residual add, as flax writes it with JAX's rbg PRNG: @main takes
// one key key_i[M,4] (u32) per layer after the weights, row k for
// microbatch k; the layer draws two bit tensors with
// `rng_bit_generator` (DEFAULT, the key bitcast to its u64[2] state, the
// second draw from the state the first returns), keeps an element where
// the uniform number of its bits is below 1 - R and divides the kept ones
// by 1 - R. Both keep masks follow the residuals, so the backward drops
// the same elements: dh' and dg are masked and divided by 1 - R before
// they reach dw2 and da, dwo and dc (the residual paths take them whole).
// With ElementType::kBF16 (Example.h) the weights, x, y, the loss and the
// update are f32 and the layers bf16, as the MLP's (Mlp.h): each layer
// converts its weights at its top and its weight gradients back to f32
// before it sums them.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_EXAMPLES_TRANSFORMER_H
#define MPMD_EXAMPLES_TRANSFORMER_H

#include "mpmd/Examples/Example.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace mlir::mpmd::examples {

struct TransformerOptions : ExampleTrainingOptions {
  /// S: positions per sequence.
  int64_t sequence = 8;
  /// D: the model width.
  int64_t dim = 16;
  /// F: the hidden width of the MLP.
  int64_t ffn = 32;
  /// F per layer (one value per layer) for deliberately unbalanced models,
  /// e.g. to test stage cuts; when non-empty it replaces `ffn`.
  std::vector<int64_t> ffnPerLayer;
  /// The dropout rate R in [0, 1); 0 writes no dropout (and no keys).
  double dropout = 0;
};

/// The weights of each layer, in argument and result order.
constexpr int64_t kTransformerWeightsPerLayer = 6;

/// Generates the model and its configuration (as the MLP's), or an error
/// saying which size is wrong. O(L * M) text.
llvm::Expected<ExampleModel>
generateTransformer(const TransformerOptions &options);

} // namespace mlir::mpmd::examples

#endif // MPMD_EXAMPLES_TRANSFORMER_H
