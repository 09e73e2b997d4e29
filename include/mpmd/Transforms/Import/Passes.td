//===- Passes.td - Import and mesh-inference passes -------*- tablegen -*-===//
//
// One pass per file in lib/Transforms/Import, named after its flag:
// `-mpmd-copy-topology-from-main` lives in CopyTopologyFromMain.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_IMPORT_PASSES_TD
#define MPMD_TRANSFORMS_IMPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Import, in the order of -mpmd-import-pipeline
//===----------------------------------------------------------------------===//

def CallsToNamedComputationsPass
    : Pass<"mpmd-calls-to-named-computations", "ModuleOp"> {
  let summary = "Turns calls of JAX's jitted functions whose names are assigned into named computations.";
  let description = [{
    `jax.jit` lowers a nested jitted function (a model layer decorated with
    `@jax.jit`) to a private `func.func` and a `func.call` of it. This pass
    lets such a program be pipelined without any mpmd code in the model:
    every `func.call` (anywhere: in functions, in named computations, in
    bodies it inlines itself) whose callee name stands for a name of
    `assignment` becomes an `mpmd.named_computation<"name"(tc)>` on the
    call's operands, whose region is a copy of the callee's body (its
    `func.return` becomes `mpmd.return`). Callees no longer called are
    erased. Calls of other functions stay calls.

    How a callee name stands for a computation name `n` (first rule that
    applies):
    * `n` itself;
    * JAX's transform wrappers around it: `transpose(X)` is the backward of
      `X` (transpose count + 1), `jvp(X)` its forward-mode version (same
      count), so `transpose(jvp(n))` is the backward of `n`;
    * upstream's plain-`jax.jit` lowering of `mpmd.named_computation`:
      `partir_named_computation_call_n`;
    * any of these followed by `_<digits>`, the suffix MLIR's symbol table
      adds when JAX lowers two different functions under one name (an
      assigned name that itself ends in `_<digits>` is matched exactly
      first).
    When the name carries no `transpose(` wrapper, the transpose count is
    the number of `transpose(` in the call's location (JAX's name stack,
    kept by `as_text(debug_info=True)` and `jax.export`); without either,
    it is 0.

    Errors (at the call): the callee is public (JAX's jitted callees are
    private; a public function may be called from outside the module), a
    declaration, has several blocks, or can call itself (recursion cannot
    be inlined); an operand or result is not a ranked tensor or token.

    Complexity: one walk of the module, one call-graph SCC pass, plus a copy
    of the callee's body per converted call.
  }];
  let options = [
    Option<"assignment", "assignment", "::mlir::mpmd::UserAssignmentMap",
           /*default=*/"",
           "The names to match (their meshes are not used here): `f1@m1,f2@m2`.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

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

def GenerateSdyMeshesFromTopologyPass
    : Pass<"mpmd-generate-sdy-meshes-from-topology", "ModuleOp"> {
  let summary = "Gives every topology mesh its own sdy.mesh and re-points shardings to it.";
  let description = [{
    For heterogeneous meshes, whose shardings cannot all refer to one global
    `sdy.mesh`: axis names are prefixed with their mesh's name
    (axis `tpu_x` belongs to mesh `tpu`). The
    existing `sdy.mesh` ops are replaced by one `sdy.mesh @<name>` per
    topology mesh (its axes as in the topology), except empty and maximal
    meshes, which are kept. Every `#sdy.sharding` in the module (attributes
    and mesh tensor types) is re-pointed: to the topology mesh whose
    `<name>_` prefixes its axes (the longest such name), or, when it uses no
    axis, to `@empty_mesh`, which is created if needed (the topology does
    not change). A sharding whose axes name no topology mesh, or several, is an
    error.
    Complexity: one walk over the attributes and types of the module.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def UnrollForLoopsPass
    : Pass<"mpmd-unroll-for-loops", "::mlir::func::FuncOp"> {
  let summary = "Fully unrolls mpmd.for loops that ask for it.";
  let description = [{
    In distributed functions, every `mpmd.for` with an `unroll_factor` is
    replaced by `iterations` copies of its body; the factor must equal the
    number of iterations (only full unrolling is supported). In copy `i` the
    index block argument becomes `stablehlo.constant dense<i> : tensor<ui32>`
    and every top-level op of the copy (the constant included) gets
    `unroll_counter = c : ui32`, where `c` counts the copies of all loops of
    the function in program order (a first 3-iteration loop gives 0..2, a
    second one 3..5). Loops without `unroll_factor` are kept rolled.

    Errors: `unroll_factor` different from `iterations`; an `mpmd.for`
    nested in another `mpmd.for`.

    Complexity: O(size of the function + iterations * size of the bodies).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect",
                           "::mlir::stablehlo::StablehloDialect"];
}

def FromUnrollToCallCounterPass
    : Pass<"mpmd-from-unroll-to-call-counter", "::mlir::func::FuncOp"> {
  let summary = "Turns the unroll_counter of mpmd.call ops into their call_counter.";
  let description = [{
    An `mpmd.call` copied by loop unrolling is one microbatch: its
    `unroll_counter` becomes its `call_counter` (overwriting any previous
    one) and is removed. Other ops keep their `unroll_counter`.

    Complexity: O(size of the function).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def SinkNegligibleOpsIntoCallOpPass
    : Pass<"mpmd-sink-negligible-ops-into-call-op", "::mlir::ModuleOp"> {
  let summary = "Moves constants that every call passes into the callee.";
  let description = [{
    For each function called only through `mpmd.call`: when every call site
    passes the same value as argument `i` and that value is produced by a
    negligible op (no operands, one result, no regions, no side effects, e.g.
    a constant), the op is cloned at the start of the callee, the argument
    is removed from the callee and from every call site, and the original
    op is erased if nothing else uses it. This keeps such values from being
    pinned to one mesh by the call boundary.

    Complexity: O(size of the module).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InsertNamelessCloneOfNegligibleOpsPass
    : Pass<"mpmd-insert-nameless-clone-of-negligible-ops", "::mlir::func::FuncOp"> {
  let summary = "Clones negligible ops returned by named computations outside them.";
  let description = [{
    When a `mpmd.named_computation` returns the result of a negligible op
    (no operands, one result, no regions, no side effects, e.g. a constant),
    that op is cloned right after the computation and every use of the
    result outside it, except uses by `func.return`, is redirected to the
    clone. Mesh inference can then place the (nameless) clone wherever it
    is needed instead of hitting a mesh conflict. As upstream, the clone is
    made even when no use is redirected to it (it is left unused and mesh
    inference drops it). The computation itself is
    unchanged; `-mpmd-simplify-named-computations` drops its unused result.

    Complexity: O(size of the function).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def SimplifyNamedComputationsPass
    : Pass<"mpmd-simplify-named-computations", "::mlir::func::FuncOp"> {
  let summary = "Removes redundant operands and results of named computations.";
  let description = [{
    Per `mpmd.named_computation`:
    * a returned `stablehlo.optimization_barrier` result whose barrier
      operand is a block argument is replaced by that block argument;
    * a result that returns a block argument is replaced by the matching
      operand outside the computation;
    * a result that returns the same value as an earlier result is replaced
      by the earlier result;
    * an operand passed more than once is passed once (block arguments are
      merged);
    * an unused result is removed when it returns a block argument or the
      value of an op without side effects (a side-effecting op's result
      stays, so that the computation keeps at least one result); a
      computation left without results whose body is pure is erased;
    * dead ops of the body are erased, and `stablehlo.optimization_barrier`
      operand/result pairs whose result is unused or whose operand repeats
      an earlier one are removed;
    * operands whose block argument is unused are removed.

    Complexity: O(size of the function).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def MapInputOutputToMeshPass
    : Pass<"mpmd-map-input-output-to-mesh", "::mlir::ModuleOp"> {
  let summary = "Assigns the inputs and outputs of entry points to meshes.";
  let description = [{
    In every MPMD entry-point function, input `i` of `input-assignment`
    becomes a mesh tensor on the given mesh (with the memory kind of a
    `#kind` suffix) and its uses go through
    `mpmd.unassign {origin = "user_in"}`; output `o` of `output-assignment`
    is returned through `mpmd.assign {origin = "user_out"}` and retyped. An
    `mhlo.memory_kind` argument or result attribute equal to the assigned
    memory kind is removed, since the type now says it.

    Errors: an index out of range, a mesh not in the topology, a value that
    is not a tensor, an `mhlo.memory_kind` attribute that contradicts the
    assignment.

    Complexity: O(number of arguments and results + size of the maps).
  }];
  let options = [
    Option<"inputAssignment", "input-assignment",
           "::mlir::mpmd::IndexedAssignmentMap", /*default=*/"",
           "Meshes of the entry-point inputs: `0@m1,1@m2#pinned_host`.">,
    Option<"outputAssignment", "output-assignment",
           "::mlir::mpmd::IndexedAssignmentMap", /*default=*/"",
           "Meshes of the entry-point outputs: `0@m1,1@m2#pinned_host`.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InlineNestedUserExposedOpsPass
    : Pass<"mpmd-inline-nested-user-exposed-ops", "::mlir::func::FuncOp"> {
  let summary = "Inlines named ops nested in named computations.";
  let description = [{
    Named computations, named tensors, broadcasts and reduces nested (at any
    depth) inside a top-level `mpmd.named_computation` all run on the mesh
    of the top-level computation, so they are inlined into it: a nested
    computation's body replaces it, a named tensor or broadcast is replaced
    by its operand, and a reduce becomes a chain of the matching elementwise
    `stablehlo` op (`reduce<none>` is its operand).

    Errors: the top-level computation has nested ops but is not in
    `assignment`; a nested computation or named tensor is assigned to
    another mesh (or a nested computation to another stage) than the
    top-level one.

    Complexity: O(size of the function).
  }];
  let options = [
    Option<"assignment", "assignment", "::mlir::mpmd::UserAssignmentMap",
           /*default=*/"",
           "Meshes of named computations and tensors: `f1@m1,f2@m2/1,t@m1#pinned_host`.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect",
                           "::mlir::stablehlo::StablehloDialect"];
}

def ValidateNamedOpsInMpmdFuncPass
    : Pass<"mpmd-validate-named-ops-in-mpmd-func", "::mlir::func::FuncOp"> {
  let summary = "Checks that named computations and tensors live in MPMD functions.";
  let description = [{
    `mpmd.named_computation` and `mpmd.named_tensor` can only be mapped to
    meshes inside functions with a `topology` (the entry point and the
    callees of its `mpmd.call`s). A named op is valid when its immediate
    parent is such a function or an op of the mpmd dialect (e.g. an
    enclosing named computation); every other one gets an error. As
    upstream, the errors do not fail the pass.

    Complexity: O(size of the function).
  }];
}

def MapNamedOpsToMpmdOpsPass
    : Pass<"mpmd-map-named-ops-to-mpmd-ops", "::mlir::func::FuncOp"> {
  let summary = "Turns named computations into fragments and named tensors into assign/unassign.";
  let description = [{
    In MPMD functions, each top-level `mpmd.named_computation` named `n`
    becomes `mpmd.assign {origin = "n"}` of each distinct operand, a
    `mpmd.fragment<mesh=M, origin=["n"(tc)], stage=S>` taking the region,
    and `mpmd.unassign {origin = "n"}` of each result. A memory kind in the
    computation's assignment is ignored with a warning. A
    `mpmd.named_tensor` named `n` becomes `unassign(assign(x))` on its mesh
    (with its memory kind; a stage is ignored) or, when `n` is not in
    `assignment`, is erased.

    Errors: "Top-level NamedComputation 'n' is not assigned to a mesh"; a
    mesh not in the topology; a named computation outside a function or
    `mpmd.for` body.

    Complexity: O(size of the function).
  }];
  let options = [
    Option<"assignment", "assignment", "::mlir::mpmd::UserAssignmentMap",
           /*default=*/"",
           "Meshes of named computations and tensors: `f1@m1,f2@m2/1,t@m1#pinned_host`.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def IntroduceTransfersPass
    : Pass<"mpmd-introduce-transfers", "::mlir::ModuleOp"> {
  let summary = "Creates mpmd.transfer ops for direct mesh changes between named values.";
  let description = [{
    1. Unassigns into callees: when every `mpmd.call` of a callee passes, as
       argument `i`, an `mpmd.unassign` of mesh tensors of one type, and the
       callee uses the argument in an `mpmd.assign`, the argument takes the
       mesh tensor type and the unassign moves into the callee.
    2. Add trees: a tree of single-use `stablehlo.add` ops whose leaves are
       `mpmd.unassign`s and whose root feeds an `mpmd.assign` is pushed onto
       the assign's mesh one add at a time: each add becomes an inferred
       fragment (`mpmd.inferred_by = ["introduce_transfers"]`) at its place,
       whose operands, in the add's order, are assigns of the leaves (which
       step 3 turns into transfers) or the inner adds' fragments.
    3. `assign(unassign(x))`: an assign to the type of `x` is `x`; an
       existing transfer of `x` to the assign's type is reused (moved up if
       needed); the remaining targets of one unassign are reached by one
       chain of transfers `x -> m_a -> m_b -> ...` in mesh order (`m2`
       before `m10`), placed before the earliest such assign. Targets in
       another memory kind than `x` are transferred from `x` directly.

    Complexity: O(size of the module + t log t) for t targets per unassign.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def EraseUnusedCalleeBlockArgumentsPass
    : Pass<"mpmd-erase-unused-callee-block-arguments", "::mlir::ModuleOp"> {
  let summary = "Removes callee arguments that are unused or only returned.";
  let description = [{
    For each function called only through `mpmd.call`: an argument without
    uses, or whose only uses are in the `func.return`, is removed (from the
    callee and from every call site) together with the results returning it;
    at every call site those results are replaced by the matching call
    operand. When this removes every result, the calls and the callee are
    erased.

    Complexity: O(size of the module).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def EnforceInputOutputEquishardingPass
    : Pass<"mpmd-enforce-input-output-equisharding", "::mlir::func::FuncOp"> {
  let summary = "Makes constrained input/output pairs of entry points have one type.";
  let description = [{
    For each `in:out` constraint of an MPMD entry point whose input and
    output mesh tensor types differ, the returned value is transferred to
    the input's type right before the `func.return` and the result is
    retyped.

    Errors: an index out of range; an input or output that is not a mesh
    tensor; different global tensor types.

    Complexity: O(number of constraints + size of the return).
  }];
  let options = [
    ListOption<"constraints", "constraints",
               "::mlir::mpmd::InputOutputEquishardingConstraint",
               "Pairs `input:output` that must have the same mesh tensor type.">,
  ];
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
    `mpmd.use_set` on meshless ops, unassigns and broadcasts/reduces, and on
    arguments (and callee results) of MPMD functions; an `mpmd.assign` gets
    its own mesh (with its origin), calls get none. `mpmd.broadcast` and
    `mpmd.reduce` are terminal: they do not propagate to their operands.

    Sets keep insertion order (as upstream prints them): once the analysis
    has decided their contents, one backward walk rebuilds each value's set
    from what its uses contribute, in use-list order (for parsed input, the
    last user first), origins in the order they arrive. Entry points are
    walked from their last op up, a callee at the first call site reached
    (its results list the call sites' uses in walk order), a loop body at
    its loop.

    `mpmd.call`: per call site, as one backward walk of each entry point
    (entry points in module order) decides. At a call site, callee result j
    adds the uses of call result j, the callee body propagates that to its
    arguments, and operand i gets callee argument i's set as it is then: a
    site sees the uses of its own results and of those of the calls of the
    same callee after it, not of those before it. Callee arguments, results
    and bodies get the union over all call sites. An entry point with a
    call chain (a call result passed straight to a call of the same callee)
    is walked again until nothing changes, so that every call site in it
    gets every contribution; a loop body with calls likewise (its next
    iteration uses what it computes). `mpmd.for`: operand i <- body
    argument i, body argument i and result i <- return operand i (and from
    there to its producer, a call included); the use_set of loop-carried
    value i (its body argument's and result's) goes to entry i of the
    loop's `arg_attrs`, not on the loop. Existing use_sets of callee
    arguments/results whose origins are `inferred_unused_callee_in/out`
    (decided by leaf assignment) are kept as seeds; everything else is
    recomputed.

    Complexity: inside function bodies a monotone worklist (sets only grow,
    each value re-enters the worklist only when its set grows, at most M
    times for M meshes); callee bodies are propagated incrementally as call
    sites add to their results. A call site costs O((operands + results) *
    M) plus the growth it causes; an entry point with a chain is walked
    once more per round of growth (twice for a microbatched chain). The
    ordering walk visits every use once: O(E * M).
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
    Elementwise add/mul/max/min/or/and whose operands all have non-empty
    src_sets that are disjoint, or of which one is already annotated with
    the same reduction, are annotated `mpmd.reduce = #mpmd.reduction<kind>`
    and get the union of their operands' src_sets; an operand without a
    src_set (a constant) neither blocks this nor adds to the union. So is a
    `stablehlo.reduce` over the concatenated dimension of a single-use
    `stablehlo.concatenate` whose operands all have one static type with
    size 1 there, when its body is one such binary op (arguments in either
    order) and its init value that op's identity: it reduces the
    concatenated values. (The identity check is ours: the conversion drops
    the init value.)

    Calls and loops are data-flow edges (callee arg i = intersection over
    all call sites; call result j = callee result j). A loop-carried value
    of an `mpmd.for` can be where its operand can: body argument i and
    result i take operand i's src_set (what the body returns does not
    narrow it), kept in entry i of the loop's `arg_attrs`.
    Reads the use_sets written by -mpmd-infer-mesh-populate-use-set. An
    `mpmd.assign` gets the src_set of its operand.

    Sets keep insertion order (as upstream prints them): after the fixpoint,
    one forward walk in program order (a callee at its first call site)
    rebuilds each set from its inputs in operand order -- an intersection
    keeps the order of its first input and lists that input's origins
    first; an unassign lists its own mesh, then the transfer destinations
    in use-list order, then its use_set's meshes; a broadcast every mesh in
    the topology's order.

    Complexity: a worklist over ops/values seeded in program order (callees
    at their first call site), so straight-line code is visited once. Sets
    only shrink, except the one-time switch of a reduction to the union, so
    an op is re-evaluated at most (2M + 1) times per input:
    O((N + E) * M) for bounded fan-in; a callee argument with C call sites
    costs O(C^2 * M) in the worst case. The ordering walk evaluates every
    op once more.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def InferMeshAssignUsingInputOutputConstraintsPass
    : Pass<"mpmd-infer-mesh-assign-using-input-output-constraints", "ModuleOp"> {
  let summary = "Assigns constrained input/output pairs of the entry point to a common mesh.";
  let description = [{
    For each `in:out` constraint of the entry point, picks a mesh for both:
    the output's mesh type if it has one; else, for an input already on a
    mesh, that mesh if the output's src_set has it (otherwise the output is
    left to a later transfer); else, for an input without use_set, a mesh
    of the output's use_set, then of its src_set; else a mesh in both the
    input's and the output's use_set, then in the input's use_set and the
    output's src_set. Without one the pair is left alone. The input is
    retyped to that mesh and the output gets
    `mpmd.assign {origin = "io_constraint_out"}`.
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
    With `infer-cross-mesh-reductions`, every op annotated `mpmd.reduce`
    (by -mpmd-infer-mesh-populate-src-set, or in the input) that computes a
    reduction becomes `mpmd.reduce<kind>`. In both modes, each user
    `mpmd.reduce<none>` converts the reduction it reads: the first binary
    reduction op or concat-reduce found walking back through unary ops, and,
    transitively, the producers of its operands that compute the same
    reduction; the `reduce<none>` and the unary ops stay. Other annotations
    are dropped and the src_set reset to the (empty) intersection, so that
    validation reports the conflict.
    Ops are converted in program order. An operand produced by an
    `mpmd.reduce` of the same kind is replaced by that reduce's operands, in
    place (`add(add(a, b), c)` -> `mpmd.reduce<add>(a, b, c)`); the inner
    reduce is erased when this was its only use. A `stablehlo.reduce` of a
    concatenation (see populate-src-set) becomes a reshape of each
    concatenated value to the result type, carrying the reduce's
    discardable attributes, and one `mpmd.reduce` of them; the concatenate,
    the reduce and an otherwise unused init constant are erased. The new
    reduce gets the op's use_set and the union of its operands' src_sets.
    A marked op whose users are all marked ops of its kind is flattened
    away, so it is never built: the other ops collect their operands through
    it. Complexity: O(N + E) plus the operands of the built reduces (a chain
    of n adds is O(n)).
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
    operands of mpmd.broadcast / mpmd.reduce become assign+unassign leaves
    (assign origin `broadcast` / `reduce`). The use_sets of meshless ops
    are removed (the pipeline recomputes them).
    Callees: arguments nobody uses and results no caller uses get a use_set
    from their src_set (origins `inferred_unused_callee_in/out`); an unused
    argument whose src_set is empty is an error on the function.
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
    Reports every meshless op, and every `mpmd.assign`, whose use_set is
    not contained in its src_set (for an assign: its own mesh is not one
    its operand can be on), and every callee argument used on a mesh its call sites'
    operands cannot be on (a callee argument used on several meshes is
    copied by the rewrite, so that alone is valid). Call chains: when a
    result r of a call of `f` is passed straight to argument a of another
    call of `f`, r and a must be used on the same meshes, otherwise one
    error on `f` per (r, a) pair. A loop-carried value of an `mpmd.for`
    lives on one mesh: an error on the loop when it is used on several, or
    on one its operand cannot be on.
    Complexity: one pass over the ops and the call operands, O(N * M).
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
    Callees first, then entry points. A callee result used on several
    meshes (its use_set) keeps its position on the first of them in
    mesh-name order (numeric suffixes compared as numbers) and gets a copy
    per further mesh, appended after all results; the original's result
    attribute `mpmd.copies = [positions]` records where its copies are.
    Then the callee body is rewritten; then each argument is typed onto the
    mesh of its assigns, and an argument whose assigns target several
    meshes gets copies the same way (appended after all arguments,
    `mpmd.copies` argument attribute; each copy feeds its mesh's assigns
    through an unassign that finalize folds). A call site passes one
    operand per argument copy (an assign of the caller's operand onto the
    copy's mesh) and each assign of a call result is replaced by the copy
    of its type. `mpmd.copies` stays on the callee; it describes the
    signature, and `-mpmd-call-inline` later removes the callee. Each
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
    against the new callee signatures. An `mpmd.for` over local tensors is
    not unrolled: each loop-carried value gets one mesh type (a mesh of its
    `arg_attrs` use_set it can be on), shared by its operand, block argument
    and result; what the body returns is assigned to it and the body is
    rewritten like a function body. The index stays `tensor<ui32>`, assigned
    onto the mesh of each consumer.
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
    Entry arguments take the type of their assign users (assigns that
    disagree on the memory kind, two kinds or one with and one without, are
    an error on the function: no transfer between memory kinds is made up);
    `assign(unassign(x, m), m)` becomes x; a cross-mesh `assign(unassign(x))`
    reuses an existing transfer of x, and otherwise becomes a chain of
    transfers (in mesh order) when x is an entry argument, when it feeds an
    mpmd.broadcast, or with `infer-transfers`; `mpmd.reduce` becomes a local
    reduce fragment per source mesh, transfers, and a reduce fragment per
    destination mesh (`mpmd.inferred_by = ["infer_mesh_convert_reduce_ops"]`).
    Unused assigns and unassigns, and inferred fragments whose results are
    all unused and whose bodies have no side effects (what was wrapped for
    dead meshless ops), are erased. Then every function input/output must be
    a mesh tensor and no assign, unassign, broadcast, reduce or meshless op
    may remain, except the assigns of an `mpmd.for` index (a local
    `tensor<ui32>` by definition). The analysis attributes are removed,
    from loop `arg_attrs` too.
    Complexity: one pass over the ops, O(N + E + T) with T the transfers
    created.
  }];
  let options = [
    Option<"inferTransfers", "infer-transfers", "bool", /*default=*/"false",
           "Create transfers for every remaining cross-mesh assign(unassign).">
  ];
  // Reduce fragments are built of StableHLO ops.
  let dependentDialects = ["::mlir::mpmd::MpmdDialect",
                           "::mlir::stablehlo::StablehloDialect"];
}

#endif // MPMD_TRANSFORMS_IMPORT_PASSES_TD
