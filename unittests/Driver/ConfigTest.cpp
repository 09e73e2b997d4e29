//===- ConfigTest.cpp - Tests of the driver's JSON configuration ----------===//

#include "mpmd/Driver/Config.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir::mpmd;
using namespace mlir::mpmd::driver;

namespace {

std::string errorOf(llvm::Expected<Config> config) {
  if (config)
    return "(no error)";
  return llvm::toString(config.takeError());
}

constexpr const char *kTwoMeshes =
    R"("topology": [["m1", [["data", 4], ["model", 2]]], ["m0", [["x", 8]]]])";

std::string withTopology(const std::string &fields) {
  return std::string("{") + kTwoMeshes + (fields.empty() ? "" : ", ") + fields +
         "}";
}

TEST(ConfigTest, TopologyKeepsMeshAndAxisOrder) {
  llvm::Expected<Config> config = parseConfig(withTopology(""));
  ASSERT_TRUE(static_cast<bool>(config)) << errorOf(std::move(config));
  ASSERT_EQ(config->topology.size(), 2u);
  // Listed order, not sorted: m1 is the first pipeline stage.
  EXPECT_EQ(config->topology[0],
            (TopologyMesh{"m1", {{"data", 4}, {"model", 2}}, {}}));
  EXPECT_EQ(config->topology[1], (TopologyMesh{"m0", {{"x", 8}}, {}}));
  EXPECT_EQ(config->findMesh("m0"), &config->topology[1]);
  EXPECT_EQ(config->findMesh("m2"), nullptr);
  // Defaults: upstream's C++ schedule, no rules, all options off.
  EXPECT_EQ(config->pipelineSchedule, PipelineSchedule::kGPipe);
  EXPECT_TRUE(config->generatedSchedule.empty());
  EXPECT_EQ(config->options, PartitioningOptions());
}

TEST(ConfigTest, AssignmentsWithStagesAndMemoryKinds) {
  llvm::Expected<Config> config = parseConfig(withTopology(R"(
      "assignment": {"f": "m1", "g": {"mesh": "m0", "stage": 3},
                     "t": "m0#pinned_host"},
      "input_assignment": ["m1", null, "m0#device"],
      "output_assignment": [null, "m1"])"));
  ASSERT_TRUE(static_cast<bool>(config)) << errorOf(std::move(config));
  EXPECT_EQ(config->assignment.entries.size(), 3u);
  EXPECT_EQ(config->assignment.entries.at("f"),
            (MeshAssignment{"m1", std::nullopt, std::nullopt}));
  EXPECT_EQ(config->assignment.entries.at("g"),
            (MeshAssignment{"m0", std::nullopt, 3}));
  EXPECT_EQ(config->assignment.entries.at("t"),
            (MeshAssignment{"m0", "pinned_host", std::nullopt}));
  ASSERT_EQ(config->inputAssignment.entries.size(), 2u);
  EXPECT_EQ(config->inputAssignment.entries.at(0).meshName, "m1");
  EXPECT_EQ(config->inputAssignment.entries.at(2),
            (MeshAssignment{"m0", "device", std::nullopt}));
  ASSERT_EQ(config->outputAssignment.entries.size(), 1u);
  EXPECT_EQ(config->outputAssignment.entries.at(1).meshName, "m1");
}

TEST(ConfigTest, ScheduleForms) {
  llvm::Expected<Config> builtin =
      parseConfig(withTopology(R"("schedule": "1f1b")"));
  ASSERT_TRUE(static_cast<bool>(builtin)) << errorOf(std::move(builtin));
  EXPECT_EQ(builtin->pipelineSchedule, PipelineSchedule::k1F1B);

  llvm::Expected<Config> generated =
      parseConfig(withTopology(R"("schedule": {"generated": "zbv"})"));
  ASSERT_TRUE(static_cast<bool>(generated)) << errorOf(std::move(generated));
  // Canonical name; ZB-V schedules weight gradients, so backward fragments
  // are split.
  EXPECT_EQ(generated->generatedSchedule, "ZB-V");
  EXPECT_TRUE(generated->options.splitBwdFragments);

  llvm::Expected<Config> interleaved = parseConfig(
      withTopology(R"("schedule": {"generated": "Interleaved1F1B"})"));
  ASSERT_TRUE(static_cast<bool>(interleaved));
  EXPECT_FALSE(interleaved->options.splitBwdFragments);

  llvm::Expected<Config> rules = parseConfig(withTopology(R"json(
      "schedule": ["FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=[\"f\"],mesh_name=\"m1\")->FragmentInfo(origins=[\"f\"(1)],mesh_name=\"m1\")])"],
      "merge_rules": ["FragmentMergeRule(sources=[FragmentInfo(origins=[\"f\"]),FragmentInfo(origins=[\"g\"])],target=FragmentInfo(origins=[\"f\",\"g\"]))"])json"));
  ASSERT_TRUE(static_cast<bool>(rules)) << errorOf(std::move(rules));
  ASSERT_EQ(rules->scheduleRules.size(), 1u);
  EXPECT_EQ(rules->scheduleRules[0].orderedFragments.size(), 2u);
  EXPECT_EQ(rules->scheduleRules[0].orderedFragments[1].origins[0],
            (FragmentOrigin{"f", 1}));
  ASSERT_EQ(rules->mergeRules.size(), 1u);
  EXPECT_EQ(rules->mergeRules[0].sources.size(), 2u);
}

TEST(ConfigTest, PartitioningOptionsUnderUpstreamNames) {
  llvm::Expected<Config> config = parseConfig(withTopology(R"(
      "partitioning_options": {
        "mpmd_infer_transfers": true, "mpmd_fragment_remat": true,
        "mpmd_merge_remat_fragments": true,
        "mpmd_merge_inferred_after_scheduling": true,
        "mpmd_copy_constant_creation_from_producer_to_consumer": true,
        "mpmd_apply_merge_transfers_pass": true,
        "mpmd_partition_fragment_bodies": false,
        "mpmd_pipeline_schedule": "ZeroBubbleH1"})"));
  ASSERT_TRUE(static_cast<bool>(config)) << errorOf(std::move(config));
  PartitioningOptions expected;
  expected.inferTransfers = true;
  expected.fragmentRemat = true;
  expected.mergeRematFragments = true;
  expected.mergeInferredAfterScheduling = true;
  expected.copyConstantCreationFromProducerToConsumer = true;
  expected.applyMergeTransfers = true;
  // Ours, on by default.
  expected.partitionFragmentBodies = false;
  // Required by the zero-bubble schedule and not given: set.
  expected.splitBwdFragments = true;
  EXPECT_EQ(config->options, expected);
  EXPECT_EQ(config->pipelineSchedule, PipelineSchedule::kZeroBubbleH1);
}

TEST(ConfigTest, ErrorsNameTheJsonPath) {
  EXPECT_EQ(errorOf(parseConfig(withTopology(R"("assignment": {"l3": "m9"})"))),
            "config.assignment.l3: unknown mesh \"m9\"; meshes are m1, m0");
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("assignment": {"l3": {"mesh": "m1", "stage": -2}})"))),
            "config.assignment.l3.stage: stage must be >= 0, got -2");
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("assignment": {"l3": {"mesh": "m1", "stag": 2}})"))),
            "config.assignment.l3.stag: unknown field; expected mesh, stage");
  EXPECT_EQ(errorOf(parseConfig(
                R"({"topology": [["m1", [["x", 2]]], ["m1", [["x", 2]]]]})")),
            "config.topology[1][0]: mesh \"m1\" is defined twice");
  EXPECT_EQ(errorOf(parseConfig(R"({"topology": [["m1", [["x", 0]]]]})")),
            "config.topology[0][1][0][1]: axis size must be positive, got 0");
  EXPECT_EQ(errorOf(parseConfig(R"({"topology": [["m1", [["x", 2.5]]]]})")),
            "config.topology[0][1][0][1]: expected an integer, got a number");
  EXPECT_EQ(errorOf(parseConfig(R"({"assignment": {}})")),
            "config.topology: missing (a list of [mesh, [[axis, size], ...]] "
            "in pipeline order)");
  EXPECT_EQ(errorOf(parseConfig("[]")),
            "config: expected an object, got a list");
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("partitioning_options": {"mpmd_fragment_remat": 1})"))),
            "config.partitioning_options.mpmd_fragment_remat: expected a "
            "boolean, got a number");
  EXPECT_EQ(errorOf(parseConfig(withTopology(R"("schedule": 3)"))),
            "config.schedule: expected a schedule name, {\"generated\": NAME} "
            "or a list of FragmentScheduleRule strings, got a number");
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("schedule": {"generated": "ZB-V"},
                   "partitioning_options": {"mpmd_split_bwd_fragments": false})"))),
            "config.partitioning_options.mpmd_split_bwd_fragments: must be "
            "true with the ZB-V schedule (it schedules the split-off weight "
            "gradients)");
}

