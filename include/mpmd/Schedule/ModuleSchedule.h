//===- ModuleSchedule.h - The schedule a scheduled MPMD module runs -*- C++ -*-===//
//
// Reads the per-mesh pipeline actions out of an MPMD module after scheduling
// (fragments) or after export (fragment calls), so that `mpmd schedule
// MODULE.mlir` can simulate it and prove progress.
//
// Each user fragment (or fragment call: export keeps `call_counter`, the
// stage as `stage_id` and the split marks on it) of the main function with a
// `call_counter` is an action of microbatch `call_counter` (others, e.g. the
// optimizer update or inferred glue, are not pipeline actions and are
// skipped):
// * stage: its `stage` (`stage_id` on a call) if set, else the position of
//   its mesh in the topology (one stage per mesh); stages are numbered 0.. in
//   the order of these ids;
// * kind: F when every origin has transpose count 0; W for a backward half
//   marked `split_drop_transferred` (the weight gradient); B for any other
//   backward (transpose count 1, including a rematerialised `remat` fragment
//   whose origins also hold the forward); a fragment merging a forward with
//   its backward (origins of both counts, not remat) is F then B.
// Actions of a mesh are in program order. A stage found on two meshes, or an
// action found twice, is an error on the fragment.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_SCHEDULE_MODULESCHEDULE_H
#define MPMD_SCHEDULE_MODULESCHEDULE_H

#include "mpmd/Schedule/Schedule.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <map>
#include <tuple>

namespace mlir::mpmd {

/// The pipeline actions of an MPMD function and the fragment (or fragment
/// call) of each.
struct FunctionSchedule {
  schedule::Schedule schedule;
  /// (kind, microbatch, dense stage) -> fragment or fragment call. A fragment
  /// merging a forward with its backward stands for both actions.
  std::map<std::tuple<schedule::ActionKind, int64_t, int64_t>, Operation *>
      fragmentOf;
};

/// The schedule `function` (an MPMD function with `topology`) runs; failure
/// after a diagnostic.
FailureOr<FunctionSchedule> getFunctionSchedule(func::FuncOp function,
                                                TopologyAttr topology);

/// The schedule the main function of `module` runs; failure after a
/// diagnostic.
FailureOr<schedule::Schedule> getModuleSchedule(ModuleOp module);

} // namespace mlir::mpmd

#endif // MPMD_SCHEDULE_MODULESCHEDULE_H
