//===- PlannerTest.cpp - Plan search on cost tables with known optima -----===//

#include "mpmd/Plan/Planner.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir::mpmd::plan;
using mlir::mpmd::schedule::ScheduleKind;

namespace {

std::string errorOf(llvm::Error error) {
  return llvm::toString(std::move(error));
}

/// `layers` layers of F = B = W = `work` / 3, measured with `microbatches`
/// microbatches, on `meshes` meshes of one device, 1F1B only.
PlanRequest makeUniformRequest(int64_t layers, double work, int64_t meshes,
                               int64_t microbatches) {
  PlanRequest request;
  for (int64_t i = 0; i < layers; ++i)
    request.costs.layers.push_back(
        {"layer_" + std::to_string(i), work / 3, work / 3, work / 3});
  request.costs.microbatches = microbatches;
  request.meshDevices.assign(meshes, 1);
  request.schedules = {ScheduleKind::kOneFOneB};
  request.microbatches = {microbatches};
  return request;
}

std::vector<int64_t> getFirstLayers(const PlanCandidate &candidate) {
  std::vector<int64_t> firstLayers;
  for (const PlannedStage &stage : candidate.stages)
    firstLayers.push_back(stage.firstLayer);
  return firstLayers;
}

std::vector<PlanCandidate> search(const PlanRequest &request) {
  llvm::Expected<std::vector<PlanCandidate>> candidates = searchPlans(request);
  if (!candidates) {
    ADD_FAILURE() << errorOf(candidates.takeError());
    return {};
  }
  EXPECT_FALSE(candidates->empty());
  return std::move(*candidates);
}

TEST(PlannerTest, BalancedLayersSplitEvenlyOverAllMeshes) {
  // 1F1B makes (m + p - 1) x (stage work): 7 x 6 on 4 meshes beats 5 x 12
  // on 2 and 4 x 24 on 1.
  std::vector<PlanCandidate> candidates =
      search(makeUniformRequest(8, 3, 4, 4));
  ASSERT_FALSE(candidates.empty());
  const PlanCandidate &best = candidates.front();
  EXPECT_EQ(best.meshes, 4);
  EXPECT_EQ(getFirstLayers(best), (std::vector<int64_t>{0, 2, 4, 6}));
  EXPECT_DOUBLE_EQ(best.stepTime, 42);
  EXPECT_NEAR(best.bubbleFraction, 3.0 / 7, 1e-12);
  for (size_t i = 1; i < candidates.size(); ++i)
    EXPECT_LE(candidates[i - 1].stepTime, candidates[i].stepTime);
}

TEST(PlannerTest, OneHeavyLayerGetsAStageOfItsOwnShare) {
  // Work 1 per layer but 5 for the last: on two meshes the best cut is
  // 6 | 2 layers (6 and 1 + 5), not the even 4 | 4 (4 and 8).
  PlanRequest request = makeUniformRequest(8, 1, 2, 4);
  request.costs.layers.back().forward = 5.0 / 3;
  request.costs.layers.back().backward = 5.0 / 3;
  request.costs.layers.back().weightGradient = 5.0 / 3;
  std::vector<PlanCandidate> candidates = search(request);
  ASSERT_FALSE(candidates.empty());
  const PlanCandidate &best = candidates.front();
  EXPECT_EQ(best.meshes, 2);
  EXPECT_EQ(getFirstLayers(best), (std::vector<int64_t>{0, 6}));
  EXPECT_DOUBLE_EQ(best.stepTime, 5 * 6);
  llvm::Expected<PlanCandidate> even =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {2, 4, 1}, {0, 4});
  ASSERT_TRUE(static_cast<bool>(even)) << errorOf(even.takeError());
  // The 8-work stage runs 4 microbatches, plus stage 0's first F and last B.
  EXPECT_DOUBLE_EQ(even->stepTime, 4 * 8 + 4);
}

TEST(PlannerTest, MemoryCapForbidsGPipe) {
  // 100 activation bytes per layer and microbatch: on 4 meshes GPipe keeps
  // all 8 microbatches (1600 bytes), 1F1B at most 4 (800).
  PlanRequest request = makeUniformRequest(8, 3, 4, 8);
  for (LayerCost &layer : request.costs.layers)
    layer.activationBytes = 100;
  request.schedules = {ScheduleKind::kGPipe, ScheduleKind::kOneFOneB};
  request.maxCandidates = 100;
  std::vector<PlanCandidate> uncapped = search(request);
  EXPECT_TRUE(llvm::any_of(uncapped, [](const PlanCandidate &c) {
    return c.schedule == ScheduleKind::kGPipe;
  }));
  request.memoryPerDevice = 1000;
  std::vector<PlanCandidate> capped = search(request);
  ASSERT_FALSE(capped.empty());
  for (const PlanCandidate &candidate : capped) {
    EXPECT_EQ(candidate.schedule, ScheduleKind::kOneFOneB);
    EXPECT_LE(candidate.peakMemory, 1000);
  }
  EXPECT_EQ(capped.front().meshes, 4);
  EXPECT_DOUBLE_EQ(capped.front().peakMemory, 800);
}

