//===- Passes.td - Optimize passes -------------------------*- tablegen -*-===//
//
// One pass per file in lib/Transforms/Optimize, named after its flag:
// `-mpmd-pipeline-scheduler` lives in PipelineScheduler.cpp.
//
// Complexities use N = ops in the function body, E = operand uses of its ops
// (nested ones included), F = fragments.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_OPTIMIZE_PASSES_TD
#define MPMD_TRANSFORMS_OPTIMIZE_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Scheduling and rules
//===----------------------------------------------------------------------===//

def PipelineSchedulerPass
    : Pass<"mpmd-pipeline-scheduler", "::mlir::func::FuncOp"> {
  let summary = "Reorders the scheduling units of each mesh following a "
                "built-in pipeline schedule.";
  let description = [{
    Scheduling units are user fragments with a `call_counter` whose origins
    all have transpose count 0 or all 1. On each schedulable mesh (topology
    meshes not ending in `/cpu`), the schedule decides which units must run
    before which (see PipelineSchedule.h for each schedule's rules). The
    block is then sorted topologically: data dependencies first, the
    schedule's order of the units of each mesh second, the original order
    for everything else. Where the schedule contradicts the data flow (a
    unit it puts first depends on one it puts later), the data flow wins,
    silently as upstream (which skips such pairs).

    Schedules, matched case-insensitively: none, 1F1B, GPipe, Circular,
    CircularWithReversedBackward, GPipeBut1F1BForLastMesh, ZeroBubbleH1,
    ZeroBubbleH2ZeroTxLatency, ZeroBubbleH2HalfTxLatency,
    ZeroBubbleH2FullTxLatency, ParallelPipelinesWithWrapAround. Circular
    needs stages: a unit without one gets a warning and is not ordered.
    ParallelPipelinesWithWrapAround orders forward units on meshes whose
    name holds a number; others get a warning and are not ordered.

    With `remove-control-dependencies=false`, the order is kept for later
    passes as control dependencies between consecutive units of each mesh
    (the chain implies the schedule's order of all pairs).

    Cost: upstream adds a control dependency per ordered pair, found by a
    DFS per pair, O(F²·(N + E)). Here each unit gets a sort key (O(1)), the
    units of each mesh are sorted, and one Kahn sort with a priority queue
    orders the block: O((N + E) log N).
  }];
  let options = [
    Option<"mustHappenBefore", "must-happen-before",
           "::mlir::mpmd::PipelineSchedule",
           /*default=*/"::mlir::mpmd::PipelineSchedule::k1F1B",
           "The pipeline schedule (case-insensitive name).">,
    Option<"removeControlDependencies", "remove-control-dependencies", "bool",
           /*default=*/"true",
           "Drop the control dependencies after sorting.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def RuleBasedSchedulePass
    : Pass<"mpmd-rule-based-schedule", "::mlir::func::FuncOp"> {
  let summary = "Orders fragments following user schedule rules.";
  let description = [{
    Each rule `FragmentScheduleRule(ordered_fragments=[A->B->C])` asks for
    A, B and C (user fragments identified by their FragmentInfo) to run in
    this order. For each consecutive pair of a rule:
    * a fragment the function lacks is skipped with a warning; when the
      successor is missing, the predecessor is kept for the next pair;
    * fragments on different meshes are skipped with a warning;
    * if the successor already depends on the predecessor, nothing is done;
    * if the predecessor depends on the successor, the rule conflicts with
      the data flow: a warning prints the dependency path;
    * otherwise a control dependency is added.
    Then the block is sorted topologically (a cycle is reported with a
    warning) and, unless `remove-control-dependencies=false`, the control
    dependencies are removed.

    Two user fragments with the same FragmentInfo are an error (rules could
    not tell them apart).

    Complexity: O(N + F log F) to index, plus a DFS, O(N + E), per pair of a
    rule, plus O((N + E) log N) to sort.
  }];
  let options = [
    ListOption<"rules", "rules", "::mlir::mpmd::FragmentScheduleRule",
               "Schedule rules, "
               "FragmentScheduleRule(ordered_fragments=[FragmentInfo(...)->...]).">,
    Option<"removeControlDependencies", "remove-control-dependencies", "bool",
           /*default=*/"true",
           "Drop the control dependencies after sorting.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def RuleBasedMergePass : Pass<"mpmd-rule-based-merge", "::mlir::func::FuncOp"> {
  let summary = "Merges fragments following user merge rules.";
  let description = [{
    Each rule `FragmentMergeRule(sources=[...],target=FragmentInfo(...))`
    merges the user fragments whose FragmentInfo is one of `sources` (all on
    the rule's mesh) into one fragment labelled with `target` (origins,
    stage, call counter, split type). A source may appear in one rule only,
    and the sources and target of a rule must name one mesh (errors).

    The fragments matching a rule, in block order (a topological order), are
    merged by `mergeFragmentSequence` into a fragment placed right after the
    first of them; the block is then sorted topologically, so the merged
    fragment moves after the producers of its operands. A dependency cycle
    (a fragment of the rule depends on another through a fragment that
    depends on the merge) is an error. When only one fragment of a rule is
    found, a warning says so and nothing is merged. Unless
    `remove-control-dependencies=false`, control dependencies are removed at
    the end.

    Complexity: O(N + F log F + size of the merged fragments) plus
    O((N + E) log N) for the sort.
  }];
  let options = [
    ListOption<"rules", "rules", "::mlir::mpmd::FragmentMergeRule",
               "Merge rules, FragmentMergeRule(sources=[...],target=...).">,
    Option<"removeControlDependencies", "remove-control-dependencies", "bool",
           /*default=*/"true",
           "Drop the control dependencies at the end.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

#endif // MPMD_TRANSFORMS_OPTIMIZE_PASSES_TD
