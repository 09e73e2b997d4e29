//===- PipelineSchedule.cpp - Built-in pipeline schedules -----------------===//
//
// Notation: N schedulable meshes, unit on mesh m (0-based, topology order),
// microbatch (call counter) i, j; F = forward, B = backward; with split
// backward fragments Ba = the transferred half (or an unsplit backward), Bw =
// the weight-gradient half (`split_drop_transferred`).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Transforms/Optimize/PipelineSchedule.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <tuple>

using namespace llvm;
using namespace mlir;
using namespace mlir::mpmd;

namespace {

struct ScheduleName {
  PipelineSchedule schedule;
  StringLiteral name;
};

constexpr ScheduleName kScheduleNames[] = {
    {PipelineSchedule::kNone, "none"},
    {PipelineSchedule::k1F1B, "1F1B"},
    {PipelineSchedule::kGPipe, "GPipe"},
    {PipelineSchedule::kCircular, "Circular"},
    {PipelineSchedule::kCircularWithReversedBackward,
     "CircularWithReversedBackward"},
    {PipelineSchedule::kGPipeBut1F1BForLastMesh, "GPipeBut1F1BForLastMesh"},
    {PipelineSchedule::kZeroBubbleH1, "ZeroBubbleH1"},
    {PipelineSchedule::kZeroBubbleH2ZeroTxLatency, "ZeroBubbleH2ZeroTxLatency"},
    {PipelineSchedule::kZeroBubbleH2HalfTxLatency, "ZeroBubbleH2HalfTxLatency"},
    {PipelineSchedule::kZeroBubbleH2FullTxLatency, "ZeroBubbleH2FullTxLatency"},
    {PipelineSchedule::kParallelPipelinesWithWrapAround,
     "ParallelPipelinesWithWrapAround"},
};

enum class UnitKind { kForward, kBackward, kWeightGradient };

UnitKind getKind(const SchedulingUnit &unit) {
  if (unit.transposeCount == 0)
    return UnitKind::kForward;
  return unit.isWeightGradient ? UnitKind::kWeightGradient
                               : UnitKind::kBackward;
}

bool gpipeBefore(const SchedulingUnit &a, const SchedulingUnit &b) {
  if (a.transposeCount == b.transposeCount)
    return a.callCounter < b.callCounter;
  return a.transposeCount < b.transposeCount;
}

/// B(i) → F(j) iff i == j − N + m; F(i) → B(j) iff i == j + N − (m+1).
bool oneFOneBBefore(const SchedulingUnit &a, const SchedulingUnit &b,
                    int64_t n) {
  int64_t m = a.meshIndex;
  if (a.transposeCount == b.transposeCount)
    return a.callCounter < b.callCounter;
  if (a.transposeCount == 1)
    return a.callCounter == b.callCounter - n + m;
  return a.callCounter == b.callCounter + n - (m + 1);
}

bool zeroBubbleH1Before(const SchedulingUnit &a, const SchedulingUnit &b,
                        int64_t n) {
  int64_t m = a.meshIndex, i = a.callCounter, j = b.callCounter;
  UnitKind ka = getKind(a), kb = getKind(b);
  if (ka == kb)
    return i < j;
  switch (ka) {
  case UnitKind::kForward:
    // F(i) → Ba(j) iff i == j + N − m − 1; nothing orders F before Bw
    // directly.
    return kb == UnitKind::kBackward && i == j + n - m - 1;
  case UnitKind::kBackward:
    if (kb == UnitKind::kForward)
      return i == j - n + m; // Ba(i) → F(j).
    return i - j == m;       // Ba(i) → Bw(j).
  case UnitKind::kWeightGradient:
    if (kb == UnitKind::kForward)
      return j - i == n;   // Bw(i) → F(j).
    return j - i == m + 1; // Bw(i) → Ba(j).
  }
  llvm_unreachable("unknown unit kind");
}

/// The warm-up forwards of mesh x in ZB-H2 with latency fraction λ =
/// twiceLambda / 2: floor(2(N−x)−1 + 2(N−x−1)·λ), an integer for λ in
/// {0, ½, 1}.
int64_t zeroBubbleH2InitialForwards(int64_t x, int64_t n, int64_t twiceLambda) {
  return 2 * (n - x) - 1 + (n - x - 1) * twiceLambda;
}

bool zeroBubbleH2Before(const SchedulingUnit &a, const SchedulingUnit &b,
                        int64_t n, int64_t twiceLambda) {
  int64_t m = a.meshIndex, i = a.callCounter, j = b.callCounter;
  int64_t init = zeroBubbleH2InitialForwards(m, n, twiceLambda);
  int64_t c = zeroBubbleH2InitialForwards(n - m - 1, n, twiceLambda);
  UnitKind ka = getKind(a), kb = getKind(b);
  if (ka == kb)
    return i < j;
  switch (ka) {
  case UnitKind::kForward:
    // Warm-up forwards run before every backward; then F(i) → Ba(j) iff
    // i − j == init − 1.
    if (i < init)
      return true;
    return kb == UnitKind::kBackward && i - j == init - 1;
  case UnitKind::kBackward:
    if (kb == UnitKind::kForward)
      return j >= init && j - i == init; // Ba(i) → F(j).
    return i - j == c - 1;               // Ba(i) → Bw(j).
  case UnitKind::kWeightGradient:
    // Bw(i) → Ba(j) iff j − i == c; nothing orders Bw before F directly.
    return kb == UnitKind::kBackward && j - i == c;
  }
  llvm_unreachable("unknown unit kind");
}

/// Forward before backward; forwards by (phase, stage, microbatch), phase =
/// microbatch / N; backwards by (phase, descending stage, microbatch), or
/// all descending when `reversedBackward`.
bool circularBefore(const SchedulingUnit &a, const SchedulingUnit &b,
                    int64_t n, bool reversedBackward) {
  if (!a.stageId || !b.stageId)
    return false;
  if (a.transposeCount != b.transposeCount)
    return a.transposeCount < b.transposeCount;
  auto tupleOf = [&](const SchedulingUnit &u) {
    return std::make_tuple(u.callCounter / n, *u.stageId, u.callCounter);
  };
  if (a.transposeCount == 0)
    return tupleOf(a) < tupleOf(b);
  if (reversedBackward)
    return tupleOf(a) > tupleOf(b);
  auto backwardTupleOf = [&](const SchedulingUnit &u) {
    return std::make_tuple(u.callCounter / n, -*u.stageId, u.callCounter);
  };
  return backwardTupleOf(a) < backwardTupleOf(b);
}

/// Forwards only. On mesh number p, microbatch p first, then p−1, ..., 0,
/// then the largest down to p+1.
bool parallelPipelinesBefore(const SchedulingUnit &a, const SchedulingUnit &b) {
  if (a.transposeCount != 0 || b.transposeCount != 0 || !a.meshNumber)
    return false;
  int64_t p = *a.meshNumber, i = a.callCounter, j = b.callCounter;
  if (i == p)
    return j != p;
  if (j == p)
    return false;
  if ((i < p) == (j < p))
    return i > j;
  return i < j;
}

bool isLastMesh(const SchedulingUnit &unit, int64_t numMeshes) {
  return unit.meshIndex == numMeshes - 1;
}

std::optional<int64_t> twiceLambdaOf(PipelineSchedule schedule) {
  switch (schedule) {
  case PipelineSchedule::kZeroBubbleH2ZeroTxLatency:
    return 0;
  case PipelineSchedule::kZeroBubbleH2HalfTxLatency:
    return 1;
  case PipelineSchedule::kZeroBubbleH2FullTxLatency:
    return 2;
  default:
    return std::nullopt;
  }
}

} // namespace