/// One microbatch (no pipelining to gain) and a slow link: one mesh is
/// fastest, but it holds all 800 parameter bytes. (Without a cap, the cut
/// on several meshes gives the last stage more layers: it has no outgoing
/// transfer.)
PlanRequest makeParameterBoundRequest() {
  PlanRequest request = makeUniformRequest(8, 3, 4, 1);
  for (LayerCost &layer : request.costs.layers)
    layer.parameterBytes = 100;
  request.costs.linkLatency = 10;
  return request;
}

TEST(PlannerTest, MemoryCapForcesMoreStages) {
  PlanRequest request = makeParameterBoundRequest();
  std::vector<PlanCandidate> uncapped = search(request);
  ASSERT_FALSE(uncapped.empty());
  EXPECT_EQ(uncapped.front().meshes, 1);
  EXPECT_DOUBLE_EQ(uncapped.front().stepTime, 24);
  request.memoryPerDevice = 450;
  std::vector<PlanCandidate> capped = search(request);
  ASSERT_FALSE(capped.empty());
  EXPECT_EQ(capped.front().meshes, 2);
  EXPECT_DOUBLE_EQ(capped.front().peakMemory, 400);
  EXPECT_DOUBLE_EQ(capped.front().stepTime, 24 + 2 * 10);
}

TEST(PlannerTest, InfeasibleCapSaysTheSmallestFeasibleMemory) {
  PlanRequest request = makeParameterBoundRequest();
  request.memoryPerDevice = 100;
  EXPECT_EQ(errorOf(searchPlans(request).takeError()),
            "no plan fits in 100 bytes per device; the smallest feasible "
            "memory is 200 bytes per device (1F1B, 4 meshes x 1 stage, 1 "
            "microbatch)");
}

TEST(PlannerTest, LargerMeshesGetMoreLayers) {
  // Mesh 0 has two devices: 4 layers on it take as long as 2 on mesh 1.
  PlanRequest request = makeUniformRequest(6, 3, 2, 8);
  request.meshDevices = {2, 1};
  std::vector<PlanCandidate> candidates = search(request);
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates.front().meshes, 2);
  EXPECT_EQ(getFirstLayers(candidates.front()), (std::vector<int64_t>{0, 4}));
  EXPECT_DOUBLE_EQ(candidates.front().stepTime, (8 + 1) * 6);
}

TEST(PlannerTest, VirtualStagesFollowTheScheduleLayout) {
  // ZB-V puts stages 0 and 3 on mesh 0, 1 and 2 on mesh 1.
  PlanRequest request = makeUniformRequest(8, 3, 2, 4);
  request.schedules = {ScheduleKind::kZeroBubbleV};
  std::vector<PlanCandidate> candidates = search(request);
  ASSERT_FALSE(candidates.empty());
  const PlanCandidate &best = candidates.front();
  EXPECT_EQ(best.stagesPerMesh, 2);
  ASSERT_EQ(best.stages.size(), 4u);
  EXPECT_EQ(best.stages[0].mesh, 0);
  EXPECT_EQ(best.stages[3].mesh, 0);
  EXPECT_EQ(getFirstLayers(best), (std::vector<int64_t>{0, 2, 4, 6}));
}

TEST(PlannerTest, MoreMicrobatchesShrinkTheBubbleUntilOverheadsDominate) {
  // Per-action overhead makes small microbatches costly: auto counts pick
  // neither the fewest nor the most.
  PlanRequest request = makeUniformRequest(4, 3, 4, 1);
  request.microbatches = getAutoMicrobatchCounts();
  request.costs.actionOverhead = 0.01;
  std::vector<PlanCandidate> candidates = search(request);
  ASSERT_FALSE(candidates.empty());
  EXPECT_GT(candidates.front().microbatches, 1);
  EXPECT_LT(candidates.front().microbatches, 64);
}

