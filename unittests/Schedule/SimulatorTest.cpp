//===- SimulatorTest.cpp - Progress proof and timing of schedules ---------===//

#include "mpmd/Schedule/Simulator.h"
#include "mpmd/Schedule/Generators.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <limits>

using namespace mlir::mpmd::schedule;

namespace {

std::string errorOf(llvm::Error error) {
  return llvm::toString(std::move(error));
}

constexpr auto F = Action::forward;
constexpr auto B = Action::backward;
constexpr auto W = Action::weightGradient;

/// Two meshes, one stage each.
Schedule twoMeshes(int64_t microbatches, std::vector<Action> mesh0,
                   std::vector<Action> mesh1) {
  return Schedule{{0, 1}, microbatches, {std::move(mesh0), std::move(mesh1)}};
}

TEST(ScheduleSimulatorTest, TimesFollowDependenciesAndLatency) {
  // GPipe on two meshes with a half-unit transfer latency, by hand:
  //   mesh 0: F0 [0,1] F1 [1,2]                      B0 [6,8] B1 [8,10]
  //   mesh 1:   F0 [1.5,2.5] F1 [2.5,3.5] B0 [3.5,5.5] B1 [5.5,7.5]
  Schedule schedule = twoMeshes(2, {F(0, 0), F(1, 0), B(0, 0), B(1, 0)},
                                {F(0, 1), F(1, 1), B(0, 1), B(1, 1)});
  llvm::Expected<SimulationResult> result =
      simulate(schedule, ActionCosts{1, 1, 1, 0.5});
  ASSERT_TRUE(static_cast<bool>(result)) << errorOf(result.takeError());
  EXPECT_DOUBLE_EQ(result->makespan, 10);
  const std::vector<std::pair<double, double>> mesh0 = {
      {0, 1}, {1, 2}, {6, 8}, {8, 10}};
  const std::vector<std::pair<double, double>> mesh1 = {
      {1.5, 2.5}, {2.5, 3.5}, {3.5, 5.5}, {5.5, 7.5}};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(result->timeline[0][i].start, mesh0[i].first);
    EXPECT_DOUBLE_EQ(result->timeline[0][i].end, mesh0[i].second);
    EXPECT_DOUBLE_EQ(result->timeline[1][i].start, mesh1[i].first);
    EXPECT_DOUBLE_EQ(result->timeline[1][i].end, mesh1[i].second);
  }
  EXPECT_DOUBLE_EQ(result->meshes[0].busy, 6);
  EXPECT_DOUBLE_EQ(result->meshes[0].bubbleFraction, 0.4);
  EXPECT_DOUBLE_EQ(result->meshes[0].activeBubbleFraction, 0.4);
  EXPECT_DOUBLE_EQ(result->meshes[1].firstStart, 1.5);
  EXPECT_DOUBLE_EQ(result->meshes[1].lastEnd, 7.5);
  EXPECT_DOUBLE_EQ(result->meshes[1].bubbleFraction, 0.4);
  EXPECT_DOUBLE_EQ(result->meshes[1].activeBubbleFraction, 0);
  EXPECT_DOUBLE_EQ(result->getTotalBubbleFraction(), 0.4);
  EXPECT_EQ(result->meshes[0].peakLiveActivations, 2);
}

TEST(ScheduleSimulatorTest, SplitWeightGradientShortensTheBackward) {
  // One mesh; W(0) split off, B(1) full.
  Schedule schedule{{0}, 2, {{F(0, 0), B(0, 0), F(1, 0), B(1, 0), W(0, 0)}}};
  llvm::Expected<SimulationResult> result =
      simulate(schedule, ActionCosts{1, 2, 3, 0});
  ASSERT_TRUE(static_cast<bool>(result)) << errorOf(result.takeError());
  const std::vector<TimedAction> &timed = result->timeline[0];
  EXPECT_DOUBLE_EQ(timed[1].end - timed[1].start, 2);
  EXPECT_DOUBLE_EQ(timed[3].end - timed[3].start, 5);
  EXPECT_DOUBLE_EQ(timed[4].end - timed[4].start, 3);
  EXPECT_DOUBLE_EQ(result->makespan, 1 + 2 + 1 + 5 + 3);
  // F(0) stays live until W(0), the last action: two live during F(1).
  EXPECT_EQ(result->meshes[0].peakLiveActivations, 2);
}

