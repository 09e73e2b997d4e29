//===- ConfigText.h - The text of an `mpmd compile` config ------*- C++ -*-===//
//
// Writes the configuration that `mpmd example` and `mpmd plan` hand to
// `mpmd compile` (docs/config.md): the topology, each named computation on
// a mesh and stage, the schedule and transfer inference, one line per mesh
// list and per computation. Plain C++ without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_EXAMPLES_CONFIGTEXT_H
#define MPMD_EXAMPLES_CONFIGTEXT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::mpmd::examples {

struct ConfigMesh {
  std::string name;
  /// Ordered (axis, size) pairs.
  std::vector<std::pair<std::string, int64_t>> axes;
  /// The mesh's `device_ids` (config.md, "Device ids"); empty: iota order.
  std::vector<int64_t> deviceIds = {};
};

/// A named computation on `topology[mesh]` in pipeline stage `stage`.
struct ConfigPlacement {
  std::string name;
  int64_t mesh;
  int64_t stage;
};

/// The config's JSON text; `schedule` is its "schedule" value,
/// `shardingRules`, when not empty, its "sharding_rules" (one line each),
/// and `plan`, when not empty, its "plan" (what `mpmd plan` predicted).
std::string writeCompileConfig(llvm::ArrayRef<ConfigMesh> topology,
                               llvm::ArrayRef<ConfigPlacement> assignment,
                               const llvm::json::Value &schedule,
                               const llvm::json::Array &shardingRules = {},
                               const llvm::json::Object &plan = {});

} // namespace mlir::mpmd::examples

#endif // MPMD_EXAMPLES_CONFIGTEXT_H