TEST(PlannerTest, GradientSumsAndUpdatesEndEachMesh) {
  // Two layers of F = B = W = 1 on two meshes, 1F1B, 2 microbatches (B
  // lasts B + W = 2). Mesh 1 runs F0 [1, 2], B0 [2, 4], F1 [4, 5], B1
  // [5, 7]; mesh 0 F0, F1 [0, 2], B0 [4, 6], B1 [7, 9].
  PlanRequest request = makeUniformRequest(2, 3, 2, 2);
  llvm::Expected<PlanCandidate> plain =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {2, 2, 1}, {0, 1});
  ASSERT_TRUE(static_cast<bool>(plain)) << errorOf(plain.takeError());
  EXPECT_DOUBLE_EQ(plain->stepTime, 9);
  // Summing a layer's gradients (0.5 per microbatch, whatever its size)
  // and its update (3 on mesh 0, 1 on mesh 1) follow its mesh's last
  // action, as in the compiled program's last backward fragment: no
  // backward gets longer. Mesh 1: B1 ends at 7, sums and update until
  // 7 + 2 x 0.5 + 1 = 9; mesh 0: B1 ends at 9, then until 9 + 1 + 3 = 13.
  for (LayerCost &layer : request.costs.layers)
    layer.accumulate = 0.5;
  request.costs.layers[0].update = 3;
  request.costs.layers[1].update = 1;
  llvm::Expected<PlanCandidate> withOptimizer =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {2, 2, 1}, {0, 1});
  ASSERT_TRUE(static_cast<bool>(withOptimizer))
      << errorOf(withOptimizer.takeError());
  EXPECT_DOUBLE_EQ(withOptimizer->stepTime, 13);
  // Busy: per mesh 2 x (1 + 2) plus its sums and update, over 2 meshes x
  // 13.
  EXPECT_DOUBLE_EQ(withOptimizer->bubbleFraction, 1 - (6 + 4 + 6 + 2) / 26.0);
  // The compute factor stretches the sums and updates as well: the
  // pipeline takes 2 x 9, mesh 0's sums and update 2 x 4 after it.
  request.costs.computeFactor = 2;
  llvm::Expected<PlanCandidate> slowed =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {2, 2, 1}, {0, 1});
  ASSERT_TRUE(static_cast<bool>(slowed)) << errorOf(slowed.takeError());
  EXPECT_DOUBLE_EQ(slowed->stepTime, 26);
  request.costs.computeFactor = 1;
  // With 4 microbatches of half the size (F 0.5, B 1) the pipeline takes
  // (m + p - 1) x 1.5 = 7.5 and mesh 0's 4 sums of unchanged size 0.5
  // each and its update follow: 7.5 + 2 + 3.
  request.microbatches = {4};
  llvm::Expected<PlanCandidate> moreMicrobatches =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {2, 4, 1}, {0, 1});
  ASSERT_TRUE(static_cast<bool>(moreMicrobatches))
      << errorOf(moreMicrobatches.takeError());
  EXPECT_DOUBLE_EQ(moreMicrobatches->stepTime, 12.5);
}

TEST(PlannerTest, AnActionPaysItsOverheadOnce) {
  // 1F1B keeps the weight gradient in B: 2 actions per microbatch and
  // stage, each with the overhead, on one mesh: 2 * (1 + 0.5) + 2 * (2 + 0.5).
  PlanRequest request = makeUniformRequest(1, 3, 1, 2);
  request.costs.actionOverhead = 0.5;
  llvm::Expected<PlanCandidate> unsplit =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {1, 2, 1}, {0});
  ASSERT_TRUE(static_cast<bool>(unsplit)) << errorOf(unsplit.takeError());
  EXPECT_DOUBLE_EQ(unsplit->stepTime, 8);
  // ZB-H1 runs W on its own: 3 actions per microbatch.
  llvm::Expected<PlanCandidate> split =
      evaluatePlan(request, ScheduleKind::kZeroBubbleH1, {1, 2, 1}, {0});
  ASSERT_TRUE(static_cast<bool>(split)) << errorOf(split.takeError());
  EXPECT_DOUBLE_EQ(split->stepTime, 9);
}

