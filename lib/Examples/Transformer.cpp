//===- Transformer.cpp - A generated transformer training step ------------===//
//
// Writes the module text op by op with formatv, as Mlp.cpp does; checks,
// config and the microbatch sums are Common.h's. The forward returns its
// residuals (n1, r1, q, k, v, p, c, n2, r2, a; with dropout its masks)
// instead of the backward recomputing them: forward and backward of a
// layer share a stage, so they never cross meshes.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Examples/Transformer.h"

#include "Common.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cmath>

namespace mlir::mpmd::examples {

using namespace detail;

namespace {

using llvm::formatv;

/// Weight kinds in argument order; %NAME_i in @main and @microbatch, %NAME
/// inside a layer.
constexpr std::array<const char *, kTransformerWeightsPerLayer> kWeightNames = {
    "wq", "wk", "wv", "wo", "w1", "w2"};
constexpr int64_t kWo = 3, kW1 = 4, kW2 = 5;
/// Added to the variance in the norms.
constexpr double kNormEpsilon = 1e-5;
/// The hidden width of the MLP of `layer`.
int64_t getFfn(const TransformerOptions &options, int64_t layer) {
  return options.ffnPerLayer.empty() ? options.ffn
                                     : options.ffnPerLayer[layer];
}

/// The types of one layer's weights in `kWeightNames` order, in `dtype`:
/// four [D,D] attention weights, w1 [D,F] and w2 [F,D].
std::array<std::string, kTransformerWeightsPerLayer>
getWeightTypes(int64_t d, int64_t f, llvm::StringRef dtype) {
  const std::string square = formatv("tensor<{0}x{0}x{1}>", d, dtype);
  return {square,
          square,
          square,
          square,
          formatv("tensor<{0}x{1}x{2}>", d, f, dtype),
          formatv("tensor<{0}x{1}x{2}>", f, d, dtype)};
}

/// Every tensor type of one layer (only the MLP's hidden width differs
/// between layers), spelled out.
struct Types {
  Types(const TransformerOptions &options, int64_t ffn) {
    const llvm::StringRef dtype = getElementTypeName(options.elementType);
    const llvm::StringRef master = getMasterTypeName(options.elementType);
    const bool f64 = options.elementType == ElementType::kF64;
    const int64_t rows = options.batch / options.microbatches;
    const int64_t s = options.sequence, d = options.dim, f = ffn;
    full = formatv("tensor<{0}x{1}x{2}x{3}>", options.batch, s, d, master);
    act = formatv("tensor<{0}x{1}x{2}x{3}>", rows, s, d, dtype);
    masterAct = formatv("tensor<{0}x{1}x{2}x{3}>", rows, s, d, master);
    masterScalar = formatv("tensor<{0}>", master);
    // The uniform numbers of dropout are drawn in the float type of the
    // width JAX draws them in (f32 unless f64), from bits of that width.
    bits =
        formatv("tensor<{0}x{1}x{2}x{3}>", rows, s, d, f64 ? "ui64" : "ui32");
    uniform =
        formatv("tensor<{0}x{1}x{2}x{3}>", rows, s, d, f64 ? "f64" : "f32");
    keep = formatv("tensor<{0}x{1}x{2}xi1>", rows, s, d);
    wideRandomBits = f64;
    hidden = formatv("tensor<{0}x{1}x{2}x{3}>", rows, s, f, dtype);
    scores = formatv("tensor<{0}x{1}x{1}x{2}>", rows, s, dtype);
    positions = formatv("tensor<{0}x{1}x{1}xi64>", rows, s);
    mask = formatv("tensor<{0}x{1}x{1}xi1>", rows, s);
    perQuery = formatv("tensor<{0}x{1}x{2}>", rows, s, dtype);
    scalar = formatv("tensor<{0}>", dtype);
    weights = getWeightTypes(d, f, dtype);
    masterWeights = getWeightTypes(d, f, master);
    negativeInfinity = f64 ? "0xFFF0000000000000"
                       : options.elementType == ElementType::kBF16
                           ? "0xFF80"
                           : "0xFF800000";
  }

  /// The norms' types: over the last axis of an activation.
  NormTypes norm() const { return {act, perQuery, scalar, 3}; }

  std::string full, act, hidden, scores, positions, mask, perQuery, scalar;
  /// The layers compute in `weights`' types; @main, @microbatch and the
  /// update hold `masterWeights` (the same but for mixed-precision bf16,
  /// where they are f32), and x, y and the loss are in the master type.
  std::array<std::string, kTransformerWeightsPerLayer> weights;
  std::array<std::string, kTransformerWeightsPerLayer> masterWeights;
  std::string masterAct, masterScalar;
  /// Dropout's random bits, their uniform numbers and its keep mask.
  std::string bits, uniform, keep;
  /// Whether `bits` are 64-bit (f64 steps) rather than 32-bit.
  bool wideRandomBits;
  const char *negativeInfinity;
};

/// The key of JAX's rbg PRNG.
constexpr llvm::StringLiteral kKeyType = "tensor<4xui32>";

/// The dropout of `--dropout RATE` (the probability of dropping an element).
struct Dropout {
  double rate;
  bool enabled() const { return rate > 0; }
  double keepProbability() const { return 1.0 - rate; }
};

/// Megatron's sequence parallelism (--sharding tp+sp), as a JAX user writes
/// it with `with_sharding_constraint`: outside the split matmuls, every
/// activation of the residual stream (the norms, the residual adds and their
/// gradients) is sharded along the sequence over "model", so each device
/// computes them for its positions only. A column-parallel matmul reads its
/// input gathered (replicated); a row-parallel product, a partial sum over
/// "model", is constrained back to the sequence sharding, which the
/// partitioner emits as a reduce-scatter instead of tp's all-reduce.
struct SequenceParallel {
  bool enabled;

