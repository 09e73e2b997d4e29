//===- Generators.h - Built-in pipeline schedules ---------------*- C++ -*-===//
//
// The built-in schedules, generated from (p meshes, v stages per mesh,
// m microbatches). Names parse case-insensitively, ignoring '-' and '_':
//
// | Name (aliases)                   | v    | layout  | W split | needs    |
// |----------------------------------|------|---------|---------|----------|
// | GPipe                            | 1    | looping | no      |          |
// | 1F1B                             | 1    | looping | no      |          |
// | Interleaved1F1B (interleaved,    | >= 2 | looping | no      | m % p = 0|
// |   vpp)                           |      |         |         |          |
// | ZB-H1 (ZeroBubbleH1)             | 1    | looping | yes     |          |
// | ZB-H2 (ZeroBubbleH2ZeroTxLatency)| 1    | looping | yes     |          |
// | ZB-H2-HalfTxLatency (ZeroBubble- | 1    | looping | yes     |          |
// |   H2HalfTxLatency)               |      |         |         |          |
// | ZB-H2-FullTxLatency (ZeroBubble- | 1    | looping | yes     |          |
// |   H2FullTxLatency)               |      |         |         |          |
// | ZB-V (ZBV)                       | 2    | V-shape | yes     |          |
// | DualPipeV                        | 2    | V-shape | partly  | m >= 2p  |
// | Circular                         | any  | looping | no      |          |
// | CircularWithReversedBackward     | any  | looping | no      |          |
//
// Orders (r = mesh index; every schedule respects the data dependencies of
// Schedule.h and is free of deadlocks, which the tests check for all of them):
// * GPipe: all forwards in microbatch order, then all backwards.
// * 1F1B: p-r forwards, then alternately one backward and one forward; mesh r
//   holds min(p-r, m) activations.
// * Interleaved1F1B: Megatron's virtual-pipeline order. The k-th forward of a
//   mesh runs chunk (k mod pv) / p of microbatch (k / pv) p + k mod p, the
//   k-th backward the same microbatch on chunk v-1-(k mod pv)/p; mesh r first
//   runs min(2(p-r-1) + (v-1)p, vm) forwards, then one forward and one
//   backward alternately, then the remaining backwards.
// * ZB-H1: 1F1B with the weight gradient split off and W(i) of mesh r run
//   right after B(i+r) (the first r backwards run without their W, which fill
//   the cooldown). Peak memory: p activations on every mesh.
// * ZB-H2: upstream's rule with transfer latency fraction L in {0, 1/2, 1}:
//   mesh r runs init(r) = 2(p-r)-1 + 2(p-r-1)L forwards before its first
//   backward and W(i) right after B(i + c - 1), c = init(p-r-1). With L = 0
//   and m >= 2p-1, mesh r holds 2p-1 activations and the shape is a
//   parallelogram: no idle time between a mesh's first and last action (unit
//   costs, no latency).
// * ZB-V: built by a list scheduler over unit costs: whenever a mesh is free
//   it runs a ready backward, else a ready forward if it holds fewer than 2p
//   chunk activations (1F1B's memory, on every mesh), else a pending weight
//   gradient (oldest first); among ready actions of one kind, the later
//   stage first (it is nearer the loss).
// * DualPipeV: DeepSeek's eight steps per mesh (forward warmup, forwards of
//   both chunks, B/W/F with zero bubble, main F0&B1/F1&B0 phase, cooldown
//   with the second half of the backwards split into B and W). Its overlapped
//   F&B pairs are two consecutive actions here, forward first.
// * Circular (upstream): all forwards, then all backwards; phase = mb / p;
//   forwards in ascending (phase, stage, mb), backwards in ascending phase,
//   descending stage, ascending mb. CircularWithReversedBackward runs the
//   backwards in descending (phase, stage, mb).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_SCHEDULE_GENERATORS_H
#define MPMD_SCHEDULE_GENERATORS_H

#include "mpmd/Schedule/Schedule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace mlir::mpmd::schedule {

enum class ScheduleKind {
  kGPipe,
  kOneFOneB,
  kInterleavedOneFOneB,
  kZeroBubbleH1,
  kZeroBubbleH2ZeroTxLatency,
  kZeroBubbleH2HalfTxLatency,
  kZeroBubbleH2FullTxLatency,
  kZeroBubbleV,
  kDualPipeV,
  kCircular,
  kCircularWithReversedBackward,
};

/// Every kind, in the order of the table above.
llvm::ArrayRef<ScheduleKind> getAllScheduleKinds();

/// The canonical name ("ZB-H1", "Interleaved1F1B", ...).
llvm::StringRef getScheduleName(ScheduleKind kind);

/// Parses a name or alias, case-insensitively and ignoring '-' and '_'.
std::optional<ScheduleKind> parseScheduleKind(llvm::StringRef name);

/// "GPipe, 1F1B, ..." for error messages and help texts.
std::string getScheduleNameList();

/// True for schedules that run weight gradients (W) as actions of their own
/// (zero-bubble and DualPipeV): a program needs split backward fragments.
bool hasWeightGradientActions(ScheduleKind kind);

/// The stages per mesh a schedule is built with unless told otherwise: 2
/// for the V-shaped ZB-V and DualPipeV, 1 for the others.
int64_t getDefaultStagesPerMesh(ScheduleKind kind);

struct ScheduleParams {
  int64_t meshes = 1;
  int64_t microbatches = 1;
  int64_t stagesPerMesh = 1;
};

/// The largest schedule generated, in actions (bounds memory for
/// command-line input).
constexpr int64_t kMaxScheduleActions = 10'000'000;

/// Builds the schedule, or an error saying what the parameters must satisfy
/// (e.g. "interleaved 1F1B needs microbatches to be a multiple of meshes (got
/// m=6, p=4)"). O(actions).
llvm::Expected<Schedule> buildSchedule(ScheduleKind kind,
                                       const ScheduleParams &params);

} // namespace mlir::mpmd::schedule

#endif // MPMD_SCHEDULE_GENERATORS_H