TEST(PlannerTest, ComputeFactorStretchesTheComputeOfEveryCandidate) {
  // 1F1B, 2 meshes, 2 microbatches, F = 1 and B = 2 (W kept) per stage:
  // (m + p - 1) x (F + B) = 9 without the factor; 1.5 stretches every
  // action, so the step, by 1.5; the overhead and latency stay.
  PlanRequest request = makeUniformRequest(2, 3, 2, 2);
  llvm::Expected<PlanCandidate> plain =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {2, 2, 1}, {0, 1});
  ASSERT_TRUE(static_cast<bool>(plain)) << errorOf(plain.takeError());
  EXPECT_DOUBLE_EQ(plain->stepTime, 9);
  request.costs.computeFactor = 1.5;
  llvm::Expected<PlanCandidate> slowed =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {2, 2, 1}, {0, 1});
  ASSERT_TRUE(static_cast<bool>(slowed)) << errorOf(slowed.takeError());
  EXPECT_DOUBLE_EQ(slowed->stepTime, 13.5);
  request.costs.actionOverhead = 0.5;
  llvm::Expected<PlanCandidate> withOverhead =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {2, 2, 1}, {0, 1});
  ASSERT_TRUE(static_cast<bool>(withOverhead))
      << errorOf(withOverhead.takeError());
  EXPECT_DOUBLE_EQ(withOverhead->stepTime, 3 * (1.5 + 0.5 + 3 + 0.5));
  // One mesh of one device computes the fragments the factor measured as
  // well: m x (F + B) of both layers, times 1.5.
  request.costs.actionOverhead = 0;
  llvm::Expected<PlanCandidate> alone =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {1, 2, 1}, {0});
  ASSERT_TRUE(static_cast<bool>(alone)) << errorOf(alone.takeError());
  EXPECT_DOUBLE_EQ(alone->stepTime, 12 * 1.5);
  // One mesh of two devices: each half a microbatch.
  request.meshDevices = {2};
  llvm::Expected<PlanCandidate> spmd =
      evaluatePlan(request, ScheduleKind::kOneFOneB, {1, 2, 1}, {0});
  ASSERT_TRUE(static_cast<bool>(spmd)) << errorOf(spmd.takeError());
  EXPECT_DOUBLE_EQ(spmd->stepTime, 12 / 2 * 1.5);
}

TEST(PlannerTest, ComputeFactorLeavesTheChoiceBetweenOneMeshAndTwo) {
  // Two meshes take 9 x factor, one takes 12 x factor: two win whatever
  // the factor, below 1 as well (fragments faster than the profile).
  PlanRequest request = makeUniformRequest(2, 3, 2, 2);
  for (double factor : {0.8, 1.5, 3.0}) {
    request.costs.computeFactor = factor;
    std::vector<PlanCandidate> candidates = search(request);
    ASSERT_FALSE(candidates.empty());
    EXPECT_EQ(candidates.front().meshes, 2);
    EXPECT_DOUBLE_EQ(candidates.front().stepTime, 9 * factor);
  }
  for (double factor : {0.0, -1.0}) {
    request.costs.computeFactor = factor;
    EXPECT_EQ(errorOf(searchPlans(request).takeError()),
              "the compute factor must be a finite positive number");
  }
}

