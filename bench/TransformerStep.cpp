//===- TransformerStep.cpp - Generated StableHLO training steps -----------===//

#include "TransformerStep.h"

#include <sstream>
#include <vector>

namespace mlir::mpmd::bench {
namespace {

constexpr int64_t kOpsPerLayer = 51;

/// Emits SSA values `%v<n>` and counts the ops.
class Emitter {
public:
  explicit Emitter(const TransformerStepShape &shape) : shape(shape) {}

  std::string type(int64_t rows, int64_t cols) const {
    return "tensor<" + std::to_string(rows) + "x" + std::to_string(cols) +
           "xf32>";
  }

  /// `%new = <text>` and the new name.
  std::string op(const std::string &text) {
    std::string name = "%v" + std::to_string(next++);
    body << "    " << name << " = " << text << "\n";
    ++numOps;
    return name;
  }

  /// a (r x k) · b (k x c).
  std::string matmul(const std::string &a, const std::string &b, int64_t r,
                     int64_t k, int64_t c) {
    return op("stablehlo.dot_general " + a + ", " + b +
              ", contracting_dims = [1] x [0] : (" + type(r, k) + ", " +
              type(k, c) + ") -> " + type(r, c));
  }
  /// aᵀ (k x r)ᵀ · b (k x c): weight gradients.
  std::string matmulTransposedLhs(const std::string &a, const std::string &b,
                                  int64_t k, int64_t r, int64_t c) {
    return op("stablehlo.dot_general " + a + ", " + b +
              ", contracting_dims = [0] x [0] : (" + type(k, r) + ", " +
              type(k, c) + ") -> " + type(r, c));
  }
  /// a (r x k) · bᵀ (c x k)ᵀ: activation gradients and scores.
  std::string matmulTransposedRhs(const std::string &a, const std::string &b,
                                  int64_t r, int64_t k, int64_t c) {
    return op("stablehlo.dot_general " + a + ", " + b +
              ", contracting_dims = [1] x [1] : (" + type(r, k) + ", " +
              type(c, k) + ") -> " + type(r, c));
  }
  std::string binary(const std::string &name, const std::string &a,
                     const std::string &b, int64_t r, int64_t c) {
    return op("stablehlo." + name + " " + a + ", " + b + " : " + type(r, c));
  }
  std::string unary(const std::string &name, const std::string &a, int64_t r,
                    int64_t c) {
    return op("stablehlo." + name + " " + a + " : " + type(r, c));
  }
  /// Row sums broadcast back: the softmax normaliser.
  std::string rowSumBroadcast(const std::string &a, int64_t r, int64_t c) {
    std::string zero = op("stablehlo.constant dense<0.0> : tensor<f32>");
    std::string sum = op("stablehlo.reduce(" + a + " init: " + zero +
                         ") applies stablehlo.add across dimensions = [1] : (" +
                         type(r, c) + ", tensor<f32>) -> tensor<" +
                         std::to_string(r) + "xf32>");
    return op("stablehlo.broadcast_in_dim " + sum + ", dims = [0] : (tensor<" +
              std::to_string(r) + "xf32>) -> " + type(r, c));
  }
  /// w - lr * g.
  std::string sgd(const std::string &w, const std::string &g, int64_t r,
                  int64_t c) {
    std::string lr = op("stablehlo.constant dense<0.01> : tensor<f32>");
    std::string lrs = op("stablehlo.broadcast_in_dim " + lr +
                         ", dims = [] : (tensor<f32>) -> " + type(r, c));
    std::string step = binary("multiply", lrs, g, r, c);
    return binary("subtract", w, step, r, c);
  }