StringRef mlir::mpmd::stringifyPipelineSchedule(PipelineSchedule schedule) {
  for (const ScheduleName &entry : kScheduleNames)
    if (entry.schedule == schedule)
      return entry.name;
  llvm_unreachable("unknown pipeline schedule");
}

std::optional<PipelineSchedule>
mlir::mpmd::symbolizePipelineSchedule(StringRef name) {
  for (const ScheduleName &entry : kScheduleNames)
    if (entry.name.equals_insensitive(name))
      return entry.schedule;
  return std::nullopt;
}

std::string mlir::mpmd::getPipelineScheduleNameList() {
  std::string names;
  raw_string_ostream os(names);
  interleave(
      kScheduleNames, os, [&](const ScheduleName &e) { os << e.name; }, ", ");
  return names;
}

bool mlir::mpmd::requiresSplitBwdFragments(PipelineSchedule schedule) {
  switch (schedule) {
  case PipelineSchedule::kZeroBubbleH1:
  case PipelineSchedule::kZeroBubbleH2ZeroTxLatency:
  case PipelineSchedule::kZeroBubbleH2HalfTxLatency:
  case PipelineSchedule::kZeroBubbleH2FullTxLatency:
    return true;
  case PipelineSchedule::kNone:
  case PipelineSchedule::k1F1B:
  case PipelineSchedule::kGPipe:
  case PipelineSchedule::kCircular:
  case PipelineSchedule::kCircularWithReversedBackward:
  case PipelineSchedule::kGPipeBut1F1BForLastMesh:
  case PipelineSchedule::kParallelPipelinesWithWrapAround:
    return false;
  }
  llvm_unreachable("unknown pipeline schedule");
}

raw_ostream &mlir::mpmd::operator<<(raw_ostream &os,
                                    PipelineSchedule schedule) {
  return os << stringifyPipelineSchedule(schedule);
}