TEST(PlannerTest, EvenCutGivesTheFirstStagesTheRemainder) {
  EXPECT_EQ(getEvenCut(8, 2), (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(getEvenCut(10, 4), (std::vector<int64_t>{0, 3, 6, 8}));
  EXPECT_EQ(getEvenCut(3, 3), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(getEvenCut(5, 1), (std::vector<int64_t>{0}));
}

TEST(PlannerTest, ShortListHasEachSchedulesBestAndItsEvenCutPerMeshCount) {
  // The heavy last layer of OneHeavyLayerGetsAStageOfItsOwnShare: per
  // schedule, on two meshes the planned 6 | 2 cut (step 30) and the even
  // 4 | 4 one (36); on one mesh the only cut (4 microbatches x 12).
  PlanRequest request = makeUniformRequest(8, 1, 2, 4);
  request.costs.layers.back().forward = 5.0 / 3;
  request.costs.layers.back().backward = 5.0 / 3;
  request.costs.layers.back().weightGradient = 5.0 / 3;
  request.schedules = {ScheduleKind::kOneFOneB, ScheduleKind::kGPipe};
  llvm::Expected<std::vector<PlanCandidate>> shortList =
      searchBestPerSchedule(request);
  ASSERT_TRUE(static_cast<bool>(shortList)) << errorOf(shortList.takeError());
  ASSERT_EQ(shortList->size(), 6u);
  for (ScheduleKind kind : request.schedules) {
    PlanRequest alone = request;
    alone.schedules = {kind};
    const PlanCandidate best = search(alone).front();
    ASSERT_EQ(best.meshes, 2);
    std::vector<const PlanCandidate *> twoMeshes, oneMesh;
    for (const PlanCandidate &candidate : *shortList)
      if (candidate.schedule == kind)
        (candidate.meshes == 2 ? twoMeshes : oneMesh).push_back(&candidate);
    ASSERT_EQ(twoMeshes.size(), 2u);
    EXPECT_EQ(getFirstLayers(*twoMeshes[0]), getFirstLayers(best));
    EXPECT_DOUBLE_EQ(twoMeshes[0]->stepTime, best.stepTime);
    EXPECT_EQ(getFirstLayers(*twoMeshes[1]), (std::vector<int64_t>{0, 4}));
    EXPECT_GT(twoMeshes[1]->stepTime, best.stepTime);
    ASSERT_EQ(oneMesh.size(), 1u);
    EXPECT_DOUBLE_EQ(oneMesh[0]->stepTime, 4 * 12);
  }
  EXPECT_DOUBLE_EQ(shortList->front().stepTime, 30);
  for (size_t i = 1; i < shortList->size(); ++i)
    EXPECT_LE((*shortList)[i - 1].stepTime, (*shortList)[i].stepTime);
  // Balanced layers: the planned cuts are the even ones, listed once per
  // mesh count; two meshes (5 x 12) beat one (4 x 24).
  request = makeUniformRequest(8, 3, 2, 4);
  shortList = searchBestPerSchedule(request);
  ASSERT_TRUE(static_cast<bool>(shortList)) << errorOf(shortList.takeError());
  ASSERT_EQ(shortList->size(), 2u);
  EXPECT_EQ(getFirstLayers((*shortList)[0]), (std::vector<int64_t>{0, 4}));
  EXPECT_DOUBLE_EQ((*shortList)[0].stepTime, 60);
  EXPECT_EQ(getFirstLayers((*shortList)[1]), (std::vector<int64_t>{0}));
  EXPECT_DOUBLE_EQ((*shortList)[1].stepTime, 96);
}

TEST(PlannerTest, FewestMeshesBoundTheSearch) {
  // At one microbatch a pipeline overlaps nothing: one mesh ties with more
  // and wins the tie, unless at least two are asked for.
  PlanRequest request = makeUniformRequest(4, 3, 4, 1);
  EXPECT_EQ(search(request).front().meshes, 1);
  request.minMeshes = 2;
  for (const PlanCandidate &candidate : search(request))
    EXPECT_GE(candidate.meshes, 2);
  request.minMeshes = 5;
  EXPECT_EQ(errorOf(searchPlans(request).takeError()),
            "the fewest meshes must be between 1 and the 4 available");
}

TEST(PlannerTest, SchedulesWithWeightGradientActionsNeedTwoMeshes) {
  // On one mesh the compiler splits no backward fragment from its weight
  // gradient, so ZB-H1 and DualPipeV candidates start at two meshes while
  // 1F1B still has its one-mesh candidate.
  PlanRequest request = makeUniformRequest(4, 3, 2, 4);
  request.schedules = {ScheduleKind::kZeroBubbleH1, ScheduleKind::kDualPipeV,
                       ScheduleKind::kOneFOneB};
  request.maxCandidates = 64;
  bool oneMeshOneFOneB = false;
  for (const PlanCandidate &candidate : search(request)) {
    if (candidate.schedule != ScheduleKind::kOneFOneB)
      EXPECT_GE(candidate.meshes, 2);
    else if (candidate.meshes == 1)
      oneMeshOneFOneB = true;
  }
  EXPECT_TRUE(oneMeshOneFOneB);
  request.meshDevices.assign(1, 1);
  request.schedules = {ScheduleKind::kZeroBubbleH1};
  EXPECT_EQ(errorOf(searchPlans(request).takeError()),
            "no schedule can be built for these meshes and microbatch counts");
}

TEST(PlannerTest, ShortListUnderAnInfeasibleCapSaysTheSmallestMemory) {
  PlanRequest request = makeUniformRequest(4, 3, 2, 2);
  for (LayerCost &layer : request.costs.layers)
    layer.parameterBytes = 100;
  request.memoryPerDevice = 50;
  EXPECT_EQ(errorOf(searchBestPerSchedule(request).takeError()),
            errorOf(searchPlans(request).takeError()));
}

TEST(PlannerTest, InvalidRequestsSayWhy) {
  PlanRequest request = makeUniformRequest(2, 3, 2, 1);
  request.costs.layers[1].forward = -1;
  EXPECT_EQ(errorOf(searchPlans(request).takeError()),
            "layer 'layer_1': forward must be a finite non-negative number");
  request = makeUniformRequest(2, 3, 2, 1);
  request.meshDevices.clear();
  EXPECT_EQ(errorOf(searchPlans(request).takeError()), "no mesh to plan for");
  request = makeUniformRequest(4, 3, 2, 1);
  EXPECT_EQ(
      errorOf(evaluatePlan(request, ScheduleKind::kOneFOneB, {2, 1, 1}, {0, 4})
                  .takeError()),
      "the cut must give each of the 2 stages at least one of the 4 "
      "layers");
}

} // namespace
