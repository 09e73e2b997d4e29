//===- Passes.td - Import and mesh-inference passes -------*- tablegen -*-===//
//
// One pass per file in lib/Transforms/Import, named after its flag:
// `-mpmd-copy-topology-from-main` lives in CopyTopologyFromMain.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_IMPORT_PASSES_TD
#define MPMD_TRANSFORMS_IMPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def CopyTopologyFromMainPass
    : Pass<"mpmd-copy-topology-from-main", "ModuleOp"> {
  let summary = "Copies the topology of MPMD functions onto their mpmd.call callees.";
  let description = [{
    For every function with a `topology`, each callee of an `mpmd.call` in it
    gets the same topology and becomes private, so that mesh inference treats
    the callee as part of the MPMD program.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}


//===----------------------------------------------------------------------===//
// Mesh inference (sub-pipeline -mpmd-infer-mesh-pipeline)
//
// The passes communicate through discardable attributes: `mpmd.use_set` and
// `mpmd.src_set` (#mpmd.meshes_with_origins) on meshless ops, unassigns and
// calls, and as arg/result attributes of MPMD functions; `mpmd.reduce`
// (#mpmd.reduction) on ops that can be cross-mesh reductions. An absent
// use_set means {}; an absent src_set means "every mesh"; a present empty
// src_set means "nowhere". Internally the sets are small sorted vectors over
// the topology's mesh indices (meshes ordered by name, `m2` before `m10`);
// attributes are materialized once per op at the end of a pass.
//
// N below is the number of ops plus block arguments of the MPMD functions
// (entry point and mpmd.call callees), E the number of operand uses, M the
// number of meshes in the topology.
//===----------------------------------------------------------------------===//

def InferMeshPopulateUseSetPass
    : Pass<"mpmd-infer-mesh-populate-use-set", "ModuleOp"> {
  let summary = "Computes where each meshless value is (transitively) used.";
  let description = [{
    use_set(op) = the union of the meshes of the `mpmd.assign`s that
    transitively consume the op's results. Results are stored as
    `mpmd.use_set` on meshless ops, unassigns, broadcasts/reduces and calls,
    and on arguments (and callee results) of MPMD functions. `mpmd.broadcast`
    and `mpmd.reduce` are terminal: they do not propagate to their operands.

    `mpmd.call`: every callee argument/result is a data-flow edge shared by
    all call sites (callee arg i <- operand i of every call; call result j
    <- callee result j). `mpmd.for`: operand i <- body argument i, body
    argument i and result i <- return operand i. Existing use_sets of callee
    arguments/results whose origins are `inferred_unused_callee_in/out`
    (decided by leaf assignment) are kept as seeds; everything else is
    recomputed.

    Complexity: a monotone worklist (sets only grow, each value re-enters
    the worklist only when its set grows, at most M times); each growth is
    pushed along the value's producers. O((N + E) * M) set operations,
    independent of the number of call sites or the length of call chains.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InferMeshPopulateSrcSetPass
    : Pass<"mpmd-infer-mesh-populate-src-set", "ModuleOp"> {
  let summary = "Computes where each meshless value can live without new transfers.";
  let description = [{
    src_set(op) = the intersection of the src_sets of its inputs (operands
    and free variables of its regions). Sources:
      * `mpmd.unassign %x` (x on m): {m["<origin>"]} plus the destinations of
        transfers of %x (origin `transfer`) plus, when %x is an argument of
        the entry point, the unassign's use_set (origin `inferred_in`): a
        transfer of an entry input is always allowed;
      * a tensor argument of the entry point with a non-empty use_set gets
        src := use_set (origin `inferred_in`);
      * ops without inputs (constants) have no src_set (every mesh);
      * `mpmd.broadcast` can be anywhere (every mesh, origin `broadcast_in`,
        low priority); an `mpmd.reduce` has the union of its operands.
    Elementwise add/mul/max/min/or/and whose operands have non-empty but
    disjoint src_sets (or that consume an op annotated with the same
    reduction) are annotated `mpmd.reduce = #mpmd.reduction<kind>` and get
    the union of their operands' src_sets.

    Calls and loops are data-flow edges as for the use_set (callee arg i =
    intersection over all call sites; call result j = callee result j).
    Reads the use_sets written by -mpmd-infer-mesh-populate-use-set.

    Complexity: a worklist over ops/values seeded in program order (callees
    at their first call site), so straight-line code is visited once. Sets
    only shrink, except the one-time switch of a reduction to the union, so
    an op is re-evaluated at most (2M + 1) times per input:
    O((N + E) * M) for bounded fan-in; a callee argument with C call sites
    costs O(C^2 * M) in the worst case.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InferMeshAssignUsingInputOutputConstraintsPass
    : Pass<"mpmd-infer-mesh-assign-using-input-output-constraints", "ModuleOp"> {
  let summary = "Assigns constrained input/output pairs of the entry point to a common mesh.";
  let description = [{
    For each `in:out` constraint of the entry point, picks a mesh for both:
    the output's mesh type if it has one; otherwise a mesh in the use_set of
    the output's producer and of the input; otherwise a mesh in the input's
    use_set and the output's src_set. The input is retyped to that mesh and
    the output gets `mpmd.assign {origin = "io_constraint_out"}`.
    Complexity: O(#constraints) plus one pass over the entry arguments.
  }];
  let options = [
    ListOption<"constraints", "constraints",
               "::mlir::mpmd::InputOutputEquishardingConstraint",
               "Pairs `in:out` of entry inputs and outputs that must get the same mesh.">,
    Option<"verboseLogging", "verbose-logging", "bool", /*default=*/"false",
           "Reports each assignment as a remark.">
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InferMeshConvertReduceOpsPass
    : Pass<"mpmd-infer-mesh-convert-reduce-ops", "ModuleOp"> {
  let summary = "Turns ops annotated as cross-mesh reductions into mpmd.reduce.";
  let description = [{
    Ops annotated `mpmd.reduce` by -mpmd-infer-mesh-populate-src-set become
    `mpmd.reduce<kind>`, and chains of single-use annotated ops of the same
    kind are flattened (`add(add(a, b), c)` -> `mpmd.reduce<add>(a, b, c)`).
    Without `infer-cross-mesh-reductions`, only ops consumed by a user
    `mpmd.reduce<none>` are converted; the annotation of the others is
    dropped and their src_set reset to the (empty) intersection, so that
    validation reports them.
    Complexity: one pass over the ops, O(N + E).
  }];
  let options = [
    Option<"inferCrossMeshReductions", "infer-cross-mesh-reductions", "bool",
           /*default=*/"false", "Convert every annotated reduction.">
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InferMeshValidateSrcSetNotEmptyPass
    : Pass<"mpmd-infer-mesh-validate-src-set-not-empty", "ModuleOp"> {
  let summary = "Errors on meshless ops whose operands live on conflicting meshes.";
  let description = [{
    Reports every meshless op with an empty src_set whose inputs all have a
    non-empty one (the place where the conflict arises), and every callee
    argument with an empty src_set.
    Complexity: one pass over the ops, O(N + E).
  }];
  let options = [
    Option<"errorLimit", "error-limit", "int", /*default=*/"5",
           "Maximum number of errors reported (-1: all; 0 is invalid).">
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InferMeshAssignMeshFuncLeavesPass
    : Pass<"mpmd-infer-mesh-assign-mesh-func-leaves", "ModuleOp"> {
  let summary = "Assigns the leaves of the data flow: outputs, unused values, resultless ops.";
  let description = [{
    Entry point: unused tensor inputs are typed onto the first mesh; every
    tensor output gets `mpmd.assign {origin = "inferred_out"}` to a mesh of
    its src_set (preferring its use_set, then meshes that are not only
    `broadcast_in`, then the first by name); meshless ops whose results are
    all unused get `assign {origin = "inferred_unused"}`; ops without tensor
    results are wrapped in an inferred fragment per src mesh (once if pure);
    operands of mpmd.broadcast / mpmd.reduce become assign+unassign leaves.
    Callees: arguments and results with an empty use_set get one from their
    src_set (origins `inferred_unused_callee_in/out`).
    An empty src_set is an error ("Func output N has no mesh to be assigned
    to.") unless `infer-transfers`, in which case the first mesh is used.
    Complexity: one pass over the ops, O(N + E).
  }];
  let options = [
    Option<"inferTransfers", "infer-transfers", "bool", /*default=*/"false",
           "Fall back to the first mesh where the src_set is empty.">,
    Option<"errorLimit", "error-limit", "int", /*default=*/"5",
           "Maximum number of errors reported (-1: all; 0 is invalid).">
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InferMeshValidateNoAdditionalTransfersNeededPass
    : Pass<"mpmd-infer-mesh-validate-no-additional-transfers-needed", "ModuleOp"> {
  let summary = "Errors where a meshless op is used on a mesh it cannot be computed on.";
  let description = [{
    Reports every meshless op whose use_set is not contained in its
    src_set, and every callee argument used on several meshes or on a mesh
    its call sites cannot provide without a transfer.
    Complexity: one pass over the ops, O(N * M).
  }];
  let options = [
    Option<"errorLimit", "error-limit", "int", /*default=*/"5",
           "Maximum number of errors reported (-1: all; 0 is invalid).">
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InferMeshRewriteUsingAnalysisPass
    : Pass<"mpmd-infer-mesh-rewrite-using-analysis", "ModuleOp"> {
  let summary = "Moves every meshless op into fragments: absorb, clone or wrap.";
  let description = [{
    Callees first (results used on several meshes are duplicated, one
    result per mesh, marked `mpmd.copies` on the call sites; then the body;
    then the arguments are typed onto their mesh), then entry points. Each
    block is walked in reverse; a meshless op, whose users are all assigns
    by then, is
      (a) moved into its consumer fragment when that is its only consumer;
      (b) wrapped into one inferred fragment per destination mesh
          (`mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]`) when it has
          a non-fragment consumer, no consumer, or more than `max-clones`
          fragment consumers (ops without operands or trivial ops are still
          cloned);
      (c) otherwise cloned into each consumer fragment.
    Free variables of regions become fragment operands. Calls are rebuilt
    against the new callee signatures.
    Complexity: one reverse pass per block; each op is moved or cloned at
    most max(max-clones, #consumers of trivial ops) times; fragment operand
    lists are edited in place. O(N + E) for bounded cloning.
  }];
  let options = [
    Option<"maxClones", "max-clones", "int", /*default=*/"1",
           "Maximum number of consumer fragments an op is cloned into.">
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InferMeshFinalizePass
    : Pass<"mpmd-infer-mesh-finalize", "ModuleOp"> {
  let summary = "Replaces the remaining assign/unassign/broadcast/reduce by transfers and checks the result.";
  let description = [{
    Entry arguments take the type of their assign users;
    `assign(unassign(x, m), m)` becomes x; a cross-mesh `assign(unassign(x))`
    reuses an existing transfer of x, and otherwise becomes a chain of
    transfers (in mesh order) when x is an entry argument, when it feeds an
    mpmd.broadcast, or with `infer-transfers`; `mpmd.reduce` becomes a local
    reduce fragment per source mesh, transfers, and a reduce fragment per
    destination mesh (`mpmd.inferred_by = ["infer_mesh_convert_reduce_ops"]`).
    Then every function input/output must be a mesh tensor and no assign,
    unassign, broadcast, reduce or meshless op may remain. The analysis
    attributes are removed.
    Complexity: one pass over the ops, O(N + E + T) with T the transfers
    created.
  }];
  let options = [
    Option<"inferTransfers", "infer-transfers", "bool", /*default=*/"false",
           "Create transfers for every remaining cross-mesh assign(unassign).">
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

#endif // MPMD_TRANSFORMS_IMPORT_PASSES_TD
