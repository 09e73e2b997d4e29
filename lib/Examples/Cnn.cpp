//===- Cnn.cpp - A generated convolutional training step ------------------===//
//
// Writes the module text op by op with formatv, as Transformer.cpp does;
// checks, config, the channel norm and the microbatch sums are Common.h's.
// The convolutions' gradients take the forms JAX's autodiff emits (see
// test/Runtime/convolution_gradients.mlir): the input gradient convolves
// with the spatially reversed kernel whose features swap roles, the filter
// gradient convolves the input, batch and features swapped, with dz.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Examples/Cnn.h"

#include "Common.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mpmd::examples {

using namespace detail;

namespace {

using llvm::formatv;

/// Added to the variance in the norms.
constexpr double kNormEpsilon = 1e-5;
/// The window attributes of every 3x3 convolution (stride 1, padded by 1).
constexpr const char *kConvWindow =
    "window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], "
    "rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count "
    "= 1 : i64}";

/// Every tensor type of the model, spelled out.
struct Types {
  explicit Types(const CnnOptions &options) {
    const llvm::StringRef dtype = getElementTypeName(options.elementType);
    const int64_t rows = options.batch / options.microbatches;
    const int64_t s = options.image, p = options.image / 2;
    const int64_t c = options.channels, k = options.classes;
    const int64_t in = kCnnInputChannels;
    fullImages = formatv("tensor<{0}x{1}x{1}x{2}x{3}>", options.batch, s, in,
                         dtype);
    fullTargets = formatv("tensor<{0}x{1}x{2}>", options.batch, k, dtype);
    images = formatv("tensor<{0}x{1}x{1}x{2}x{3}>", rows, s, in, dtype);
    targets = formatv("tensor<{0}x{1}x{2}>", rows, k, dtype);
    stem = formatv("tensor<{0}x{1}x{1}x{2}x{3}>", rows, s, c, dtype);
    stemPositions = formatv("tensor<{0}x{1}x{1}x{2}>", rows, s, dtype);
    act = formatv("tensor<{0}x{1}x{1}x{2}x{3}>", rows, p, c, dtype);
    positions = formatv("tensor<{0}x{1}x{1}x{2}>", rows, p, dtype);
    stemMask = formatv("tensor<{0}x{1}x{1}x{2}xi1>", rows, s, c);
    mask = formatv("tensor<{0}x{1}x{1}x{2}xi1>", rows, p, c);
    pooled = formatv("tensor<{0}x{1}x{2}>", rows, c, dtype);
    scalar = formatv("tensor<{0}>", dtype);
    stemKernel = formatv("tensor<3x3x{0}x{1}x{2}>", in, c, dtype);
    kernel = formatv("tensor<3x3x{0}x{0}x{1}>", c, dtype);
    head = formatv("tensor<{0}x{1}x{2}>", c, k, dtype);
    negativeInfinity = options.elementType == ElementType::kF64
                           ? "0xFFF0000000000000"
                           : "0xFF800000";
  }

  /// The kernel of layer `i`.
  const std::string &kernelOf(int64_t i) const {
    return i == 0 ? stemKernel : kernel;
  }
  /// The normalized tensor of layer `i` (full resolution in the stem).
  /// The i1 mask of layer `i`'s normalized tensor.
  const std::string &maskOf(int64_t i) const {
    return i == 0 ? stemMask : mask;
  }
  NormTypes normOf(int64_t i) const {
    return i == 0 ? NormTypes{stem, stemPositions, scalar, 4}
                  : NormTypes{act, positions, scalar, 4};
  }

