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

#endif // MPMD_TRANSFORMS_SDY_PARTITIONING_PASSES_TD
