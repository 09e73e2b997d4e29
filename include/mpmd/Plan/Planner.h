//===- Planner.h - Search of pipeline plans under a memory cap --*- C++ -*-===//
//
// Chooses how to run a model as a pipeline: how many meshes, how many
// stages per mesh, which layers each stage holds (contiguous cuts), which
// schedule and how many microbatches. Plain C++ over a cost table, no MLIR.
//
// Model of a candidate (p meshes, v stages per mesh, schedule, m microbatches):
// * The per-microbatch costs of the table were measured with
//   `CostTable::microbatches` microbatches; with m they scale by
//   `CostTable::microbatches / m` (the microbatch is that much larger or
//   smaller), plus `CostTable::actionOverhead` per action.
// * The executor's fragments compute the layers at another speed than the
//   profile of the unpartitioned model measured them (their own grouping and
//   results, the executor's threads, the caches, and devices computing at
//   once): every computed time (forward, backward, weight gradient, gradient
//   sums, update) of every candidate is multiplied by
//   `CostTable::computeFactor`.
// * A mesh of d devices splits each microbatch d ways: its stages' times and
//   activation bytes are divided by d; every device holds its stages' full
//   parameter bytes.
// * Each layer's gradient sums (`LayerCost::accumulate`, unscaled, m of
//   them) and its optimizer update (`LayerCost::update`) run after its
//   mesh's last action, as the compiler emits them (all in the mesh's last
//   backward fragment), so the step ends when the last mesh has finished
//   its actions, sums and updates.
// * The boundary after a stage takes `linkLatency + bytes / linkBandwidth`
//   per transfer (the simulator's latency), for the bytes its last layer
//   sends.
// * The layers are cut by dynamic programming over the layer sequence so
//   that the slowest stage (its work over its mesh's devices plus the
//   transfers over the boundary after it) is as fast as possible; the
//   schedule's layout (looping or V-shape) says which mesh each stage is on.
// * The schedule library builds the schedule and its simulator gives the
//   step time (makespan), the bubble fraction and each mesh's peak live
//   activation bytes; a device's peak memory is that plus its stages'
//   parameter bytes. Candidates over the memory cap are rejected.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_PLAN_PLANNER_H
#define MPMD_PLAN_PLANNER_H

#include "mpmd/Schedule/Generators.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace mlir::mpmd::plan {

/// The costs of one layer (a named computation) for one microbatch.
struct LayerCost {
  std::string name;
  /// Seconds of its forward, its backward (input gradient) and its weight
  /// gradient.
  double forward = 0;
  double backward = 0;
  double weightGradient = 0;
  /// Bytes its forward keeps for its backward.
  double activationBytes = 0;
  /// Bytes it sends to the next stage when a stage ends after it.
  double boundaryBytes = 0;
  /// Bytes held for the whole step (weights, gradient accumulators).
  double parameterBytes = 0;
  /// Seconds per microbatch of summing its weight gradients over the
  /// microbatches (the same whatever the microbatch size): all m of them
  /// at the end of its mesh's last action, with the update.
  double accumulate = 0;
  /// Seconds once per step of its optimizer update, at the end of its
  /// mesh's last action.
  double update = 0;
};

struct CostTable {
  /// In program order.
  std::vector<LayerCost> layers;
  /// The microbatch count at which the per-microbatch costs were measured.
  int64_t microbatches = 1;
  /// Bytes per second of a transfer between meshes.
  double linkBandwidth = std::numeric_limits<double>::infinity();
  /// Seconds every transfer between meshes takes beyond its bytes.
  double linkLatency = 0;
  /// Seconds every action (F, B or W of a stage) takes beyond its layers.
  double actionOverhead = 0;
  /// How much slower (> 1) or faster (< 1) the executor's fragments compute
  /// the layers than the profile says (`mpmd profile` measures the model's
  /// fragments on its even two-mesh split against their profiled time):
  /// positive.
  double computeFactor = 1;
};

struct PlanRequest {
  CostTable costs;
  /// The device count of each mesh available, in pipeline order; a
  /// candidate with p meshes uses the first p.
  std::vector<int64_t> meshDevices;
  /// The fewest meshes a candidate uses.
  int64_t minMeshes = 1;
  /// Bytes per device a candidate may use at its peak.
  double memoryPerDevice = std::numeric_limits<double>::infinity();
  /// The schedules to try.
  std::vector<schedule::ScheduleKind> schedules;
  /// The microbatch counts to try.
  std::vector<int64_t> microbatches;
  /// The most stages per mesh tried for schedules with virtual stages.
  int64_t maxStagesPerMesh = 4;
  /// How many of the best candidates to return.
  int64_t maxCandidates = 5;
};

/// One stage: its mesh and its layers [firstLayer, endLayer).
struct PlannedStage {
  int64_t mesh;
  int64_t firstLayer;
  int64_t endLayer;
};

struct PlanCandidate {
  schedule::ScheduleKind schedule;
  int64_t meshes = 0;
  int64_t stagesPerMesh = 0;
  int64_t microbatches = 0;
  /// In forward order.
  std::vector<PlannedStage> stages;
  /// Seconds: the simulated makespan of one step.
  double stepTime = 0;
  /// The idle share of all meshes over the step.
  double bubbleFraction = 0;
  /// Bytes: the largest peak of any device.
  double peakMemory = 0;
};

/// The microbatch counts `--microbatches auto` tries: 1, 2, 4, ..., 64.
std::vector<int64_t> getAutoMicrobatchCounts();

/// "ZB-H1, 4 meshes x 1 stage, 8 microbatches".
std::string describeCandidate(const PlanCandidate &candidate);

/// Scores the cut `stageFirstLayers` (the first layer of each stage, in
/// forward order, starting at 0) with `kind` on the first `params.meshes`
/// meshes; the memory cap is not applied. Fails when the schedule cannot be
/// built with these parameters or the cut does not fit its stages.
llvm::Expected<PlanCandidate>
evaluatePlan(const PlanRequest &request, schedule::ScheduleKind kind,
             const schedule::ScheduleParams &params,
             const std::vector<int64_t> &stageFirstLayers);

/// The best candidates under the memory cap, fastest first (ties: less
/// memory first). Fails on an invalid request, and when no candidate fits
/// the cap, saying the smallest peak memory any candidate needs.
/// O(meshes x stages per mesh x (schedules x microbatch counts x actions +
/// stages x layers^2)).
llvm::Expected<std::vector<PlanCandidate>>
searchPlans(const PlanRequest &request);

/// The first layer of each of `stages` stages when `layers` layers are cut
/// as evenly by count as they go (the first stages take one more when the
/// count does not divide): the cut a user picks by hand. Requires
/// 1 <= stages <= layers. O(stages).
std::vector<int64_t> getEvenCut(int64_t layers, int64_t stages);

/// For each schedule of the request and mesh count, the best candidate
/// under the memory cap (`searchPlans` with that schedule and exactly that
/// many meshes) and, where it differs, the same schedule, meshes, stages per
/// mesh and microbatches with the layers cut evenly (`getEvenCut`), fastest
/// first: the short list whose steps `mpmd plan --measure` measures.
/// Those without a candidate under the cap are left out; fails as
/// `searchPlans` when none has one. O(schedules x meshes x searchPlans).
llvm::Expected<std::vector<PlanCandidate>>
searchBestPerSchedule(const PlanRequest &request);

} // namespace mlir::mpmd::plan

#endif // MPMD_PLAN_PLANNER_H