  const TransformerStepShape &shape;
  std::ostringstream body;
  int64_t next = 0;
  int64_t numOps = 0;
};

struct LayerWeights {
  std::string q, k, v, o, up, down;
};

} // namespace

int64_t getTransformerStepOpsPerLayer() { return kOpsPerLayer; }

TransformerStep generateTransformerStep(const TransformerStepShape &shape) {
  Emitter e(shape);
  const int64_t t = shape.tokens, d = shape.model, f = shape.hidden;
  std::ostringstream signature;
  const std::string column = "#sdy.sharding<@mesh, [{?}, {\"model\"}]>";
  const std::string row = "#sdy.sharding<@mesh, [{\"model\"}, {?}]>";
  signature << "%x: " << e.type(t, d)
            << " {sdy.sharding = #sdy.sharding<@mesh, [{\"data\"}, {?}]>}";
  std::vector<LayerWeights> weights(shape.layers);
  int64_t arg = 0;
  auto addWeight = [&](int64_t r, int64_t c, const std::string &sharding) {
    std::string name = "%w" + std::to_string(arg++);
    signature << ", " << name << ": " << e.type(r, c)
              << " {sdy.sharding = " << sharding << "}";
    return name;
  };
  for (LayerWeights &w : weights) {
    w.q = addWeight(d, d, column);
    w.k = addWeight(d, d, column);
    w.v = addWeight(d, d, column);
    w.o = addWeight(d, d, row);
    w.up = addWeight(d, f, column);
    w.down = addWeight(f, d, row);
  }

  // Forward, keeping what the backward pass needs.
  struct Saved {
    std::string in, q, k, v, p, attn, mid, up, act;
  };
  std::vector<Saved> saved(shape.layers);
  std::string h = "%x";
  for (int64_t l = 0; l < shape.layers; ++l) {
    const LayerWeights &w = weights[l];
    Saved &s = saved[l];
    s.in = h;
    s.q = e.matmul(h, w.q, t, d, d);
    s.k = e.matmul(h, w.k, t, d, d);
    s.v = e.matmul(h, w.v, t, d, d);
    std::string scores = e.matmulTransposedRhs(s.q, s.k, t, d, t);
    std::string ex = e.unary("exponential", scores, t, t);
    s.p = e.binary("divide", ex, e.rowSumBroadcast(ex, t, t), t, t);
    s.attn = e.matmul(s.p, s.v, t, t, d);
    std::string out = e.matmul(s.attn, w.o, t, d, d);
    s.mid = e.binary("add", h, out, t, d);
    s.up = e.matmul(s.mid, w.up, t, d, f);
    s.act = e.unary("tanh", s.up, t, f);
    std::string down = e.matmul(s.act, w.down, t, f, d);
    h = e.binary("add", s.mid, down, t, d);
  }

  // Backward from dL/dh = h (a squared loss against zero), then SGD.
  std::string grad = h;
  std::vector<std::string> updated;
  for (int64_t l = shape.layers - 1; l >= 0; --l) {
    const LayerWeights &w = weights[l];
    const Saved &s = saved[l];
    std::string gDown = e.matmulTransposedLhs(s.act, grad, t, f, d);
    std::string gAct = e.matmulTransposedRhs(grad, w.down, t, d, f);
    std::string gUp = e.binary("multiply", gAct, s.act, t, f);
    std::string gWUp = e.matmulTransposedLhs(s.mid, gUp, t, d, f);
    std::string gMid = e.binary(
        "add", grad, e.matmulTransposedRhs(gUp, w.up, t, f, d), t, d);
    std::string gWO = e.matmulTransposedLhs(s.attn, gMid, t, d, d);
    std::string gAttn = e.matmulTransposedRhs(gMid, w.o, t, d, d);
    std::string gV = e.matmulTransposedLhs(s.p, gAttn, t, t, d);
    std::string gP = e.matmulTransposedRhs(gAttn, s.v, t, d, t);
    std::string gQ = e.matmul(gP, s.k, t, t, d);
    std::string gWQ = e.matmulTransposedLhs(s.in, gQ, t, d, d);
    std::string gWV = e.matmulTransposedLhs(s.in, gV, t, d, d);
    std::string gIn = e.binary(
        "add", gMid, e.matmulTransposedRhs(gQ, w.q, t, d, d), t, d);
    updated.push_back(e.sgd(w.down, gDown, f, d));
    updated.push_back(e.sgd(w.up, gWUp, d, f));
    updated.push_back(e.sgd(w.o, gWO, d, d));
    updated.push_back(e.sgd(w.q, gWQ, d, d));
    updated.push_back(e.sgd(w.v, gWV, d, d));
    grad = gIn;
  }

  // Result types follow the update order (down, up, o, q, v per layer).
  std::string resultTypes;
  for (int64_t l = 0; l < shape.layers; ++l) {
    for (const std::string &ty : {e.type(f, d), e.type(d, f), e.type(d, d),
                                  e.type(d, d), e.type(d, d)})
      resultTypes += (resultTypes.empty() ? "" : ", ") + ty;
  }
  std::ostringstream text;
  text << "module {\n  sdy.mesh @mesh = <[\"data\"=2, \"model\"=2]>\n"
       << "  func.func @main(" << signature.str() << ") -> (" << resultTypes
       << ") {\n"
       << e.body.str() << "    return ";
  for (size_t i = 0; i < updated.size(); ++i)
    text << (i ? ", " : "") << updated[i];
  text << " : " << resultTypes << "\n  }\n}\n";
  // Module, mesh, function, return.
  return {text.str(), e.numOps + 4};
}

} // namespace mlir::mpmd::bench
