//===- CostFile.cpp - The cost table of `mpmd profile` and `mpmd plan` ----===//

#include "mpmd/Plan/CostFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

namespace mlir::mpmd::plan {

namespace {

using llvm::json::Object;
using llvm::json::Value;

llvm::Error makeCostError(const llvm::Twine &path, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + message);
}

/// Rejects keys outside `known`, so that a misspelt field is not ignored.
llvm::Error verifyKeys(const Object &object,
                       llvm::ArrayRef<llvm::StringRef> known,
                       const llvm::Twine &path) {
  for (const auto &entry : object)
    if (!llvm::is_contained(known, entry.first.str()))
      return makeCostError(path + "." + entry.first.str(),
                           "unknown field; expected one of " +
                               llvm::join(known, ", "));
  return llvm::Error::success();
}

/// The finite non-negative number at `key`, if present.
llvm::Expected<std::optional<double>>
getNumber(const Object &object, llvm::StringRef key, const llvm::Twine &path) {
  const Value *value = object.get(key);
  if (!value)
    return std::nullopt;
  std::optional<double> number = value->getAsNumber();
  if (!number || !std::isfinite(*number) || *number < 0)
    return makeCostError(path + "." + key,
                         "expected a finite non-negative number");
  return number;
}

llvm::Error parseComputation(const Value &value, const std::string &path,
                             ComputationCost &cost) {
  const Object *object = value.getAsObject();
  if (!object)
    return makeCostError(path, "expected an object");
  if (llvm::Error error = verifyKeys(
          *object,
          {"name", "transpose_count", "seconds", "weight_gradient_seconds",
           "activation_bytes", "boundary_bytes", "parameter_bytes",
           "accumulate_seconds", "update_seconds"},
          path))
    return error;
  std::optional<llvm::StringRef> name = object->getString("name");
  if (!name)
    return makeCostError(path + ".name", "expected a string");
  cost.name = name->str();
  std::optional<int64_t> transposeCount = object->getInteger("transpose_count");
  if (!transposeCount || *transposeCount < 0 || *transposeCount > 1)
    return makeCostError(path + ".transpose_count", "expected 0 or 1");
  cost.transposeCount = *transposeCount;
  const std::pair<llvm::StringRef, double *> numbers[] = {
      {"seconds", &cost.seconds},
      {"activation_bytes", &cost.activationBytes},
      {"boundary_bytes", &cost.boundaryBytes},
      {"parameter_bytes", &cost.parameterBytes},
      {"accumulate_seconds", &cost.accumulateSeconds},
      {"update_seconds", &cost.updateSeconds}};
  for (auto [key, target] : numbers) {
    llvm::Expected<std::optional<double>> number =
        getNumber(*object, key, path);
    if (!number)
      return number.takeError();
    if (key == "seconds" && !*number)
      return makeCostError(path + ".seconds", "missing");
    *target = number->value_or(0);
  }
  llvm::Expected<std::optional<double>> weightGradient =
      getNumber(*object, "weight_gradient_seconds", path);
  if (!weightGradient)
    return weightGradient.takeError();
  if (*weightGradient && **weightGradient > cost.seconds)
    return makeCostError(path + ".weight_gradient_seconds",
                         "exceeds the backward's seconds");
  cost.weightGradientSeconds = *weightGradient;
  return llvm::Error::success();
}

} // namespace

llvm::Expected<CostFile> parseCostFile(llvm::StringRef jsonText) {
  llvm::Expected<Value> json = llvm::json::parse(jsonText);
  if (!json)
    return makeCostError("costs",
                         "invalid JSON: " + llvm::toString(json.takeError()));
  const Object *root = json->getAsObject();
  if (!root)
    return makeCostError("costs", "expected an object");
  // The field of cost files written before compute_factor replaced it.
  if (root->get("concurrency_slowdown"))
    return makeCostError("costs.concurrency_slowdown",
                         "this cost file comes from an older 'mpmd profile' "
                         "(its factor is now compute_factor, measured "
                         "differently); run 'mpmd profile' again");
  if (llvm::Error error =
          verifyKeys(*root,
                     {"microbatches", "link_bandwidth_bytes_per_second",
                      "link_latency_seconds", "action_overhead_seconds",
                      "compute_factor", "computations"},
                     "costs"))
    return std::move(error);
  CostFile file;
  std::optional<int64_t> microbatches = root->getInteger("microbatches");
  if (!microbatches || *microbatches < 1)
    return makeCostError("costs.microbatches",
                         "expected a positive integer (the microbatches of "
                         "the profiled step)");
  file.microbatches = *microbatches;
  llvm::Expected<std::optional<double>> bandwidth =
      getNumber(*root, "link_bandwidth_bytes_per_second", "costs");
  if (!bandwidth)
    return bandwidth.takeError();
  if (*bandwidth && **bandwidth == 0)
    return makeCostError("costs.link_bandwidth_bytes_per_second",
                         "must be positive");
  file.linkBandwidth = *bandwidth;
  for (auto [key, target] :
       {std::pair{llvm::StringRef("link_latency_seconds"), &file.linkLatency},
        std::pair{llvm::StringRef("action_overhead_seconds"),
                  &file.actionOverhead}}) {
    llvm::Expected<std::optional<double>> number =
        getNumber(*root, key, "costs");
    if (!number)
      return number.takeError();
    *target = number->value_or(0);
  }
  llvm::Expected<std::optional<double>> computeFactor =
      getNumber(*root, "compute_factor", "costs");
  if (!computeFactor)
    return computeFactor.takeError();
  if (*computeFactor && !(**computeFactor > 0))
    return makeCostError("costs.compute_factor", "must be positive");
  file.computeFactor = computeFactor->value_or(1);
  const llvm::json::Array *computations = root->getArray("computations");
  if (!computations)
    return makeCostError("costs.computations",
                         "expected a list of computation costs");
  for (auto [index, value] : llvm::enumerate(*computations)) {
    ComputationCost &cost = file.computations.emplace_back();
    if (llvm::Error error = parseComputation(
            value, llvm::formatv("costs.computations[{0}]", index).str(), cost))
      return std::move(error);
  }
  return file;
}

