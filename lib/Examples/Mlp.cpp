//===- Mlp.cpp - A generated MLP training step and its config -------------===//
//
// Writes the module text op by op with formatv (the shapes are known here,
// so every type is spelled out); checks, config and the microbatch sums are
// Common.h's.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Examples/Mlp.h"

#include "Common.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mpmd::examples {

using namespace detail;

namespace {

using llvm::formatv;

/// The text of the module; sizes are verified.
std::string writeModule(const MlpOptions &options) {
  const int64_t layers = options.layers, microbatches = options.microbatches;
  const int64_t rows = options.batch / microbatches;
  const llvm::StringRef dtype = getElementTypeName(options.elementType);
  // Mixed precision: x, y, the weights, the loss and the update in f32
  // (the master types); each layer converts its weight (%w_master) and the
  // last one widens its output for the loss.
  const llvm::StringRef master = getMasterTypeName(options.elementType);
  const bool mixed = options.elementType == ElementType::kBF16;
  const std::string full =
      formatv("tensor<{0}x{1}x{2}>", options.batch, options.width, master);
  const std::string act = formatv("tensor<{0}x{1}x{2}>", rows, options.width, dtype);
  const std::string masterAct =
      formatv("tensor<{0}x{1}x{2}>", rows, options.width, master);
  const std::string weight =
      formatv("tensor<{0}x{0}x{1}>", options.width, dtype);
  const std::string masterWeight =
      formatv("tensor<{0}x{0}x{1}>", options.width, master);
  const std::string scalar = formatv("tensor<{0}>", master);
  // The weight argument of a layer and, mixed, its conversion.
  const std::string weightArgument =
      formatv("%w{0}: {1}", mixed ? "_master" : "", masterWeight);
  const std::string weightConversion =
      mixed ? formatv("    %w = stablehlo.convert %w_master : ({0}) -> {1}\n",
                      masterWeight, weight)
                  .str()
            : "";
  std::string weightTypes, weightArgs;
  for (int64_t i = 0; i < layers; ++i) {
    weightTypes += ", " + masterWeight;
    weightArgs += formatv(", %w{0}", i).str();
  }
  std::string text;
  llvm::raw_string_ostream os(text);

  // @microbatch: forward, loss, backward; takes the gradient sums of the
  // earlier microbatches (%g_i, zeros for the first) and returns the loss
  // and every g_i + dw_i. Summing inside the call, as a scan carrying the
  // sums does in JAX, puts each add next to the dot_general computing dw_i,
  // which then accumulates into the sum in place (runtime: gemm with
  // beta = 1) instead of writing dw_i for a later pass to add.
  os << formatv("func.func private @microbatch(%x: {0}, %y: {1}", act,
                masterAct);
  for (int64_t i = 0; i < layers; ++i)
    os << formatv(", %w{0}: {1}", i, masterWeight);
  for (int64_t i = 0; i < layers; ++i)
    os << formatv(", %g{0}: {1}", i, masterWeight);
  os << formatv(") -> ({0}{1}) {{\n", scalar, weightTypes);
  auto input = [](int64_t i) {
    return i ? formatv("%h{0}", i).str() : std::string("%x");
  };
  for (int64_t i = 0; i + 1 < layers; ++i)
    os << formatv(
        "  %h{0} = mpmd.named_computation<\"layer_{1}\"> ({2}, %w{1}) "
        "(%in: {3}, {5}) {{\n{6}"
        "    %z = stablehlo.dot_general %in, %w, contracting_dims = "
        "[1] x [0] : ({3}, {4}) -> {3}\n"
        "    %h = stablehlo.tanh %z : {3}\n"
        "    mpmd.return %h : {3}\n"
        "  } : ({3}, {7}) -> {3}\n",
        i + 1, i, input(i), act, weight, weightArgument, weightConversion,
        masterWeight);
  // The last layer is linear and computes the loss; it also returns the
  // residual h_L - y, from which its backward starts.
  const int64_t last = layers - 1;
  os << formatv(
      "  %loss:2 = mpmd.named_computation<\"layer_{0}\"> ({1}, %w{0}, %y) "
      "(%in: {2}, {6}, %target: {8}) {{\n{7}"
      "    %out = stablehlo.dot_general %in, %w, contracting_dims = [1] x [0] "
      ": ({2}, {3}) -> {2}\n{10}"
      "    %diff = stablehlo.subtract {11}, %target : {8}\n"
      "    %square = stablehlo.multiply %diff, %diff : {8}\n"
      "    %zero = stablehlo.constant dense<0.0> : {4}\n"
      "    %sum = stablehlo.reduce(%square init: %zero) applies stablehlo.add "
      "across dimensions = [0, 1] : ({8}, {4}) -> {4}\n"
      "    %half = stablehlo.constant dense<0.5> : {4}\n"
      "    %halfsum = stablehlo.multiply %sum, %half : {4}\n"
      "    %batch = stablehlo.constant dense<{5}.0> : {4}\n"
      "    %loss = stablehlo.divide %halfsum, %batch : {4}\n"
      "    mpmd.return %loss, %diff : {4}, {8}\n"
      "  } : ({2}, {9}, {8}) -> ({4}, {8})\n",
      last, input(last), act, weight, scalar, options.batch, weightArgument,
      weightConversion, masterAct, masterWeight,
      mixed ? formatv("    %out_wide = stablehlo.convert %out : ({0}) -> "
                      "{1}\n",
                      act, masterAct)
                  .str()
            : "",
      mixed ? "%out_wide" : "%out");
  // Backward, in reverse: %grad<i> holds dw_i and dloss/dh_i.
  for (int64_t i = last; i >= 0; --i) {
    bool linear = i == last;
    bool needsInputGradient = i > 0;
    std::string operands, arguments, operandTypes, body;
    if (linear) {
      operands = "%loss#1";
      arguments = formatv("%diff: {0}", masterAct);
      operandTypes = masterAct;
      body = formatv("    %batch = stablehlo.constant dense<{0}.0> : {1}\n"
                     "    %dz{2} = stablehlo.divide %diff, %batch : {1}\n",
                     options.batch, masterAct, mixed ? "_wide" : "");
      if (mixed)
        body += formatv("    %dz = stablehlo.convert %dz_wide : ({0}) -> {1}\n",
                        masterAct, act);
    } else {
      operands = formatv("%grad{0}#1, %h{0}", i + 1);
      arguments = formatv("%dout: {0}, %out: {0}", act);
      operandTypes = formatv("{0}, {0}", act);
      body = formatv("    %one = stablehlo.constant dense<1.0> : {0}\n"
                     "    %square = stablehlo.multiply %out, %out : {0}\n"
                     "    %slope = stablehlo.subtract %one, %square : {0}\n"
                     "    %dz = stablehlo.multiply %dout, %slope : {0}\n",
                     act);
    }
    operands += formatv(", {0}, %g{1}", input(i), i).str();
    arguments += formatv(", %in: {0}, %sum: {1}", act, masterWeight).str();
    operandTypes += formatv(", {0}, {1}", act, masterWeight).str();
    body += formatv("    %dw = stablehlo.dot_general %in, %dz, contracting_dims "
                    "= [0] x [0] : ({0}, {0}) -> {1}\n",
                    act, weight);
    // The weight gradient is summed in the master type.
    llvm::raw_string_ostream bodyStream(body);
    std::string results = writeGradientSum(bodyStream, "", "dw", weight,
                                           masterWeight);
    std::string resultTypes = masterWeight;
    if (needsInputGradient) {
      operands += formatv(", %w{0}", i).str();
      arguments += ", " + weightArgument;
      operandTypes += ", " + masterWeight;
      body += weightConversion;
      body += formatv("    %din = stablehlo.dot_general %dz, %w, "
                      "contracting_dims = [1] x [1] : ({0}, {1}) -> {0}\n",
                      act, weight);
      resultTypes += ", " + act;
      results += ", %din";
    }
    os << formatv("  %grad{0}:{1} = mpmd.named_computation<\"layer_{0}\"(1)> "
                  "({2}) ({3}) {{\n{4}    mpmd.return {5} : {6}\n"
                  "  } : ({7}) -> ({6})\n",
                  i, needsInputGradient ? 2 : 1, operands, arguments, body,
                  results, resultTypes, operandTypes);
  }
  os << "  return %loss#0";
  for (int64_t i = 0; i < layers; ++i)
    os << formatv(", %grad{0}#0", i);
  os << formatv(" : {0}{1}\n}\n\n", scalar, weightTypes);

  // @main: microbatches (each adding its gradients to the sums), SGD.
  // Arguments named with locations, as JAX names them, for the config's
  // sharding rules.
  os << formatv("func.func @main(%x: {0} loc(\"x\"), %y: {0} loc(\"y\")", full);
  for (int64_t i = 0; i < layers; ++i)
    os << formatv(", %w{0}: {1} loc(\"w_{0}\")", i, masterWeight);
  os << formatv(") -> ({0}{1}) {{\n", scalar, weightTypes);
  std::vector<MicrobatchGradientSums::Weight> summedWeights;
  for (int64_t i = 0; i < layers; ++i)
    summedWeights.push_back({formatv("%w{0}", i).str(), masterWeight});
  const MicrobatchGradientSums sums(summedWeights);
  for (int64_t k = 0; k < microbatches; ++k) {
    for (const char *name : {"x", "y"})
      os << formatv("  %{0}{1} = stablehlo.slice %{0} [{2}:{3}, 0:{4}] : "
                    "({5}) -> {6}\n",
                    name, k, k * rows, (k + 1) * rows, options.width, full,
                    masterAct);
    // Mixed precision: the inputs enter the layers in bf16.
    if (mixed)
      os << formatv("  %x{0}_bf16 = stablehlo.convert %x{0} : ({1}) -> {2}\n",
                    k, masterAct, act);
    if (k == 0)
      sums.writeZeros(os);
    os << formatv("  %r{0}:{1} = mpmd.call @microbatch(%x{0}{6}, %y{0}{2}{8}) "
                  "{{call_counter = {0} : ui32} : ({3}, {7}{4}{4}) -> "
                  "({5}{4})\n",
                  k, layers + 1, weightArgs, act, weightTypes, scalar,
                  mixed ? "_bf16" : "", masterAct,
                  sums.getCallOperands(k));
  }
  // The loss summed over microbatches; the gradients' sums are the last
  // call's results.
  std::string loss = writeMicrobatchSum(os, "loss", 0, scalar, microbatches);
  os << formatv("  %lr = stablehlo.constant dense<{0}> : {1}\n",
                formatFloat(options.learningRate), masterWeight);
  std::string updated;
  for (int64_t i = 0; i < layers; ++i) {
    os << formatv("  %step{0} = stablehlo.multiply {1}, %lr : {2}\n"
                  "  %new{0} = stablehlo.subtract %w{0}, %step{0} : {2}\n",
                  i, MicrobatchGradientSums::getTotal(microbatches, i),
                  masterWeight);
    updated += formatv(", %new{0}", i).str();
  }
  os << formatv("  return {0}{1} : {2}{3}\n}\n", loss, updated, scalar,
                weightTypes);
  return text;
}

} // namespace

llvm::Expected<ExampleModel> generateMlp(const MlpOptions &options) {
  if (llvm::Error error =
          verifySizes(options, {{"width", options.width}}))
    return std::move(error);
  if (options.parallelism.sharding == ExampleSharding::kTensorAndSequence)
    return makeExampleError("tp+sp shards activations along a sequence, "
                            "which the MLP's [batch, width] activations do "
                            "not have; use tp");
  llvm::Expected<Placement> placement = getPlacement(options);
  if (!placement)
    return placement.takeError();
  // Megatron pairs: even layers column-parallel, odd ones row-parallel.
  llvm::Expected<llvm::json::Array> rules = getShardingRules(
      options.parallelism, {"^w_[0-9]*[02468]$", "^w_[0-9]*[13579]$", 2});
  if (!rules)
    return rules.takeError();
  return ExampleModel{
      writeModule(options),
      writeConfig(options, *placement, *rules)};
}

} // namespace mlir::mpmd::examples
