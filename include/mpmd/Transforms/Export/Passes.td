//===- Passes.td - Export passes --------------------------*- tablegen -*-===//
//
// The passes that prepare an MPMD program for compilation: per-fragment
// memory and buffer attributes, validations, and the outlining of fragments
// into functions called by `mpmd.fragment_call`. One pass per file in
// lib/Transforms/Export, named after its flag.
//
// Complexities use N = ops in the function (bodies included), F = fragments,
// T = transfers, and "signature" = operands + results of one fragment.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_EXPORT_PASSES_TD
#define MPMD_TRANSFORMS_EXPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerToFragmentCallsPass
    : Pass<"mpmd-lower-to-fragment-calls", "ModuleOp"> {
  let summary = "Outlines fragments into functions called by "
                "mpmd.fragment_call, one function per group of equal "
                "fragments.";
  let description = [{
    Fragments of MPMD functions are grouped when they have the same mesh
    name, the same `arg_attrs` and `res_attrs`, the same operand and result
    mesh tensor types, and equivalent bodies (same ops, attributes, types
    and wiring; locations ignored). The mesh *name* is compared, not the
    mesh shape, so that meshes of equal shape but different devices never
    share a program.

    Each group, numbered by first appearance, becomes one `func.func`
    named `p<group>_<base><phases><calls>.<module>`:
    * `<module>` is the module's name without a `jit_` prefix (`main` if
      the module has no name);
    * `<base>` is, for each fragment, `stage<id>` if it has a stage,
      `inferred` if it has no origin, otherwise its origin summary (e.g.
      `f_1:3.loss.f(1)_1:3`); the most frequent one in the group is used;
    * `<phases>` is `_fwd`, `_bwd`, `_transpose<n>` for the transpose counts
      of the group's origins, omitted when every origin of the module is a
      forward one;
    * `<calls>` is `_call<n>`, `_calls<a>to<b>` or `_calls<a>from<b>` for a
      single call counter, an ascending or a descending run of counters, and
      nothing otherwise;
    * the part before the `.` is cut at 200 characters.

    The function takes and returns the global tensor types, has the
    topology mesh as `mesh_shape`, the largest `reserved_hbm_bytes` of the
    group, the fragments' `arg_attrs` / `res_attrs` as argument/result
    attributes plus `sdy.sharding` from sharded mesh tensor types. Its body
    is the body of the group's first fragment. Each fragment becomes an
    `mpmd.fragment_call` keeping `origin`, `mesh_name`, `remat` and (unlike
    upstream, so that `mpmd schedule` reads exported modules) `call_counter`,
    `split_keep_transferred` / `split_drop_transferred` and its stage as
    `stage_id`.

    Fragments inside `mpmd.for` cannot be called (fragment_call lives
    directly in a function): they are reported as errors.

    With `verbose-logging`, a line on stderr (a log, not a diagnostic) names
    each outlined function and how many fragments call it.

    Complexity: O(N) to hash every fragment body once; fragments are only
    compared (O(body)) with the groups of their hash bucket, so grouping is
    linear unless many different bodies collide.
  }];
  let options = [
    Option<"verboseLogging", "verbose-logging", "bool", /*default=*/"false",
           "Report each outlined function and its number of callers.">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::mpmd::MpmdDialect"];
}

