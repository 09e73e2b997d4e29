//===- Mlp.cpp - A generated MLP training step and its config -------------===//
//
// Writes the module text op by op with formatv (the shapes are known here,
// so every type is spelled out) and the config in the README's layout, one
// line per mesh list and per layer (strings quoted by llvm::json).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Examples/Mlp.h"

#include "mpmd/Schedule/Generators.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <vector>

namespace mlir::mpmd::examples {

namespace {

using llvm::formatv;

llvm::Error makeMlpError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

struct Placement {
  /// The mesh of each stage.
  std::vector<int64_t> stageMeshes;
  /// The config's "schedule".
  llvm::json::Value schedule;
};

/// Stage s on mesh s with a built-in schedule, else the generated
/// schedule's layout (whose generator also checks meshes against
/// microbatches). Every stage needs a layer.
llvm::Expected<Placement> getPlacement(const MlpOptions &options) {
  if (!options.schedule.generated) {
    if (options.layers < options.meshes)
      return makeMlpError(llvm::Twine(options.layers) +
                          " layers cannot fill " + llvm::Twine(options.meshes) +
                          " meshes; every mesh needs a layer");
    return Placement{schedule::getLoopingStageMeshes(options.meshes, 1),
                     options.schedule.name};
  }
  std::optional<schedule::ScheduleKind> kind =
      schedule::parseScheduleKind(options.schedule.name);
  if (!kind)
    return makeMlpError("unknown generated schedule '" + options.schedule.name +
                        "'; expected one of " + schedule::getScheduleNameList());
  llvm::StringRef name = schedule::getScheduleName(*kind);
  schedule::ScheduleParams params;
  params.meshes = options.meshes;
  params.microbatches = options.microbatches;
  // The schedules made for several stages per mesh get two.
  switch (*kind) {
  case schedule::ScheduleKind::kInterleavedOneFOneB:
  case schedule::ScheduleKind::kZeroBubbleV:
  case schedule::ScheduleKind::kDualPipeV:
    params.stagesPerMesh = 2;
    break;
  default:
    params.stagesPerMesh = 1;
    break;
  }
  const int64_t stages = options.meshes * params.stagesPerMesh;
  if (options.layers < stages)
    return makeMlpError(llvm::Twine(options.layers) + " layers cannot fill " +
                        llvm::Twine(stages) + " stages (" +
                        llvm::Twine(params.stagesPerMesh) + " per mesh for " +
                        name + "); every stage needs a layer");
  llvm::Expected<schedule::Schedule> built = schedule::buildSchedule(*kind, params);
  if (!built)
    return built.takeError();
  return Placement{std::move(built->stageMesh),
                   llvm::json::Object{{"generated", name}}};
}

llvm::Error verifySizes(const MlpOptions &options) {
  for (auto [name, value] :
       {std::pair{"layers", options.layers}, std::pair{"width", options.width},
        std::pair{"batch", options.batch},
        std::pair{"microbatches", options.microbatches},
        std::pair{"meshes", options.meshes}})
    if (value < 1)
      return makeMlpError(llvm::Twine(name) + " must be at least 1 (got " +
                          llvm::Twine(value) + ")");
  if (options.batch % options.microbatches != 0)
    return makeMlpError("the batch (" + llvm::Twine(options.batch) +
                        ") is not divisible by the microbatches (" +
                        llvm::Twine(options.microbatches) + ")");
  if (options.layers > kMaxLayerCalls / options.microbatches)
    return makeMlpError(llvm::Twine(options.layers) + " layers x " +
                        llvm::Twine(options.microbatches) +
                        " microbatches exceed " + llvm::Twine(kMaxLayerCalls) +
                        " layer calls, the most this generator writes");
  if (!std::isfinite(options.learningRate))
    return makeMlpError("the learning rate must be a finite number");
  return llvm::Error::success();
}

/// The text of the module; sizes are verified.
std::string writeModule(const MlpOptions &options) {
  const int64_t layers = options.layers, microbatches = options.microbatches;
  const int64_t rows = options.batch / microbatches;
  const char *dtype = options.elementType == ElementType::kF64 ? "f64" : "f32";
  const std::string full =
      formatv("tensor<{0}x{1}x{2}>", options.batch, options.width, dtype);
  const std::string act = formatv("tensor<{0}x{1}x{2}>", rows, options.width, dtype);
  const std::string weight =
      formatv("tensor<{0}x{0}x{1}>", options.width, dtype);
  const std::string scalar = formatv("tensor<{0}>", dtype);
  std::string weightTypes, weightArgs;
  for (int64_t i = 0; i < layers; ++i) {
    weightTypes += ", " + weight;
    weightArgs += formatv(", %w{0}", i).str();
  }
  std::string text;
  llvm::raw_string_ostream os(text);

  // @microbatch: forward, loss, backward; returns the loss and every dw_i.
  os << formatv("func.func private @microbatch(%x: {0}, %y: {0}", act);
  for (int64_t i = 0; i < layers; ++i)
    os << formatv(", %w{0}: {1}", i, weight);
  os << formatv(") -> ({0}{1}) {{\n", scalar, weightTypes);
  auto input = [](int64_t i) {
    return i ? formatv("%h{0}", i).str() : std::string("%x");
  };
  for (int64_t i = 0; i + 1 < layers; ++i)
    os << formatv("  %h{0} = mpmd.named_computation<\"layer_{1}\"> ({2}, %w{1}) "
                  "(%in: {3}, %w: {4}) {{\n"
                  "    %z = stablehlo.dot_general %in, %w, contracting_dims = "
                  "[1] x [0] : ({3}, {4}) -> {3}\n"
                  "    %h = stablehlo.tanh %z : {3}\n"
                  "    mpmd.return %h : {3}\n"
                  "  } : ({3}, {4}) -> {3}\n",
                  i + 1, i, input(i), act, weight);
  // The last layer is linear and computes the loss; it also returns the
  // residual h_L - y, from which its backward starts.
  const int64_t last = layers - 1;
  os << formatv(
      "  %loss:2 = mpmd.named_computation<\"layer_{0}\"> ({1}, %w{0}, %y) "
      "(%in: {2}, %w: {3}, %target: {2}) {{\n"
      "    %out = stablehlo.dot_general %in, %w, contracting_dims = [1] x [0] "
      ": ({2}, {3}) -> {2}\n"
      "    %diff = stablehlo.subtract %out, %target : {2}\n"
      "    %square = stablehlo.multiply %diff, %diff : {2}\n"
      "    %zero = stablehlo.constant dense<0.0> : {4}\n"
      "    %sum = stablehlo.reduce(%square init: %zero) applies stablehlo.add "
      "across dimensions = [0, 1] : ({2}, {4}) -> {4}\n"
      "    %half = stablehlo.constant dense<0.5> : {4}\n"
      "    %halfsum = stablehlo.multiply %sum, %half : {4}\n"
      "    %batch = stablehlo.constant dense<{5}.0> : {4}\n"
      "    %loss = stablehlo.divide %halfsum, %batch : {4}\n"
      "    mpmd.return %loss, %diff : {4}, {2}\n"
      "  } : ({2}, {3}, {2}) -> ({4}, {2})\n",
      last, input(last), act, weight, scalar, options.batch);
  // Backward, in reverse: %grad<i> holds dw_i and dloss/dh_i.
  for (int64_t i = last; i >= 0; --i) {
    bool linear = i == last;
    bool needsInputGradient = i > 0;
    std::string operands, arguments, operandTypes, body;
    if (linear) {
      operands = "%loss#1";
      arguments = formatv("%diff: {0}", act);
      operandTypes = act;
      body = formatv("    %batch = stablehlo.constant dense<{0}.0> : {1}\n"
                     "    %dz = stablehlo.divide %diff, %batch : {1}\n",
                     options.batch, act);
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
    operands += ", " + input(i);
    arguments += formatv(", %in: {0}", act).str();
    operandTypes += ", " + act;
    body += formatv("    %dw = stablehlo.dot_general %in, %dz, contracting_dims "
                    "= [0] x [0] : ({0}, {0}) -> {1}\n",
                    act, weight);
    std::string resultTypes = weight;
    std::string results = "%dw";
    if (needsInputGradient) {
      operands += formatv(", %w{0}", i).str();
      arguments += formatv(", %w: {0}", weight).str();
      operandTypes += ", " + weight;
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

  // @main: microbatches, gradient accumulation, SGD.
  os << formatv("func.func @main(%x: {0}, %y: {0}", full);
  for (int64_t i = 0; i < layers; ++i)
    os << formatv(", %w{0}: {1}", i, weight);
  os << formatv(") -> ({0}{1}) {{\n", scalar, weightTypes);
  for (int64_t k = 0; k < microbatches; ++k) {
    for (const char *name : {"x", "y"})
      os << formatv("  %{0}{1} = stablehlo.slice %{0} [{2}:{3}, 0:{4}] : "
                    "({5}) -> {6}\n",
                    name, k, k * rows, (k + 1) * rows, options.width, full, act);
    os << formatv("  %r{0}:{1} = mpmd.call @microbatch(%x{0}, %y{0}{2}) "
                  "{{call_counter = {0} : ui32} : ({3}, {3}{4}) -> ({5}{4})\n",
                  k, layers + 1, weightArgs, act, weightTypes, scalar);
  }
  // Sums over microbatches: result `index` of every call.
  auto accumulate = [&](llvm::StringRef name, int64_t index,
                        llvm::StringRef type) {
    std::string sum = formatv("%r0#{0}", index);
    for (int64_t k = 1; k < microbatches; ++k) {
      os << formatv("  %{0}_{1} = stablehlo.add {2}, %r{1}#{3} : {4}\n", name,
                    k, sum, index, type);
      sum = formatv("%{0}_{1}", name, k);
    }
    return sum;
  };
  std::string loss = accumulate("loss", 0, scalar);
  os << formatv("  %lr = stablehlo.constant dense<{0}> : {1}\n",
                llvm::format("%.17e", options.learningRate), weight);
  std::string updated;
  for (int64_t i = 0; i < layers; ++i) {
    std::string gradient = accumulate(formatv("g{0}", i).str(), i + 1, weight);
    os << formatv("  %step{0} = stablehlo.multiply {1}, %lr : {2}\n"
                  "  %new{0} = stablehlo.subtract %w{0}, %step{0} : {2}\n",
                  i, gradient, weight);
    updated += formatv(", %new{0}", i).str();
  }
  os << formatv("  return {0}{1} : {2}{3}\n}\n", loss, updated, scalar,
                weightTypes);
  return text;
}

/// One line per mesh and per layer, like the README's configs; names go
/// through llvm::json for quoting.
std::string writeConfig(const MlpOptions &options, const Placement &placement) {
  const int64_t stages = placement.stageMeshes.size();
  auto meshName = [](int64_t mesh) {
    return llvm::json::Value(formatv("m{0}", mesh).str());
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\n  \"topology\": [";
  for (int64_t m = 0; m < options.meshes; ++m)
    os << (m ? ", " : "") << "[" << meshName(m) << ", [[\"x\", 1]]]";
  os << "],\n  \"assignment\": {";
  for (int64_t i = 0; i < options.layers; ++i) {
    int64_t stage = i * stages / options.layers;
    os << (i ? "," : "")
       << formatv("\n    \"layer_{0}\": {{\"mesh\": {1}, \"stage\": {2}}", i,
                  meshName(placement.stageMeshes[stage]), stage);
  }
  os << "\n  },\n  \"schedule\": " << placement.schedule
     << ",\n  \"partitioning_options\": {\"mpmd_infer_transfers\": true}\n}\n";
  return text;
}

} // namespace

llvm::Expected<MlpExample> generateMlp(const MlpOptions &options) {
  if (llvm::Error error = verifySizes(options))
    return std::move(error);
  llvm::Expected<Placement> placement = getPlacement(options);
  if (!placement)
    return placement.takeError();
  return MlpExample{writeModule(options), writeConfig(options, *placement)};
}

} // namespace mlir::mpmd::examples