  std::string fullImages, fullTargets, images, targets, stem, stemPositions,
      act, positions, stemMask, mask, pooled, scalar, stemKernel, kernel,
      head;
  const char *negativeInfinity;
};

/// %z = conv(%in, %w), %n = norm(%z) (%n_r its 1 / sqrt(var + eps)) and
/// %a = relu(%n), for the input type `input` and the norm's types.
void writeConvNormRelu(llvm::raw_ostream &os, const Types &t,
                       const std::string &input, const std::string &kernel,
                       int64_t channels, const NormTypes &norm) {
  os << formatv(
      "    %zero = stablehlo.constant dense<0.0> : {0}\n"
      "    %width = stablehlo.constant dense<{1}.0> : {2}\n"
      "    %eps = stablehlo.constant dense<{3}> : {2}\n"
      "    %z = stablehlo.convolution(%in, %w) dim_numbers = [b, 0, 1, f]x[0, "
      "1, i, o]->[b, 0, 1, f], {4} : ({5}, {6}) -> {7}\n",
      t.scalar, channels, norm.perPosition, formatFloat(kNormEpsilon),
      kConvWindow, input, kernel, norm.tensor);
  writeLastAxisNorm(os, norm, "z", "n");
  os << formatv("    %zeros = stablehlo.constant dense<0.0> : {0}\n"
                "    %a = stablehlo.maximum %n, %zeros : {0}\n",
                norm.tensor);
}

/// %dz = dloss/dz from %GRAD (the gradient at relu's output) given %n and
/// %r; uses %zero, %width and %zeros, which the backward body defines.
void writeReluNormBackward(llvm::raw_ostream &os, const NormTypes &norm,
                           const std::string &mask, llvm::StringRef grad) {
  os << formatv(
      "    %positive = stablehlo.compare GT, %n, %zeros : ({0}, {0}) -> {1}\n"
      "    %dn = stablehlo.select %positive, %{2}, %zeros : {1}, {0}\n",
      norm.tensor, mask, grad);
  writeLastAxisNormBackward(os, norm, "dn", "n", "r", "dz");
}

/// %dw = the filter gradient of conv(%in, .) at %dz.
void writeFilterGradient(llvm::raw_ostream &os, const std::string &input,
                         const std::string &gradient,
                         const std::string &kernel) {
  os << formatv("    %dw = stablehlo.convolution(%in, %dz) dim_numbers = [f, "
                "0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], {0} : ({1}, {2}) -> {3}\n",
                kConvWindow, input, gradient, kernel);
}

/// A comma-separated list of `count` items.
template <typename Item> std::string join(int64_t count, Item item) {
  std::string text;
  for (int64_t i = 0; i < count; ++i)
    text += (i ? ", " : "") + item(i);
  return text;
}

/// The text of the module; sizes are verified.
std::string writeModule(const CnnOptions &options) {
  const Types t(options);
  const int64_t layers = options.layers, microbatches = options.microbatches;
  const int64_t rows = options.batch / microbatches;
  const int64_t last = layers - 1;
  const int64_t pooledPositions = (options.image / 2) * (options.image / 2);
  const int64_t c = options.channels;
  // Weights in argument order: conv_0 .. conv_{L-1}, head.
  auto weightName = [&](int64_t w) {
    return w == layers ? std::string("%head") : formatv("%conv_{0}", w).str();
  };
  auto weightType = [&](int64_t w) -> const std::string & {
    return w == layers ? t.head : t.kernelOf(w);
  };
  const int64_t weights = layers + 1;
  const std::string weightTypes =
      join(weights, [&](int64_t w) { return weightType(w); });
  const std::string weightArguments = join(weights, [&](int64_t w) {
    return weightName(w) + ": " + weightType(w);
  });
  const std::string weightOperands = join(weights, weightName);
  // The running sum of each weight's gradients: %g_conv_0, ..., %g_head.
  auto sumName = [&](int64_t w) {
    return "%g_" + llvm::StringRef(weightName(w)).drop_front().str();
  };
  const std::string sumArguments = join(weights, [&](int64_t w) {
    return sumName(w) + ": " + weightType(w);
  });
  std::string text;
  llvm::raw_string_ostream os(text);

  // @microbatch: forward, loss, backward; takes the gradient sums of the
  // earlier microbatches and returns the loss and every sum with this
  // microbatch's gradient added (MicrobatchGradientSums). %f<i> is layer
  // i's forward: h_{i+1} (the last layer: the loss, o - y and g), then n,
  // r (and a in the stem).
  os << formatv("func.func private @microbatch(%x: {0}, %y: {1}, {2}, {5}) -> "
                "({3}, {4}) {{\n",
                t.images, t.targets, weightArguments, t.scalar, weightTypes,
                sumArguments);
  auto input = [](int64_t i) {
    return i ? formatv("%f{0}#0", i - 1).str() : std::string("%x");
  };
  auto inputType = [&](int64_t i) -> const std::string & {
    return i ? t.act : t.images;
  };
  // Where layer i's residuals start in %f<i>.
  auto firstResidual = [&](int64_t i) { return i == last ? 3 : 1; };
  for (int64_t i = 0; i < layers; ++i) {
    const bool isLast = i == last;
    const NormTypes norm = t.normOf(i);
    std::string operands = input(i) + ", " + weightName(i);
    std::string arguments = formatv("%in: {0}, %w: {1}", inputType(i),
                                    t.kernelOf(i));
    std::string operandTypes = inputType(i) + ", " + t.kernelOf(i);
    std::string results = "%out", resultTypes = t.act;
    if (isLast) {
      operands += ", %head, %y";
      arguments +=
          formatv(", %wd: {0}, %target: {1}", t.head, t.targets).str();
      operandTypes += ", " + t.head + ", " + t.targets;
      results = "%loss, %diff, %g";
      resultTypes = formatv("{0}, {1}, {2}", t.scalar, t.targets, t.pooled);
    }
    results += ", %n, %n_r";
    resultTypes += ", " + norm.tensor + ", " + norm.perPosition;
    if (i == 0) {
      results += ", %a";
      resultTypes += ", " + t.stem;
    }
    const int64_t resultCount = (isLast ? 3 : 1) + (i == 0 ? 3 : 2);
    os << formatv("  %f{0}:{1} = mpmd.named_computation<\"layer_{0}\"> ({2}) "
                  "({3}) {{\n",
                  i, resultCount, operands, arguments);
    writeConvNormRelu(os, t, inputType(i), t.kernelOf(i), c, norm);
    if (i == 0)
      os << formatv(
          "    %ninf = stablehlo.constant dense<{0}> : {1}\n"
          "    %{2} = \"stablehlo.reduce_window\"(%a, %ninf) "
          "<{{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = "
          "array<i64: 1, 2, 2, 1>}> ({{\n"
          "    ^bb0(%lhs: {1}, %rhs: {1}):\n"
          "      %max = stablehlo.maximum %lhs, %rhs : {1}\n"
          "      stablehlo.return %max : {1}\n"
          "    }) : ({3}, {1}) -> {4}\n",
          t.negativeInfinity, t.scalar, isLast ? "h" : "out", t.stem, t.act);
    else
      os << formatv("    %{0} = stablehlo.add %in, %a : {1}\n",
                    isLast ? "h" : "out", t.act);
    if (isLast)
      os << formatv(
          "    %sum = stablehlo.reduce(%h init: %zero) applies stablehlo.add "
          "across dimensions = [1, 2] : ({0}, {1}) -> {2}\n"
          "    %area = stablehlo.constant dense<{3}.0> : {2}\n"
          "    %g = stablehlo.divide %sum, %area : {2}\n"
          "    %o = stablehlo.dot_general %g, %wd, contracting_dims = [1] x "
          "[0] : ({2}, {4}) -> {5}\n"
          "    %diff = stablehlo.subtract %o, %target : {5}\n"
          "    %square = stablehlo.multiply %diff, %diff : {5}\n"
          "    %sumsq = stablehlo.reduce(%square init: %zero) applies "
          "stablehlo.add across dimensions = [0, 1] : ({5}, {1}) -> {1}\n"
          "    %half = stablehlo.constant dense<0.5> : {1}\n"
          "    %halfsum = stablehlo.multiply %sumsq, %half : {1}\n"
          "    %count = stablehlo.constant dense<{6}.0> : {1}\n"
          "    %loss = stablehlo.divide %halfsum, %count : {1}\n",
          t.act, t.scalar, t.pooled, pooledPositions, t.head, t.targets,
          options.batch);
    os << formatv("    mpmd.return {0} : {1}\n  } : ({2}) -> ({1})\n", results,
                  resultTypes, operandTypes);
  }

  // Backward, in reverse: %b<i> holds the sum of dconv_i (and, last, of
  // dhead), then dloss/dh_i for i > 0.
  for (int64_t i = last; i >= 0; --i) {
    const bool isLast = i == last, inputGradient = i > 0;
    const NormTypes norm = t.normOf(i);
    const int64_t first = firstResidual(i);
    std::string operands, arguments, operandTypes;
    if (isLast) {
      operands = formatv("%f{0}#1, %f{0}#2, %head", i);
      arguments = formatv("%diff: {0}, %g: {1}, %wd: {2}", t.targets,
                          t.pooled, t.head);
      operandTypes = t.targets + ", " + t.pooled + ", " + t.head;
    } else {
      operands = formatv("%b{0}#{1}", i + 1, i + 1 == last ? 2 : 1);
      arguments = formatv("%dout: {0}", t.act);
      operandTypes = t.act;
    }
    operands += formatv(", %f{0}#{1}, %f{0}#{2}", i, first, first + 1).str();
    arguments +=
        formatv(", %n: {0}, %r: {1}", norm.tensor, norm.perPosition).str();
    operandTypes += ", " + norm.tensor + ", " + norm.perPosition;
    if (i == 0) {
      operands += formatv(", %f0#{0}", first + 2).str();
      arguments += formatv(", %a: {0}", t.stem).str();
      operandTypes += ", " + t.stem;
    }
    operands += ", " + input(i) + ", " + sumName(i);
    arguments += formatv(", %in: {0}, %sum: {1}", inputType(i), t.kernelOf(i))
                     .str();
    operandTypes += ", " + inputType(i) + ", " + t.kernelOf(i);
    if (isLast) {
      operands += ", " + sumName(layers);
      arguments += formatv(", %sum_head: {0}", t.head).str();
      operandTypes += ", " + t.head;
    }
    if (inputGradient) {
      operands += ", " + weightName(i);
      arguments += formatv(", %w: {0}", t.kernel).str();
      operandTypes += ", " + t.kernel;
    }
    std::string results = "%new_sum", resultTypes = t.kernelOf(i);
    if (isLast) {
      results += ", %new_sum_head";
      resultTypes += ", " + t.head;
    }
    if (inputGradient) {
      results += ", %dh";
      resultTypes += ", " + t.act;
    }
    os << formatv("  %b{0}:{1} = mpmd.named_computation<\"layer_{0}\"(1)> "
                  "({2}) ({3}) {{\n",
                  i, 1 + (isLast ? 1 : 0) + (inputGradient ? 1 : 0), operands,
                  arguments);
    os << formatv(
        "    %zero = stablehlo.constant dense<0.0> : {0}\n"
        "    %width = stablehlo.constant dense<{1}.0> : {2}\n"
        "    %zeros = stablehlo.constant dense<0.0> : {3}\n",
        t.scalar, c, norm.perPosition, norm.tensor);
    // The head: dloss/dh_L spread evenly over the positions g averages.
    if (isLast)
      os << formatv(
          "    %count = stablehlo.constant dense<{0}.0> : {1}\n"
          "    %do = stablehlo.divide %diff, %count : {1}\n"
          "    %dhead = stablehlo.dot_general %g, %do, contracting_dims = "
          "[0] x [0] : ({2}, {1}) -> {3}\n"
          "    %dg = stablehlo.dot_general %do, %wd, contracting_dims = [1] x "
          "[1] : ({1}, {3}) -> {2}\n"
          "    %area = stablehlo.constant dense<{4}.0> : {2}\n"
          "    %dg_mean = stablehlo.divide %dg, %area : {2}\n"
          "    %dout = stablehlo.broadcast_in_dim %dg_mean, dims = [0, 3] : "
          "({2}) -> {5}\n",
          options.batch, t.targets, t.pooled, t.head, pooledPositions, t.act);
    if (isLast)
      writeGradientSum(os, "_head", "dhead", t.head, t.head);
    // The stem: the pool's gradient goes to each window's first maximum.
    if (i == 0)
      os << formatv(
          "    %da = \"stablehlo.select_and_scatter\"(%a, %dout, %zero) "
          "<{{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = "
          "array<i64: 1, 2, 2, 1>}> ({{\n"
          "    ^bb0(%lhs: {0}, %rhs: {0}):\n"
          "      %ge = stablehlo.compare GE, %lhs, %rhs : ({0}, {0}) -> "
          "tensor<i1>\n"
          "      stablehlo.return %ge : tensor<i1>\n"
          "    }, {{\n"
          "    ^bb0(%lhs: {0}, %rhs: {0}):\n"
          "      %window_sum = stablehlo.add %lhs, %rhs : {0}\n"
          "      stablehlo.return %window_sum : {0}\n"
          "    }) : ({1}, {2}, {0}) -> {1}\n",
          t.scalar, t.stem, t.act);
    writeReluNormBackward(os, norm, t.maskOf(i), i == 0 ? "da" : "dout");
    writeFilterGradient(os, inputType(i), norm.tensor, t.kernelOf(i));
    writeGradientSum(os, "", "dw", t.kernelOf(i), t.kernelOf(i));
    if (inputGradient)
      os << formatv(
          "    %w_reversed = stablehlo.reverse %w, dims = [0, 1] : {0}\n"
          "    %dconv = stablehlo.convolution(%dz, %w_reversed) dim_numbers = "
          "[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], {1} : ({2}, {0}) -> {2}\n"
          "    %dh = stablehlo.add %dout, %dconv : {2}\n",
          t.kernel, kConvWindow, t.act);
    os << formatv("    mpmd.return {0} : {1}\n  } : ({2}) -> ({1})\n", results,
                  resultTypes, operandTypes);
  }
  os << formatv("  return %f{0}#0", last);
  for (int64_t i = 0; i < layers; ++i)
    os << formatv(", %b{0}#0", i);
  os << formatv(", %b{0}#1 : {1}, {2}\n}\n\n", last, t.scalar, weightTypes);

  // @main: microbatches (each adding its gradients to the sums), SGD.
  std::string namedWeightArguments = join(weights, [&](int64_t w) {
    return formatv("{0}: {1} loc(\"{2}\")", weightName(w), weightType(w),
                   llvm::StringRef(weightName(w)).drop_front())
        .str();
  });
  os << formatv("func.func @main(%x: {0} loc(\"x\"), %y: {1} loc(\"y\"), {2}) "
                "-> ({3}, {4}) {{\n",
                t.fullImages, t.fullTargets, namedWeightArguments, t.scalar,
                weightTypes);
  std::vector<MicrobatchGradientSums::Weight> summedWeights;
  for (int64_t w = 0; w < weights; ++w)
    summedWeights.push_back({weightName(w), weightType(w)});
  const MicrobatchGradientSums sums(summedWeights);
  for (int64_t k = 0; k < microbatches; ++k) {
    os << formatv("  %x{0} = stablehlo.slice %x [{1}:{2}, 0:{3}, 0:{3}, 0:{4}] "
                  ": ({5}) -> {6}\n"
                  "  %y{0} = stablehlo.slice %y [{1}:{2}, 0:{7}] : ({8}) -> "
                  "{9}\n",
                  k, k * rows, (k + 1) * rows, options.image,
                  kCnnInputChannels, t.fullImages, t.images, options.classes,
                  t.fullTargets, t.targets);
    if (k == 0)
      sums.writeZeros(os);
    os << formatv("  %r{0}:{1} = mpmd.call @microbatch(%x{0}, %y{0}, {2}{7}) "
                  "{{call_counter = {0} : ui32} : ({3}, {4}, {5}, {5}) -> "
                  "({6}, {5})\n",
                  k, 1 + weights, weightOperands, t.images, t.targets,
                  weightTypes, t.scalar, sums.getCallOperands(k));
  }
  std::string loss = writeMicrobatchSum(os, "loss", 0, t.scalar, microbatches);
  // One learning-rate constant per weight type.
  const std::string learningRate = formatFloat(options.learningRate);
  os << formatv("  %lr_stem = stablehlo.constant dense<{0}> : {1}\n",
                learningRate, t.stemKernel);
  if (layers > 1)
    os << formatv("  %lr_conv = stablehlo.constant dense<{0}> : {1}\n",
                  learningRate, t.kernel);
  os << formatv("  %lr_head = stablehlo.constant dense<{0}> : {1}\n",
                learningRate, t.head);
  std::string updated;
  for (int64_t w = 0; w < weights; ++w) {
    std::string name = llvm::StringRef(weightName(w)).drop_front().str();
    const char *rate = w == 0 ? "%lr_stem" : w == layers ? "%lr_head" : "%lr_conv";
    std::string gradient = MicrobatchGradientSums::getTotal(microbatches, w);
    os << formatv("  %step_{0} = stablehlo.multiply {1}, {2} : {3}\n"
                  "  %new_{0} = stablehlo.subtract %{0}, %step_{0} : {3}\n",
                  name, gradient, rate, weightType(w));
    updated += ", %new_" + name;
  }
  os << formatv("  return {0}{1} : {2}, {3}\n}\n", loss, updated, t.scalar,
                weightTypes);
  return text;
}

} // namespace

llvm::Expected<ExampleModel> generateCnn(const CnnOptions &options) {
  if (llvm::Error error = verifySizes(options,
                                      {{"image", options.image},
                                       {"channels", options.channels},
                                       {"classes", options.classes}}))
    return std::move(error);
  if (options.image % 2 != 0)
    return makeExampleError("the image side (" + llvm::Twine(options.image) +
                            ") must be even: the stem pools 2x2 windows");
  if (options.elementType == ElementType::kBF16)
    return makeExampleError("the cnn computes in f32 or f64; mixed-precision "
                            "bf16 is written for mlp and transformer");
  llvm::Expected<Placement> placement = getPlacement(options);
  if (!placement)
    return placement.takeError();
  if (options.parallelism.sharding != ExampleSharding::kNone)
    return makeExampleError("the CNN example writes no sharding rules yet: "
                            "--sharding must be none");
  // Checks the mesh shape's sizes; no rules for kNone.
  llvm::Expected<llvm::json::Array> rules =
      getShardingRules(options.parallelism, ShardableModel());
  if (!rules)
    return rules.takeError();
  return ExampleModel{writeModule(options),
                      writeConfig(options, *placement, *rules)};
}

} // namespace mlir::mpmd::examples
