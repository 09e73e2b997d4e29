//===- Transformer.cpp - A generated transformer training step ------------===//
//
// Writes the module text op by op with formatv, as Mlp.cpp does; checks,
// config and the microbatch sums are Common.h's. The forward returns its
// residuals (n1, r1, q, k, v, p, c, n2, r2, a) instead of the backward
// recomputing them: forward and backward of a layer share a stage, so they
// never cross meshes.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Examples/Transformer.h"

#include "Common.h"

#include "llvm/ADT/StringMap.h"
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
constexpr int64_t kWo = 3;
/// Added to the variance in the norms.
constexpr double kNormEpsilon = 1e-5;
/// The hidden width of the MLP of `layer`.
int64_t getFfn(const TransformerOptions &options, int64_t layer) {
  return options.ffnPerLayer.empty() ? options.ffn
                                     : options.ffnPerLayer[layer];
}

/// Every tensor type of one layer (only the MLP's hidden width differs
/// between layers), spelled out.
struct Types {
  Types(const TransformerOptions &options, int64_t ffn) {
    const llvm::StringRef dtype = getElementTypeName(options.elementType);
    const int64_t rows = options.batch / options.microbatches;
    const int64_t s = options.sequence, d = options.dim, f = ffn;
    full = formatv("tensor<{0}x{1}x{2}x{3}>", options.batch, s, d, dtype);
    act = formatv("tensor<{0}x{1}x{2}x{3}>", rows, s, d, dtype);
    hidden = formatv("tensor<{0}x{1}x{2}x{3}>", rows, s, f, dtype);
    scores = formatv("tensor<{0}x{1}x{1}x{2}>", rows, s, dtype);
    positions = formatv("tensor<{0}x{1}x{1}xi64>", rows, s);
    mask = formatv("tensor<{0}x{1}x{1}xi1>", rows, s);
    perQuery = formatv("tensor<{0}x{1}x{2}>", rows, s, dtype);
    scalar = formatv("tensor<{0}>", dtype);
    const std::string square = formatv("tensor<{0}x{0}x{1}>", d, dtype);
    weights = {square,
               square,
               square,
               square,
               formatv("tensor<{0}x{1}x{2}>", d, f, dtype),
               formatv("tensor<{0}x{1}x{2}>", f, d, dtype)};
    negativeInfinity = options.elementType == ElementType::kF64
                           ? "0xFFF0000000000000"
                           : "0xFF800000";
  }

  /// The norms' types: over the last axis of an activation.
  NormTypes norm() const { return {act, perQuery, scalar, 3}; }

  std::string full, act, hidden, scores, positions, mask, perQuery, scalar;
  std::array<std::string, kTransformerWeightsPerLayer> weights;
  const char *negativeInfinity;
};