TEST(ScheduleSimulatorTest, PeakActivationsFollowTheFreeingAction) {
  // Without W, B(0) frees F(0) before F(1) starts: one live at a time.
  Schedule schedule{{0}, 2, {{F(0, 0), B(0, 0), F(1, 0), B(1, 0)}}};
  llvm::Expected<SimulationResult> result = simulate(schedule, ActionCosts{});
  ASSERT_TRUE(static_cast<bool>(result));
  EXPECT_EQ(result->meshes[0].peakLiveActivations, 1);
  // A forward-only schedule keeps its activations to the end.
  Schedule forwardOnly{{0, 1}, 3, {{F(0, 0), F(1, 0), F(2, 0)}, {F(0, 1)}}};
  result = simulate(forwardOnly, ActionCosts{});
  ASSERT_TRUE(static_cast<bool>(result)) << errorOf(result.takeError());
  EXPECT_EQ(result->meshes[0].peakLiveActivations, 3);
  EXPECT_EQ(result->meshes[1].peakLiveActivations, 1);
}

TEST(ScheduleSimulatorTest, CycleOfWaitsIsADeadlockNamingItsActions) {
  // Mesh 1 runs F(1) before F(0): F(1) on mesh 1 needs F(1) of mesh 0, which
  // mesh 0 runs after B(0), which needs mesh 1's B(0), which comes after its
  // F(0) and F(1).
  Schedule schedule = twoMeshes(2, {F(0, 0), B(0, 0), F(1, 0), B(1, 0)},
                                {F(1, 1), F(0, 1), B(0, 1), B(1, 1)});
  const std::string expected =
      "deadlock: a cycle of waits: B(mb 0, stage 0) on mesh 0 needs "
      "B(mb 0, stage 1) on mesh 1, which runs after F(mb 0, stage 1) on mesh "
      "1, which runs after F(mb 1, stage 1) on mesh 1, which needs "
      "F(mb 1, stage 0) on mesh 0, which runs after B(mb 0, stage 0) on mesh 0";
  EXPECT_EQ(errorOf(verifyProgress(schedule)), expected);
  EXPECT_EQ(errorOf(simulate(schedule, ActionCosts{}).takeError()), expected);
}

TEST(ScheduleSimulatorTest, CycleOnOneMesh) {
  Schedule schedule{{0}, 1, {{B(0, 0), F(0, 0)}}};
  EXPECT_EQ(errorOf(verifyProgress(schedule)),
            "deadlock: a cycle of waits: B(mb 0, stage 0) on mesh 0 needs "
            "F(mb 0, stage 0) on mesh 0, which runs after B(mb 0, stage 0) on "
            "mesh 0");
}

TEST(ScheduleSimulatorTest, MissingDependencyIsADeadlock) {
  Schedule schedule = twoMeshes(1, {F(0, 0), B(0, 0)}, {B(0, 1)});
  EXPECT_EQ(errorOf(verifyProgress(schedule)),
            "deadlock: mesh 1 waits forever at B(mb 0, stage 1): it needs "
            "F(mb 0, stage 1), which no mesh runs");
  Schedule weightWithoutBackward{{0}, 1, {{F(0, 0), W(0, 0)}}};
  EXPECT_EQ(errorOf(verifyProgress(weightWithoutBackward)),
            "deadlock: mesh 0 waits forever at W(mb 0, stage 0): it needs "
            "B(mb 0, stage 0), which no mesh runs");
}

