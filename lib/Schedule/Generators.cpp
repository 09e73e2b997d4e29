//===- Generators.cpp - Built-in pipeline schedules -----------------------===//

#include "mpmd/Schedule/Generators.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <deque>
#include <limits>

namespace mlir::mpmd::schedule {

namespace {

using llvm::StringRef;

struct ScheduleName {
  ScheduleKind kind;
  StringRef canonical;
  /// Lower-case aliases without '-' or '_'; the canonical name normalised is
  /// always accepted too.
  llvm::ArrayRef<StringRef> aliases;
};

constexpr StringRef kInterleavedAliases[] = {"interleaved", "vpp"};
constexpr StringRef kZeroBubbleH1Aliases[] = {"zerobubbleh1"};
constexpr StringRef kZeroBubbleH2Aliases[] = {"zerobubbleh2zerotxlatency",
                                              "zbh2zerotxlatency"};
constexpr StringRef kZeroBubbleH2HalfAliases[] = {"zerobubbleh2halftxlatency"};
constexpr StringRef kZeroBubbleH2FullAliases[] = {"zerobubbleh2fulltxlatency"};

const ScheduleName kScheduleNames[] = {
    {ScheduleKind::kGPipe, "GPipe", {}},
    {ScheduleKind::kOneFOneB, "1F1B", {}},
    {ScheduleKind::kInterleavedOneFOneB, "Interleaved1F1B",
     kInterleavedAliases},
    {ScheduleKind::kZeroBubbleH1, "ZB-H1", kZeroBubbleH1Aliases},
    {ScheduleKind::kZeroBubbleH2ZeroTxLatency, "ZB-H2", kZeroBubbleH2Aliases},
    {ScheduleKind::kZeroBubbleH2HalfTxLatency, "ZB-H2-HalfTxLatency",
     kZeroBubbleH2HalfAliases},
    {ScheduleKind::kZeroBubbleH2FullTxLatency, "ZB-H2-FullTxLatency",
     kZeroBubbleH2FullAliases},
    {ScheduleKind::kZeroBubbleV, "ZB-V", {}},
    {ScheduleKind::kDualPipeV, "DualPipeV", {}},
    {ScheduleKind::kCircular, "Circular", {}},
    {ScheduleKind::kCircularWithReversedBackward,
     "CircularWithReversedBackward",
     {}},
};

constexpr ScheduleKind kAllScheduleKinds[] = {
    ScheduleKind::kGPipe,
    ScheduleKind::kOneFOneB,
    ScheduleKind::kInterleavedOneFOneB,
    ScheduleKind::kZeroBubbleH1,
    ScheduleKind::kZeroBubbleH2ZeroTxLatency,
    ScheduleKind::kZeroBubbleH2HalfTxLatency,
    ScheduleKind::kZeroBubbleH2FullTxLatency,
    ScheduleKind::kZeroBubbleV,
    ScheduleKind::kDualPipeV,
    ScheduleKind::kCircular,
    ScheduleKind::kCircularWithReversedBackward,
};

std::string normalizeName(StringRef name) {
  std::string normalized;
  for (char c : name)
    if (c != '-' && c != '_')
      normalized.push_back(llvm::toLower(c));
  return normalized;
}

Schedule makeEmptySchedule(std::vector<int64_t> stageMesh, int64_t meshes,
                           int64_t microbatches) {
  Schedule schedule;
  schedule.stageMesh = std::move(stageMesh);
  schedule.numMicrobatches = microbatches;
  schedule.meshActions.resize(meshes);
  return schedule;
}

/// The one-stage-per-mesh order of GPipe, 1F1B, ZB-H1 and ZB-H2: `warmup`
/// forwards, then for each microbatch i in turn B(i), W(i - weightLag) when
/// the weight gradient is split off, and the next forward; then the remaining
/// weight gradients.
void appendSingleStageOrder(std::vector<Action> &actions, int64_t stage,
                            int64_t microbatches, int64_t warmup,
                            std::optional<int64_t> weightLag) {
  warmup = std::min(warmup, microbatches);
  for (int64_t mb = 0; mb < warmup; ++mb)
    actions.push_back(Action::forward(mb, stage));
  for (int64_t mb = 0; mb < microbatches; ++mb) {
    actions.push_back(Action::backward(mb, stage));
    if (weightLag && mb >= *weightLag)
      actions.push_back(Action::weightGradient(mb - *weightLag, stage));
    if (warmup + mb < microbatches)
      actions.push_back(Action::forward(warmup + mb, stage));
  }
  if (weightLag)
    for (int64_t mb = std::max<int64_t>(0, microbatches - *weightLag);
         mb < microbatches; ++mb)
      actions.push_back(Action::weightGradient(mb, stage));
}

/// One stage per mesh, stage r on mesh r; `warmupOf(r)` forwards first and,
/// when `weightLagOf` is given, W(i) of mesh r right after B(i + lag(r)).
template <typename WarmupFn, typename LagFn>
Schedule buildSingleStageSchedule(const ScheduleParams &params,
                                  WarmupFn warmupOf, LagFn weightLagOf) {
  Schedule schedule = makeEmptySchedule(getLoopingStageMeshes(params.meshes, 1),
                                        params.meshes, params.microbatches);
  for (int64_t mesh = 0; mesh < params.meshes; ++mesh)
    appendSingleStageOrder(schedule.meshActions[mesh], mesh,
                           params.microbatches, warmupOf(mesh),
                           weightLagOf(mesh));
  return schedule;
}

Schedule buildInterleavedOneFOneB(const ScheduleParams &params) {
  const int64_t p = params.meshes, v = params.stagesPerMesh,
                m = params.microbatches;
  Schedule schedule = makeEmptySchedule(getLoopingStageMeshes(p, v), p, m);
  const int64_t total = v * m;
  // The k-th forward (backward) of a mesh: microbatches go in groups of p,
  // each group through every chunk (in reverse for backwards) before the next.
  auto microbatchOf = [&](int64_t k) { return (k / (p * v)) * p + k % p; };
  auto forwardChunkOf = [&](int64_t k) { return (k % (p * v)) / p; };
  for (int64_t mesh = 0; mesh < p; ++mesh) {
    std::vector<Action> &actions = schedule.meshActions[mesh];
    auto forwardAt = [&](int64_t k) {
      return Action::forward(microbatchOf(k), forwardChunkOf(k) * p + mesh);
    };
    auto backwardAt = [&](int64_t k) {
      return Action::backward(microbatchOf(k), (v - 1 - forwardChunkOf(k)) * p + mesh);
    };
    const int64_t warmup = std::min(2 * (p - mesh - 1) + (v - 1) * p, total);
    for (int64_t k = 0; k < warmup; ++k)
      actions.push_back(forwardAt(k));
    for (int64_t k = 0; k < total - warmup; ++k) {
      actions.push_back(forwardAt(warmup + k));
      actions.push_back(backwardAt(k));
    }
    for (int64_t k = total - warmup; k < total; ++k)
      actions.push_back(backwardAt(k));
  }
  return schedule;
}

/// ZB-H2 with transfer latency fraction `latencyHalves / 2`: upstream's
/// init(x) = 2(p-x)-1 + 2(p-x-1)L forwards before the first backward on mesh
/// x, and W(i) right after B(i + init(p-x-1) - 1).
Schedule buildZeroBubbleH2(const ScheduleParams &params,
                           int64_t latencyHalves) {
  const int64_t p = params.meshes;
  auto initialForwards = [&](int64_t mesh) {
    return 2 * (p - mesh) - 1 + (p - mesh - 1) * latencyHalves;
  };
  return buildSingleStageSchedule(params, initialForwards,
                                  [&](int64_t mesh) -> std::optional<int64_t> {
                                    return initialForwards(p - mesh - 1) - 1;
                                  });
}

/// See the header: a list scheduler over unit costs and no latency, so that
/// time advances in whole steps and an action started at step t has ended by
/// step t + 1. O(actions): each step runs at least one action.
Schedule buildZeroBubbleV(const ScheduleParams &params) {
  const int64_t p = params.meshes, m = params.microbatches, stages = 2 * p;
  Schedule schedule = makeEmptySchedule(getVShapeStageMeshes(p), p, m);
  constexpr int64_t kNotEnded = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> forwardEnd(m * stages, kNotEnded),
      backwardEnd(m * stages, kNotEnded);
  auto index = [&](int64_t mb, int64_t stage) { return mb * stages + stage; };
  std::vector<int64_t> nextForward(stages, 0), nextBackward(stages, 0);
  std::vector<std::deque<Action>> pendingWeightGradients(p);
  std::vector<int64_t> liveActivations(p, 0);
  const int64_t activationLimit = 2 * p;

  // Runs at most one action per mesh at `step`; returns how many ran.
  auto runStep = [&](int64_t step, bool respectActivationLimit) {
    int64_t ran = 0;
    for (int64_t mesh = 0; mesh < p; ++mesh) {
      std::vector<Action> &actions = schedule.meshActions[mesh];
      // The later stage of the mesh first: it is nearer the loss.
      const int64_t meshStages[] = {stages - 1 - mesh, mesh};
      auto tryBackward = [&] {
        for (int64_t stage : meshStages) {
          int64_t mb = nextBackward[stage];
          if (mb >= m || forwardEnd[index(mb, stage)] > step ||
              (stage + 1 < stages && backwardEnd[index(mb, stage + 1)] > step))
            continue;
          actions.push_back(Action::backward(mb, stage));
          backwardEnd[index(mb, stage)] = step + 1;
          ++nextBackward[stage];
          pendingWeightGradients[mesh].push_back(Action::weightGradient(mb, stage));
          return true;
        }
        return false;
      };
      auto tryForward = [&] {
        if (respectActivationLimit && liveActivations[mesh] >= activationLimit)
          return false;
        for (int64_t stage : meshStages) {
          int64_t mb = nextForward[stage];
          if (mb >= m || (stage > 0 && forwardEnd[index(mb, stage - 1)] > step))
            continue;
          actions.push_back(Action::forward(mb, stage));
          forwardEnd[index(mb, stage)] = step + 1;
          ++nextForward[stage];
          ++liveActivations[mesh];
          return true;
        }
        return false;
      };
      auto tryWeightGradient = [&] {
        if (pendingWeightGradients[mesh].empty())
          return false;
        actions.push_back(pendingWeightGradients[mesh].front());
        pendingWeightGradients[mesh].pop_front();
        --liveActivations[mesh];
        return true;
      };
      ran += tryBackward() || tryForward() || tryWeightGradient();
    }
    return ran;
  };

  const int64_t totalActions = 3 * m * stages;
  for (int64_t step = 0, scheduled = 0; scheduled < totalActions; ++step) {
    // With nothing in flight some remaining action has all its inputs, and
    // only a forward can be held back (by the activation limit): lifting the
    // limit for this step always makes progress.
    int64_t ran = runStep(step, /*respectActivationLimit=*/true);
    if (ran == 0)
      ran = runStep(step, /*respectActivationLimit=*/false);
    scheduled += ran;
  }
  return schedule;
}

/// DeepSeek's DualPipeV, per mesh r (chunk 0 = stage r, chunk 1 = stage
/// 2p-1-r; each chunk takes its microbatches in order; W runs the oldest
/// split-off weight gradient).
Schedule buildDualPipeV(const ScheduleParams &params) {
  const int64_t p = params.meshes, m = params.microbatches;
  Schedule schedule = makeEmptySchedule(getVShapeStageMeshes(p), p, m);
  for (int64_t mesh = 0; mesh < p; ++mesh) {
    std::vector<Action> &actions = schedule.meshActions[mesh];
    const int64_t chunkStage[2] = {mesh, 2 * p - 1 - mesh};
    int64_t nextForward[2] = {0, 0}, nextBackward[2] = {0, 0};
    std::deque<Action> pendingWeightGradients;
    auto runForward = [&](int chunk) {
      actions.push_back(Action::forward(nextForward[chunk]++, chunkStage[chunk]));
    };
    auto runBackward = [&](int chunk, bool splitWeightGradient) {
      int64_t mb = nextBackward[chunk]++;
      actions.push_back(Action::backward(mb, chunkStage[chunk]));
      if (splitWeightGradient)
        pendingWeightGradients.push_back(Action::weightGradient(mb, chunkStage[chunk]));
    };
    auto runWeightGradient = [&] {
      actions.push_back(pendingWeightGradients.front());
      pendingWeightGradients.pop_front();
    };
    const int64_t below = p - mesh - 1, upTo = mesh + 1;
    // 1. Forwards of chunk 0.
    for (int64_t i = 0; i < 2 * below; ++i)
      runForward(0);
    // 2. Forwards of both chunks.
    for (int64_t i = 0; i < upTo; ++i) {
      runForward(0);
      runForward(1);
    }
    // 3. B, W, F of chunk 1 (zero bubble).
    for (int64_t i = 0; i < below; ++i) {
      runBackward(1, /*splitWeightGradient=*/true);
      runWeightGradient();
      runForward(1);
    }
    // 4. Main phase: F0 & B1, then F1 & B0.
    for (int64_t i = 0; i < m - 2 * p + upTo; ++i) {
      runForward(0);
      runBackward(1, /*splitWeightGradient=*/false);
      runForward(1);
      runBackward(0, /*splitWeightGradient=*/false);
    }
    // 5. B1, then F1 & B0.
    for (int64_t i = 0; i < below; ++i) {
      runBackward(1, /*splitWeightGradient=*/false);
      runForward(1);
      runBackward(0, /*splitWeightGradient=*/false);
    }
    // 6. Backwards of both chunks; the second half split (zero bubble), from
    // B1 on odd meshes and from B0 on even ones.
    bool split = false;
    for (int64_t i = 0; i < upTo; ++i) {
      if (i == upTo / 2 && mesh % 2 == 1)
        split = true;
      runBackward(1, split);
      if (i == upTo / 2 && mesh % 2 == 0)
        split = true;
      runBackward(0, split);
    }
    // 7. W, then B0 (zero bubble).
    for (int64_t i = 0; i < below; ++i) {
      runWeightGradient();
      runBackward(0, /*splitWeightGradient=*/true);
    }
    // 8. The remaining weight gradients.
    while (!pendingWeightGradients.empty())
      runWeightGradient();
  }
  return schedule;
}

/// Upstream's Circular: all forwards in ascending (phase, stage, mb), then
/// the backwards in ascending phase, descending stage, ascending mb (or all
/// descending with `reverseBackward`); phase = mb / p.
Schedule buildCircular(const ScheduleParams &params, bool reverseBackward) {
  const int64_t p = params.meshes, v = params.stagesPerMesh,
                m = params.microbatches;
  Schedule schedule = makeEmptySchedule(getLoopingStageMeshes(p, v), p, m);
  const int64_t phases = (m + p - 1) / p;
  auto phaseEnd = [&](int64_t phase) { return std::min(m, (phase + 1) * p); };
  for (int64_t mesh = 0; mesh < p; ++mesh) {
    std::vector<Action> &actions = schedule.meshActions[mesh];
    for (int64_t phase = 0; phase < phases; ++phase)
      for (int64_t chunk = 0; chunk < v; ++chunk)
        for (int64_t mb = phase * p; mb < phaseEnd(phase); ++mb)
          actions.push_back(Action::forward(mb, chunk * p + mesh));
    for (int64_t i = 0; i < phases; ++i) {
      int64_t phase = reverseBackward ? phases - 1 - i : i;
      for (int64_t chunk = v - 1; chunk >= 0; --chunk) {
        if (reverseBackward) {
          for (int64_t mb = phaseEnd(phase) - 1; mb >= phase * p; --mb)
            actions.push_back(Action::backward(mb, chunk * p + mesh));
        } else {
          for (int64_t mb = phase * p; mb < phaseEnd(phase); ++mb)
            actions.push_back(Action::backward(mb, chunk * p + mesh));
        }
      }
    }
  }
  return schedule;
}

llvm::Error verifyParams(ScheduleKind kind, const ScheduleParams &params) {
  const int64_t p = params.meshes, m = params.microbatches,
                v = params.stagesPerMesh;
  if (p < 1)
    return makeScheduleError("meshes must be at least 1 (got p=" + llvm::Twine(p) +
                     ")");
  if (m < 1)
    return makeScheduleError(
        "microbatches must be at least 1 (got m=" + llvm::Twine(m) + ")");
  if (v < 1)
    return makeScheduleError(
        "stages per mesh must be at least 1 (got v=" + llvm::Twine(v) + ")");
  // At most three actions per (microbatch, stage); the divisions keep the
  // bound free of overflow.
  if (p > kMaxScheduleActions / 3 / v / m)
    return makeScheduleError("p=" + llvm::Twine(p) + ", v=" + llvm::Twine(v) +
                     ", m=" + llvm::Twine(m) + " make more than " +
                     llvm::Twine(kMaxScheduleActions) +
                     " actions, the most a schedule may have");
  StringRef name = getScheduleName(kind);
  auto needStagesPerMesh = [&](int64_t required,
                               StringRef hint) -> llvm::Error {
    if (v == required)
      return llvm::Error::success();
    return makeScheduleError(name + " needs v = " + llvm::Twine(required) +
                     " (got v=" + llvm::Twine(v) + ")" + hint);
  };
  switch (kind) {
  case ScheduleKind::kGPipe:
  case ScheduleKind::kOneFOneB:
  case ScheduleKind::kZeroBubbleH1:
  case ScheduleKind::kZeroBubbleH2ZeroTxLatency:
  case ScheduleKind::kZeroBubbleH2HalfTxLatency:
  case ScheduleKind::kZeroBubbleH2FullTxLatency:
    return needStagesPerMesh(
        1, "; Interleaved1F1B, Circular, ZB-V and DualPipeV run several "
           "stages per mesh");
  case ScheduleKind::kInterleavedOneFOneB:
    if (v < 2)
      return makeScheduleError(name + " needs v >= 2 (got v=" + llvm::Twine(v) +
                       "); 1F1B runs one stage per mesh");
    if (m % p != 0)
      return makeScheduleError(
          name + " needs microbatches to be a multiple of meshes (got m=" +
          llvm::Twine(m) + ", p=" + llvm::Twine(p) + ")");
    return llvm::Error::success();
  case ScheduleKind::kZeroBubbleV:
    return needStagesPerMesh(2, "");
  case ScheduleKind::kDualPipeV:
    if (llvm::Error error = needStagesPerMesh(2, ""))
      return error;
    if (m < 2 * p)
      return makeScheduleError(name +
                       " needs at least twice as many microbatches as "
                       "meshes (got m=" +
                       llvm::Twine(m) + ", p=" + llvm::Twine(p) + ")");
    return llvm::Error::success();
  case ScheduleKind::kCircular:
  case ScheduleKind::kCircularWithReversedBackward:
    return llvm::Error::success();
  }
  llvm_unreachable("unknown schedule kind");
}

} // namespace

llvm::ArrayRef<ScheduleKind> getAllScheduleKinds() { return kAllScheduleKinds; }

StringRef getScheduleName(ScheduleKind kind) {
  for (const ScheduleName &entry : kScheduleNames)
    if (entry.kind == kind)
      return entry.canonical;
  llvm_unreachable("unknown schedule kind");
}

std::optional<ScheduleKind> parseScheduleKind(StringRef name) {
  std::string normalized = normalizeName(name);
  for (const ScheduleName &entry : kScheduleNames)
    if (normalizeName(entry.canonical) == normalized ||
        llvm::is_contained(entry.aliases, normalized))
      return entry.kind;
  return std::nullopt;
}

int64_t getDefaultStagesPerMesh(ScheduleKind kind) {
  return kind == ScheduleKind::kZeroBubbleV || kind == ScheduleKind::kDualPipeV
             ? 2
             : 1;
}

bool hasWeightGradientActions(ScheduleKind kind) {
  switch (kind) {
  case ScheduleKind::kZeroBubbleH1:
  case ScheduleKind::kZeroBubbleH2ZeroTxLatency:
  case ScheduleKind::kZeroBubbleH2HalfTxLatency:
  case ScheduleKind::kZeroBubbleH2FullTxLatency:
  case ScheduleKind::kZeroBubbleV:
  case ScheduleKind::kDualPipeV:
    return true;
  case ScheduleKind::kGPipe:
  case ScheduleKind::kOneFOneB:
  case ScheduleKind::kInterleavedOneFOneB:
  case ScheduleKind::kCircular:
  case ScheduleKind::kCircularWithReversedBackward:
    return false;
  }
  llvm_unreachable("unknown schedule kind");
}

std::string getScheduleNameList() {
  std::string list;
  for (ScheduleKind kind : kAllScheduleKinds) {
    if (!list.empty())
      list += ", ";
    list += getScheduleName(kind);
  }
  return list;
}

llvm::Expected<Schedule> buildSchedule(ScheduleKind kind,
                                       const ScheduleParams &params) {
  if (llvm::Error error = verifyParams(kind, params))
    return std::move(error);
  const int64_t p = params.meshes, m = params.microbatches;
  auto noSplit = [](int64_t) -> std::optional<int64_t> { return std::nullopt; };
  switch (kind) {
  case ScheduleKind::kGPipe:
    return buildSingleStageSchedule(
        params, [&](int64_t) { return m; }, noSplit);
  case ScheduleKind::kOneFOneB:
    return buildSingleStageSchedule(
        params, [&](int64_t mesh) { return p - mesh; }, noSplit);
  case ScheduleKind::kInterleavedOneFOneB:
    return buildInterleavedOneFOneB(params);
  case ScheduleKind::kZeroBubbleH1:
    return buildSingleStageSchedule(
        params, [&](int64_t mesh) { return p - mesh; },
        [](int64_t mesh) -> std::optional<int64_t> { return mesh; });
  case ScheduleKind::kZeroBubbleH2ZeroTxLatency:
    return buildZeroBubbleH2(params, /*latencyHalves=*/0);
  case ScheduleKind::kZeroBubbleH2HalfTxLatency:
    return buildZeroBubbleH2(params, /*latencyHalves=*/1);
  case ScheduleKind::kZeroBubbleH2FullTxLatency:
    return buildZeroBubbleH2(params, /*latencyHalves=*/2);
  case ScheduleKind::kZeroBubbleV:
    return buildZeroBubbleV(params);
  case ScheduleKind::kDualPipeV:
    return buildDualPipeV(params);
  case ScheduleKind::kCircular:
    return buildCircular(params, /*reverseBackward=*/false);
  case ScheduleKind::kCircularWithReversedBackward:
    return buildCircular(params, /*reverseBackward=*/true);
  }
  llvm_unreachable("unknown schedule kind");
}

} // namespace mlir::mpmd::schedule
