//===- Passes.td - sdy partitioner passes -----------------*- tablegen -*-===//
//
// Shardy's partitioner: the passes that turn a propagated, globally typed
// program into per-device programs with local types and StableHLO
// collectives, under upstream's `-sdy-...` flags and options, one pass per
// file in lib/Transforms/Sdy/Partitioning named after its flag. The sequence
// upstream's executable tests run, in order:
//   -sdy-insert-explicit-reshards="enable-full-version=true"
//   -sdy-resolve-permutation-factors -sdy-reshard-to-collectives
//   -sdy-pad-for-divisibility -sdy-resolve-single-device-sharding
//   -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_PARTITIONING_PASSES_TD
#define MPMD_TRANSFORMS_SDY_PARTITIONING_PASSES_TD

include "mlir/Pass/PassBase.td"

def DropShardingAndMeshPass
    : Pass<"sdy-drop-sharding-and-mesh", "::mlir::ModuleOp"> {
  let summary = "Removes every `sdy.sharding` and every `sdy.mesh`.";
  let description = [{
    The last step of the partitioner: once every value has its local type,
    the shardings on ops, function arguments and function results and the
    `sdy.mesh` symbols they name carry no more information. Also gives the
    unpartitioned ("sequential") form of a sharded program, which is how
    executable tests obtain their reference.
    Complexity: O(ops + function arguments and results).
  }];
}

