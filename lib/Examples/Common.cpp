//===- Common.cpp - Checks and text every example generator shares --------===//
//
// Placement reuses the schedule generators' layouts and checks, so a
// generated schedule's config always matches what `mpmd schedule` builds.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "mpmd/Examples/ConfigText.h"
#include "mpmd/Schedule/Generators.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <utility>

namespace mlir::mpmd::examples::detail {

using llvm::formatv;

llvm::Error makeExampleError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error verifySizes(const ExampleTrainingOptions &options,
                        llvm::ArrayRef<NamedSize> modelSizes) {
  std::vector<NamedSize> positive = {{"layers", options.layers}};
  positive.insert(positive.end(), modelSizes.begin(), modelSizes.end());
  positive.insert(positive.end(), {{"batch", options.batch},
                                   {"microbatches", options.microbatches},
                                   {"meshes", options.meshes}});
  for (const NamedSize &size : positive)
    if (size.value < 1)
      return makeExampleError(size.name + " must be at least 1 (got " +
                              llvm::Twine(size.value) + ")");
  if (options.batch % options.microbatches != 0)
    return makeExampleError("the batch (" + llvm::Twine(options.batch) +
                            ") is not divisible by the microbatches (" +
                            llvm::Twine(options.microbatches) + ")");
  if (options.layers > kMaxLayerCalls / options.microbatches)
    return makeExampleError(llvm::Twine(options.layers) + " layers x " +
                            llvm::Twine(options.microbatches) +
                            " microbatches exceed " +
                            llvm::Twine(kMaxLayerCalls) +
                            " layer calls, the most this generator writes");
  if (!std::isfinite(options.learningRate))
    return makeExampleError("the learning rate must be a finite number");
  return llvm::Error::success();
}

llvm::Expected<Placement> getPlacement(const ExampleTrainingOptions &options) {
  const ExampleSchedule &schedule = options.schedule;
  if (!schedule.generated) {
    if (options.layers < options.meshes)
      return makeExampleError(
          llvm::Twine(options.layers) + " layers cannot fill " +
          llvm::Twine(options.meshes) + " meshes; every mesh needs a layer");
    return Placement{schedule::getLoopingStageMeshes(options.meshes, 1),
                     schedule.name};
  }
  std::optional<schedule::ScheduleKind> kind =
      schedule::parseScheduleKind(schedule.name);
  if (!kind)
    return makeExampleError("unknown generated schedule '" + schedule.name +
                            "'; expected one of " +
                            schedule::getScheduleNameList());
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
    return makeExampleError(
        llvm::Twine(options.layers) + " layers cannot fill " +
        llvm::Twine(stages) + " stages (" + llvm::Twine(params.stagesPerMesh) +
        " per mesh for " + name + "); every stage needs a layer");
  llvm::Expected<schedule::Schedule> built =
      schedule::buildSchedule(*kind, params);
  if (!built)
    return built.takeError();
  return Placement{std::move(built->stageMesh),
                   llvm::json::Object{{"generated", name}}};
}

llvm::Expected<llvm::json::Array>
getShardingRules(const ExampleParallelism &parallelism,
                 const ShardableModel &model) {
  using llvm::json::Array;
  using llvm::json::Object;
  for (const auto &[name, size] : parallelism.meshShape)
    if (size < 1)
      return makeExampleError("mesh axis \"" + name +
                              "\" must have a size of at least 1 (got " +
                              llvm::Twine(size) + ")");
  auto requireAxis = [&](llvm::StringRef axis,
                         llvm::StringRef sharding) -> llvm::Error {
    if (llvm::any_of(parallelism.meshShape,
                     [&](const auto &entry) { return entry.first == axis; }))
      return llvm::Error::success();
    return makeExampleError(sharding + " sharding needs a mesh axis \"" +
                            axis + "\" (e.g. --mesh-shape " + axis + "=2)");
  };
  // A list with `axis` at dimension `dim` of a tensor of `rank`.
  auto shardedAt = [](int64_t rank, int64_t dim, llvm::StringRef axis) {
    Array dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(d == dim ? llvm::json::Value(axis) : nullptr);
    return dims;
  };
  Array rules;
  auto addBatchRule = [&] {
    rules.push_back(Object{{"match", "^[xy]$"},
                           {"sharding", shardedAt(model.inputRank, 0, "data")}});
  };
  auto addTensorRules = [&] {
    rules.push_back(Object{{"match", model.columnParallel},
                           {"sharding", shardedAt(2, 1, "model")}});
    rules.push_back(Object{{"match", model.rowParallel},
                           {"sharding", shardedAt(2, 0, "model")}});
  };
  switch (parallelism.sharding) {
  case ExampleSharding::kNone:
    break;
  case ExampleSharding::kData:
    if (llvm::Error error = requireAxis("data", "dp"))
      return std::move(error);
    addBatchRule();
    break;
  case ExampleSharding::kTensor:
  case ExampleSharding::kTensorAndSequence:
    if (llvm::Error error = requireAxis(
            "model", parallelism.sharding == ExampleSharding::kTensor
                         ? "tp"
                         : "tp+sp"))
      return std::move(error);
    // tp+sp's activation shardings are the model's (sharding constraints
    // in its layers); the rules are tp's.
    addTensorRules();
    break;
  case ExampleSharding::kFsdp:
    if (llvm::Error error = requireAxis("data", "fsdp"))
      return std::move(error);
    // The batch first, so that the fsdp rule only takes the weights.
    addBatchRule();
    rules.push_back(Object{{"fsdp", "data"}});
    break;
  case ExampleSharding::kTensorAndData:
    if (llvm::Error error = requireAxis("data", "tp+dp"))
      return std::move(error);
    if (llvm::Error error = requireAxis("model", "tp+dp"))
      return std::move(error);
    addBatchRule();
    addTensorRules();
    break;
  }
  return rules;
}

std::string writeConfig(const ExampleTrainingOptions &options,
                        const Placement &placement,
                        const llvm::json::Array &shardingRules) {
  const int64_t stages = placement.stageMeshes.size();
  std::vector<ConfigMesh> topology;
  for (int64_t m = 0; m < options.meshes; ++m)
    topology.push_back({formatv("m{0}", m).str(), options.parallelism.meshShape});
  std::vector<ConfigPlacement> assignment;
  for (int64_t i = 0; i < options.layers; ++i) {
    int64_t stage = i * stages / options.layers;
    assignment.push_back(
        {formatv("layer_{0}", i).str(), placement.stageMeshes[stage], stage});
  }
  return writeCompileConfig(topology, assignment, placement.schedule,
                            shardingRules);
}

llvm::StringRef getElementTypeName(ElementType type) {
  switch (type) {
  case ElementType::kF32:
    return "f32";
  case ElementType::kF64:
    return "f64";
  case ElementType::kBF16:
    return "bf16";
  }
  llvm_unreachable("unknown example element type");
}

llvm::StringRef getMasterTypeName(ElementType type) {
  return type == ElementType::kBF16 ? "f32" : getElementTypeName(type);
}

std::string formatFloat(double value) {
  return formatv("{0}", llvm::format("%.17e", value)).str();
}

namespace {

/// "[R-1]" (the reduced last axis) and "[0, ..., R-2]" (the broadcast
/// dimensions back to the tensor).
std::pair<std::string, std::string> getNormDimensions(int64_t rank) {
  std::string kept;
  for (int64_t d = 0; d + 1 < rank; ++d)
    kept += (d ? ", " : "") + std::to_string(d);
  return {formatv("[{0}]", rank - 1).str(), "[" + kept + "]"};
}

} // namespace

void writeLastAxisNorm(llvm::raw_ostream &os, const NormTypes &types,
                       llvm::StringRef input, llvm::StringRef name) {
  auto [reduced, kept] = getNormDimensions(types.rank);
  os << formatv(
      "    %{0}_sum = stablehlo.reduce(%{1} init: %zero) applies stablehlo.add "
      "across dimensions = {5} : ({2}, {3}) -> {4}\n"
      "    %{0}_mean = stablehlo.divide %{0}_sum, %width : {4}\n"
      "    %{0}_meanb = stablehlo.broadcast_in_dim %{0}_mean, dims = {6} : "
      "({4}) -> {2}\n"
      "    %{0}_c = stablehlo.subtract %{1}, %{0}_meanb : {2}\n"
      "    %{0}_sq = stablehlo.multiply %{0}_c, %{0}_c : {2}\n"
      "    %{0}_sqsum = stablehlo.reduce(%{0}_sq init: %zero) applies "
      "stablehlo.add across dimensions = {5} : ({2}, {3}) -> {4}\n"
      "    %{0}_var = stablehlo.divide %{0}_sqsum, %width : {4}\n"
      "    %{0}_vareps = stablehlo.add %{0}_var, %eps : {4}\n"
      "    %{0}_r = stablehlo.rsqrt %{0}_vareps : {4}\n"
      "    %{0}_rb = stablehlo.broadcast_in_dim %{0}_r, dims = {6} : ({4}) "
      "-> {2}\n"
      "    %{0} = stablehlo.multiply %{0}_c, %{0}_rb : {2}\n",
      name, input, types.tensor, types.scalar, types.perPosition, reduced,
      kept);
}

void writeLastAxisNormBackward(llvm::raw_ostream &os, const NormTypes &types,
                               llvm::StringRef grad, llvm::StringRef n,
                               llvm::StringRef r, llvm::StringRef result) {
  auto [reduced, kept] = getNormDimensions(types.rank);
  os << formatv(
      "    %{0}_sum = stablehlo.reduce(%{1} init: %zero) applies stablehlo.add "
      "across dimensions = {7} : ({4}, {5}) -> {6}\n"
      "    %{0}_mean = stablehlo.divide %{0}_sum, %width : {6}\n"
      "    %{0}_meanb = stablehlo.broadcast_in_dim %{0}_mean, dims = {8} : "
      "({6}) -> {4}\n"
      "    %{0}_gn = stablehlo.multiply %{1}, %{2} : {4}\n"
      "    %{0}_gnsum = stablehlo.reduce(%{0}_gn init: %zero) applies "
      "stablehlo.add across dimensions = {7} : ({4}, {5}) -> {6}\n"
      "    %{0}_gnmean = stablehlo.divide %{0}_gnsum, %width : {6}\n"
      "    %{0}_gnmeanb = stablehlo.broadcast_in_dim %{0}_gnmean, dims = {8} "
      ": ({6}) -> {4}\n"
      "    %{0}_proj = stablehlo.multiply %{2}, %{0}_gnmeanb : {4}\n"
      "    %{0}_centered = stablehlo.subtract %{1}, %{0}_meanb : {4}\n"
      "    %{0}_diff = stablehlo.subtract %{0}_centered, %{0}_proj : {4}\n"
      "    %{0}_rb = stablehlo.broadcast_in_dim %{3}, dims = {8} : ({6}) -> "
      "{4}\n"
      "    %{0} = stablehlo.multiply %{0}_diff, %{0}_rb : {4}\n",
      result, grad, n, r, types.tensor, types.scalar, types.perPosition,
      reduced, kept);
}

std::string writeMicrobatchSum(llvm::raw_ostream &os, llvm::StringRef name,
                               int64_t index, llvm::StringRef type,
                               int64_t microbatches) {
  std::string sum = formatv("%r0#{0}", index);
  for (int64_t k = 1; k < microbatches; ++k) {
    os << formatv("  %{0}_{1} = stablehlo.add {2}, %r{1}#{3} : {4}\n", name, k,
                  sum, index, type);
    sum = formatv("%{0}_{1}", name, k);
  }
  return sum;
}

std::string writeGradientSum(llvm::raw_ostream &os, llvm::StringRef suffix,
                             llvm::StringRef gradient, llvm::StringRef type,
                             llvm::StringRef sumType) {
  std::string addend = ("%" + gradient).str();
  if (type != sumType) {
    os << formatv("    {0}_wide = stablehlo.convert {0} : ({1}) -> {2}\n",
                  addend, type, sumType);
    addend += "_wide";
  }
  os << formatv("    %new_sum{0} = stablehlo.add %sum{0}, {1} : {2}\n", suffix,
                addend, sumType);
  return ("%new_sum" + suffix).str();
}

std::string
MicrobatchGradientSums::getZeros(const MicrobatchGradientSums::Weight &weight) {
  return ("%zeros_" + llvm::StringRef(weight.name).drop_front()).str();
}

void MicrobatchGradientSums::writeZeros(llvm::raw_ostream &os) const {
  llvm::StringMap<std::string> zeroByType;
  for (const Weight &weight : weights) {
    auto [found, added] = zeroByType.try_emplace(weight.type);
    if (added) {
      found->second = zeroByType.size() == 1
                          ? std::string("%zero")
                          : formatv("%zero_{0}", zeroByType.size() - 1).str();
      os << formatv("  {0} = stablehlo.constant dense<0.0> : {1}\n",
                    found->second, weight.type);
    }
    os << formatv("  {0} = stablehlo.multiply {1}, {2} : {3}\n",
                  getZeros(weight), weight.name, found->second, weight.type);
  }
}

std::string MicrobatchGradientSums::getCallOperands(int64_t call) const {
  std::string operands;
  for (auto [index, weight] : llvm::enumerate(weights))
    operands += call ? formatv(", %r{0}#{1}", call - 1, index + 1).str()
                     : ", " + getZeros(weight);
  return operands;
}

std::string MicrobatchGradientSums::getTotal(int64_t microbatches,
                                             int64_t index) {
  return formatv("%r{0}#{1}", microbatches - 1, index + 1);
}

} // namespace mlir::mpmd::examples::detail