def MarkAliasingAndDonationPass
    : Pass<"mpmd-mark-aliasing-and-donation", "::mlir::func::FuncOp"> {
  let summary = "Marks the fragment inputs whose buffers can be reused for "
                "an output (aliasing) or freed (donation).";
  let description = [{
    In entry-point MPMD functions, a fragment operand can give its buffer
    away when the fragment is the value's last use (no later op, including
    the return, uses it). Such operands, in increasing index order, are
    skipped when the value is on the host (`pinned_host` type or
    `mhlo.memory_kind`), also has a transfer user, or is passed to the
    fragment more than once. Otherwise:
    * a function argument is only considered when the user marked it
      `jax.buffer_donor` or `tf.aliasing_output = K`; with K, the preferred
      result is the fragment result that reaches output K through
      single-operand ops (e.g. transfers);
    * the operand is aliased to the preferred result if compatible, else to
      the first compatible result, and is otherwise donated.
    A compatible result has the operand's mesh tensor type (sharding and
    memory kind included), is not on the host, has the same
    `mhlo.layout_mode` and is not aliased yet.

    The marks go to the fragment's `arg_attrs`:
    `{tf.aliasing_output = k : i32}` or `{jax.buffer_donor = true}`.

    Complexity: O(N + Σ signature · results) in the worst case (the search
    for a compatible result); O(N + Σ signature) when results match early.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def MarkFragmentReservedMemoryPass
    : Pass<"mpmd-mark-fragment-reserved-memory", "::mlir::func::FuncOp"> {
  let summary = "Marks each fragment with the device memory other live "
                "values hold while it runs.";
  let description = [{
    Walks an entry-point MPMD function in program order keeping, per mesh,
    the bytes of live device values (per-device shard size: local elements
    × element bit width / 8). Host values do not count: host mesh tensor
    types, arguments whose `mhlo.memory_kind` arg attr is `pinned_host`,
    fragment results whose `res_attrs` say so and transfers marked so.
    Arguments start live, except donated unused ones; donated means, as
    upstream decides it here, `jax.buffer_donor = true` or a *string*
    `tf.aliasing_output` (an integer one keeps the argument live). Each
    fragment gets `reserved_hbm_bytes` = live bytes of its mesh minus the
    bytes of its distinct device operands (rounded up); operands its
    `arg_attrs` take from host memory are neither subtracted nor freed.
    After each fragment or transfer, operands it used last are freed
    (arguments only if donated) and its used device results become live.

    Ops other than fragments, transfers and the return are errors.

    Complexity: O(N + Σ signature).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def ValidateNoInferredFragmentsPass
    : Pass<"mpmd-validate-no-inferred-fragments", "::mlir::func::FuncOp"> {
  let summary = "Reports inferred fragments that were not merged into user "
                "fragments.";
  let description = [{
    An inferred fragment (`origin=[]`) left in an MPMD function becomes a
    program of its own, usually a sign that mesh inference or merging did
    not go as the user expected. For each one:
    * if every pass in its `mpmd.inferred_by` is one whose fragments are
      expected to remain sometimes (`uniquify`,
      `infer_mesh_wrap_meshless_ops`, `infer_mesh_wrap_resultless_ops`,
      `infer_mesh_convert_reduce_ops`, `extract_reshards`,
      `introduce_transfers`), a warning;
    * otherwise an error, or a warning when `fail-on-inferred-fragments` is
      false;
    * without `mpmd.inferred_by` it is an internal error (every pass that
      creates inferred fragments records itself there).

    Complexity: O(F).
  }];
  let options = [
    Option<"failOnInferredFragments", "fail-on-inferred-fragments", "bool",
           /*default=*/"true",
           "Report unmerged inferred fragments as errors rather than "
           "warnings.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def ValidateNoReshardsPass
    : Pass<"mpmd-validate-no-reshards", "ModuleOp"> {
  let summary = "Reports fragment calls of functions that only reshard.";
  let description = [{
    A fragment call whose callee's body is just a return of its arguments
    does no computation: it only moves data to another sharding (a
    "reshard-only fragment", typically from an inter-mesh transfer whose
    sharding changes). Each such call gets a warning, or an error with
    `fail-on-reshard-only-fragments`.

    Complexity: O(fragment calls), each callee checked once.
  }];
  let options = [
    Option<"failOnReshardOnlyFragments", "fail-on-reshard-only-fragments",
           "bool", /*default=*/"false",
           "Report reshard-only fragments as errors rather than warnings.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def PartitionFragmentBodiesPass
    : Pass<"mpmd-partition-fragment-bodies", "ModuleOp"> {
  let summary = "SPMD-partitions the fragment callees of meshes of several "
                "devices into per-device programs.";
  let description = [{
    Runs after `-mpmd-lower-to-fragment-calls`. Each function called by
    `mpmd.fragment_call`s on a mesh of more than one device (its
    `mesh_shape`) whose signature or body shards something (a sharding with
    axes, or an sdy op such as a collective or a reshard) is rewritten by
    Shardy's propagation (`-sdy-user-priority-propagate`, seeded by the
    signature shardings below and whatever shardings the body still has)
    and then Shardy's partitioner, with `partition-count` = the mesh's
    device count: `-sdy-remove-sharding-groups`, `-sdy-sharding-constraint-to-reshard`,
    `-sdy-insert-explicit-reshards{enable-full-version=true}`,
    `-sdy-resolve-permutation-factors`, `-sdy-reshard-to-collectives`,
    `-sdy-pad-for-divisibility`, `-sdy-resolve-single-device-sharding`,
    `-sdy-convert-global-to-local`, `-sdy-drop-sharding-and-mesh`.

    The contract with the executor: the arguments and results of the callee
    first take the shardings of the call's mesh tensor types as
    `sdy.sharding` (the `@main` values' shardings; shardings inside the
    body are kept, honoured and propagated from), and after partitioning have the *local*
    type of those values: one device's shard, each dimension divided by the
    product of the sizes of the (sub-)axes sharding it. Device d of the mesh
    is the one at row-major coordinates d over the topology mesh's axes;
    `stablehlo.partition_id` returns d and the collectives' replica groups
    list such indices. `@main` keeps its global mesh tensor types. A
    partitioned callee is marked `mpmd.spmd_partitioned`; the
    `mpmd.fragment_call` verifier accepts a callee typed either with the
    global or with the local types of the call's values.

    Calls of one callee whose values are sharded differently get one copy
    of the callee per distinct set of shardings (the copy is named after
    the callee, uniqued by the symbol table), in call order.

    Errors, at the fragment call: a sharding whose mesh is not the call's
    topology mesh (same axes, devices in row-major order; a single-device
    mesh of one of its devices is allowed), and a callee the partitioner
    cannot rewrite (after the partitioner's own error, which names the op,
    the operand and the sharding).

    Complexity: O(calls × signature) to group the calls, then the
    partitioner's cost on each partitioned callee (linear in its ops), plus
    O(sdy meshes) per callee for the scratch module it runs in.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::mpmd::MpmdDialect",
                           "::mlir::sdy::SdyDialect",
                           "::mlir::stablehlo::StablehloDialect"];
}

def ValidateNoBackwardDepsPass
    : Pass<"mpmd-validate-no-backward-deps", "::mlir::func::FuncOp"> {
  let summary = "In forward-only programs, reports data dependencies from a "
                "later mesh to an earlier one.";
  let description = [{
    Applies to MPMD functions whose fragment calls all have forward origins
    (transpose count 0): such programs are pipelines from the first mesh of
    the topology to the last. Every data dependency between two fragment
    calls, directly or through transfers, must go from a mesh to the same
    or a later mesh in topology order. A dependency from a later mesh to an
    earlier one gets a warning at the consumer ("Detected backward
    dependency..."), or an error with `fail-on-backward-deps`. With
    `fail-on-backward-deps`, a program with any backward fragment call is
    an error at the function (as upstream does).

    Complexity: O(N + operands · length of their transfer chains).
  }];
  let options = [
    Option<"failOnBackwardDeps", "fail-on-backward-deps", "bool",
           /*default=*/"false",
           "Report backward dependencies as errors rather than warnings.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def ValidateNoParamTransfersPass
    : Pass<"mpmd-validate-no-param-transfers", "::mlir::func::FuncOp"> {
  let summary = "Reports transfers of values whose location matches a "
                "parameter pattern.";
  let description = [{
    Moving parameters between meshes at every step is usually a mesh
    assignment mistake. For each transfer in an MPMD function whose
    operand's location (the argument or defining op location, printed)
    contains `param-pattern`, a warning, or an error with
    `fail-on-param-transfers`. An empty pattern matches nothing.

    Complexity: O(T · location size).
  }];
  let options = [
    Option<"failOnParamTransfers", "fail-on-param-transfers", "bool",
           /*default=*/"false",
           "Report parameter transfers as errors rather than warnings.">,
    Option<"paramPattern", "param-pattern", "std::string",
           /*default=*/"\"params['transformer\"",
           "Substring of the location of values that are parameters.">,
  ];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def DelayInferredFragmentsPass
    : Pass<"mpmd-delay-inferred-fragments", "::mlir::func::FuncOp"> {
  let summary = "Moves inferred fragments right before their first user.";
  let description = [{
    In entry-point MPMD functions, each inferred fragment (`origin=[]`) is
    moved right before the first op of the block that uses one of its
    results, so that it does not run (and hold memory) earlier than needed.
    Fragments are visited from last to first, so a chain of inferred
    fragments moves as a whole. Unused fragments stay where they are.

    Complexity: O(N + Σ uses), block order queries being amortized O(1).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def DelayTransfersFromCpuPass
    : Pass<"mpmd-delay-transfers-from-cpu", "::mlir::func::FuncOp"> {
  let summary = "Moves transfers out of CPU meshes or host memory right "
                "before their first user.";
  let description = [{
    In MPMD functions, a transfer whose operand lives on a CPU mesh (name
    ending in `/cpu`) or in `pinned_host` memory is moved right before the
    first op that uses its result, so the device copy is made as late as
    possible. Transfers are visited from last to first.

    Complexity: O(T + Σ uses).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def SinkCreateTokenIntoFragmentsPass
    : Pass<"mpmd-sink-create-token-into-fragments", "::mlir::func::FuncOp"> {
  let summary = "Creates the tokens fragments use inside them.";
  let description = [{
    Every token operand of a fragment, whatever produced it (a
    `stablehlo.create_token`, a function argument, another fragment), is
    replaced by a fresh `stablehlo.create_token` at the start of the body
    and removed with its block argument (`arg_attrs` and `in_shardings`
    follow); then the token results of fragments that nothing uses any more
    are removed, so that no token crosses a fragment boundary (a compiled
    program cannot take a token as input). A `create_token` outside
    fragments is erased once unused.

    Complexity: O(N + Σ signature).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect",
                           "::mlir::stablehlo::StablehloDialect"];
}

def MergeTransfersPass
    : Pass<"mpmd-merge-transfers", "::mlir::func::FuncOp"> {
  let summary = "Merges one-element transfers between the same two fragments "
                "into one transfer of their concatenation.";
  let description = [{
    In MPMD functions, for each fragment P: its results that hold at most
    one element (none counts), unsharded (no sharding or a replicated one)
    and not in `pinned_host` memory are grouped by (global type, consumer
    fragment C) over their transfers (not into host memory, not already
    `concat_transfer`): a result joins C's group once per transfer of it
    that C uses. Each group of two or more, in result order, becomes one
    transfer marked `concat_transfer`: P also returns the concatenation of
    the values (each reshaped to a leading dimension of 1,
    `stablehlo.concatenate` along dimension 0), and C takes it as a new
    operand and slices the value back out (`stablehlo.slice` then
    `stablehlo.reshape`) for every use of the old transfers. The merged
    transfer sits where the group's first one was; the old transfers and
    C's old operands stay, now unused inside C, for the clean-ups: the
    export pipeline runs `-mpmd-fragment-dedup`, `-cse` and
    `-mpmd-fragment-dce` after this pass. Consumers with scheduling control
    operands are left alone.

    Complexity: O(transfers + Σ signature of the fragments rebuilt).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect",
                           "::mlir::stablehlo::StablehloDialect"];
}

def MarkOffloadedInputOutputPass
    : Pass<"mpmd-mark-offloaded-input-output", "::mlir::func::FuncOp"> {
  let summary = "Marks the fragment inputs and outputs that live in host "
                "memory with mhlo.memory_kind = \"pinned_host\".";
  let description = [{
    In entry-point MPMD functions, a value is in host memory when:
    * its mesh tensor type has `memory_kind="pinned_host"`;
    * it is an input or output of the function whose `mhlo.memory_kind`
      attribute is `"pinned_host"`;
    * it is a fragment result whose returned body value comes from
      `stablehlo.custom_call @annotate_device_placement` with
      `mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}`,
      possibly through `stablehlo.optimization_barrier`.
    Fragment operands and results in host memory get
    `mhlo.memory_kind = "pinned_host"` in `arg_attrs` / `res_attrs` (what
    the outlined functions take as argument/result attributes), and so do
    the function's inputs and outputs. Existing marks stay. Every
    fragment ends with both arrays (`{}` entries for unmarked values).

    Errors: a memory kind other than `"pinned_host"` / `"device"`, and one
    that contradicts the memory kind of the value's type. Then, as upstream,
    the marks must be consistent (absent and `"device"` are both device
    memory): the users of a used input expect one kind (a fragment's
    `arg_attrs` entry, the output attribute where it is returned; other
    users expect nothing), on the same side as the input's own kind (error
    at the input); an output's kind is on the same side as its producer's
    (an input attribute or a fragment `res_attrs` entry; error at the
    return). Any error fails the pass.

    Complexity: O(N + Σ signature).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def MarkInputOutputWithLayoutsPass
    : Pass<"mpmd-mark-input-output-with-layouts", "::mlir::func::FuncOp"> {
  let summary = "Carries the mhlo.layout_mode of the function's inputs and "
                "outputs to the fragments that consume and produce them.";
  let description = [{
    In entry-point MPMD functions, with the `mhlo.layout_mode` of inputs
    and outputs. Layouts: `"default"` (also the absence of the attribute,
    and always written as absence), `"auto"` (agrees with every layout) or
    an explicit layout like `"{0,1}"` (agrees only with itself).
    * Inputs first (unused ones are left alone): the layouts of the
      outputs returning the input directly must agree with each other and
      with the input's (else an error naming them), and refine it; an
      input transferred to a CPU mesh (`/cpu` suffix) takes `"default"`,
      with a warning if it asked for anything else; else an `"auto"`
      input with more than one fragment or transfer use takes `"default"`.
    * Then every fragment result: unused ones get `"auto"`; the others
      take the common layout of the outputs returning them (an error at
      the return when they disagree), the same CPU rule, and `"default"`
      for an `"auto"` result with a fragment or transfer use.
    Each decision is written on the value and on all its uses: fragment
    `arg_attrs`, the function's output attributes, and through transfers to
    their uses (a transfer to a CPU mesh hands on `"default"`). Every
    fragment ends with both `arg_attrs` and `res_attrs` (`{}` entries where
    there is nothing). A layout that is not a string is an error.

    Complexity: O(uses + Σ signature).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

def CopyConstantsPass : Pass<"mpmd-copy-constants", "::mlir::func::FuncOp"> {
  let summary = "Recreates constants in the fragments that consume them.";
  let description = [{
    When a fragment operand is a result of another fragment (directly or
    through transfers) that just returns a constant (an op with no operands
    and the `ConstantLike` trait), the constant is cloned at the start of the
    consumer's body and used in place of the block argument, so the value
    need not be computed elsewhere and transferred. The then unused operand
    is left to `-mpmd-fragment-dce`.

    Complexity: O(N + Σ signature · transfer chain length).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

#endif // MPMD_TRANSFORMS_EXPORT_PASSES_TD
