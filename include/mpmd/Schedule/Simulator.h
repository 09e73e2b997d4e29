//===- Simulator.h - Progress proof and timing of a schedule ----*- C++ -*-===//
//
// `verifyProgress` proves that every mesh of a schedule finishes its list, and
// `simulate` computes when each action runs under given costs.
//
// Timing rule: each mesh runs its list in order, one action at a time; an
// action starts when the previous action of its mesh has ended and each of its
// data dependencies (Schedule.h) has ended, plus the transfer latency when the
// dependency ran on another mesh. Nothing else is modelled: no overlap of
// compute with communication, no contention between transfers.
//
// Metrics:
// * makespan: the end of the last action (the schedule starts at 0).
// * bubble fraction of a mesh: (makespan - busy) / makespan, the idle share
//   of the whole step. It is the notes' idle fraction
//   T_bubble / (T_bubble + work).
// * active bubble fraction of a mesh: idle share of the window from the
//   mesh's first start to its last end. It is what remains idle when
//   consecutive steps are not synchronised (ZB-H2 with optimizer-step
//   post-validation): the warmup skew before a mesh starts and the cooldown
//   after it ends are then filled by the neighbouring steps.
// * peak live activations of a mesh, counted in (microbatch, stage) pairs:
//   the activation of (mb, s) is live from the start of F(mb, s) to the end of
//   the action that frees it: W(mb, s) when the schedule has it (the weight
//   gradient still needs the stage's inputs), else B(mb, s); with neither, to
//   the end of the step. A mesh runs one action at a time, so the peak is the
//   largest number live during one action of its list, which depends on the
//   order only, not on the costs. For one stage per mesh it is in
//   microbatches: 1F1B peaks at min(p - r, m) on mesh r, GPipe at m.
// * peak activation bytes of a mesh: the same count weighted by the bytes
//   one microbatch keeps live on each stage, when stages differ (a planned
//   cut of a real model, `StageCosts`).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_SCHEDULE_SIMULATOR_H
#define MPMD_SCHEDULE_SIMULATOR_H

#include "mpmd/Schedule/Schedule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace mlir::mpmd::schedule {

/// Durations of one action of one stage, and the latency of a transfer
/// between meshes. When W(mb, s) is not split off, B(mb, s) lasts
/// `backward + weightGradient`.
struct ActionCosts {
  double forward = 1;
  double backward = 1;
  double weightGradient = 1;
  double transfer = 0;
};

/// An error unless every cost is finite and non-negative.
llvm::Error verifyCosts(const ActionCosts &costs);

/// The costs of one stage, for schedules whose stages differ (a model cut
/// into stages of unequal layers). The latency of a transfer between
/// meshes belongs to the boundary after a stage: its forward output to
/// stage s + 1 and the gradient from stage s + 1 back both take
/// `transferToNext` of stage s.
struct StageCosts {
  double forward = 1;
  double backward = 1;
  double weightGradient = 1;
  double transferToNext = 0;
  /// What one microbatch's activation of this stage occupies while live.
  double activationBytes = 1;
};

/// Checks that every action names a stage and microbatch of the schedule, sits
/// on its stage's mesh and appears once, and that no mesh waits forever:
/// reports an action whose dependency no mesh runs, or a cycle of waits
/// through the meshes' orders, naming the actions of the cycle. O(actions +
/// stages x microbatches): one topological pass over the order and
/// dependency edges.
llvm::Error verifyProgress(const Schedule &schedule);

struct TimedAction {
  Action action;
  double start;
  double end;
};

struct MeshStats {
  /// Sum of the durations of the mesh's actions.
  double busy = 0;
  /// Start of its first action and end of its last (0 for an empty mesh).
  double firstStart = 0;
  double lastEnd = 0;
  double bubbleFraction = 0;
  double activeBubbleFraction = 0;
  int64_t peakLiveActivations = 0;
  /// The peak of the live activations weighted by their stage's
  /// `activationBytes` (equal to `peakLiveActivations` under `ActionCosts`).
  double peakActivationBytes = 0;
};

struct SimulationResult {
  double makespan = 0;
  std::vector<MeshStats> meshes;
  /// For each mesh, its actions in order with their times.
  std::vector<std::vector<TimedAction>> timeline;

  /// The idle share of all meshes over the makespan.
  double getTotalBubbleFraction() const;
};

/// Verifies progress (see `verifyProgress`) and costs, then computes the
/// times. O(actions + stages x microbatches).
llvm::Expected<SimulationResult> simulate(const Schedule &schedule,
                                          const ActionCosts &costs);

/// The same with the costs of each stage (one entry per stage).
llvm::Expected<SimulationResult>
simulate(const Schedule &schedule, llvm::ArrayRef<StageCosts> stageCosts);

} // namespace mlir::mpmd::schedule

#endif // MPMD_SCHEDULE_SIMULATOR_H
