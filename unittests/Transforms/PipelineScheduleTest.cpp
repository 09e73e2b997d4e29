//===- PipelineScheduleTest.cpp - Sort keys vs pairwise schedule rules ----===//
//
// The pipeline scheduler sorts the units of each mesh by a key instead of
// adding upstream's control dependency per pair `mustHappenBefore` orders.
// These tests check, exhaustively on small pipelines, that the two define
// the same order:
// * soundness: whenever mustHappenBefore(a, b), key(a) < key(b);
// * no extra constraint: whenever key(a) < key(b), the transitive closure
//   of mustHappenBefore orders a before b, given every microbatch of every
//   kind of unit (forward, backward, and for zero-bubble schedules both
//   backward halves), and enough microbatches to reach the steady state of
//   every mesh: N for 1F1B and ZB-H1, the warm-up of the first mesh,
//   2N - 1 + 2(N - 1)λ, for ZB-H2. With fewer, the rules leave some pairs
//   open that the keys order as in the steady state (e.g. 1F1B with fewer
//   microbatches than meshes: every forward before every backward).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Transforms/Optimize/PipelineSchedule.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mlir::mpmd;

namespace {

std::string describe(const SchedulingUnit &u) {
  std::string kind = u.transposeCount == 0 ? "F"
                     : u.isWeightGradient  ? "Bw"
                                           : "B";
  std::string text = kind + "(" + std::to_string(u.callCounter) + ")";
  if (u.stageId)
    text += "@stage" + std::to_string(*u.stageId);
  return text;
}

/// The units of mesh `mesh` for `microbatches` microbatches: forward and
/// backward (split in two halves if `splitBackward`), per stage if
/// `stagesPerMesh` > 0 (stage s on mesh s mod N), forward only if
/// `forwardOnly`.
std::vector<SchedulingUnit> makeUnits(int64_t mesh, int64_t numMeshes,
                                      int64_t microbatches, bool splitBackward,
                                      int64_t stagesPerMesh, bool forwardOnly) {
  std::vector<SchedulingUnit> units;
  std::vector<std::optional<int64_t>> stages;
  if (stagesPerMesh == 0)
    stages.push_back(std::nullopt);
  for (int64_t k = 0; k < stagesPerMesh; ++k)
    stages.push_back(mesh + k * numMeshes);
  for (std::optional<int64_t> stage : stages) {
    for (int64_t i = 0; i < microbatches; ++i) {
      SchedulingUnit unit;
      unit.meshIndex = mesh;
      unit.meshNumber = mesh;
      unit.callCounter = i;
      unit.stageId = stage;
      units.push_back(unit);
      if (forwardOnly)
        continue;
      unit.transposeCount = 1;
      units.push_back(unit);
      if (splitBackward) {
        unit.isWeightGradient = true;
        units.push_back(unit);
      }
    }
  }
  return units;
}

struct ScheduleCase {
  PipelineSchedule schedule;
  bool splitBackward = false;
  int64_t stagesPerMesh = 0;
  bool forwardOnly = false;
};

/// Checks both properties for every mesh of pipelines of 1..4 meshes and
/// `minMicrobatches(N)` to that + 8 microbatches; soundness also for fewer.
void checkKeysMatchPairwiseRules(
    const ScheduleCase &c, llvm::function_ref<int64_t(int64_t)> minMicrobatches) {
  for (int64_t n = 1; n <= 4; ++n) {
    for (int64_t mesh = 0; mesh < n; ++mesh) {
      for (int64_t microbatches = 1; microbatches <= minMicrobatches(n) + 8;
           ++microbatches) {
        std::vector<SchedulingUnit> units =
            makeUnits(mesh, n, microbatches, c.splitBackward, c.stagesPerMesh,
                      c.forwardOnly);
        size_t size = units.size();
        std::vector<ScheduleKey> keys;
        for (const SchedulingUnit &unit : units) {
          std::optional<ScheduleKey> key =
              getScheduleKey(c.schedule, unit, n);
          ASSERT_TRUE(key) << describe(unit);
          keys.push_back(*key);
        }
        std::vector<llvm::BitVector> before(size, llvm::BitVector(size));
        for (size_t a = 0; a < size; ++a) {
          for (size_t b = 0; b < size; ++b) {
            if (a == b ||
                !mustHappenBefore(c.schedule, units[a], units[b], n))
              continue;
            before[a].set(b);
            EXPECT_LT(keys[a], keys[b])
                << stringifyPipelineSchedule(c.schedule).str() << " N=" << n
                << " mesh=" << mesh << " M=" << microbatches << ": "
                << describe(units[a]) << " before " << describe(units[b]);
          }
        }
        if (microbatches < minMicrobatches(n))
          continue;
        // Transitive closure (Warshall, rows as bit vectors).
        for (size_t k = 0; k < size; ++k)
          for (size_t a = 0; a < size; ++a)
            if (before[a].test(k))
              before[a] |= before[k];
        for (size_t a = 0; a < size; ++a)
          for (size_t b = 0; b < size; ++b)
            if (keys[a] < keys[b])
              EXPECT_TRUE(before[a].test(b))
                  << stringifyPipelineSchedule(c.schedule).str()
                  << " N=" << n << " mesh=" << mesh << " M=" << microbatches
                  << ": the key puts " << describe(units[a]) << " before "
                  << describe(units[b]) << ", the rules do not";
      }
    }
  }
}

int64_t anyMicrobatches(int64_t) { return 1; }
int64_t oneMicrobatchPerMesh(int64_t n) { return n; }

TEST(PipelineScheduleTest, GPipe) {
  checkKeysMatchPairwiseRules({PipelineSchedule::kGPipe}, anyMicrobatches);
  checkKeysMatchPairwiseRules({PipelineSchedule::kGPipe, true},
                              anyMicrobatches);
}

TEST(PipelineScheduleTest, OneFOneB) {
  checkKeysMatchPairwiseRules({PipelineSchedule::k1F1B}, oneMicrobatchPerMesh);
  checkKeysMatchPairwiseRules({PipelineSchedule::kGPipeBut1F1BForLastMesh},
                              oneMicrobatchPerMesh);
}

TEST(PipelineScheduleTest, OneFOneBOrderOnTheFirstOfThreeMeshes) {
  // Mesh 0 of 3: two more warm-up forwards, then alternate.
  std::vector<SchedulingUnit> units = makeUnits(0, 3, 4, false, 0, false);
  llvm::sort(units, [](const SchedulingUnit &a, const SchedulingUnit &b) {
    return *getScheduleKey(PipelineSchedule::k1F1B, a, 3) <
           *getScheduleKey(PipelineSchedule::k1F1B, b, 3);
  });
  std::string order;
  for (const SchedulingUnit &unit : units)
    order += describe(unit) + " ";
  EXPECT_EQ(order, "F(0) F(1) F(2) B(0) F(3) B(1) B(2) B(3) ");
}

TEST(PipelineScheduleTest, ZeroBubbleH1) {
  checkKeysMatchPairwiseRules({PipelineSchedule::kZeroBubbleH1, true},
                              oneMicrobatchPerMesh);
}

TEST(PipelineScheduleTest, ZeroBubbleH2) {
  // From the warm-up count of the first mesh on (λ = twiceLambda / 2);
  // before, the weight-gradient halves of the last mesh are anchored to no
  // backward.
  for (auto [schedule, twiceLambda] :
       {std::pair{PipelineSchedule::kZeroBubbleH2ZeroTxLatency, 0},
        std::pair{PipelineSchedule::kZeroBubbleH2HalfTxLatency, 1},
        std::pair{PipelineSchedule::kZeroBubbleH2FullTxLatency, 2}})
    checkKeysMatchPairwiseRules({schedule, true}, [&](int64_t n) -> int64_t {
      return 2 * n - 1 + (n - 1) * twiceLambda;
    });
}

TEST(PipelineScheduleTest, Circular) {
  for (PipelineSchedule schedule :
       {PipelineSchedule::kCircular,
        PipelineSchedule::kCircularWithReversedBackward})
    for (int64_t stagesPerMesh : {1, 2, 3})
      checkKeysMatchPairwiseRules({schedule, false, stagesPerMesh},
                                  anyMicrobatches);
}

TEST(PipelineScheduleTest, CircularNeedsStages) {
  SchedulingUnit unit;
  EXPECT_FALSE(getScheduleKey(PipelineSchedule::kCircular, unit, 2));
  SchedulingUnit other = unit;
  other.callCounter = 1;
  EXPECT_FALSE(mustHappenBefore(PipelineSchedule::kCircular, unit, other, 2));
}

TEST(PipelineScheduleTest, ParallelPipelinesWithWrapAround) {
  checkKeysMatchPairwiseRules(
      {PipelineSchedule::kParallelPipelinesWithWrapAround, false, 0, true},
      anyMicrobatches);
  // Mesh 2 of 4: its own pipeline first, then the ones that started on
  // meshes 1 and 0, then those wrapping around.
  std::vector<SchedulingUnit> units = makeUnits(2, 4, 4, false, 0, true);
  llvm::sort(units, [](const SchedulingUnit &a, const SchedulingUnit &b) {
    auto key = [](const SchedulingUnit &u) {
      return *getScheduleKey(PipelineSchedule::kParallelPipelinesWithWrapAround,
                             u, 4);
    };
    return key(a) < key(b);
  });
  std::string order;
  for (const SchedulingUnit &unit : units)
    order += describe(unit) + " ";
  EXPECT_EQ(order, "F(2) F(1) F(0) F(3) ");
}

TEST(PipelineScheduleTest, NamesAreCaseInsensitive) {
  EXPECT_EQ(symbolizePipelineSchedule("1f1b"), PipelineSchedule::k1F1B);
  EXPECT_EQ(symbolizePipelineSchedule("GPIPE"), PipelineSchedule::kGPipe);
  EXPECT_EQ(symbolizePipelineSchedule("zerobubbleh2halftxlatency"),
            PipelineSchedule::kZeroBubbleH2HalfTxLatency);
  EXPECT_EQ(symbolizePipelineSchedule("NONE"), PipelineSchedule::kNone);
  EXPECT_FALSE(symbolizePipelineSchedule("2F2B"));
  EXPECT_EQ(stringifyPipelineSchedule(PipelineSchedule::kCircular), "Circular");
}

} // namespace