TEST(ConfigTest, PlanPredictionIsCarried) {
  llvm::Expected<Config> without = parseConfig(withTopology(""));
  ASSERT_TRUE(static_cast<bool>(without))
      << llvm::toString(without.takeError());
  EXPECT_FALSE(without->plan.has_value());
  llvm::Expected<Config> config = parseConfig(withTopology(
      R"("plan": {"step_seconds": 0.0125, "bubble_fraction": 0.25,
                  "peak_bytes": 4096, "description": "1F1B, 2 meshes"})"));
  ASSERT_TRUE(static_cast<bool>(config)) << llvm::toString(config.takeError());
  ASSERT_TRUE(config->plan.has_value());
  EXPECT_DOUBLE_EQ(config->plan->stepSeconds, 0.0125);
  EXPECT_EQ(config->plan->bubbleFraction, 0.25);
  EXPECT_EQ(config->plan->peakBytes, 4096);
  EXPECT_EQ(config->plan->description, "1F1B, 2 meshes");
  llvm::Expected<Config> stepOnly =
      parseConfig(withTopology(R"("plan": {"step_seconds": 2})"));
  ASSERT_TRUE(static_cast<bool>(stepOnly))
      << llvm::toString(stepOnly.takeError());
  EXPECT_FALSE(stepOnly->plan->bubbleFraction.has_value());
  EXPECT_TRUE(stepOnly->plan->description.empty());
}

