//===- Config.h - The configuration of `mpmd compile` -----------*- C++ -*-===//
//
// What upstream's JAX `make_config` takes, read from JSON:
//
//   {
//     "topology": [["m0", [["x", 2]]], ["m1", [["x", 2]], {"device_ids": [1, 0]}]],
//     "assignment": {"layer1": "m0", "layer2": {"mesh": "m1", "stage": 1}},
//     "input_assignment": ["m0", null, "m1#pinned_host"],
//     "output_assignment": ["m1"],
//     "schedule": "1F1B",
//     "merge_rules": ["FragmentMergeRule(sources=[...],target=...)"],
//     "partitioning_options": {"mpmd_infer_transfers": true},
//     "in_shardings": ["#sdy.sharding<@mesh, [{\"data\"}, {}]>", null],
//     "out_shardings": [[["data"], null]],
//     "sharding_rules": [{"match": "^w1_", "sharding": [null, "model"]},
//                        {"fsdp": ["data"], "min_size": 1024}],
//     "plan": {"step_seconds": 0.018, "description": "1F1B, 2 meshes ..."}
//   }
//
// The topology is a list because JSON objects are unordered and the order of
// meshes (a mesh's position is its pipeline stage) and of axes matters; it is
// upstream's `topology_shape = [(name, [(axis, size), ...]), ...]`; an
// optional third entry `{"device_ids": [...]}` numbers a mesh's devices as
// sdy's `device_ids` does.
// `schedule` is a built-in schedule name, `{"generated": NAME}` (a schedule
// generated for the program's meshes and stages, e.g. Interleaved1F1B, ZB-V)
// or a list of FragmentScheduleRule strings. Every error names the JSON path
// of the offending field (`config.assignment.layer3: unknown mesh "m9"; ...`).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_CONFIG_H
#define MPMD_DRIVER_CONFIG_H

#include "mpmd/Transforms/Common/PassOptions.h"
#include "mpmd/Transforms/Optimize/FragmentRules.h"
#include "mpmd/Transforms/Optimize/PipelineSchedule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::mpmd::driver {

/// A mesh of the topology: its name, its ordered (axis, size) pairs and the
/// device at each row-major position of the axes.
struct TopologyMesh {
  std::string name;
  std::vector<std::pair<std::string, int64_t>> axes;
  /// `{"device_ids": [...]}`: position p of the mesh is device
  /// `deviceIds[p]`, a permutation of 0..N-1; empty for the iota order (a
  /// given iota is stored empty, as sdy prints it).
  std::vector<int64_t> deviceIds;

  bool operator==(const TopologyMesh &other) const = default;
};

/// Upstream's partitioning options (`partitioning_options.py`), under their
/// JSON names `mpmd_<snake_case of the field>`.
struct PartitioningOptions {
  bool inferTransfers = false;
  bool inferCrossMeshReductions = false;
  bool fragmentRemat = false;
  bool mergeRematFragments = false;
  bool splitBwdFragments = false;
  /// Accepted for compatibility; upstream parses it and uses it nowhere.
  bool assumeHomogeneousDevices = false;
  bool absorbInferredFragmentsOnEntryPointFunction = false;
  bool copyConstantCreationFromProducerToConsumer = false;
  bool mergeInferredAfterScheduling = false;
  bool failOnBackwardDeps = false;
  bool applyMergeTransfers = false;
  /// SPMD-partition the fragments of meshes of several devices whose values
  /// are sharded (-mpmd-partition-fragment-bodies); ours, not upstream's.
  bool partitionFragmentBodies = true;

  bool operator==(const PartitioningOptions &other) const = default;
};

/// A sharding as the config writes it: upstream's attribute text
/// (`#sdy.sharding<@mesh, [{"data"}, {}]>`) or a PartitionSpec-like list
/// whose entry d lists the axes of dimension d, major to minor (closed;
/// none: replicated). Checked against the program by `resolveShardings`.
struct ShardingSpec {
  /// The attribute text; empty for a PartitionSpec.
  std::string attribute;
  std::vector<std::vector<std::string>> dims;
  /// Where the config writes it (`config.in_shardings[2]`).
  std::string path;
};

/// What `mpmd plan` predicted for the configuration it wrote: carried to
/// `mpmd run --summary`, which puts the measured step next to it.
struct PlanPrediction {
  /// The predicted step time (seconds, > 0).
  double stepSeconds = 0;
  /// The idle share of all meshes, in [0, 1]; none when not given.
  std::optional<double> bubbleFraction;
  /// The largest peak of any device, in bytes; none when not given.
  std::optional<double> peakBytes;
  /// The candidate in words ("1F1B, 2 meshes x 1 stage, 8 microbatches").
  std::string description;
};

/// One entry of `sharding_rules`: inputs of @main whose name matches
/// `pattern` (a regex, searched) take `sharding`; an `fsdp` rule shards the
/// largest dimension divisible by the product of `fsdpAxes` of every input
/// of at least `minSize` elements over those axes.
struct ShardingRule {
  std::string pattern;
  ShardingSpec sharding;
  /// Non-empty for an fsdp rule.
  std::vector<std::string> fsdpAxes;
  int64_t minSize = 0;
  std::string path;
};

struct Config {
  /// Ordered meshes; never empty.
  std::vector<TopologyMesh> topology;
  /// Named computation or tensor → mesh[#kind] and optional stage.
  UserAssignmentMap assignment;
  /// Entry-function input/output index → mesh[#kind].
  IndexedAssignmentMap inputAssignment;
  IndexedAssignmentMap outputAssignment;
  /// The built-in schedule (`"schedule": NAME` or the partitioning option
  /// `mpmd_pipeline_schedule`); GPipe, upstream's C++ default, when unset.
  PipelineSchedule pipelineSchedule = PipelineSchedule::kGPipe;
  /// `"schedule": {"generated": NAME}`, canonical name; empty when unset.
  std::string generatedSchedule;
  /// The generated schedule runs weight gradients on their own, so
  /// `options.splitBwdFragments` is set.
  bool generatedScheduleNeedsSplit = false;
  /// `"schedule": [rule, ...]`.
  std::vector<FragmentScheduleRule> scheduleRules;
  std::vector<FragmentMergeRule> mergeRules;
  PartitioningOptions options;
  /// Per input (output) of @main, its sharding or none.
  std::vector<std::optional<ShardingSpec>> inShardings, outShardings;
  /// Applied in order to the inputs `inShardings` leaves open: the first
  /// rule that applies to an input decides.
  std::vector<ShardingRule> shardingRules;
  /// `"plan"`: the prediction of `mpmd plan`; no effect on compilation.
  std::optional<PlanPrediction> plan;

  /// Whether every mesh of the topology has the same axes and device ids, so
  /// that one sdy mesh (`@mesh`) serves them all.
  bool isHomogeneous() const;

  /// The topology mesh called `name`, or null. O(meshes).
  const TopologyMesh *findMesh(llvm::StringRef name) const;
};

/// The JSON names of the partitioning options, in documentation order.
std::vector<llvm::StringRef> getPartitioningOptionNames();

/// Parses and validates a configuration. The error message starts with the
/// JSON path of the offending field (`config.topology[1][0]: ...`).
/// O(size of the text + assignments × log).
llvm::Expected<Config> parseConfig(llvm::StringRef jsonText);

/// Reads and parses the configuration file at `path`.
llvm::Expected<Config> readConfigFile(llvm::StringRef path);

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_CONFIG_H
