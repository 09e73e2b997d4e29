//===- GeneratorsTest.cpp - Built-in schedules against the closed forms ---===//
//
// With F = B = W = 1 and no transfer latency, the simulated schedules must
// reproduce the bubble and memory formulas of the pipeline notes (§3.2), and
// every generated schedule must respect the dependencies.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Schedule/Generators.h"
#include "mpmd/Schedule/Simulator.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

using namespace mlir::mpmd::schedule;

namespace {

std::string errorOf(llvm::Error error) {
  return llvm::toString(std::move(error));
}

Schedule build(ScheduleKind kind, int64_t p, int64_t m, int64_t v = 1) {
  llvm::Expected<Schedule> schedule = buildSchedule(kind, {p, m, v});
  EXPECT_TRUE(static_cast<bool>(schedule))
      << getScheduleName(kind).str() << " p=" << p << " m=" << m << " v=" << v
      << ": " << errorOf(schedule.takeError());
  return schedule ? std::move(*schedule) : Schedule();
}

SimulationResult simulateUnitCosts(const Schedule &schedule) {
  llvm::Expected<SimulationResult> result =
      simulate(schedule, ActionCosts{1, 1, 1, 0});
  EXPECT_TRUE(static_cast<bool>(result)) << errorOf(result.takeError());
  return result ? std::move(*result) : SimulationResult();
}

/// The (p, m) grid of the closed-form checks: p in {2, 4, 8}, m in {p, 2p, 4p}.
std::vector<std::pair<int64_t, int64_t>> closedFormGrid() {
  std::vector<std::pair<int64_t, int64_t>> grid;
  for (int64_t p : {2, 4, 8})
    for (int64_t m : {p, 2 * p, 4 * p})
      grid.push_back({p, m});
  return grid;
}

void expectEveryMeshBubble(const SimulationResult &result, double expected,
                           const std::string &context) {
  ASSERT_FALSE(result.meshes.empty()) << context;
  for (auto [mesh, stats] : llvm::enumerate(result.meshes))
    EXPECT_NEAR(stats.bubbleFraction, expected, 1e-9)
        << context << " mesh " << mesh;
}

std::string contextOf(int64_t p, int64_t m) {
  return "p=" + std::to_string(p) + " m=" + std::to_string(m);
}

TEST(ScheduleGeneratorsTest, GPipeMatchesClosedForm) {
  for (auto [p, m] : closedFormGrid()) {
    SimulationResult result =
        simulateUnitCosts(build(ScheduleKind::kGPipe, p, m));
    // Bubble (p-1)(t_F + t_Bfull) over work m(t_F + t_Bfull): (p-1)/(m+p-1).
    expectEveryMeshBubble(result, double(p - 1) / (m + p - 1), contextOf(p, m));
    EXPECT_DOUBLE_EQ(result.makespan, 3 * (m + p - 1));
    for (const MeshStats &stats : result.meshes)
      EXPECT_EQ(stats.peakLiveActivations, m) << contextOf(p, m);
  }
}

TEST(ScheduleGeneratorsTest, OneFOneBMatchesClosedForm) {
  for (auto [p, m] : closedFormGrid()) {
    SimulationResult result =
        simulateUnitCosts(build(ScheduleKind::kOneFOneB, p, m));
    expectEveryMeshBubble(result, double(p - 1) / (m + p - 1), contextOf(p, m));
    // Mesh r holds min(p - r, m): p on the first mesh, 1 on the last.
    for (int64_t mesh = 0; mesh < p; ++mesh)
      EXPECT_EQ(result.meshes[mesh].peakLiveActivations, std::min(p - mesh, m))
          << contextOf(p, m) << " mesh " << mesh;
    EXPECT_EQ(result.meshes.front().peakLiveActivations, p);
    EXPECT_EQ(result.meshes.back().peakLiveActivations, 1);
  }
}

TEST(ScheduleGeneratorsTest, InterleavedOneFOneBMatchesClosedForm) {
  const int64_t v = 2;
  for (auto [p, m] : closedFormGrid()) {
    SimulationResult result =
        simulateUnitCosts(build(ScheduleKind::kInterleavedOneFOneB, p, m, v));
    // The bubble shrinks by v: (p-1)/(v m + p - 1).
    expectEveryMeshBubble(result, double(p - 1) / (v * m + p - 1),
                          contextOf(p, m));
    // Mesh 0 runs 2(p-1) + (v-1)p warmup forwards, then one more before its
    // first backward: about (1 + (p-1)/(pv)) times 1F1B's p microbatches.
    EXPECT_EQ(result.meshes.front().peakLiveActivations,
              std::min(2 * (p - 1) + (v - 1) * p + 1, v * m))
        << contextOf(p, m);
  }
}

TEST(ScheduleGeneratorsTest, ZeroBubbleH1MatchesClosedForm) {
  for (auto [p, m] : closedFormGrid()) {
    SimulationResult result =
        simulateUnitCosts(build(ScheduleKind::kZeroBubbleH1, p, m));
    // Bubble (p-1)(t_F + t_B - t_W) = p-1 over work 3m: a third of 1F1B's.
    expectEveryMeshBubble(result, double(p - 1) / (3 * m + p - 1),
                          contextOf(p, m));
    // The same memory as 1F1B's first mesh, on every mesh.
    for (const MeshStats &stats : result.meshes)
      EXPECT_EQ(stats.peakLiveActivations, p) << contextOf(p, m);
  }
}

TEST(ScheduleGeneratorsTest, ZeroBubbleH2MatchesClosedForm) {
  for (auto [p, m] : closedFormGrid()) {
    SimulationResult result = simulateUnitCosts(
        build(ScheduleKind::kZeroBubbleH2ZeroTxLatency, p, m));
    if (m < 2 * p - 1) {
      // Too few microbatches for mesh 0's 2p-1 warmup forwards: not the
      // closed form's regime; still no worse than 1F1B.
      EXPECT_LT(result.getTotalBubbleFraction(), double(p - 1) / (m + p - 1))
          << contextOf(p, m);
      continue;
    }
    // Bubble (p-1)(t_F + t_B - 2t_W) = 0: a parallelogram, no idle time
    // between a mesh's first and last action. Only the warmup skew of
    // (p-1) t_F remains in the makespan, which post-validation overlaps
    // with the neighbouring steps.
    for (auto [mesh, stats] : llvm::enumerate(result.meshes)) {
      EXPECT_NEAR(stats.activeBubbleFraction, 0, 1e-9)
          << contextOf(p, m) << " mesh " << mesh;
      EXPECT_DOUBLE_EQ(stats.firstStart, mesh);
    }
    EXPECT_DOUBLE_EQ(result.makespan, 3 * m + p - 1);
    // 2p-1 activations on every mesh.
    for (const MeshStats &stats : result.meshes)
      EXPECT_EQ(stats.peakLiveActivations, 2 * p - 1) << contextOf(p, m);
  }
}

TEST(ScheduleGeneratorsTest, InvalidParametersAreRejectedWithTheRequirement) {
  auto errorFor = [](ScheduleKind kind, int64_t p, int64_t m, int64_t v) {
    return errorOf(buildSchedule(kind, {p, m, v}).takeError());
  };
  EXPECT_EQ(errorFor(ScheduleKind::kInterleavedOneFOneB, 4, 6, 2),
            "Interleaved1F1B needs microbatches to be a multiple of meshes "
            "(got m=6, p=4)");
  EXPECT_EQ(errorFor(ScheduleKind::kInterleavedOneFOneB, 4, 8, 1),
            "Interleaved1F1B needs v >= 2 (got v=1); 1F1B runs one stage per "
            "mesh");
  EXPECT_EQ(errorFor(ScheduleKind::kZeroBubbleV, 4, 8, 1),
            "ZB-V needs v = 2 (got v=1)");
  EXPECT_EQ(errorFor(ScheduleKind::kDualPipeV, 4, 8, 3),
            "DualPipeV needs v = 2 (got v=3)");
  EXPECT_EQ(errorFor(ScheduleKind::kDualPipeV, 4, 7, 2),
            "DualPipeV needs at least twice as many microbatches as meshes "
            "(got m=7, p=4)");
  EXPECT_EQ(errorFor(ScheduleKind::kGPipe, 4, 8, 2),
            "GPipe needs v = 1 (got v=2); Interleaved1F1B, Circular, ZB-V and "
            "DualPipeV run several stages per mesh");
  EXPECT_EQ(errorFor(ScheduleKind::kZeroBubbleH1, 4, 8, 2),
            "ZB-H1 needs v = 1 (got v=2); Interleaved1F1B, Circular, ZB-V and "
            "DualPipeV run several stages per mesh");
  EXPECT_EQ(errorFor(ScheduleKind::kOneFOneB, 0, 8, 1),
            "meshes must be at least 1 (got p=0)");
  EXPECT_EQ(errorFor(ScheduleKind::kOneFOneB, 4, -1, 1),
            "microbatches must be at least 1 (got m=-1)");
  EXPECT_EQ(errorFor(ScheduleKind::kCircular, 4, 8, 0),
            "stages per mesh must be at least 1 (got v=0)");
  EXPECT_EQ(errorFor(ScheduleKind::kCircular, 1000, 1000, 1000),
            "p=1000, v=1000, m=1000 make more than 10000000 actions, the most "
            "a schedule may have");
  // No overflow on absurd sizes.
  EXPECT_EQ(errorFor(ScheduleKind::kOneFOneB, int64_t(1) << 62, 1 << 30, 1),
            "p=4611686018427387904, v=1, m=1073741824 make more than 10000000 "
            "actions, the most a schedule may have");
}

TEST(ScheduleGeneratorsTest, NamesParseCaseInsensitively) {
  EXPECT_EQ(parseScheduleKind("gpipe"), ScheduleKind::kGPipe);
  EXPECT_EQ(parseScheduleKind("1f1b"), ScheduleKind::kOneFOneB);
  EXPECT_EQ(parseScheduleKind("interleaved-1f1b"),
            ScheduleKind::kInterleavedOneFOneB);
  EXPECT_EQ(parseScheduleKind("VPP"), ScheduleKind::kInterleavedOneFOneB);
  EXPECT_EQ(parseScheduleKind("zb-h1"), ScheduleKind::kZeroBubbleH1);
  EXPECT_EQ(parseScheduleKind("ZeroBubbleH1"), ScheduleKind::kZeroBubbleH1);
  EXPECT_EQ(parseScheduleKind("ZB_H2"),
            ScheduleKind::kZeroBubbleH2ZeroTxLatency);
  EXPECT_EQ(parseScheduleKind("ZeroBubbleH2HalfTxLatency"),
            ScheduleKind::kZeroBubbleH2HalfTxLatency);
  EXPECT_EQ(parseScheduleKind("zbv"), ScheduleKind::kZeroBubbleV);
  EXPECT_EQ(parseScheduleKind("DUALPIPEV"), ScheduleKind::kDualPipeV);
  EXPECT_EQ(parseScheduleKind("circularwithreversedbackward"),
            ScheduleKind::kCircularWithReversedBackward);
  EXPECT_EQ(parseScheduleKind("zb-h3"), std::nullopt);
  EXPECT_EQ(parseScheduleKind(""), std::nullopt);
  // Every canonical name parses back to its kind.
  for (ScheduleKind kind : getAllScheduleKinds())
    EXPECT_EQ(parseScheduleKind(getScheduleName(kind)), kind);
}

/// Checks that `schedule` runs every F and B of every (microbatch, stage)
/// once, W at most once, and that the simulated times respect the order of
/// each mesh and every dependency, with each action starting as soon as
/// allowed.
void expectCompleteAndDependenciesRespected(const Schedule &schedule,
                                            const ActionCosts &costs,
                                            const std::string &context) {
  const int64_t stages = schedule.getNumStages(), m = schedule.numMicrobatches;
  std::map<std::tuple<ActionKind, int64_t, int64_t>, TimedAction> timeOf;
  std::map<std::tuple<ActionKind, int64_t, int64_t>, int64_t> meshOf;
  llvm::Expected<SimulationResult> result = simulate(schedule, costs);
  ASSERT_TRUE(static_cast<bool>(result))
      << context << ": " << errorOf(result.takeError());
  for (auto [mesh, timed] : llvm::enumerate(result->timeline)) {
    ASSERT_EQ(timed.size(), schedule.meshActions[mesh].size()) << context;
    for (const TimedAction &entry : timed) {
      auto key = std::make_tuple(entry.action.kind, entry.action.microbatch,
                                 entry.action.stage);
      EXPECT_TRUE(timeOf.emplace(key, entry).second) << context;
      meshOf[key] = mesh;
    }
  }
  for (int64_t mb = 0; mb < m; ++mb) {
    for (int64_t stage = 0; stage < stages; ++stage) {
      EXPECT_TRUE(timeOf.count({ActionKind::kForward, mb, stage}))
          << context << " misses F " << mb << " " << stage;
      EXPECT_TRUE(timeOf.count({ActionKind::kBackward, mb, stage}))
          << context << " misses B " << mb << " " << stage;
    }
  }
  auto hasWeightGradient = [&](int64_t mb, int64_t stage) {
    return timeOf.count({ActionKind::kWeightGradient, mb, stage}) > 0;
  };
  for (auto [mesh, timed] : llvm::enumerate(result->timeline)) {
    double meshFree = 0;
    for (const TimedAction &entry : timed) {
      const Action &action = entry.action;
      double ready = meshFree;
      auto after = [&](ActionKind kind, int64_t stage) {
        auto found = timeOf.find({kind, action.microbatch, stage});
        ASSERT_NE(found, timeOf.end()) << context;
        double latency = meshOf[found->first] == static_cast<int64_t>(mesh)
                             ? 0
                             : costs.transfer;
        EXPECT_GE(entry.start, found->second.end + latency) << context;
        ready = std::max(ready, found->second.end + latency);
      };
      double duration = 0;
      switch (action.kind) {
      case ActionKind::kForward:
        if (action.stage > 0)
          after(ActionKind::kForward, action.stage - 1);
        duration = costs.forward;
        break;
      case ActionKind::kBackward:
        after(ActionKind::kForward, action.stage);
        if (action.stage + 1 < stages)
          after(ActionKind::kBackward, action.stage + 1);
        duration = hasWeightGradient(action.microbatch, action.stage)
                       ? costs.backward
                       : costs.backward + costs.weightGradient;
        break;
      case ActionKind::kWeightGradient:
        after(ActionKind::kBackward, action.stage);
        duration = costs.weightGradient;
        break;
      }
      EXPECT_GE(entry.start, meshFree) << context;
      EXPECT_DOUBLE_EQ(entry.start, ready) << context;
      EXPECT_DOUBLE_EQ(entry.end - entry.start, duration) << context;
      meshFree = entry.end;
    }
  }
}

TEST(ScheduleGeneratorsTest, EveryScheduleRespectsItsDependencies) {
  const ActionCosts costSets[] = {
      {1, 1, 1, 0}, {1, 2, 0.5, 0.25}, {2, 1, 3, 1}};
  int64_t checked = 0;
  for (ScheduleKind kind : getAllScheduleKinds()) {
    for (int64_t p : {1, 2, 3, 4, 8}) {
      for (int64_t m : {1, 2, 3, 5, 8, 16, 17}) {
        for (int64_t v : {1, 2, 3}) {
          llvm::Expected<Schedule> schedule = buildSchedule(kind, {p, m, v});
          if (!schedule) {
            llvm::consumeError(schedule.takeError());
            continue;
          }
          std::string context = getScheduleName(kind).str() + " " +
                                contextOf(p, m) + " v=" + std::to_string(v);
          EXPECT_FALSE(static_cast<bool>(verifyProgress(*schedule))) << context;
          for (const ActionCosts &costs : costSets)
            expectCompleteAndDependenciesRespected(*schedule, costs, context);
          ++checked;
        }
      }
    }
  }
  // Every kind contributed (DualPipeV from m >= 2p only).
  EXPECT_GT(checked, 200);
}

TEST(ScheduleGeneratorsTest, WeightGradientsAreSplitWhereTheScheduleSaysSo) {
  auto countWeightGradients = [](const Schedule &schedule) {
    int64_t count = 0;
    for (const std::vector<Action> &actions : schedule.meshActions)
      for (const Action &action : actions)
        count += action.kind == ActionKind::kWeightGradient;
    return count;
  };
  // Every backward of ZB-H1, ZB-H2 and ZB-V is split, none of 1F1B's, and
  // DualPipeV splits those of its zero-bubble steps only.
  EXPECT_EQ(countWeightGradients(build(ScheduleKind::kZeroBubbleH1, 4, 8)),
            4 * 8);
  EXPECT_EQ(countWeightGradients(
                build(ScheduleKind::kZeroBubbleH2FullTxLatency, 4, 8)),
            4 * 8);
  EXPECT_EQ(countWeightGradients(build(ScheduleKind::kZeroBubbleV, 4, 8, 2)),
            8 * 8);
  EXPECT_EQ(countWeightGradients(build(ScheduleKind::kOneFOneB, 4, 8)), 0);
  // Per mesh r: (p-r-1) in step 3, r+1 in step 6, (p-r-1) in step 7.
  int64_t dualPipeV =
      countWeightGradients(build(ScheduleKind::kDualPipeV, 4, 8, 2));
  int64_t expected = 0;
  for (int64_t r = 0; r < 4; ++r)
    expected += 2 * (4 - r - 1) + r + 1;
  EXPECT_EQ(dualPipeV, expected);
}

TEST(ScheduleGeneratorsTest, VShapedSchedulesBalanceMemory) {
  for (int64_t p : {2, 4, 8}) {
    for (int64_t m : {2 * p, 4 * p}) {
      SimulationResult zbv =
          simulateUnitCosts(build(ScheduleKind::kZeroBubbleV, p, m, 2));
      SimulationResult oneFOneB =
          simulateUnitCosts(build(ScheduleKind::kOneFOneB, p, m));
      // ZB-V keeps 1F1B's first-mesh memory (p microbatches of a whole mesh,
      // i.e. 2p chunk activations) on every mesh, with a smaller bubble.
      for (const MeshStats &stats : zbv.meshes)
        EXPECT_LE(stats.peakLiveActivations, 2 * p) << contextOf(p, m);
      EXPECT_LT(zbv.getTotalBubbleFraction(),
                oneFOneB.getTotalBubbleFraction() / 2)
          << contextOf(p, m);
      SimulationResult dualPipeV =
          simulateUnitCosts(build(ScheduleKind::kDualPipeV, p, m, 2));
      EXPECT_LT(dualPipeV.getTotalBubbleFraction(),
                oneFOneB.getTotalBubbleFraction())
          << contextOf(p, m);
    }
  }
}

TEST(ScheduleGeneratorsTest, CircularRunsPhasesOfMeshesMicrobatches) {
  // p = 2, v = 2, m = 4: phase 0 = microbatches 0-1, phase 1 = 2-3.
  Schedule schedule = build(ScheduleKind::kCircular, 2, 4, 2);
  auto F = [](int64_t mb, int64_t stage) {
    return Action{ActionKind::kForward, mb, stage};
  };
  auto B = [](int64_t mb, int64_t stage) {
    return Action{ActionKind::kBackward, mb, stage};
  };
  EXPECT_EQ(
      schedule.meshActions[1],
      (std::vector<Action>{F(0, 1), F(1, 1), F(0, 3), F(1, 3), F(2, 1), F(3, 1),
                           F(2, 3), F(3, 3), B(0, 3), B(1, 3), B(0, 1), B(1, 1),
                           B(2, 3), B(3, 3), B(2, 1), B(3, 1)}));
  Schedule reversed =
      build(ScheduleKind::kCircularWithReversedBackward, 2, 4, 2);
  EXPECT_EQ(
      llvm::ArrayRef(reversed.meshActions[1]).take_back(8),
      llvm::ArrayRef(std::vector<Action>{B(3, 3), B(2, 3), B(3, 1), B(2, 1),
                                         B(1, 3), B(0, 3), B(1, 1), B(0, 1)}));
}

} // namespace
