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
    is needed instead of hitting a mesh conflict. The computation itself is
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
    * unused results and operands whose block argument is unused are
      removed.

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
    callees of its `mpmd.call`s). Every one found elsewhere is an error.

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
       `mpmd.unassign`s and whose root feeds an `mpmd.assign` becomes an
       inferred fragment (`mpmd.inferred_by = ["introduce_transfers"]`) on
       the assign's mesh, whose operands are assigns of the leaves (which
       step 3 turns into transfers).
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
  let summary = "Removes callee arguments that are only returned.";
  let description = [{
    For each function called only through `mpmd.call`: an argument whose
    only uses are in the `func.return` is removed together with the results
    returning it; at every call site those results are replaced by the
    matching call operand. When this removes every result, the calls and the
    callee are erased.

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

#endif // MPMD_TRANSFORMS_IMPORT_PASSES_TD