TEST(ConfigTest, PlanErrorsNameTheField) {
  EXPECT_EQ(errorOf(parseConfig(withTopology(R"("plan": 3)"))),
            "config.plan: expected an object, got a number");
  EXPECT_EQ(errorOf(parseConfig(withTopology(R"("plan": {})"))),
            "config.plan: step_seconds is required");
  EXPECT_EQ(
      errorOf(parseConfig(withTopology(R"("plan": {"step_seconds": 0})"))),
      "config.plan.step_seconds: must be a finite number > 0");
  EXPECT_EQ(
      errorOf(parseConfig(withTopology(R"("plan": {"step_seconds": "1"})"))),
      "config.plan.step_seconds: expected a number, got a string");
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("plan": {"step_seconds": 1, "bubble_fraction": 1.5})"))),
            "config.plan.bubble_fraction: must be between 0 and 1");
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("plan": {"step_seconds": 1, "peak_bytes": -1})"))),
            "config.plan.peak_bytes: must be a finite number >= 0");
  EXPECT_EQ(errorOf(parseConfig(
                withTopology(R"("plan": {"step_seconds": 1, "steps": 2})"))),
            "config.plan.steps: unknown field; expected one of step_seconds, "
            "bubble_fraction, peak_bytes, description");
}

TEST(ConfigTest, RepeatedKeysAreErrorsNamingTheirPath) {
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("assignment": {"f": "m1", "g": "m0", "f": "m1"})"))),
            "config.assignment.f: is given twice; a key may appear once per "
            "object");
  // Keys compare decoded; braces, brackets and quotes inside strings are
  // not structure.
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("assignment": {"a}\"[": "m1", "a}\u0022[": "m1"})"))),
            "config.assignment.a}\"[: is given twice; a key may appear once "
            "per object");
  EXPECT_EQ(
      errorOf(
          parseConfig(withTopology(R"("merge_rules": [{"x": 1, "x": 2}])"))),
      "config.merge_rules[0].x: is given twice; a key may appear once per "
      "object");
  // The same key in different objects is no repetition.
  EXPECT_EQ(
      errorOf(parseConfig(withTopology(
          R"("assignment": {"f": {"mesh": "m1"}, "g": {"mesh": "m0"}})"))),
      "(no error)");
}

TEST(ConfigTest, MeshesWhoseDeviceCountOverflowsAreErrors) {
  EXPECT_EQ(
      errorOf(parseConfig(
          R"({"topology": [["m1", [["x", 4294967296], ["y", 4294967296]]]]})")),
      "config.topology[0][1]: the product of the axis sizes of mesh \"m1\" "
      "does not fit in 64 bits");
}