def ConvertGlobalToLocalPass
    : Pass<"sdy-convert-global-to-local", "::mlir::ModuleOp"> {
  let summary = "Gives every value its per-device type and lowers the sdy collectives to StableHLO.";
  let description = [{
    Runs after the reshards became sdy collectives and every sharded
    dimension is divisible: each value gets its local type (every dimension
    divided by the number of shards its sharding gives it; a dimension that
    does not divide is an error), and

    * `sdy.all_gather` becomes `stablehlo.all_gather` (one per gathered
      dimension with `per-dim-all-gather`, else one over all axes on a
      leading dimension with reshapes and a transpose);
    * `sdy.all_slice` a `stablehlo.dynamic_slice` at offsets read from a
      constant table indexed by the device id (`stablehlo.partition_id`, or
      `stablehlo.replica_id` when `replica-count` > 1);
    * `sdy.all_reduce` a `stablehlo.all_reduce` with an add body;
    * `sdy.reduce_scatter` a `stablehlo.reduce_scatter` (one dimension),
      an all-reduce and a dynamic slice (several), or with
      `combine-multi-dimension-reduce-scatter` one reduce-scatter over a
      leading dimension;
    * `sdy.all_to_all` a `stablehlo.all_to_all` (several params: over a
      leading dimension made of the target dimensions' factors);
    * `sdy.collective_permute` a `stablehlo.collective_permute` listing a
      (source, target) pair for every device;
    * sharded `sdy.constant`/`stablehlo.constant` and `stablehlo.iota` read
      their shard at the device's offset;
    * `sdy.manual_computation` is inlined, `sdy.named_computation` kept.

    Replica groups list device ids, one row per combination of the other
    mesh axes; every collective gets `channel_handle = <handle = h, type =
    1>` with `h` counting on from the largest handle in the module, and
    `use_global_device_ids` where the op has it. Ops whose sharded
    dimensions need data from other devices (a sharded contracting
    dimension not followed by an all-reduce over its axes, a sharded
    window, a slice/pad/concatenate/reverse/sort that moves data across
    shards, a gather/scatter indexing a sharded operand dimension), a
    remaining `sdy.reshard` and meshes of more than 2^20 devices are
    errors. Cannot run when both counts exceed 1.

    Complexity: O(ops * rank + collectives * D * mesh axes) time and
    O(D) per lookup table or replica group list, D the number of devices
    of the collective's mesh.
  }];
  let dependentDialects = ["::mlir::stablehlo::StablehloDialect"];
  let options = [
    Option<"perDimAllGather", "per-dim-all-gather", "bool",
           /*default=*/"false",
           "Lower a multi-dimension all-gather to one all-gather per dimension">,
    Option<"combineMultiDimensionReduceScatter",
           "combine-multi-dimension-reduce-scatter", "bool",
           /*default=*/"false",
           "Lower a multi-dimension reduce-scatter to one reduce-scatter "
           "(else an all-reduce and a dynamic slice)">,
    Option<"enableRgv3", "enable-rgv3", "bool", /*default=*/"false",
           "Emit mesh-axes replica groups (not expressible here: an error "
           "for every collective)">,
    Option<"replicaCount", "replica-count", "int64_t", /*default=*/"1",
           "Number of replicas; above 1 the device id is the replica id">,
    Option<"partitionCount", "partition-count", "int64_t", /*default=*/"1",
           "Number of partitions">,
  ];
}

def InsertExplicitReshardsPass
    : Pass<"sdy-insert-explicit-reshards", "::mlir::func::FuncOp"> {
  let summary = "Inserts `sdy.reshard`s and `sdy.all_reduce`s so that every "
                "op runs on compatible shardings.";
  let description = [{
    After propagation an op may still see conflicting shardings: a factor
    sharded differently in two of its tensors, one axis sharding two
    factors, a need-replication factor sharded. This pass makes every op
    conflict-free, so that the partitioner can run it shard by shard, and
    turns partial results into explicit collectives (sdy-notes 5.1):

    * data-flow ops (`while`, `case`, `optimization_barrier`, named and
      manual computations, where the manual axes are stripped from the
      result side), `func.call` (operands against the callee's argument
      shardings) and `func.return` (against the result shardings): a
      source with unreduced axes the target lacks is all-reduced over
      them; unreduced axes the target adds come from
      `sdy.replicated_to_unreduced` / `sdy.sharded_to_unreduced`; with the
      full version (always for calls) a source that still differs is
      resharded to the target;
    * an existing `sdy.reshard` that adds unreduced axes becomes those
      to-unreduced ops;
    * every other op all-reduces operands whose unreduced axes its results
      do not carry;
    * an op with a result on a maximal (single-device) mesh moves its
      operands to that device and its results back to the global mesh,
      replicated;
    * an op with a sharding rule on a common mesh: with the full version
      (or for `func.call`, `mhlo.ragged_dot`, and a `concatenate` whose
      operands are sharded unlike its result) one set of axes per factor
      is chosen (kept when already compatible; the larger of two tensors
      wins for unary ops; otherwise a greedy choice by the size of the
      tensors that agree, factor kind and sharded size, honouring the
      order of factors in a dimension; need-replication axes go to the
      batching factors), operands are resharded to it before the op and
      results back after it; reshapes with overflow axes redistribute the
      axes of the more sharded side on both sides. Without the full version
      only the dot/dot_general result is moved to the sharding of its
      larger operand when that saves a reduce-scatter. Results are then
      all-reduced over the axes sharding reduction factors (without the
      full version only when the result is unreduced).

    A function argument or result on a maximal mesh is an error.
    Complexity: O(ops x (T x R + C^2 x T)) for T tensors of rank R per op
    and C candidate (factor, axes) pairs of the greedy choice (at most the
    number of axes of the op's shardings), so linear in the number of ops.
  }];
  let options = [
    Option<"enableFullVersion", "enable-full-version", "bool",
           /*default=*/"false",
           "Reshard every op to compatible factor shardings, not only the "
           "data-flow, unreduced and single-device cases.">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

// No anchor: upstream runs it on the module (channel handles unique in
// the module); -mpmd-partition-fragment-bodies nests it per function, each
// alone in a scratch module.
def ResolvePermutationFactorsPass : Pass<"sdy-resolve-permutation-factors"> {
  let summary = "Runs ops with sharded permutation factors on those "
                "dimensions replicated.";
  let description = [{
    A sharded permutation factor (the sliced, padded or reversed dimension
    of `slice`, `pad`, `reverse`, the windows of `reduce_window` and
    convolutions, a `concatenate` of slices, ...) would make devices read
    data other devices hold. After -sdy-insert-explicit-reshards, this pass
    resolves every such StableHLO op (sdy-notes 5.4) by running it with those
    factors replicated: operands are resharded before the op and results
    back to their sharding after it, with the same machinery as
    -sdy-insert-explicit-reshards. Slice dimensions that start at 0 with
    stride 1 and keep the shard size, and pad dimensions without interior
    or low padding whose output shards only read the input shard of the
    same index, need no communication and stay sharded. A reshape whose split or
    merged dimensions are sharded non-divisibly (or with overflow axes) gets
    those factors replicated. Ops without a rule or with a custom rule are
    left alone.

    With `enable-halo-exchange` (default), a `pad`, `slice` or `reverse`
    whose operand and result are sharded alike on full axes instead runs
    inside a new `sdy.manual_computation` over those axes: each device
    receives from its neighbours, with `stablehlo.collective_permute`s (one
    per hop), just the elements its output shard reads, and cuts it with a
    `dynamic_slice` at an offset computed from its device id (`replica_id`
    when `replica-count` > 1, else `partition_id`): closed-form arithmetic
    on meshes without device ids, a lookup table otherwise. It falls back
    to replication when a halo is as large as what an all-gather moves.
    New collectives take channel handles after the largest one in the op
    the pass runs on, the module as upstream runs it, so that handles are
    unique in the module (none with `replica-count` > 1: pairs of replica
    ids). A reverse swaps shards between mirror devices (after moving
    the padding of a non-divisible last shard to the front) and reverses
    locally. Reshapes always take the replication path.
    Complexity: O(ops x (T x R + P x S)) for T tensors of rank R per op, P
    permutation factors and S shards per pad dimension, plus O(D x (N + S))
    per halo op for D sharded dimensions and N devices.
  }];
  let options = [
    Option<"enableHaloExchange", "enable-halo-exchange", "bool",
           /*default=*/"true",
           "Exchange halos between neighbouring shards instead of "
           "replicating, for pad, slice and reverse.">,
    Option<"replicaCount", "replica-count", "int64_t", /*default=*/"1",
           "Number of replicas (the device id is replica_id when > 1).">,
    Option<"partitionCount", "partition-count", "int64_t", /*default=*/"1",
           "Number of partitions (the device id is partition_id).">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def PadForDivisibilityPass
    : Pass<"sdy-pad-for-divisibility", "::mlir::func::FuncOp"> {
  let summary = "Pads every value whose sharding does not divide it.";
  let description = [{
    Gives each ranked tensor whose dimension of size `d` is split into `n`
    shards with `d % n != 0` the global type with that dimension rounded up
    to the next multiple of `n`, so that every shard has the same size and
    `-sdy-convert-global-to-local` can divide exactly. The real elements keep
    their indices; the padding sits at the high end of each dimension.

    * Function arguments and results must be divisible already (an error
      names the first offending dimension of each).
    * StableHLO ops get padded result types: per dimension the larger of the
      type inferred from the padded operands and the padded result type.
      Constants are padded (a splat stays a splat), `stablehlo.slice`
      extends its limits over the padding (an error if that would read past
      the operand), `stablehlo.pad` lowers its high padding and re-masks the
      operand's padding where it would land inside the real result.
    * Dimensions an op combines are masked (`iota < size` and `select`):
      contracting dimensions of `dot_general`, feature and window dimensions
      of `convolution` (whose spatial results are then trimmed), with zeros;
      reduced dimensions of `reduce` and `reduce_window`, with their init
      values.
    * `sdy.all_slice`, `sdy.reduce_scatter`, `sdy.all_to_all` pad their
      operand to the size their `out_sharding` needs (all-to-all results are
      sliced back on the source dimensions); `sdy.all_gather` gathers the
      padded form and slices back the gathered dimensions; `sdy.all_reduce`,
      `sdy.collective_permute`, `sdy.replicated_to_unreduced`,
      `sdy.sharded_to_unreduced` and `sdy.reshard` keep the padded type.
    * Ops of other dialects (`func.return`, calls, `sdy.return` of manual and
      named computations) get their operands sliced back to the original
      types.

    New ops carry the sharding of the value they pad or mask. Values known
    to be padded with a constant (the pass' own pads, masks and splat
    constants) are remembered per function so they are not masked twice.
    Complexity: O(ops x rank) new ops and time, plus one verification of
    each op whose types changed.
  }];
  let dependentDialects = ["::mlir::stablehlo::StablehloDialect"];
}

def ResolveSingleDeviceShardingPass
    : Pass<"sdy-resolve-single-device-sharding", "::mlir::func::FuncOp"> {
  let summary = "Runs ops sharded on a single device only on that device.";
  let description = [{
    Every op outside the sdy dialect whose result shardings name a maximal
    mesh `<[], device_ids=[D]>` (its other results must be replicated) is
    replaced by a `stablehlo.if` on `device id == D`: the true branch holds
    the op without shardings, reading the inputs of the single-device
    `sdy.reshard`s that fed it; the false branch returns zeros (tokens:
    `stablehlo.create_token`). Each tensor result is then summed over every
    axis of the global mesh (the first mesh with axes) with `sdy.all_reduce`
    into a replicated value, which replaces the users; a user that was a
    `sdy.reshard` to exactly that replicated sharding is replaced by it.
    Single-device reshards left without users are erased.

    The device id is `stablehlo.partition_id`, or `stablehlo.replica_id`
    when `replica-count` > 1, converted to an `i64` scalar; only one of the
    counts may exceed 1.
    Complexity: O(ops + uses of the rewritten ops).
  }];
  let options = [
    Option<"replicaCount", "replica-count", "int64_t", /*default=*/"1",
           "Number of replicas (the device id is the replica id when > 1).">,
    Option<"partitionCount", "partition-count", "int64_t", /*default=*/"1",
           "Number of partitions.">,
  ];
  let dependentDialects = ["::mlir::stablehlo::StablehloDialect"];
}

def ReshardToCollectivesPass
    : Pass<"sdy-reshard-to-collectives", "::mlir::func::FuncOp"> {
  let summary = "Replaces every `sdy.reshard` by sdy collectives.";
  let description = [{
    Turns each `sdy.reshard` into the `sdy.all_slice`,
    `sdy.collective_permute`, `sdy.all_to_all` and `sdy.all_gather` ops that
    move its input, whose sharding is read through
    `sdy.propagation_barrier`s (none: replicated), to its sharding. Each
    collective's `out_sharding` is the closed sharding after it, with the
    output's unreduced axes.

    A reshard stays when `keep-redundant-reshards` is set and its input is
    already sharded that way, when either side is on a single-device
    (maximal) mesh, or when the two meshes have different axes and the
    output is not fully replicated. A fully replicated output on a
    replicated input is the input; on a sharded one it is reached by
    gathering on the input's mesh. Otherwise at most two rounds of
    all-slice, collective-permute, all-to-all (exact landings first) and
    all-gather run over the (sub-)axis pieces of both shardings (overlapping
    sub-axes are cut into common pieces first), with a gather-then-slice
    fallback for non-power-of-two axes that do not line up.

    Complexity: O(ops + sum over reshards of R * A^2) for rank R and A
    (sub-)axes in its two shardings.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
  let options = [
    Option<"keepRedundantReshards", "keep-redundant-reshards", "bool",
           /*default=*/"false",
           "Keep reshards whose input already has their sharding (use when "
           "explicit reshards may not have been inserted).">,
  ];
}

def RemoveAllGatherReduceScatterForCmv1Pass
    : Pass<"sdy-remove-all-gather-reduce-scatter-for-cmv1",
           "::mlir::func::FuncOp"> {
  let summary = "Drops the all-gathers feeding a dot and the reduce-scatter fed by one.";
  let description = [{
    For a backend that implements a collective matmul itself (XLA's
    "cmv1"): every operand of a `stablehlo.dot` / `stablehlo.dot_general`
    made by an `sdy.all_gather` used only there reads the gather's input
    instead, and the gather goes. A dot that had no such operand, has no
    unreduced axes in its result sharding, and whose only user is an
    `sdy.reduce_scatter` takes the reduce-scatter's `out_sharding` as its
    own, and the reduce-scatter goes.
    Complexity: O(ops).
  }];
}

def PerInstructionPartitioningPass
    : Pass<"sdy-per-instruction-partitioning", "::mlir::ModuleOp"> {
  let summary = "Partitions selected ops one at a time, each inside an "
                "`sdy.manual_computation`.";
  let description = [{
    A debugging aid that applies the partitioner to single ops while the
    rest of the program keeps its global types. Candidates are the ops, in
    program order and numbered from 0, that have a (non-custom) sharding
    rule on one non-maximal mesh, statically shaped ranked tensor operands
    and results only, no unreduced axes (the partial results of a contraction stay with the
    all-reduce -sdy-insert-explicit-reshards put after it), and an operand
    or result that is not fully replicated; data-flow ops
    (`while`, `case`, `optimization_barrier`, named and manual computations
    and what they contain), terminators and sdy ops are not candidates.

    `filter` selects among them: a comma-separated list of op-name
    substrings (an op is selected when its name contains one of them; no
    substring selects every name) and `selectLow=N` / `selectHigh=N`, the
    inclusive range of candidate numbers selected. Empty: every candidate.

    Each selected op is copied into a scratch module as the body of a
    function whose arguments and results carry the op's operand and result
    shardings (closed; a missing one replicated), which runs through
    -sdy-resolve-permutation-factors (with `enable-halo-exchange`),
    -sdy-insert-explicit-reshards (full version),
    -sdy-reshard-to-collectives, -sdy-pad-for-divisibility,
    -sdy-convert-global-to-local (with `replica-count`, `partition-count`)
    and -sdy-drop-sharding-and-mesh. The per-device body that results,
    collectives included, replaces the op inside an `sdy.manual_computation`
    with those shardings whose manual axes are all the axes they use; its
    collectives' channel handles are renumbered after the largest one in the
    module. An op the partitioner rejects is an error.

    A sharding that does not divide a dimension: the operand is padded with
    zeros at the high end before the manual computation and the result
    sliced back after it; inside, the padding is sliced off before the op
    and added back after it, for -sdy-pad-for-divisibility to mask.
    Complexity: O(ops) to select, then per selected op the partitioner on a
    one-op module plus O(meshes) to copy the mesh symbols.
  }];
  let options = [
    Option<"filter", "filter", "std::string", /*default=*/"\"\"",
           "Comma-separated op-name substrings and selectLow=N / "
           "selectHigh=N bounds on the candidate number">,
    Option<"enableHaloExchange", "enable-halo-exchange", "bool",
           /*default=*/"true",
           "Passed to -sdy-resolve-permutation-factors">,
    Option<"replicaCount", "replica-count", "int64_t", /*default=*/"1",
           "Number of replicas (the device id is replica_id when > 1)">,
    Option<"partitionCount", "partition-count", "int64_t", /*default=*/"1",
           "Number of partitions">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect",
                           "::mlir::stablehlo::StablehloDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // MPMD_TRANSFORMS_SDY_PARTITIONING_PASSES_TD