/// A value the forward returns for the backward (after h', or the loss and
/// h_L - y): its name in either body and its type.
struct Residual {
  const char *forwardName;
  const char *backwardName;
  std::string Types::*type;
};
constexpr std::array<Residual, 10> kResiduals = {{
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

/// The forward of one layer from %in and the weights: %out, the residuals.
void writeForwardBody(llvm::raw_ostream &os, const Types &t, int64_t dim,
                      double scale) {
  writeConstants(os, t, dim, /*epsilon=*/true);
  writeLastAxisNorm(os, t.norm(), "in", "n1");
  for (const char *name : {"q", "k", "v"})
    os << formatv("    %{0} = stablehlo.dot_general %n1, %w{0}, "
                  "contracting_dims = [2] x [0] : ({1}, {2}) -> {1}\n",
                  name, t.act, t.weights[0]);
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
      "({0}, {8}) -> {0}\n"
      "    %g = stablehlo.add %in, %o : {0}\n",
      t.act, t.scores, formatFloat(scale), t.positions, t.mask,
      t.negativeInfinity, t.scalar, t.perQuery, t.weights[kWo]);
  writeLastAxisNorm(os, t.norm(), "g", "n2");
  os << formatv(
      "    %z = stablehlo.dot_general %n2, %w1, contracting_dims = [2] x [0] : "
      "({0}, {1}) -> {2}\n"
      "    %a = stablehlo.tanh %z : {2}\n"
      "    %m = stablehlo.dot_general %a, %w2, contracting_dims = [2] x [0] : "
      "({2}, {3}) -> {0}\n"
      "    %out = stablehlo.add %g, %m : {0}\n",
      t.act, t.weights[4], t.hidden, t.weights[5]);
}

/// The backward of one layer from %dout, the residuals and the weights:
/// %dwq .. %dw2 and, with `inputGradient`, %dh.
void writeBackwardBody(llvm::raw_ostream &os, const Types &t, int64_t dim,
                       double scale, bool inputGradient) {
  writeConstants(os, t, dim, /*epsilon=*/false);
  os << formatv(
      "    %dw2 = stablehlo.dot_general %a, %dout, contracting_dims = [0, 1] "
      "x [0, 1] : ({1}, {0}) -> {3}\n"
      "    %da = stablehlo.dot_general %dout, %w2, contracting_dims = [2] x "
      "[1] : ({0}, {3}) -> {1}\n"
      "    %one = stablehlo.constant dense<1.0> : {1}\n"
      "    %a2 = stablehlo.multiply %a, %a : {1}\n"
      "    %slope = stablehlo.subtract %one, %a2 : {1}\n"
      "    %dz = stablehlo.multiply %da, %slope : {1}\n"
      "    %dw1 = stablehlo.dot_general %n2, %dz, contracting_dims = [0, 1] x "
      "[0, 1] : ({0}, {1}) -> {2}\n"
      "    %dn2 = stablehlo.dot_general %dz, %w1, contracting_dims = [2] x "
      "[1] : ({1}, {2}) -> {0}\n",
      t.act, t.hidden, t.weights[4], t.weights[5]);
  writeLastAxisNormBackward(os, t.norm(), "dn2", "n2", "r2", "dgn");
  os << formatv(
      "    %dg = stablehlo.add %dout, %dgn : {0}\n"
      "    %dwo = stablehlo.dot_general %c, %dg, contracting_dims = [0, 1] x "
      "[0, 1] : ({0}, {0}) -> {2}\n"
      "    %dc = stablehlo.dot_general %dg, %wo, contracting_dims = [2] x [1] "
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
      t.act, t.scores, t.weights[kWo], t.scalar, t.perQuery,
      formatFloat(scale));
  for (const char *name : {"q", "k", "v"})
    os << formatv("    %dw{0} = stablehlo.dot_general %n1, %d{0}, "
                  "contracting_dims = [0, 1] x [0, 1] : ({1}, {1}) -> {2}\n",
                  name, t.act, t.weights[0]);
  if (!inputGradient)
    return;
  for (const char *name : {"q", "k", "v"})
    os << formatv("    %dn1{0} = stablehlo.dot_general %d{0}, %w{0}, "
                  "contracting_dims = [2] x [1] : ({1}, {2}) -> {1}\n",
                  name, t.act, t.weights[0]);
  os << formatv("    %dn1qk = stablehlo.add %dn1q, %dn1k : {0}\n"
                "    %dn1 = stablehlo.add %dn1qk, %dn1v : {0}\n",
                t.act);
  writeLastAxisNormBackward(os, t.norm(), "dn1", "n1", "r1", "dhn");
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
  auto weightName = [](int64_t layer, int64_t kind) {
    return formatv("%{0}_{1}", kWeightNames[kind], layer).str();
  };
  // Every weight, in argument order: "%wq_0: T, ..." and their types. @main
  // names its arguments with locations, as JAX does, for the config's
  // sharding rules: "%wq_0: T loc("wq_0"), ...".
  std::string weightArguments, namedWeightArguments, weightTypes;
  for (int64_t i = 0; i < layers; ++i)
    for (int64_t w = 0; w < weightsPerLayer; ++w) {
      std::string name = weightName(i, w);
      const std::string &type = layerTypes[i].weights[w];
      weightArguments += formatv(", {0}: {1}", name, type);
      namedWeightArguments += formatv(", {0}: {1} loc(\"{2}\")", name, type,
                                      llvm::StringRef(name).drop_front());
      weightTypes += ", " + type;
    }
  const int64_t residuals = kResiduals.size();
  auto residualTypes = [&](const Types &layer) {
    return join(residuals,
                [&](int64_t r) { return layer.*kResiduals[r].type; });
  };
  std::string text;
  llvm::raw_string_ostream os(text);

  // @microbatch: forward, loss, backward; returns the loss and every
  // gradient. %f<i> is layer i's forward: h' (or the loss and h_L - y),
  // then the residuals.
  os << formatv("func.func private @microbatch(%x: {0}, %y: {0}{1}) -> "
                "({2}{3}) {{\n",
                t.act, weightArguments, t.scalar, weightTypes);
  auto input = [](int64_t i) {
    return i ? formatv("%f{0}#0", i - 1).str() : std::string("%x");
  };
  const int64_t last = layers - 1;
  auto layerWeightTypes = [&](const Types &layer) {
    return join(weightsPerLayer, [&](int64_t w) { return layer.weights[w]; });
  };
  for (int64_t i = 0; i < layers; ++i) {
    const bool isLast = i == last;
    const Types &lt = layerTypes[i];
    const std::string layerWeightArguments =
        join(weightsPerLayer, [&](int64_t w) {
          return formatv("%{0}: {1}", kWeightNames[w], lt.weights[w]).str();
        });
    std::string operands =
        input(i) + ", " +
        join(weightsPerLayer, [&](int64_t w) { return weightName(i, w); });
    std::string arguments =
        formatv("%in: {0}, {1}", t.act, layerWeightArguments);
    std::string operandTypes = t.act + ", " + layerWeightTypes(lt);
    std::string results = "%out", resultTypes = t.act;
    if (isLast) {
      operands += ", %y";
      arguments += formatv(", %target: {0}", t.act).str();
      operandTypes += ", " + t.act;
      results = "%loss, %diff";
      resultTypes = formatv("{0}, {1}", t.scalar, t.act);
    }
    for (const Residual &residual : kResiduals)
      results += formatv(", %{0}", residual.forwardName).str();
    resultTypes += ", " + residualTypes(lt);
    os << formatv("  %f{0}:{1} = mpmd.named_computation<\"layer_{0}\"> ({2}) "
                  "({3}) {{\n",
                  i, (isLast ? 2 : 1) + residuals, operands, arguments);
    writeForwardBody(os, lt, options.dim, scale);
    if (isLast)
      os << formatv(
          "    %diff = stablehlo.subtract %out, %target : {0}\n"
          "    %square = stablehlo.multiply %diff, %diff : {0}\n"
          "    %sumsq = stablehlo.reduce(%square init: %zero) applies "
          "stablehlo.add across dimensions = [0, 1, 2] : ({0}, {1}) -> {1}\n"
          "    %half = stablehlo.constant dense<0.5> : {1}\n"
          "    %halfsum = stablehlo.multiply %sumsq, %half : {1}\n"
          "    %count = stablehlo.constant dense<{2}.0> : {1}\n"
          "    %loss = stablehlo.divide %halfsum, %count : {1}\n",
          t.act, t.scalar, positions);
    os << formatv("    mpmd.return {0} : {1}\n  } : ({2}) -> ({1})\n", results,
                  resultTypes, operandTypes);
  }

  // Backward, in reverse: %b<i> holds the weight gradients in argument
  // order, then dloss/dh_i.
  for (int64_t i = last; i >= 0; --i) {
    const bool isLast = i == last, inputGradient = i > 0;
    const Types &lt = layerTypes[i];
    const int64_t firstResidual = isLast ? 2 : 1;
    std::string operands =
        isLast ? formatv("%f{0}#1", i).str()
               : formatv("%b{0}#{1}", i + 1, weightsPerLayer).str();
    std::string arguments =
        formatv("{0}: {1}", isLast ? "%diff" : "%dout", t.act);
    std::string operandTypes = t.act + ", " + residualTypes(lt);
    for (int64_t r = 0; r < residuals; ++r) {
      operands += formatv(", %f{0}#{1}", i, firstResidual + r).str();
      arguments += formatv(", %{0}: {1}", kResiduals[r].backwardName,
                           lt.*kResiduals[r].type)
                       .str();
    }
    // wq, wk and wv only feed dh.
    for (int64_t w = inputGradient ? 0 : kWo; w < weightsPerLayer; ++w) {
      operands += ", " + weightName(i, w);
      arguments +=
          formatv(", %{0}: {1}", kWeightNames[w], lt.weights[w]).str();
      operandTypes += ", " + lt.weights[w];
    }
    std::string results = "%dwq, %dwk, %dwv, %dwo, %dw1, %dw2";
    std::string resultTypes = layerWeightTypes(lt);
    if (inputGradient) {
      results += ", %dh";
      resultTypes += ", " + t.act;
    }
    os << formatv("  %b{0}:{1} = mpmd.named_computation<\"layer_{0}\"(1)> "
                  "({2}) ({3}) {{\n",
                  i, weightsPerLayer + (inputGradient ? 1 : 0), operands,
                  arguments);
    if (isLast)
      os << formatv("    %count = stablehlo.constant dense<{0}.0> : {1}\n"
                    "    %dout = stablehlo.divide %diff, %count : {1}\n",
                    positions, t.act);
    writeBackwardBody(os, lt, options.dim, scale, inputGradient);
    os << formatv("    mpmd.return {0} : {1}\n  } : ({2}) -> ({1})\n", results,
                  resultTypes, operandTypes);
  }
  os << formatv("  return %f{0}#0", last);
  for (int64_t i = 0; i < layers; ++i)
    for (int64_t w = 0; w < weightsPerLayer; ++w)
      os << formatv(", %b{0}#{1}", i, w);
  os << formatv(" : {0}{1}\n}\n\n", t.scalar, weightTypes);

  // @main: microbatches, gradient accumulation, SGD.
  os << formatv("func.func @main(%x: {0} loc(\"x\"), %y: {0} loc(\"y\"){1}) -> "
                "({2}{3}) {{\n",
                t.full, namedWeightArguments, t.scalar, weightTypes);
  std::string weightOperands;
  for (int64_t i = 0; i < layers; ++i)
    for (int64_t w = 0; w < weightsPerLayer; ++w)
      weightOperands += ", " + weightName(i, w);
  for (int64_t k = 0; k < microbatches; ++k) {
    for (const char *name : {"x", "y"})
      os << formatv("  %{0}{1} = stablehlo.slice %{0} [{2}:{3}, 0:{4}, 0:{5}] "
                    ": ({6}) -> {7}\n",
                    name, k, k * rows, (k + 1) * rows, options.sequence,
                    options.dim, t.full, t.act);
    os << formatv("  %r{0}:{1} = mpmd.call @microbatch(%x{0}, %y{0}{2}) "
                  "{{call_counter = {0} : ui32} : ({3}, {3}{4}) -> ({5}{4})\n",
                  k, 1 + layers * weightsPerLayer, weightOperands, t.act,
                  weightTypes, t.scalar);
  }
  std::string loss = writeMicrobatchSum(os, "loss", 0, t.scalar, microbatches);
  // One learning-rate constant per weight shape: %lr_wo for the [D,D]
  // weights, %lr_w1 [D,F], %lr_w2 [F,D]; %lr_w1_<layer> for another F.
  llvm::StringMap<std::string> learningRateByType;
  for (int64_t i = 0; i < layers; ++i)
    for (int64_t w = kWo; w < weightsPerLayer; ++w) {
      const std::string &type = layerTypes[i].weights[w];
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
      const std::string &type = layerTypes[i].weights[w];
      std::string gradient =
          writeMicrobatchSum(os, "g_" + name, 1 + i * weightsPerLayer + w,
                             type, microbatches);
      os << formatv("  %step_{0} = stablehlo.multiply {1}, {2} : {3}\n"
                    "  %new_{0} = stablehlo.subtract %{0}, %step_{0} : {3}\n",
                    name, gradient, learningRateByType.lookup(type), type);
      updated += ", %new_" + name;
    }
  os << formatv("  return {0}{1} : {2}{3}\n}\n", loss, updated, t.scalar,
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
  llvm::Expected<Placement> placement = getPlacement(options);
  if (!placement)
    return placement.takeError();
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
