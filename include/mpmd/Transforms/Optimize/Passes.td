//===- Passes.td - Optimize passes ------------------------*- tablegen -*-===//
//
// One pass per file in lib/Transforms/Optimize, named after its flag:
// `-mpmd-pipeline-scheduler` lives in PipelineScheduler.cpp.
//
// Complexities use N = ops in the function (bodies included), E = operand
// uses of its ops (nested ones included), F = fragments, T = transfers, and
// "signature" = operands + results of one fragment.
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

def GeneratedSchedulePass
    : Pass<"mpmd-generated-schedule", "::mlir::func::FuncOp"> {
  let summary = "Orders each mesh's fragments as a schedule generator does (interleaved 1F1B, ZB-V, DualPipeV, ...).";
  let description = [{
    Beyond upstream's comparator schedules: reads the pipeline actions of the
    function (as `mpmd schedule MODULE.mlir` does: scheduling units by mesh,
    stage and call counter; F, B, or W for a `split_drop_transferred` half),
    generates the named schedule for its (meshes p, stages per mesh v,
    microbatches m) with the schedule library, and reorders the block so
    that each mesh runs its fragments in the generated order (one sequence
    per mesh through the block sort the other scheduling passes use).

    The program must fit the schedule: its stages must sit on the meshes the
    schedule's layout says (looping: stage s on mesh s mod p; V-shape for
    ZB-V and DualPipeV), and a schedule that splits weight gradients needs
    split backward fragments (a backward left whole by the split, because it
    sends nothing to another mesh, runs at its backward's turn). When the
    program splits a backward the schedule does not, its W runs right after
    its B. Every mismatch is an
    error saying what is required. Fragments that are not pipeline actions
    keep their place as far as the data flow allows.

    Complexity: O(A) to generate A actions, plus the block sort
    O((N + E) log N).
  }];
  let options = [
    Option<"scheduleName", "schedule", "std::string", /*default=*/"\"\"",
           "The generated schedule: GPipe, 1F1B, Interleaved1F1B, ZB-H1, "
           "ZB-H2, ZB-V, DualPipeV, Circular, ... (case-insensitive).">,
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
    * a fragment the function lacks is skipped, with a line logged on
      stderr (not a diagnostic, as upstream); when the successor is missing,
      the predecessor is kept for the next pair;
    * fragments on different meshes are skipped with a warning;
    * if the successor already depends on the predecessor, nothing is done;
    * if the predecessor depends on the successor, the rule conflicts with
      the data flow: a line logged on stderr prints the dependency path;
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

//===----------------------------------------------------------------------===//
// Merging, remat and splitting
//===----------------------------------------------------------------------===//

def RematFragmentPass
    : Pass<"mpmd-remat-fragment", "::mlir::func::FuncOp"> {
  let summary = "Recomputes forward fragments right before the backward "
                "fragments that use them.";
  let description = [{
    In MPMD functions, for each backward fragment B (single transpose count
    1) and each forward fragment F (single transpose count 0) whose results
    B uses, with the same call counter (or none on both) and the same stage
    (or none on both), and such that B is not the next fragment on F's mesh
    in the program as it was before the pass: F is cloned right before B,
    the clone is marked `remat`, and B's uses of F's results are redirected
    to the clone (other users keep F). Every such (F, B) pair gets its own
    clone, so F's results need not stay alive until B runs.

    With `merge-remat-fragments`, the clones of B are merged into B: the
    merged fragment's origin is F's origins followed by B's (e.g.
    `["f", "f"(1)]`), its call counter B's, and it is marked `remat`.

    Runs after scheduling, so the order of fragments is the schedule and the
    clones need no scheduling.

    Complexity: O(F + size of the cloned fragments); merging a clone costs
    O(its body + merged signature).
  }];
  let options = [
    Option<"mergeRematFragments", "merge-remat-fragments", "bool",
           /*default=*/"false",
           "Merge each remat clone into the backward fragment using it.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def VerifyStageMergingPass
    : Pass<"mpmd-verify-stage-merging", "::mlir::func::FuncOp"> {
  let summary = "Checks that the fragments of a stage were merged.";
  let description = [{
    In MPMD functions, two fragments with a stage that agree on mesh, stage,
    transpose counts, split type (`split_keep_transferred`,
    `split_drop_transferred` or none), the `remat` flag and call counter
    (equal, or missing on one side) should have been merged into one: each is
    reported as one error on the later fragment (its message gives the
    earlier one's location; no note, as upstream), and the pass fails.

    Complexity: O(F log F).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def MergeForwardWithBackwardPass
    : Pass<"mpmd-merge-forward-with-backward", "::mlir::func::FuncOp"> {
  let summary = "Merges a forward fragment with the backward fragment that "
                "follows it on its mesh and uses it.";
  let description = [{
    Runs the fragment-merge traversal (see MergeFragments.h) on MPMD
    functions: a forward fragment (single transpose count 0) is merged with
    the next fragment on the same mesh when that one is a backward fragment
    (single transpose count 1) using one of its results. With a 1F1B
    schedule this fuses the forward and backward of each microbatch on the
    last stage. An unused fragment without side effects is erased. The
    merged fragment's origin is the union (e.g. `["f", "f"(1)]`).

    Complexity: O(N + F·signature).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

#endif // MPMD_TRANSFORMS_OPTIMIZE_PASSES_TD