  /// The value to use for %INPUT: with sequence parallelism %NAME, a
  /// sharding constraint of %INPUT (an activation) sharded along the
  /// sequence or replicated; else %INPUT itself. Names without '%'.
  std::string constrain(llvm::raw_ostream &os, const std::string &actType,
                        llvm::StringRef input, llvm::StringRef name,
                        bool alongSequence) const {
    if (!enabled)
      return input.str();
    os << formatv("    %{0} = sdy.sharding_constraint %{1} <@mesh, [{{}, "
                  "{2}, {{}]> : {3}\n",
                  name, input, alongSequence ? "{\"model\"}" : "{}",
                  actType);
    return name.str();
  }
};

/// A value the forward returns for the backward (after h', or the loss and
/// h_L - y): its name in either body and its type.
struct Residual {
  const char *forwardName;
  const char *backwardName;
  std::string Types::*type;
};
constexpr std::array<Residual, 10> kBlockResiduals = {{
    {"n1", "n1", &Types::act},
    {"n1_r", "r1", &Types::perQuery},
    {"q", "q", &Types::act},
    {"k", "k", &Types::act},
    {"v", "v", &Types::act},
    {"p", "p", &Types::scores},
    {"c", "c", &Types::act},
    {"n2", "n2", &Types::act},
    {"n2_r", "r2", &Types::perQuery},
    {"a", "a", &Types::hidden},
}};
/// With dropout, its two keep masks follow: the backward drops the same
/// elements the forward dropped. With sequence parallelism the forward
/// returns the norms gathered, as its matmuls read them (the backward's
/// weight gradients read them so too).
std::vector<Residual> getResiduals(const Dropout &dropout,
                                   const SequenceParallel &sequence) {
  std::vector<Residual> residuals(kBlockResiduals.begin(),
                                  kBlockResiduals.end());
  if (sequence.enabled)
    for (Residual &residual : residuals) {
      if (llvm::StringRef(residual.forwardName) == "n1")
        residual.forwardName = "n1_full";
      else if (llvm::StringRef(residual.forwardName) == "n2")
        residual.forwardName = "n2_full";
    }
  if (dropout.enabled())
    residuals.insert(residuals.end(), {{"mask_o", "mask_o", &Types::keep},
                                       {"mask_m", "mask_m", &Types::keep}});
  return residuals;
}

/// The constants both bodies use: %zero (the reduction init), %width (D
/// per position) and, for the forward's norms, %eps.
void writeConstants(llvm::raw_ostream &os, const Types &t, int64_t dim,
                    bool epsilon) {
  os << formatv("    %zero = stablehlo.constant dense<0.0> : {0}\n"
                "    %width = stablehlo.constant dense<{1}.0> : {2}\n",
                t.scalar, dim, t.perQuery);
  if (epsilon)
    os << formatv("    %eps = stablehlo.constant dense<{0}> : {1}\n",
                  formatFloat(kNormEpsilon), t.perQuery);
}

/// The two bit draws of a layer's dropouts, %bits_o and %bits_m, from %rng_key
/// as JAX's rbg PRNG lowers `rng_bit_generator`: the u32[4] key reshaped
/// and bitcast to the u64[2] state, the DEFAULT algorithm; the second draw
/// continues from the state the first returns.
void writeDropoutBits(llvm::raw_ostream &os, const Types &t) {
  os << formatv(
      "    %key_pairs = stablehlo.reshape %rng_key : ({0}) -> "
      "tensor<2x2xui32>\n"
      "    %state = stablehlo.bitcast_convert %key_pairs : (tensor<2x2xui32>) "
      "-> tensor<2xui64>\n"
      "    %state_o, %bits_o = stablehlo.rng_bit_generator %state, algorithm "
      "= DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, {1})\n"
      "    %state_m, %bits_m = stablehlo.rng_bit_generator %state_o, "
      "algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, {1})\n",
      kKeyType, t.bits);
}

/// %NAME_kept = dropout(%INPUT) as flax writes it: %mask_NAME keeps an
/// element where the uniform number of %bits_NAME is below the keep
/// probability (the top mantissa bits under the exponent of 1.0, minus
/// 1.0, as jax.random.uniform makes them); kept elements are divided by
/// the keep probability, the others are 0.
void writeDropoutForward(llvm::raw_ostream &os, const Types &t,
                         const Dropout &dropout, llvm::StringRef input,
                         llvm::StringRef name) {
  const bool wide = t.wideRandomBits;
  os << formatv(
      "    %{0}_shift = stablehlo.constant dense<{4}> : {2}\n"
      "    %{0}_mantissa = stablehlo.shift_right_logical %bits_{0}, "
      "%{0}_shift : {2}\n"
      "    %{0}_exponent = stablehlo.constant dense<{5}> : {2}\n"
      "    %{0}_one_to_two = stablehlo.or %{0}_mantissa, %{0}_exponent : {2}\n"
      "    %{0}_float = stablehlo.bitcast_convert %{0}_one_to_two : ({2}) -> "
      "{3}\n"
      "    %{0}_one = stablehlo.constant dense<1.0> : {3}\n"
      "    %{0}_uniform = stablehlo.subtract %{0}_float, %{0}_one : {3}\n"
      "    %{0}_keep_probability = stablehlo.constant dense<{6}> : {3}\n"
      "    %mask_{0} = stablehlo.compare LT, %{0}_uniform, "
      "%{0}_keep_probability, FLOAT : ({3}, {3}) -> {7}\n"
      "    %{0}_keep = stablehlo.constant dense<{6}> : {8}\n"
      "    %{0}_scaled = stablehlo.divide %{1}, %{0}_keep : {8}\n"
      "    %{0}_dropped = stablehlo.constant dense<0.0> : {8}\n"
      "    %{0}_kept = stablehlo.select %mask_{0}, %{0}_scaled, %{0}_dropped "
      ": {7}, {8}\n",
      name, input, t.bits, t.uniform, wide ? 12 : 9,
      wide ? "4607182418800017408" : "1065353216",
      formatFloat(dropout.keepProbability()), t.keep, t.act);
}

/// %RESULT = the gradient through dropout of %GRAD: the elements %MASK kept,
/// divided by the keep probability (what JAX's transpose of the select and
/// the division gives).
void writeDropoutBackward(llvm::raw_ostream &os, const Types &t,
                          const Dropout &dropout, llvm::StringRef grad,
                          llvm::StringRef mask, llvm::StringRef result) {
  os << formatv("    %{0}_dropped = stablehlo.constant dense<0.0> : {3}\n"
                "    %{0}_kept = stablehlo.select %{2}, %{1}, %{0}_dropped : "
                "{4}, {3}\n"
                "    %{0}_keep = stablehlo.constant dense<{5}> : {3}\n"
                "    %{0} = stablehlo.divide %{0}_kept, %{0}_keep : {3}\n",
                result, grad, mask, t.act, t.keep,
                formatFloat(dropout.keepProbability()));
}

/// The forward of one layer from %in and the weights (and, with dropout,
/// %rng_key): %out, the residuals.
void writeForwardBody(llvm::raw_ostream &os, const Types &t, int64_t dim,
                      double scale, const Dropout &dropout,
                      const SequenceParallel &sequence) {
  writeConstants(os, t, dim, /*epsilon=*/true);
  if (dropout.enabled())
    writeDropoutBits(os, t);
  const std::string in = sequence.constrain(os, t.act, "in", "in_sp", true);
  writeLastAxisNorm(os, t.norm(), in, "n1");
  const std::string n1 = sequence.constrain(os, t.act, "n1", "n1_full", false);
  for (const char *name : {"q", "k", "v"})
    os << formatv("    %{0} = stablehlo.dot_general %{3}, %w{0}, "
                  "contracting_dims = [2] x [0] : ({1}, {2}) -> {1}\n",
                  name, t.act, t.weights[0], n1);
  os << formatv(
      "    %qk = stablehlo.dot_general %q, %k, batching_dims = [0] x [0], "
      "contracting_dims = [2] x [2] : ({0}, {0}) -> {1}\n"
      "    %scale = stablehlo.constant dense<{2}> : {1}\n"
      "    %scaled = stablehlo.multiply %qk, %scale : {1}\n"
      "    %query = stablehlo.iota dim = 1 : {3}\n"
      "    %key = stablehlo.iota dim = 2 : {3}\n"
      "    %causal = stablehlo.compare GE, %query, %key, SIGNED : ({3}, {3}) "
      "-> {4}\n"
      "    %ninf = stablehlo.constant dense<{5}> : {1}\n"
      "    %s = stablehlo.select %causal, %scaled, %ninf : {4}, {1}\n"
      "    %lowest = stablehlo.constant dense<{5}> : {6}\n"
      "    %max = stablehlo.reduce(%s init: %lowest) applies stablehlo.maximum "
      "across dimensions = [2] : ({1}, {6}) -> {7}\n"
      "    %maxb = stablehlo.broadcast_in_dim %max, dims = [0, 1] : ({7}) -> "
      "{1}\n"
      "    %shifted = stablehlo.subtract %s, %maxb : {1}\n"
      "    %e = stablehlo.exponential %shifted : {1}\n"
      "    %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add "
      "across dimensions = [2] : ({1}, {6}) -> {7}\n"
      "    %sumb = stablehlo.broadcast_in_dim %sum, dims = [0, 1] : ({7}) -> "
      "{1}\n"
      "    %p = stablehlo.divide %e, %sumb : {1}\n"
      "    %c = stablehlo.dot_general %p, %v, batching_dims = [0] x [0], "
      "contracting_dims = [2] x [1] : ({1}, {0}) -> {0}\n"
      "    %o = stablehlo.dot_general %c, %wo, contracting_dims = [2] x [0] : "
      "({0}, {8}) -> {0}\n",
      t.act, t.scores, formatFloat(scale), t.positions, t.mask,
      t.negativeInfinity, t.scalar, t.perQuery, t.weights[kWo]);
  // Dropout comes before each residual add.
  const std::string o = sequence.constrain(os, t.act, "o", "o_sp", true);
  if (dropout.enabled())
    writeDropoutForward(os, t, dropout, o, "o");
  os << formatv("    %g = stablehlo.add %{1}, %{2} : {0}\n", t.act, in,
                dropout.enabled() ? "o_kept" : o);
  writeLastAxisNorm(os, t.norm(), "g", "n2");
  const std::string n2 = sequence.constrain(os, t.act, "n2", "n2_full", false);
  os << formatv(
      "    %z = stablehlo.dot_general %{4}, %w1, contracting_dims = [2] x [0] "
      ": ({0}, {1}) -> {2}\n"
      "    %a = stablehlo.tanh %z : {2}\n"
      "    %m = stablehlo.dot_general %a, %w2, contracting_dims = [2] x [0] : "
      "({2}, {3}) -> {0}\n",
      t.act, t.weights[kW1], t.hidden, t.weights[kW2], n2);
  const std::string m = sequence.constrain(os, t.act, "m", "m_sp", true);
  if (dropout.enabled())
    writeDropoutForward(os, t, dropout, m, "m");
  os << formatv("    %out = stablehlo.add %g, %{1} : {0}\n", t.act,
                dropout.enabled() ? "m_kept" : m);
}

/// The backward of one layer from %dout, the residuals, the weights and the
/// running sums %sum_wq .. %sum_w2 of the earlier microbatches' weight
/// gradients: %new_sum_wq .. %new_sum_w2 (each sum plus this microbatch's
/// %dwq .. %dw2) and, with `inputGradient`, %dh.
void writeBackwardBody(llvm::raw_ostream &os, const Types &t, int64_t dim,
                       double scale, bool inputGradient, const Dropout &dropout,
                       const SequenceParallel &sequence) {
  auto addToSum = [&](int64_t w) {
    const std::string name = kWeightNames[w];
    writeGradientSum(os, "_" + name, "d" + name, t.weights[w],
                     t.masterWeights[w]);
  };
  writeConstants(os, t, dim, /*epsilon=*/false);
  // The forward's norms, which it returns gathered: pinned replicated here
  // too, or propagation would shard the residual along the sequence from
  // the norms' gradients and gather it again for each weight gradient.
  const std::string n1 = sequence.constrain(os, t.act, "n1", "n1_full", false);
  const std::string n2 = sequence.constrain(os, t.act, "n2", "n2_full", false);
  // The gradients of the MLP's and the attention's outputs before their
  // dropouts; with sequence parallelism gathered for the row-parallel
  // matmuls' backward.
  std::string dm = "dout";
  if (dropout.enabled()) {
    writeDropoutBackward(os, t, dropout, "dout", "mask_m", "dm");
    dm = "dm";
  }
  dm = "%" + sequence.constrain(os, t.act, dm, "dm_full", false);
  os << formatv(
      "    %dw2 = stablehlo.dot_general %a, {4}, contracting_dims = [0, 1] "
      "x [0, 1] : ({1}, {0}) -> {3}\n"
      "    %da = stablehlo.dot_general {4}, %w2, contracting_dims = [2] x "
      "[1] : ({0}, {3}) -> {1}\n"
      "    %one = stablehlo.constant dense<1.0> : {1}\n"
      "    %a2 = stablehlo.multiply %a, %a : {1}\n"
      "    %slope = stablehlo.subtract %one, %a2 : {1}\n"
      "    %dz = stablehlo.multiply %da, %slope : {1}\n"
      "    %dw1 = stablehlo.dot_general %{5}, %dz, contracting_dims = [0, 1] x "
      "[0, 1] : ({0}, {1}) -> {2}\n"
      "    %dn2 = stablehlo.dot_general %dz, %w1, contracting_dims = [2] x "
      "[1] : ({1}, {2}) -> {0}\n",
      t.act, t.hidden, t.weights[kW1], t.weights[kW2], dm, n2);
  addToSum(kW2);
  addToSum(kW1);
  writeLastAxisNormBackward(
      os, t.norm(), sequence.constrain(os, t.act, "dn2", "dn2_sp", true), n2,
      "r2", "dgn");
  os << formatv("    %dg = stablehlo.add %dout, %dgn : {0}\n", t.act);
  std::string dOut = "dg";
  if (dropout.enabled()) {
    writeDropoutBackward(os, t, dropout, "dg", "mask_o", "do");
    dOut = "do";
  }
  dOut = "%" + sequence.constrain(os, t.act, dOut, "do_full", false);
  os << formatv(
      "    %dwo = stablehlo.dot_general %c, {6}, contracting_dims = [0, 1] x "
      "[0, 1] : ({0}, {0}) -> {2}\n"
      "    %dc = stablehlo.dot_general {6}, %wo, contracting_dims = [2] x [1] "
      ": ({0}, {2}) -> {0}\n"
      "    %dv = stablehlo.dot_general %p, %dc, batching_dims = [0] x [0], "
      "contracting_dims = [1] x [1] : ({1}, {0}) -> {0}\n"
      "    %dp = stablehlo.dot_general %dc, %v, batching_dims = [0] x [0], "
      "contracting_dims = [2] x [2] : ({0}, {0}) -> {1}\n"
      "    %pdp = stablehlo.multiply %p, %dp : {1}\n"
      "    %rowdot = stablehlo.reduce(%pdp init: %zero) applies stablehlo.add "
      "across dimensions = [2] : ({1}, {3}) -> {4}\n"
      "    %rowdotb = stablehlo.broadcast_in_dim %rowdot, dims = [0, 1] : "
      "({4}) -> {1}\n"
      "    %centered = stablehlo.subtract %dp, %rowdotb : {1}\n"
      "    %dsoft = stablehlo.multiply %p, %centered : {1}\n"
      "    %scale = stablehlo.constant dense<{5}> : {1}\n"
      "    %ds = stablehlo.multiply %dsoft, %scale : {1}\n"
      "    %dq = stablehlo.dot_general %ds, %k, batching_dims = [0] x [0], "
      "contracting_dims = [2] x [1] : ({1}, {0}) -> {0}\n"
      "    %dk = stablehlo.dot_general %ds, %q, batching_dims = [0] x [0], "
      "contracting_dims = [1] x [1] : ({1}, {0}) -> {0}\n",
      t.act, t.scores, t.weights[kWo], t.scalar, t.perQuery, formatFloat(scale),
      dOut);
  addToSum(kWo);
  for (const char *name : {"q", "k", "v"})
    os << formatv("    %dw{0} = stablehlo.dot_general %{3}, %d{0}, "
                  "contracting_dims = [0, 1] x [0, 1] : ({1}, {1}) -> {2}\n",
                  name, t.act, t.weights[0], n1);
  for (int64_t w = 0; w < kWo; ++w)
    addToSum(w);
  if (!inputGradient)
    return;
  for (const char *name : {"q", "k", "v"})
    os << formatv("    %dn1{0} = stablehlo.dot_general %d{0}, %w{0}, "
                  "contracting_dims = [2] x [1] : ({1}, {2}) -> {1}\n",
                  name, t.act, t.weights[0]);
  os << formatv("    %dn1qk = stablehlo.add %dn1q, %dn1k : {0}\n"
                "    %dn1 = stablehlo.add %dn1qk, %dn1v : {0}\n",
                t.act);
  writeLastAxisNormBackward(
      os, t.norm(), sequence.constrain(os, t.act, "dn1", "dn1_sp", true), n1,
      "r1", "dhn");
  os << formatv("    %dh = stablehlo.add %dg, %dhn : {0}\n", t.act);
}

/// A comma-separated list of `count` items.
template <typename Item> std::string join(int64_t count, Item item) {
  std::string text;
  for (int64_t i = 0; i < count; ++i)
    text += (i ? ", " : "") + item(i);
  return text;
}

/// The text of the module; sizes are verified.
std::string writeModule(const TransformerOptions &options) {
  std::vector<Types> layerTypes;
  for (int64_t i = 0; i < options.layers; ++i)
    layerTypes.emplace_back(options, getFfn(options, i));
  // The types every layer shares.
  const Types &t = layerTypes.front();
  const int64_t layers = options.layers, microbatches = options.microbatches;
  const int64_t rows = options.batch / microbatches;
  const int64_t weightsPerLayer = kTransformerWeightsPerLayer;
  const double scale = 1.0 / std::sqrt(static_cast<double>(options.dim));
  const int64_t positions = options.batch * options.sequence;
  const Dropout dropout{options.dropout};
  const SequenceParallel sequence{options.parallelism.sharding ==
                                  ExampleSharding::kTensorAndSequence};
  // Mixed precision: each layer converts the f32 weights it receives
  // (%NAME_master) to its bf16 %NAME, and its f32 inputs.
  const bool mixed = options.elementType == ElementType::kBF16;
  auto weightName = [](int64_t layer, int64_t kind) {
    return formatv("%{0}_{1}", kWeightNames[kind], layer).str();
  };
  // Every weight, in argument order: "%wq_0: T, ..." and their types. @main
  // names its arguments with locations, as JAX does, for the config's
  // sharding rules: "%wq_0: T loc("wq_0"), ...".
  // @microbatch also takes the running sum of each weight's gradients,
  // %g_NAME ("%g_wq_0: T, ...").
  std::string weightArguments, namedWeightArguments, weightTypes,
      sumArguments;
  std::vector<MicrobatchGradientSums::Weight> summedWeights;
  for (int64_t i = 0; i < layers; ++i)
    for (int64_t w = 0; w < weightsPerLayer; ++w) {
      std::string name = weightName(i, w);
      const std::string &type = layerTypes[i].masterWeights[w];
      weightArguments += formatv(", {0}: {1}", name, type);
      namedWeightArguments += formatv(", {0}: {1} loc(\"{2}\")", name, type,
                                      llvm::StringRef(name).drop_front());
      sumArguments += formatv(", %g_{0}: {1}",
                              llvm::StringRef(name).drop_front(), type);
      weightTypes += ", " + type;
      summedWeights.push_back({name, type});
    }
  // With dropout, one rbg key per layer: @main takes key_i[M,4] (a key per
  // microbatch), @microbatch and the layer's forward the microbatch's.
  std::string keyArguments, namedKeyArguments, keyOperands, keyTypes;
  if (dropout.enabled())
    for (int64_t i = 0; i < layers; ++i) {
      keyArguments += formatv(", %key_{0}: {1}", i, kKeyType);
      namedKeyArguments += formatv(", %key_{0}: tensor<{1}x4xui32> "
                                   "loc(\"key_{0}\")",
                                   i, microbatches);
      keyOperands += formatv(", %key_{0}", i);
      keyTypes += formatv(", {0}", kKeyType);
    }
  const std::vector<Residual> residualList = getResiduals(dropout, sequence);
  const int64_t residuals = residualList.size();
  auto residualTypes = [&](const Types &layer) {
    return join(residuals,
                [&](int64_t r) { return layer.*residualList[r].type; });
  };
  // The layer arguments of weights `first`.. and, with mixed precision,
  // their conversions at the top of the body.
  auto layerWeightArguments = [&](const Types &layer, int64_t first) {
    std::string arguments;
    for (int64_t w = first; w < weightsPerLayer; ++w)
      arguments += formatv(", %{0}{1}: {2}", kWeightNames[w],
                           mixed ? "_master" : "", layer.masterWeights[w]);
    return arguments;
  };
  auto writeWeightConversions = [&](llvm::raw_ostream &os, const Types &layer,
                                    int64_t first) {
    if (!mixed)
      return;
    for (int64_t w = first; w < weightsPerLayer; ++w)
      os << formatv("    %{0} = stablehlo.convert %{0}_master : ({1}) -> {2}\n",
                    kWeightNames[w], layer.masterWeights[w], layer.weights[w]);
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  // The mesh the sharding constraints name: every mesh of the config has
  // these axes (a homogeneous topology uses one sdy mesh, @mesh).
  if (sequence.enabled)
    os << "sdy.mesh @mesh = <["
       << join(options.parallelism.meshShape.size(),
               [&](int64_t a) {
                 const auto &[axis, size] = options.parallelism.meshShape[a];
                 return formatv("\"{0}\"={1}", axis, size).str();
               })
       << "]>\n\n";

  // @microbatch: forward, loss, backward; takes the gradient sums of the
  // earlier microbatches and returns the loss and every sum with this
  // microbatch's gradient added (MicrobatchGradientSums). %f<i> is layer
  // i's forward: h' (or the loss and h_L - y), then the residuals.
  os << formatv("func.func private @microbatch(%x: {0}, %y: {5}{1}{4}{6}) -> "
                "({2}{3}) {{\n",
                t.act, weightArguments, t.masterScalar, weightTypes,
                keyArguments, t.masterAct, sumArguments);
  auto input = [](int64_t i) {
    return i ? formatv("%f{0}#0", i - 1).str() : std::string("%x");
  };
  const int64_t last = layers - 1;
  auto layerWeightTypes = [&](const Types &layer) {
    return join(weightsPerLayer,
                [&](int64_t w) { return layer.masterWeights[w]; });
  };
  for (int64_t i = 0; i < layers; ++i) {
    const bool isLast = i == last;
    const Types &lt = layerTypes[i];
    std::string operands =
        input(i) + ", " +
        join(weightsPerLayer, [&](int64_t w) { return weightName(i, w); });
    std::string arguments =
        formatv("%in: {0}{1}", t.act, layerWeightArguments(lt, 0));
    std::string operandTypes = t.act + ", " + layerWeightTypes(lt);
    std::string results = "%out", resultTypes = t.act;
    if (isLast) {
      operands += ", %y";
      arguments += formatv(", %target: {0}", t.masterAct).str();
      operandTypes += ", " + t.masterAct;
      results = "%loss, %diff";
      resultTypes = formatv("{0}, {1}", t.masterScalar, t.masterAct);
    }
    if (dropout.enabled()) {
      operands += formatv(", %key_{0}", i).str();
      arguments += formatv(", %rng_key: {0}", kKeyType).str();
      operandTypes += formatv(", {0}", kKeyType).str();
    }
    for (const Residual &residual : residualList)
      results += formatv(", %{0}", residual.forwardName).str();
    resultTypes += ", " + residualTypes(lt);
    os << formatv("  %f{0}:{1} = mpmd.named_computation<\"layer_{0}\"> ({2}) "
                  "({3}) {{\n",
                  i, (isLast ? 2 : 1) + residuals, operands, arguments);
    writeWeightConversions(os, lt, 0);
    writeForwardBody(os, lt, options.dim, scale, dropout, sequence);
    // The loss in the master type: mixed precision widens the output.
    if (isLast && mixed)
      os << formatv("    %out_wide = stablehlo.convert %out : ({0}) -> {1}\n"
                    "    %loss_zero = stablehlo.constant dense<0.0> : {2}\n",
                    t.act, t.masterAct, t.masterScalar);
    if (isLast)
      os << formatv(
          "    %diff = stablehlo.subtract {3}, %target : {0}\n"
          "    %square = stablehlo.multiply %diff, %diff : {0}\n"
          "    %sumsq = stablehlo.reduce(%square init: {4}) applies "
          "stablehlo.add across dimensions = [0, 1, 2] : ({0}, {1}) -> {1}\n"
          "    %half = stablehlo.constant dense<0.5> : {1}\n"
          "    %halfsum = stablehlo.multiply %sumsq, %half : {1}\n"
          "    %count = stablehlo.constant dense<{2}.0> : {1}\n"
          "    %loss = stablehlo.divide %halfsum, %count : {1}\n",
          t.masterAct, t.masterScalar, positions, mixed ? "%out_wide" : "%out",
          mixed ? "%loss_zero" : "%zero");
    os << formatv("    mpmd.return {0} : {1}\n  } : ({2}) -> ({1})\n", results,
                  resultTypes, operandTypes);
  }

  // Backward, in reverse: %b<i> holds the weight gradients' sums in
  // argument order, then dloss/dh_i.
  for (int64_t i = last; i >= 0; --i) {
    const bool isLast = i == last, inputGradient = i > 0;
    const Types &lt = layerTypes[i];
    const int64_t firstResidual = isLast ? 2 : 1;
    const std::string &gradientType = isLast ? t.masterAct : t.act;
    std::string operands =
        isLast ? formatv("%f{0}#1", i).str()
               : formatv("%b{0}#{1}", i + 1, weightsPerLayer).str();
    std::string arguments =
        formatv("{0}: {1}", isLast ? "%diff" : "%dout", gradientType);
    std::string operandTypes = gradientType + ", " + residualTypes(lt);
    for (int64_t r = 0; r < residuals; ++r) {
      operands += formatv(", %f{0}#{1}", i, firstResidual + r).str();
      arguments += formatv(", %{0}: {1}", residualList[r].backwardName,
                           lt.*residualList[r].type)
                       .str();
    }
    for (int64_t w = 0; w < weightsPerLayer; ++w) {
      operands += ", %g_" + llvm::StringRef(weightName(i, w)).drop_front().str();
      arguments += formatv(", %sum_{0}: {1}", kWeightNames[w],
                           lt.masterWeights[w])
                       .str();
      operandTypes += ", " + lt.masterWeights[w];
    }
    // wq, wk and wv only feed dh.
    const int64_t firstWeight = inputGradient ? 0 : kWo;
    for (int64_t w = firstWeight; w < weightsPerLayer; ++w) {
      operands += ", " + weightName(i, w);
      operandTypes += ", " + lt.masterWeights[w];
    }
    arguments += layerWeightArguments(lt, firstWeight);
    std::string results = join(weightsPerLayer, [&](int64_t w) {
      return formatv("%new_sum_{0}", kWeightNames[w]).str();
    });
    std::string resultTypes = layerWeightTypes(lt);
    if (inputGradient) {
      results += ", %dh";
      resultTypes += ", " + t.act;
    }
    os << formatv("  %b{0}:{1} = mpmd.named_computation<\"layer_{0}\"(1)> "
                  "({2}) ({3}) {{\n",
                  i, weightsPerLayer + (inputGradient ? 1 : 0), operands,
                  arguments);
    writeWeightConversions(os, lt, firstWeight);
    if (isLast)
      os << formatv("    %count = stablehlo.constant dense<{0}.0> : {1}\n"
                    "    %dout{2} = stablehlo.divide %diff, %count : {1}\n",
                    positions, t.masterAct, mixed ? "_wide" : "");
    if (isLast && mixed)
      os << formatv("    %dout = stablehlo.convert %dout_wide : ({0}) -> {1}\n",
                    t.masterAct, t.act);
    writeBackwardBody(os, lt, options.dim, scale, inputGradient, dropout,
                      sequence);
    os << formatv("    mpmd.return {0} : {1}\n  } : ({2}) -> ({1})\n", results,
                  resultTypes, operandTypes);
  }
  os << formatv("  return %f{0}#0", last);
  for (int64_t i = 0; i < layers; ++i)
    for (int64_t w = 0; w < weightsPerLayer; ++w)
      os << formatv(", %b{0}#{1}", i, w);
  os << formatv(" : {0}{1}\n}\n\n", t.masterScalar, weightTypes);

  // @main: microbatches (each adding its gradients to the sums), SGD.
  os << formatv("func.func @main(%x: {0} loc(\"x\"), %y: {0} loc(\"y\"){1}{4}) "
                "-> ({2}{3}) {{\n",
                t.full, namedWeightArguments, t.masterScalar, weightTypes,
                namedKeyArguments);
  const MicrobatchGradientSums sums(summedWeights);
  std::string weightOperands;
  for (int64_t i = 0; i < layers; ++i)
    for (int64_t w = 0; w < weightsPerLayer; ++w)
      weightOperands += ", " + weightName(i, w);
  for (int64_t k = 0; k < microbatches; ++k) {
    for (const char *name : {"x", "y"})
      os << formatv("  %{0}{1} = stablehlo.slice %{0} [{2}:{3}, 0:{4}, 0:{5}] "
                    ": ({6}) -> {7}\n",
                    name, k, k * rows, (k + 1) * rows, options.sequence,
                    options.dim, t.full, t.masterAct);
    // Mixed precision: the inputs enter the layers in bf16.
    std::string x = formatv("%x{0}", k);
    if (mixed) {
      os << formatv("  %x{0}_bf16 = stablehlo.convert %x{0} : ({1}) -> {2}\n",
                    k, t.masterAct, t.act);
      x += "_bf16";
    }
    // The microbatch's key of each layer: row k of key_i.
    std::string keys;
    if (dropout.enabled())
      for (int64_t i = 0; i < layers; ++i) {
        os << formatv("  %key_{0}_{1}_row = stablehlo.slice %key_{0} "
                      "[{1}:{2}, 0:4] : (tensor<{3}x4xui32>) -> "
                      "tensor<1x4xui32>\n"
                      "  %key_{0}_{1} = stablehlo.reshape %key_{0}_{1}_row : "
                      "(tensor<1x4xui32>) -> {4}\n",
                      i, k, k + 1, microbatches, kKeyType);
        keys += formatv(", %key_{0}_{1}", i, k);
      }
    if (k == 0)
      sums.writeZeros(os);
    os << formatv("  %r{0}:{1} = mpmd.call @microbatch({6}, %y{0}{2}{7}{10}) "
                  "{{call_counter = {0} : ui32} : ({3}, {8}{4}{9}{4}) -> "
                  "({5}{4})\n",
                  k, 1 + layers * weightsPerLayer, weightOperands, t.act,
                  weightTypes, t.masterScalar, x, keys, t.masterAct, keyTypes,
                  sums.getCallOperands(k));
  }
  std::string loss =
      writeMicrobatchSum(os, "loss", 0, t.masterScalar, microbatches);
  // One learning-rate constant per weight shape: %lr_wo for the [D,D]
  // weights, %lr_w1 [D,F], %lr_w2 [F,D]; %lr_w1_<layer> for another F.
  llvm::StringMap<std::string> learningRateByType;
  for (int64_t i = 0; i < layers; ++i)
    for (int64_t w = kWo; w < weightsPerLayer; ++w) {
      const std::string &type = layerTypes[i].masterWeights[w];
      std::string name = i == 0 ? formatv("%lr_{0}", kWeightNames[w]).str()
                                : formatv("%lr_{0}_{1}", kWeightNames[w], i);
      if (!learningRateByType.try_emplace(type, name).second)
        continue;
      os << formatv("  {0} = stablehlo.constant dense<{1}> : {2}\n", name,
                    formatFloat(options.learningRate), type);
    }
  std::string updated;
  for (int64_t i = 0; i < layers; ++i)
    for (int64_t w = 0; w < weightsPerLayer; ++w) {
      std::string name = formatv("{0}_{1}", kWeightNames[w], i);
      const std::string &type = layerTypes[i].masterWeights[w];
      std::string gradient = MicrobatchGradientSums::getTotal(
          microbatches, i * weightsPerLayer + w);
      os << formatv("  %step_{0} = stablehlo.multiply {1}, {2} : {3}\n"
                    "  %new_{0} = stablehlo.subtract %{0}, %step_{0} : {3}\n",
                    name, gradient, learningRateByType.lookup(type), type);
      updated += ", %new_" + name;
    }
  os << formatv("  return {0}{1} : {2}{3}\n}\n", loss, updated, t.masterScalar,
                weightTypes);
  return text;
}

} // namespace

llvm::Expected<ExampleModel>
generateTransformer(const TransformerOptions &options) {
  if (llvm::Error error = verifySizes(options,
                                      {{"seq", options.sequence},
                                       {"dim", options.dim},
                                       {"ffn", options.ffn}}))
    return std::move(error);
  if (!options.ffnPerLayer.empty()) {
    if (static_cast<int64_t>(options.ffnPerLayer.size()) != options.layers)
      return makeExampleError(
          "ffn lists " + llvm::Twine(options.ffnPerLayer.size()) +
          " widths for " + llvm::Twine(options.layers) +
          " layers (give one width, or one per layer)");
    for (int64_t width : options.ffnPerLayer)
      if (width < 1)
        return makeExampleError("ffn must be at least 1 (got " +
                                llvm::Twine(width) + ")");
  }
  if (!(options.dropout >= 0 && options.dropout < 1))
    return makeExampleError(
        "the dropout rate must be at least 0 and below 1 "
        "(got " +
        formatv("{0}", llvm::format("%g", options.dropout)) + ")");
  llvm::Expected<Placement> placement = getPlacement(options);
  if (!placement)
    return placement.takeError();
  // The sequence parallelism's constraints split the sequence evenly over
  // "model" (mesh axes are checked positive with the rules below).
  if (options.parallelism.sharding == ExampleSharding::kTensorAndSequence)
    for (const auto &[axis, size] : options.parallelism.meshShape)
      if (axis == "model" && size > 0 && options.sequence % size != 0)
        return makeExampleError(
            "tp+sp shards the sequence over \"model\": seq (" +
            llvm::Twine(options.sequence) + ") must be divisible by its size (" +
            llvm::Twine(size) + ")");
  // Megatron: Q/K/V and the first MLP weight column-parallel, the output
  // projection and the second MLP weight row-parallel.
  llvm::Expected<llvm::json::Array> rules =
      getShardingRules(options.parallelism, {"^(wq|wk|wv|w1)_[0-9]+$",
                                             "^(wo|w2)_[0-9]+$", 3});
  if (!rules)
    return rules.takeError();
  return ExampleModel{
      writeModule(options),
      writeConfig(options, *placement, *rules)};
}

} // namespace mlir::mpmd::examples