TEST(ConfigTest, MeshDeviceIds) {
  llvm::Expected<Config> config = parseConfig(
      R"({"topology": [["m0", [["x", 2], ["y", 2]], {"device_ids": [3, 1, 2, 0]}],
                       ["m1", [["x", 2], ["y", 2]], {"device_ids": [0, 1, 2, 3]}],
                       ["m2", [["x", 2], ["y", 2]]]]})");
  ASSERT_TRUE(static_cast<bool>(config)) << errorOf(std::move(config));
  EXPECT_EQ(config->topology[0].deviceIds,
            (std::vector<int64_t>{3, 1, 2, 0}));
  // An iota is the default order, stored as none (sdy drops it too).
  EXPECT_TRUE(config->topology[1].deviceIds.empty());
  EXPECT_TRUE(config->topology[2].deviceIds.empty());
  // Meshes that differ only in their ids are of different shapes.
  EXPECT_FALSE(config->isHomogeneous());
  llvm::Expected<Config> same = parseConfig(
      R"({"topology": [["m0", [["x", 2]], {"device_ids": [1, 0]}],
                       ["m1", [["x", 2]], {"device_ids": [1, 0]}]]})");
  ASSERT_TRUE(static_cast<bool>(same)) << errorOf(std::move(same));
  EXPECT_TRUE(same->isHomogeneous());
}

TEST(ConfigTest, BadMeshDeviceIdsNameTheMesh) {
  EXPECT_EQ(
      errorOf(parseConfig(
          R"({"topology": [["m0", [["x", 2]], {"device_ids": [0, 0]}]]})")),
      "config.topology[0][2].device_ids[1]: device id 0 of mesh \"m0\" is "
      "given twice");
  EXPECT_EQ(
      errorOf(parseConfig(
          R"({"topology": [["m0", [["x", 2]], {"device_ids": [0, 2]}]]})")),
      "config.topology[0][2].device_ids[1]: device id 2 of mesh \"m0\" is "
      "not in [0, 2); the ids are a permutation of the mesh's device "
      "positions");
  EXPECT_EQ(
      errorOf(parseConfig(
          R"({"topology": [["m0", [["x", 2]], {"device_ids": [-1, 0]}]]})")),
      "config.topology[0][2].device_ids[0]: device id -1 of mesh \"m0\" is "
      "not in [0, 2); the ids are a permutation of the mesh's device "
      "positions");
  EXPECT_EQ(
      errorOf(parseConfig(
          R"({"topology": [["m0", [["x", 2]], {"device_ids": [1, 0, 2]}]]})")),
      "config.topology[0][2].device_ids: mesh \"m0\" has 2 devices, but 3 "
      "device ids are given");
  EXPECT_EQ(
      errorOf(parseConfig(
          R"({"topology": [["m0", [["x", 2]], {"device_ids": [1, 0.5]}]]})")),
      "config.topology[0][2].device_ids[1]: expected an integer, got a number");
  EXPECT_EQ(errorOf(parseConfig(
                R"({"topology": [["m0", [["x", 2]], {"ids": [1, 0]}]]})")),
            "config.topology[0][2].ids: unknown field; expected device_ids");
  EXPECT_EQ(errorOf(parseConfig(R"({"topology": [["m0", [["x", 2]], {}]]})")),
            "config.topology[0][2].device_ids: missing");
  EXPECT_EQ(errorOf(parseConfig(
                R"({"topology": [["m0", [["x", 2]], [1, 0]]]})")),
            "config.topology[0][2]: expected {\"device_ids\": [...]}, got a "
            "list");
  EXPECT_EQ(
      errorOf(parseConfig(R"({"topology": [["m0", [["x", 2]], {}, {}]]})")),
      "config.topology[0]: expected [mesh name, [[axis, size], ...]] or [mesh "
      "name, [[axis, size], ...], {\"device_ids\": [...]}], got a list");
}