std::string writeCostFile(const CostFile &file) {
  // JSON's shortest exact form: "0.001", not "1.000000e-03".
  auto number = [](double value) { return Value(value); };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\n  \"microbatches\": " << file.microbatches << ",\n";
  if (file.linkBandwidth)
    os << "  \"link_bandwidth_bytes_per_second\": "
       << number(*file.linkBandwidth) << ",\n";
  os << "  \"link_latency_seconds\": " << number(file.linkLatency) << ",\n"
     << "  \"action_overhead_seconds\": " << number(file.actionOverhead)
     << ",\n  \"compute_factor\": " << number(file.computeFactor)
     << ",\n  \"computations\": [";
  for (auto [index, cost] : llvm::enumerate(file.computations)) {
    os << (index ? ",\n" : "\n") << "    {\"name\": " << Value(cost.name)
       << ", \"transpose_count\": " << cost.transposeCount
       << ", \"seconds\": " << number(cost.seconds);
    if (cost.weightGradientSeconds)
      os << ", \"weight_gradient_seconds\": "
         << number(*cost.weightGradientSeconds);
    if (cost.transposeCount == 0) {
      os << llvm::formatv(", \"activation_bytes\": {0:F0}, \"boundary_bytes\": "
                          "{1:F0}, \"parameter_bytes\": {2:F0}",
                          cost.activationBytes, cost.boundaryBytes,
                          cost.parameterBytes);
      os << ", \"accumulate_seconds\": " << number(cost.accumulateSeconds)
         << ", \"update_seconds\": " << number(cost.updateSeconds);
    }
    os << "}";
  }
  os << "\n  ]\n}\n";
  return text;
}

llvm::Expected<CostTable>
makeCostTable(const CostFile &file, llvm::ArrayRef<std::string> layerNames) {
  llvm::StringMap<size_t> layerOf;
  for (auto [index, name] : llvm::enumerate(layerNames))
    layerOf.try_emplace(name, index);
  CostTable table;
  table.microbatches = file.microbatches;
  if (file.linkBandwidth)
    table.linkBandwidth = *file.linkBandwidth;
  table.linkLatency = file.linkLatency;
  table.actionOverhead = file.actionOverhead;
  table.computeFactor = file.computeFactor;
  for (const std::string &name : layerNames)
    table.layers.push_back({name});
  std::vector<bool> hasForward(layerNames.size(), false);
  for (auto [index, cost] : llvm::enumerate(file.computations)) {
    auto it = layerOf.find(cost.name);
    if (it == layerOf.end())
      return makeCostError(
          llvm::formatv("costs.computations[{0}]", index).str(),
          "the model has no named computation '" + cost.name + "'");
    LayerCost &layer = table.layers[it->second];
    if (cost.transposeCount == 0) {
      hasForward[it->second] = true;
      layer.forward = cost.seconds;
      layer.activationBytes = cost.activationBytes;
      layer.boundaryBytes = cost.boundaryBytes;
      layer.parameterBytes = cost.parameterBytes;
      layer.accumulate = cost.accumulateSeconds;
      layer.update = cost.updateSeconds;
      continue;
    }
    layer.weightGradient =
        cost.weightGradientSeconds.value_or(cost.seconds / 2);
    layer.backward = cost.seconds - layer.weightGradient;
  }
  for (auto [name, present] : llvm::zip(layerNames, hasForward))
    if (!present)
      return makeCostError("costs", "no forward cost (transpose_count 0) for "
                                    "the model's named computation '" +
                                        name + "'");
  return table;
}

} // namespace mlir::mpmd::plan