bool mlir::mpmd::mustHappenBefore(PipelineSchedule schedule,
                                  const SchedulingUnit &a,
                                  const SchedulingUnit &b, int64_t numMeshes) {
  switch (schedule) {
  case PipelineSchedule::kNone:
    return false;
  case PipelineSchedule::kGPipe:
    return gpipeBefore(a, b);
  case PipelineSchedule::k1F1B:
    return oneFOneBBefore(a, b, numMeshes);
  case PipelineSchedule::kGPipeBut1F1BForLastMesh:
    return isLastMesh(a, numMeshes) ? oneFOneBBefore(a, b, numMeshes)
                                    : gpipeBefore(a, b);
  case PipelineSchedule::kZeroBubbleH1:
    return zeroBubbleH1Before(a, b, numMeshes);
  case PipelineSchedule::kZeroBubbleH2ZeroTxLatency:
  case PipelineSchedule::kZeroBubbleH2HalfTxLatency:
  case PipelineSchedule::kZeroBubbleH2FullTxLatency:
    return zeroBubbleH2Before(a, b, numMeshes, *twiceLambdaOf(schedule));
  case PipelineSchedule::kCircular:
    return circularBefore(a, b, numMeshes, /*reversedBackward=*/false);
  case PipelineSchedule::kCircularWithReversedBackward:
    return circularBefore(a, b, numMeshes, /*reversedBackward=*/true);
  case PipelineSchedule::kParallelPipelinesWithWrapAround:
    return parallelPipelinesBefore(a, b);
  }
  llvm_unreachable("unknown pipeline schedule");
}

// The keys below place each unit at its slot of the steady-state pattern of
// its mesh; the second component orders units sharing a slot.
std::optional<ScheduleKey>
mlir::mpmd::getScheduleKey(PipelineSchedule schedule,
                           const SchedulingUnit &unit, int64_t numMeshes) {
  int64_t n = numMeshes, m = unit.meshIndex, i = unit.callCounter;
  UnitKind kind = getKind(unit);
  // 1F1B: F(i) runs after B(i − N + m) and before B(i − N + m + 1).
  auto oneFOneBKey = [&]() -> ScheduleKey {
    if (kind == UnitKind::kForward)
      return {i, 1, 0, 0};
    return {i + n - m, 0, 0, 0};
  };
  auto gpipeKey = [&]() -> ScheduleKey { return {unit.transposeCount, i, 0, 0}; };
  switch (schedule) {
  case PipelineSchedule::kNone:
    return std::nullopt;
  case PipelineSchedule::kGPipe:
    return gpipeKey();
  case PipelineSchedule::k1F1B:
    return oneFOneBKey();
  case PipelineSchedule::kGPipeBut1F1BForLastMesh:
    return isLastMesh(unit, n) ? oneFOneBKey() : gpipeKey();
  case PipelineSchedule::kZeroBubbleH1:
    // Slot s holds Ba(s − N + m), then Bw(s − N), then F(s).
    switch (kind) {
    case UnitKind::kBackward:
      return ScheduleKey{i + n - m, 0, 0, 0};
    case UnitKind::kWeightGradient:
      return ScheduleKey{i + n, 1, 0, 0};
    case UnitKind::kForward:
      return ScheduleKey{i, 2, 0, 0};
    }
    llvm_unreachable("unknown unit kind");
  case PipelineSchedule::kZeroBubbleH2ZeroTxLatency:
  case PipelineSchedule::kZeroBubbleH2HalfTxLatency:
  case PipelineSchedule::kZeroBubbleH2FullTxLatency: {
    // Slot s holds Ba(s), then F(s + init) and Bw(s − c + 1), which the
    // schedule leaves unordered; warm-up forwards have negative slots.
    int64_t twiceLambda = *twiceLambdaOf(schedule);
    int64_t init = zeroBubbleH2InitialForwards(m, n, twiceLambda);
    int64_t c = zeroBubbleH2InitialForwards(n - m - 1, n, twiceLambda);
    switch (kind) {
    case UnitKind::kBackward:
      return ScheduleKey{i, 0, 0, 0};
    case UnitKind::kWeightGradient:
      return ScheduleKey{i + c - 1, 1, 0, 0};
    case UnitKind::kForward:
      return ScheduleKey{i - init, 1, 0, 0};
    }
    llvm_unreachable("unknown unit kind");
  }
  case PipelineSchedule::kCircular:
  case PipelineSchedule::kCircularWithReversedBackward: {
    if (!unit.stageId)
      return std::nullopt;
    int64_t phase = i / n, stage = *unit.stageId;
    if (unit.transposeCount == 0)
      return ScheduleKey{0, phase, stage, i};
    if (schedule == PipelineSchedule::kCircular)
      return ScheduleKey{1, phase, -stage, i};
    return ScheduleKey{1, -phase, -stage, -i};
  }
  case PipelineSchedule::kParallelPipelinesWithWrapAround: {
    if (unit.transposeCount != 0 || !unit.meshNumber)
      return std::nullopt;
    int64_t p = *unit.meshNumber;
    int64_t side = i == p ? 0 : i < p ? 1 : 2;
    return ScheduleKey{side, -i, 0, 0};
  }
  }
  llvm_unreachable("unknown pipeline schedule");
}

bool cl::parser<PipelineSchedule>::parse(Option &option, StringRef,
                                         StringRef arg,
                                         PipelineSchedule &value) {
  // Upstream documents a `builtin:` prefix; the bare name is what it parses.
  if (std::optional<PipelineSchedule> schedule =
          symbolizePipelineSchedule(arg.trim())) {
    value = *schedule;
    return false;
  }
  return option.error("unknown pipeline schedule '" + arg +
                      "'; expected one of (any case): " +
                      getPipelineScheduleNameList());
}
