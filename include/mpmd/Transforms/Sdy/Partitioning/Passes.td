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

#endif // MPMD_TRANSFORMS_SDY_PARTITIONING_PASSES_TD
