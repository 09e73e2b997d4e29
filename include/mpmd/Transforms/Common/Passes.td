//===- Passes.td - Passes shared by several phases --------*- tablegen -*-===//
//
// One pass per file in lib/Transforms/Common, named after its flag:
// `-mpmd-call-inline` lives in CallInline.cpp.
//
// Complexities use N = ops in the function (bodies included), F = fragments,
// T = transfers, and "signature" = operands + results of one fragment.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_COMMON_PASSES_TD
#define MPMD_TRANSFORMS_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def CallInlinePass : Pass<"mpmd-call-inline", "ModuleOp"> {
  let summary = "Inlines every mpmd.call, copying its attributes onto the "
                "inlined fragments.";
  let description = [{
    Replaces each `mpmd.call` (also inside `mpmd.for` bodies) by a copy of its
    callee's body. The call's discardable attributes (e.g. `call_counter`,
    `unroll_counter`; not `callee`, `arg_attrs` or `res_attrs`) are set on
    every inlined `mpmd.fragment` and `mpmd.fragment_call`, replacing values
    they already had; this is how microbatch counters reach fragments. Other
    inlined ops (assign, unassign, transfer, ...) do not get them.

    Calls found in an inlined body are inlined in turn; there the inner
    call's attributes win, the outer ones fill in what it lacks. A recursive
    chain of calls is an error. `func.call` and `mpmd.fragment_call` are not
    inlined.

    Private callees left without uses are erased, so no `symbol-dce` is
    needed afterwards (public ones are kept).

    Complexity: O(size of the inlined code), i.e. linear in the size of the
    program after inlining.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def FragmentDedupPass : Pass<"mpmd-fragment-dedup", "::mlir::func::FuncOp"> {
  let summary = "Deduplicates fragment operands and results.";
  let description = [{
    For every fragment:
    * for an operand passed several times, the uses of the repeated block
      arguments are redirected to the first one;
    * for results returning the same value with the same type (mesh tensor
      type including sharding and memory kind), the same `out_shardings`
      entry and the same `res_attrs` entry, the uses are redirected to the
      first of them.
    As upstream, only uses are redirected: the repeated operands and results
    stay, unused, for `-mpmd-fragment-dce` (which the pipelines run next).
    Control operands (from `mpmd.control_operand_start_idx`) are deduplicated
    among themselves and dropped when they repeat a data operand.

    Complexity: O(N + Σ signature).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def FragmentDcePass : Pass<"mpmd-fragment-dce", "::mlir::func::FuncOp"> {
  let summary = "Removes unused fragment results and operands and dead ops "
                "in fragment bodies.";
  let description = [{
    Visits the fragments of the function backwards (so that a removed use
    frees results of earlier fragments in the same sweep). For each one:
    unused results are removed, trivially dead ops of the body (nested
    regions included) are erased, then block arguments left without uses are
    removed with their operands. A fragment that ends up with no uses and no
    side effects is erased, and so are transfers without uses.

    Complexity: O(N + Σ signature), one backward sweep.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def MergeInferredFragmentsPass
    : Pass<"mpmd-merge-inferred-fragments", "::mlir::func::FuncOp"> {
  let summary = "Merges inferred fragments with their consumers.";
  let description = [{
    Runs the fragment-merge traversal (see MergeFragments.h) on MPMD
    functions: fragments are visited backwards; an unused fragment without
    side effects is erased; otherwise the fragment is merged with its chosen
    consumer as long as one is found, and the merged fragment again with its
    own:
    * by default the closest fragment that uses one of its results, if
      merging with it is allowed;
    * with `merge-any-consumer`, the closest fragment user for which merging
      is allowed;
    * with `merge-sideways`, the next fragment on the same mesh, whether or
      not it uses the fragment.
    The merged fragment goes where the consumer was if no other user of the
    producer lies between the two, else where the producer was if all the
    consumer's operands are defined before the producer; otherwise there is
    no merge.

    Merging is allowed unless both fragments are user fragments, or the
    producer is `split_keep_transferred` and the consumer
    `split_drop_transferred`.

    Complexity: O(N + F·signature) for the default and any-consumer modes;
    the sideways mode looks for the next same-mesh fragment, O(F) per merge.
  }];
  let options = [
    Option<"mergeAnyConsumer", "merge-any-consumer", "bool",
           /*default=*/"false",
           "Merge with the closest consumer that can be merged, not only with "
           "the closest consumer.">,
    Option<"mergeSideways", "merge-sideways", "bool", /*default=*/"false",
           "Merge with the next fragment on the same mesh, even without a "
           "data dependency. Exclusive with merge-any-consumer.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def AbsorbInferredFragmentsPass
    : Pass<"mpmd-absorb-inferred-fragments", "::mlir::func::FuncOp"> {
  let summary = "Root fragments absorb their inferred producers and "
                "consumers.";
  let description = [{
    A root is a user fragment, or a fragment with no fragment users, or one
    with no fragment producers (same block). For each inferred producer P
    of a root R, the transfers of P's results first move to right before
    their own first user (unused ones are erased); then R absorbs P if R is
    P's first user in block order (any op). For each inferred consumer C of
    R (block order), the transfers feeding C first move to right after the
    op defining their operand (the block start for values from outside the
    block); then R absorbs C if R is the last op defining an operand of C.
    No other op moves. The merged fragment takes R's place, R's stage and
    attributes; `mpmd.inferred_by` becomes R's names then the absorbed
    ones' (dropped when R is a user fragment). Roots absorb until nothing
    changes (fixed point).

    By default only MPMD functions that are not entry points (the callees of
    `mpmd.call`) are processed; `absorb-on-entry-point-function` also
    processes entry points.

    Complexity: a worklist of roots, each processed once in program order;
    a root is swept over a snapshot of its current neighbours (absorbing all
    eligible ones in one sweep) and swept again only while a sweep merged
    something (fixed point). A sweep costs O(neighbours · log), a merge
    O(absorbed body + merged signature); no rescans of the function. Total
    about O(N + merges · signature), i.e. linear unless a single root
    absorbs thousands of fragments and grows a signature of that size
    (4000 inferred consumers of one root: ~0.6 s). Block order queries use
    MLIR's incremental op order.
  }];
  let options = [
    Option<"absorbOnEntryPointFunction", "absorb-on-entry-point-function",
           "bool", /*default=*/"false",
           "Also absorb in entry-point functions.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def RemoveTransferCyclesPass
    : Pass<"mpmd-remove-transfer-cycles", "::mlir::func::FuncOp"> {
  let summary = "Breaks device-only transfer cycles by reusing existing "
                "values.";
  let description = [{
    Values connected by device-only transfers hold the same data. When a
    transfer produces the exact type (mesh, sharding, memory kind) of a value
    of its chain that dominates it (the chain's first value, or an earlier
    transfer result), its uses take that value and the transfer is erased:
    `x(m0) -> m1 -> m2 -> m0 -> m1` keeps only the first two transfers, the
    value back on m0 being `x` and the one back on m1 the first transfer's
    result. A transfer to or from `pinned_host` memory starts a new chain, so
    cycles through host memory (deliberate offloading) are kept.

    Complexity: O(T), one pass over the transfers with hash maps.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def UniquifyFunctionInputsOutputsPass
    : Pass<"mpmd-uniquify-function-inputs-outputs", "::mlir::func::FuncOp"> {
  let summary = "Gives every output of an entry point its own buffer.";
  let description = [{
    In entry-point MPMD functions, mesh tensors returned several times and
    function arguments returned directly get copies. By default, as
    upstream, one identity inferred fragment per mesh (marked
    `mpmd.inferred_by = ["uniquify"]`, placed before the return) takes each
    such value of the mesh once and returns it once per return position,
    and every one of those positions, the first included, takes its own
    result. With `use-transfer-instead-of-fragment`, each position but the
    first of a computed value gets an `mpmd.transfer` to the same type.

    Complexity: O(number of results).
  }];
  let options = [
    Option<"useTransferInsteadOfFragment", "use-transfer-instead-of-fragment",
           "bool", /*default=*/"false",
           "Copy with mpmd.transfer ops instead of identity fragments.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

//===----------------------------------------------------------------------===//
// Scheduling preparation (the end of import, and optimize)
//===----------------------------------------------------------------------===//

def MoveTransfersToProducerPass
    : Pass<"mpmd-move-transfers-to-producer", "::mlir::func::FuncOp"> {
  let summary = "Moves each transfer right after the producer of its operand.";
  let description = [{
    Every `mpmd.transfer` moves to right after the op defining its operand,
    or to the top of the block when the operand is a block argument.
    Transfers moved to the same place keep their relative order, and a
    transfer of a transfer result follows that transfer. Sending values as
    soon as they exist keeps transfers from standing between a producer and
    its consumers, where they would block the merges that follow.

    Complexity: O(T).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def MergeUserFragmentsIntoSchedulingUnitsPass
    : Pass<"mpmd-merge-user-fragments-into-scheduling-units",
           "::mlir::func::FuncOp"> {
  let summary = "Merges the user fragments of one microbatch, stage and "
                "direction into the units the pipeline scheduler orders.";
  let description = [{
    Runs the fragment-merge traversal (see MergeFragments.h) on MPMD
    functions: fragments are visited backwards, an unused fragment without
    side effects is erased, and a fragment is merged with its closest
    fragment consumer when both are user fragments with
    * the same single transpose count (all origins of each side agree),
    * compatible call counters (equal, or one side has none; the merge keeps
      the defined one),
    * compatible stages (equal, or one side has none).
    The merged fragment goes where the consumer was if no other user of the
    producer lies between the two, else where the producer was if all the
    consumer's operands are defined before the producer; otherwise there is
    no merge. Its origin is the union of both origins.

    Complexity: O(N + F·signature) (the traversal builds each merged
    fragment once).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def SchedulingUnitsVerifierPass
    : Pass<"mpmd-scheduling-units-verifier", "::mlir::func::FuncOp"> {
  let summary = "Warns when a mesh lacks one forward and one backward "
                "scheduling unit per microbatch.";
  let description = [{
    A scheduling unit is a user fragment with a `call_counter` and a single
    transpose count, 0 (forward) or 1 (backward). In each MPMD function the
    number of microbatches is the largest call counter, plus one when the
    counters start at 0. Each mesh holding scheduling units must then hold
    exactly that many forward units, and, when the function has backward
    units at all, that many backward units; otherwise the pass warns on the
    function, naming the mesh, the counts and the call counters that are
    missing or repeated. A mismatch means the schedule cannot pair the
    units of a microbatch (typically, user fragments that could not be
    merged). Warnings only: the IR is unchanged.

    Complexity: O(F + M·microbatches) for M meshes.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def SplitAndPrioritizeTransferIndependentComputationsPass
    : Pass<"mpmd-split-and-prioritize-transfer-independent-computations",
           "::mlir::func::FuncOp"> {
  let summary = "Splits fragments so that what does not wait for a transfer "
                "can start first.";
  let description = [{
    A fragment that is not split yet (neither `split_keep_transferred` nor
    `split_drop_transferred`) and whose operands are partly, but not all,
    results of `mpmd.transfer`s is split in two, the first right before the
    second where the fragment was:
    * the first part, marked `split_keep_transferred`, holds the largest set
      of top-level body ops that do not depend, even through nested regions,
      on an operand produced by a transfer, and returns the results computed
      there followed by the residuals the second part needs;
    * the second part, marked `split_drop_transferred`, holds the other ops
      (those depending on a transferred operand, and every op with side
      effects from the first such one on, so that side effects keep their
      order) and returns the other results.
    Nothing changes when all results, or none, would be computed by the
    second part. Residuals, types, shardings and attributes as in
    `-mpmd-split-bwd-fragments` (the mirror image of this pass). Upstream
    runs it in no pipeline; neither do we.

    Complexity: O(size of the function).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def SplitBwdFragmentsPass
    : Pass<"mpmd-split-bwd-fragments", "::mlir::func::FuncOp"> {
  let summary = "Splits backward fragments into the part computing "
                "transferred results and the rest.";
  let description = [{
    A backward fragment (single transpose count 1) that is not split yet
    (neither `split_keep_transferred` nor `split_drop_transferred`) and has
    both results used by an `mpmd.transfer` ("transferred") and results that
    are not, is split in two, the first right before the second where the
    fragment was:
    * the keep part, marked `split_keep_transferred`, holds the ops the
      transferred results depend on (nested regions included) and the ops
      with side effects together with their dependencies, and returns the
      transferred results followed by the residuals;
    * the drop part, marked `split_drop_transferred` (the weight gradients),
      holds the other ops and returns the other results.
    Residuals are the values of the keep part that the drop part uses. A
    residual the keep part already returns is passed through that result;
    a block argument the drop part uses is passed as the original operand
    (no residual). A new residual result gets the type and sharding of a
    result returning the same value, if any, else a fully replicated mesh
    tensor and a fully open sharding (so that sharding propagation, not this
    pass, decides its sharding). Both parts keep the origin, stage and other
    attributes; `in_shardings`, `out_shardings`, `arg_attrs` and `res_attrs`
    follow their values.

    Fragments with no transferred result, or with only transferred results,
    are unchanged. A fragment whose residual could not be a fragment result
    (neither a ranked tensor nor a token) is left whole, with a warning.

    Complexity: O(N + Σ signature), each body is walked a constant number
    of times.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

#endif // MPMD_TRANSFORMS_COMMON_PASSES_TD