TEST(ConfigTest, ShardingsAndRules) {
  llvm::Expected<Config> config = parseConfig(withTopology(R"(
      "in_shardings": ["#sdy.sharding<@mesh, [{\"data\"}, {}]>", null,
                       [["data"], null, "model"]],
      "out_shardings": [[null, []]],
      "sharding_rules": [{"match": "^w[0-9]", "sharding": [null, ["model"]]},
                         {"fsdp": "data", "min_size": 16}])"));
  ASSERT_TRUE(static_cast<bool>(config)) << errorOf(std::move(config));
  ASSERT_EQ(config->inShardings.size(), 3u);
  EXPECT_EQ(config->inShardings[0]->attribute,
            "#sdy.sharding<@mesh, [{\"data\"}, {}]>");
  EXPECT_EQ(config->inShardings[0]->path, "config.in_shardings[0]");
  EXPECT_FALSE(config->inShardings[1]);
  EXPECT_EQ(config->inShardings[2]->dims,
            (std::vector<std::vector<std::string>>{{"data"}, {}, {"model"}}));
  ASSERT_EQ(config->outShardings.size(), 1u);
  EXPECT_EQ(config->outShardings[0]->dims,
            (std::vector<std::vector<std::string>>{{}, {}}));
  ASSERT_EQ(config->shardingRules.size(), 2u);
  EXPECT_EQ(config->shardingRules[0].pattern, "^w[0-9]");
  EXPECT_EQ(config->shardingRules[0].sharding.path,
            "config.sharding_rules[0].sharding");
  EXPECT_EQ(config->shardingRules[1].fsdpAxes,
            std::vector<std::string>{"data"});
  EXPECT_EQ(config->shardingRules[1].minSize, 16);
  EXPECT_FALSE(config->isHomogeneous());
}

TEST(ConfigTest, BadShardingsNameTheirField) {
  EXPECT_EQ(
      errorOf(parseConfig(withTopology(R"("in_shardings": [["modle"]])"))),
      "config.in_shardings[0][0]: unknown axis \"modle\"");
  EXPECT_EQ(
      errorOf(parseConfig(
          R"({"topology": [["m", [["data", 2]]]], "in_shardings": [["z"]]})")),
      "config.in_shardings[0][0]: unknown axis \"z\"; the mesh axes are "
      "data");
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("out_shardings": [["data", ["model", "data"]]])"))),
            "config.out_shardings[0][1][1]: axis \"data\" is used twice in one "
            "sharding");
  EXPECT_EQ(
      errorOf(parseConfig(withTopology(R"("in_shardings": [["data", "x"]])"))),
      "config.in_shardings[0][1]: axis \"x\" is not an axis of mesh "
      "\"m1\", whose axes the sharding uses");
  EXPECT_EQ(
      errorOf(parseConfig(withTopology(R"("in_shardings": [3])"))),
      "config.in_shardings[0]: expected a sharding \"#sdy.sharding<...>\" "
      "or a list with the axes of each dimension (null: replicated), got "
      "a number");
  EXPECT_EQ(
      errorOf(parseConfig(withTopology(R"("in_shardings": ["data"])"))),
      "config.in_shardings[0]: expected a sharding \"#sdy.sharding<@mesh, "
      "[...]>\" or a list with the axes of each dimension, got \"data\"");
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("sharding_rules": [{"match": "w(", "sharding": []}])"))),
            "config.sharding_rules[0].match: invalid regex \"w(\": parentheses "
            "not balanced");
  EXPECT_EQ(errorOf(parseConfig(
                withTopology(R"("sharding_rules": [{"match": "w"}])"))),
            "config.sharding_rules[0].sharding: missing");
  EXPECT_EQ(
      errorOf(parseConfig(withTopology(
          R"("sharding_rules": [{"match": "w", "sharding": [], "x": 1}])"))),
      "config.sharding_rules[0].x: unknown field; expected match, sharding");
  EXPECT_EQ(
      errorOf(parseConfig(
          withTopology(R"("sharding_rules": [{"fsdp": [], "min_size": 1}])"))),
      "config.sharding_rules[0].fsdp: an fsdp rule needs at least one axis");
  EXPECT_EQ(errorOf(parseConfig(withTopology(
                R"("sharding_rules": [{"fsdp": "data", "min_size": -1}])"))),
            "config.sharding_rules[0].min_size: must be >= 0, got -1");
  EXPECT_EQ(errorOf(parseConfig(withTopology(R"("sharding_rules": {})"))),
            "config.sharding_rules: expected a list of rules ({\"match\": "
            "REGEX, \"sharding\": ...} or {\"fsdp\": AXES}), got an object");
}

} // namespace
