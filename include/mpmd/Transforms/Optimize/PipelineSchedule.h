//===- PipelineSchedule.h - Built-in pipeline schedules ---------*- C++ -*-===//
//
// The built-in schedules of `-mpmd-pipeline-scheduler`, defined twice:
//
// * `mustHappenBefore(schedule, a, b)`: upstream's definition, a predicate on
//   pairs of scheduling units of one mesh ("a must run before b"). Upstream
//   adds a control dependency for every such pair, O(n²) pairs.
// * `getScheduleKey(schedule, unit)`: a sort key per unit such that, on one
//   mesh, a runs before b iff key(a) < key(b), and units with equal keys are
//   not ordered. The scheduler sorts by it, O(n log n).
//
// The two agree: every pair the predicate orders is ordered the same way by
// the keys, and when the units of a mesh are complete (every microbatch of
// each kind present) and reach the steady state (at least N microbatches for
// 1F1B and ZB-H1, 2N − 1 + 2(N − 1)λ for ZB-H2; any number otherwise), the
// transitive closure of the predicate orders exactly the pairs with
// different keys. `PipelineScheduleTest` checks both properties
// exhaustively on small pipelines. With fewer or missing microbatches the
// keys still order units by their place in the steady-state pattern (e.g.
// 1F1B with fewer microbatches than meshes: all forwards first), where the
// pairwise rules leave some pairs to the original program order.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_OPTIMIZE_PIPELINESCHEDULE_H
#define MPMD_TRANSFORMS_OPTIMIZE_PIPELINESCHEDULE_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::mpmd {

enum class PipelineSchedule {
  kNone,
  k1F1B,
  kGPipe,
  kCircular,
  kCircularWithReversedBackward,
  kGPipeBut1F1BForLastMesh,
  kZeroBubbleH1,
  kZeroBubbleH2ZeroTxLatency,
  kZeroBubbleH2HalfTxLatency,
  kZeroBubbleH2FullTxLatency,
  kParallelPipelinesWithWrapAround,
};

/// The canonical name (`1F1B`, `GPipe`, ...).
StringRef stringifyPipelineSchedule(PipelineSchedule schedule);
/// Case-insensitive; nullopt for an unknown name.
std::optional<PipelineSchedule> symbolizePipelineSchedule(StringRef name);
/// "none, 1F1B, GPipe, ..." (canonical names) for messages.
std::string getPipelineScheduleNameList();
/// True for the zero-bubble schedules, which order split-off weight
/// gradients: upstream requires `mpmd_split_bwd_fragments` with them.
bool requiresSplitBwdFragments(PipelineSchedule schedule);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                              PipelineSchedule schedule);

/// What a schedule looks at in a scheduling unit.
struct SchedulingUnit {
  /// Index of the unit's mesh among the schedulable (non-`/cpu`) meshes of
  /// the topology, in topology order.
  int64_t meshIndex = 0;
  /// The microbatch.
  int64_t callCounter = 0;
  /// 0 (forward) or 1 (backward).
  int64_t transposeCount = 0;
  /// A `split_drop_transferred` backward fragment (weight gradients).
  bool isWeightGradient = false;
  std::optional<int64_t> stageId;
  /// The number in the mesh name (`m12` → 12), for
  /// ParallelPipelinesWithWrapAround.
  std::optional<int64_t> meshNumber;
};

/// Upstream's pairwise definition, for units `a` and `b` of one mesh in a
/// pipeline of `numMeshes` schedulable meshes.
bool mustHappenBefore(PipelineSchedule schedule, const SchedulingUnit &a,
                      const SchedulingUnit &b, int64_t numMeshes);

/// Compared lexicographically.
using ScheduleKey = std::array<int64_t, 4>;

/// The sort key of `unit`, or nullopt when the schedule does not order it
/// (schedule `none`; Circular without a stage; a backward unit or a mesh
/// without a number under ParallelPipelinesWithWrapAround).
std::optional<ScheduleKey> getScheduleKey(PipelineSchedule schedule,
                                          const SchedulingUnit &unit,
                                          int64_t numMeshes);

} // namespace mlir::mpmd

namespace llvm::cl {

/// Parses schedule names case-insensitively, so `must-happen-before=gpipe`
/// works.
template <>
class parser<mlir::mpmd::PipelineSchedule>
    : public basic_parser<mlir::mpmd::PipelineSchedule> {
public:
  using basic_parser::basic_parser;
  bool parse(Option &option, StringRef, StringRef arg,
             mlir::mpmd::PipelineSchedule &value);
  static void print(raw_ostream &os, mlir::mpmd::PipelineSchedule value) {
    os << value;
  }
  void printOptionDiff(const Option &,
                       const OptionValue<mlir::mpmd::PipelineSchedule> &,
                       const OptionValue<mlir::mpmd::PipelineSchedule> &,
                       size_t) const {}
  StringRef getValueName() const override { return "schedule"; }
};

} // namespace llvm::cl

#endif // MPMD_TRANSFORMS_OPTIMIZE_PIPELINESCHEDULE_H
