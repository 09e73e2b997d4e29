//===- ConfigText.cpp - The text of an `mpmd compile` config --------------===//

#include "mpmd/Examples/ConfigText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::mpmd::examples {

std::string writeCompileConfig(llvm::ArrayRef<ConfigMesh> topology,
                               llvm::ArrayRef<ConfigPlacement> assignment,
                               const llvm::json::Value &schedule,
                               const llvm::json::Array &shardingRules,
                               const llvm::json::Object &plan) {
  using llvm::json::Value;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\n  \"topology\": [";
  for (auto [index, mesh] : llvm::enumerate(topology)) {
    os << (index ? ", " : "") << "[" << Value(mesh.name) << ", [";
    for (auto [axisIndex, axis] : llvm::enumerate(mesh.axes))
      os << (axisIndex ? ", " : "") << "[" << Value(axis.first) << ", "
         << axis.second << "]";
    os << "]";
    if (!mesh.deviceIds.empty())
      os << ", " << Value(llvm::json::Object{
                        {"device_ids", llvm::json::Array(mesh.deviceIds)}});
    os << "]";
  }
  os << "],\n  \"assignment\": {";
  for (auto [index, placement] : llvm::enumerate(assignment))
    os << (index ? "," : "") << "\n    " << Value(placement.name)
       << llvm::formatv(": {{\"mesh\": {0}, \"stage\": {1}}",
                        Value(topology[placement.mesh].name), placement.stage);
  os << "\n  },\n  \"schedule\": " << schedule
     << ",\n  \"partitioning_options\": {\"mpmd_infer_transfers\": true}";
  if (!shardingRules.empty()) {
    os << ",\n  \"sharding_rules\": [";
    for (auto [index, rule] : llvm::enumerate(shardingRules))
      os << (index ? "," : "") << "\n    " << rule;
    os << "\n  ]";
  }
  if (!plan.empty())
    os << ",\n  \"plan\": " << Value(llvm::json::Object(plan));
  os << "\n}\n";
  return text;
}

} // namespace mlir::mpmd::examples
