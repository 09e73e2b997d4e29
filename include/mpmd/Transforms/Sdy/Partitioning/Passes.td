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

#endif // MPMD_TRANSFORMS_SDY_PARTITIONING_PASSES_TD