TEST(ScheduleSimulatorTest, MalformedSchedulesAreRejected) {
  EXPECT_EQ(errorOf(verifyProgress(twoMeshes(1, {F(0, 1)}, {}))),
            "mesh 0 runs F(mb 0, stage 1), but stage 1 is on mesh 1");
  EXPECT_EQ(errorOf(verifyProgress(twoMeshes(1, {F(0, 2)}, {}))),
            "mesh 0 runs F(mb 0, stage 2), but the schedule has 2 stages");
  EXPECT_EQ(errorOf(verifyProgress(twoMeshes(1, {F(1, 0)}, {}))),
            "mesh 0 runs F(mb 1, stage 0), but the schedule has 1 "
            "microbatches");
  EXPECT_EQ(errorOf(verifyProgress(twoMeshes(1, {F(0, 0), F(0, 0)}, {}))),
            "mesh 0 runs F(mb 0, stage 0) twice");
  EXPECT_EQ(errorOf(verifyProgress(Schedule{{0, 3}, 1, {{}, {}}})),
            "stage 1 is on mesh 3, but the schedule has 2 meshes");
}

TEST(ScheduleSimulatorTest, CostsMustBeFiniteAndNonNegative) {
  Schedule schedule{{0}, 1, {{F(0, 0), B(0, 0)}}};
  EXPECT_EQ(errorOf(simulate(schedule, ActionCosts{1, -1, 1, 0}).takeError()),
            "the backward cost must be a finite non-negative number (got -1)");
  EXPECT_EQ(
      errorOf(simulate(
                  schedule,
                  ActionCosts{1, 1, 1, std::numeric_limits<double>::infinity()})
                  .takeError()),
      "the transfer cost must be a finite non-negative number (got inf)");
}

TEST(ScheduleSimulatorTest, LatencyOnlyBetweenMeshes) {
  // Two stages on one mesh: no transfer between them.
  Schedule schedule{{0, 0}, 1, {{F(0, 0), F(0, 1), B(0, 1), B(0, 0)}}};
  llvm::Expected<SimulationResult> result =
      simulate(schedule, ActionCosts{1, 1, 0, 5});
  ASSERT_TRUE(static_cast<bool>(result));
  EXPECT_DOUBLE_EQ(result->makespan, 4);
  EXPECT_DOUBLE_EQ(result->meshes[0].bubbleFraction, 0);
}

} // namespace

TEST(ScheduleSimulatorTest, StageCostsTimeEachStageAndBoundary) {
  // One microbatch over two unequal stages; the boundary after stage 0 costs
  // 0.5 both ways, and B without W lasts backward + weight gradient:
  //   mesh 0: F [0,1]                      B [7,9]
  //   mesh 1:      F [1.5,4.5] B [4.5,6.5]
  Schedule schedule = twoMeshes(1, {F(0, 0), B(0, 0)}, {F(0, 1), B(0, 1)});
  const StageCosts stages[] = {{1, 2, 0, 0.5, 10}, {3, 1, 1, 0, 7}};
  llvm::Expected<SimulationResult> result = simulate(schedule, stages);
  ASSERT_TRUE(static_cast<bool>(result)) << errorOf(result.takeError());
  EXPECT_DOUBLE_EQ(result->makespan, 9);
  EXPECT_DOUBLE_EQ(result->timeline[1][0].start, 1.5);
  EXPECT_DOUBLE_EQ(result->timeline[0][1].start, 7);
  EXPECT_DOUBLE_EQ(result->meshes[0].peakActivationBytes, 10);
  EXPECT_DOUBLE_EQ(result->meshes[1].peakActivationBytes, 7);
}

TEST(ScheduleSimulatorTest, StageCostsMustMatchTheStages) {
  Schedule schedule = twoMeshes(1, {F(0, 0), B(0, 0)}, {F(0, 1), B(0, 1)});
  const StageCosts one[] = {{}};
  EXPECT_EQ(errorOf(simulate(schedule, one).takeError()),
            "the costs name 1 stages, but the schedule has 2");
  const StageCosts negative[] = {{}, {1, 1, 1, 0, -1}};
  EXPECT_EQ(errorOf(simulate(schedule, negative).takeError()),
            "stage 1: the activation-bytes cost must be a finite "
            "non-negative number (got -1)");
}
