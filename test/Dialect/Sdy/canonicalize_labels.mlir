// The canonicalization patterns of the sdy ops carry the debug labels the
// export pipeline selects with the canonicalizer's `enable-patterns`:
// `sdy-reshard` (reshard chains) and `sdy-collective` (no-op and fusable
// collectives). A canonicalizer restricted to one label applies only that
// set; op folders and the erasure of unused pure ops still run.
// RUN: mpmd-opt '-canonicalize=enable-patterns=sdy-reshard' -split-input-file %s | FileCheck %s --check-prefixes=ALL,RESHARD
// RUN: mpmd-opt '-canonicalize=enable-patterns=sdy-collective' -split-input-file %s | FileCheck %s --check-prefixes=ALL,COLLECTIVE
// RUN: mpmd-opt '-canonicalize=disable-patterns=sdy-collective' -split-input-file %s | FileCheck %s --check-prefixes=ALL,RESHARD

sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>

// ALL-LABEL: func.func @reshard_chain
func.func @reshard_chain(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // RESHARD-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@m, [{"y"}]>
  // RESHARD-NEXT: return %[[R]]
  // COLLECTIVE-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@m, [{"x"}]>
  // COLLECTIVE-NEXT: %[[B:.*]] = sdy.reshard %[[A]] <@m, [{"y"}]>
  // COLLECTIVE-NEXT: return %[[B]]
  %0 = sdy.reshard %arg0 <@m, [{"x"}]> : tensor<8xf32>
  %1 = sdy.reshard %0 <@m, [{"y"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// The inner reshard is kept, and so is the chain, while something else
// uses it.
// ALL-LABEL: func.func @reshard_chain_with_other_use
func.func @reshard_chain_with_other_use(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // ALL-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@m, [{"x"}]>
  // ALL-NEXT: %[[B:.*]] = sdy.reshard %[[A]] <@m, [{"y"}]>
  // ALL-NEXT: return %[[A]], %[[B]]
  %0 = sdy.reshard %arg0 <@m, [{"x"}]> : tensor<8xf32>
  %1 = sdy.reshard %0 <@m, [{"y"}]> : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// The folder (a reshard to the sharding its input already got from a
// reshard) runs under any label.
// ALL-LABEL: func.func @reshard_to_same_sharding_folds
func.func @reshard_to_same_sharding_folds(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // ALL-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@m, [{"x"}]>
  // ALL-NEXT: return %[[A]], %[[A]]
  %0 = sdy.reshard %arg0 <@m, [{"x"}]> : tensor<8xf32>
  %1 = sdy.reshard %0 <@m, [{"x"}]> : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>

// Collectives that change nothing.
// ALL-LABEL: func.func @no_op_collectives
func.func @no_op_collectives(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  // COLLECTIVE-NEXT: %[[R:.*]] = sdy.all_reduce {"y"} %arg0
  // COLLECTIVE-NEXT: return %[[R]]
  // RESHARD-NEXT: sdy.all_gather [{}, {}]
  // RESHARD-NEXT: sdy.all_slice [{}, {}]
  // RESHARD-NEXT: sdy.reduce_scatter [{}, {}]
  // RESHARD-NEXT: sdy.all_reduce {}
  // RESHARD-NEXT: sdy.collective_permute
  // RESHARD-NEXT: sdy.all_reduce {"y"}
  %0 = sdy.all_gather [{}, {}] %arg0 out_sharding=<@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  %1 = sdy.all_slice [{}, {}] %0 out_sharding=<@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  %2 = sdy.reduce_scatter [{}, {}] %1 out_sharding=<@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  %3 = sdy.all_reduce {} %2 out_sharding=<@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  %4 = sdy.collective_permute %3 out_sharding=<@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  %5 = sdy.all_reduce {"y"} %4 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %5 : tensor<8x8xf32>
}

// A permute that moves axes stays.
// ALL-LABEL: func.func @real_permute
func.func @real_permute(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  // ALL-NEXT: sdy.collective_permute %arg0 out_sharding=<@m, [{"y"}, {"x"}]>
  %0 = sdy.collective_permute %arg0 out_sharding=<@m, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>

// ALL-LABEL: func.func @slice_of_gather
func.func @slice_of_gather(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {"z"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // COLLECTIVE-NEXT: %[[G:.*]] = sdy.all_gather [{"y"}, {}] %arg0
  // COLLECTIVE-NEXT: %[[S:.*]] = sdy.all_slice [{}, {"y"}] %[[G]]
  // COLLECTIVE-NEXT: return %arg0, %[[S]]
  // RESHARD-NEXT: %[[G:.*]] = sdy.all_gather [{"y"}, {}] %arg0
  // RESHARD-NEXT: %[[S1:.*]] = sdy.all_slice [{"y"}, {}] %[[G]]
  // RESHARD-NEXT: %[[S2:.*]] = sdy.all_slice [{}, {"y"}] %[[G]]
  // RESHARD-NEXT: return %[[S1]], %[[S2]]
  %0 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@m, [{"x"}, {"z"}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{"y"}, {}] %0 out_sharding=<@m, [{"x", "y"}, {"z"}]> : tensor<8x8xf32>
  // Different axes: kept.
  %2 = sdy.all_slice [{}, {"y"}] %0 out_sharding=<@m, [{"x"}, {"z", "y"}]> : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>

// Two all-to-alls over disjoint dims become one, params sorted by source.
// ALL-LABEL: func.func @fuse_all_to_alls
func.func @fuse_all_to_alls(%arg0: tensor<8x8x8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}, {}, {}]>}) -> tensor<8x8x8x8xf32> {
  // COLLECTIVE-NEXT: %[[A:.*]] = sdy.all_to_all [{"x"}: 0->3, {"y"}: 1->2] %arg0 out_sharding=<@m, [{}, {}, {"y"}, {"x"}]>
  // COLLECTIVE-NEXT: return %[[A]]
  // RESHARD-NEXT: sdy.all_to_all [{"y"}: 1->2]
  // RESHARD-NEXT: sdy.all_to_all [{"x"}: 0->3]
  %0 = sdy.all_to_all [{"y"}: 1->2] %arg0 out_sharding=<@m, [{"x"}, {}, {"y"}, {}]> : tensor<8x8x8x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->3] %0 out_sharding=<@m, [{}, {}, {"y"}, {"x"}]> : tensor<8x8x8x8xf32>
  return %1 : tensor<8x8x8x8xf32>
}

// Not fused: the second moves into the dim the first moved into, or the
// first has another use.
// ALL-LABEL: func.func @all_to_alls_not_fused
func.func @all_to_alls_not_fused(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}, {}]>}) -> (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<8x8x8xf32>) {
  // ALL-NEXT: %[[A:.*]] = sdy.all_to_all [{"x"}: 0->2] %arg0
  // ALL-NEXT: %[[B:.*]] = sdy.all_to_all [{"y"}: 1->2] %[[A]]
  // ALL-NEXT: %[[C:.*]] = sdy.all_to_all [{"y"}: 1->0] %arg0
  // ALL-NEXT: %[[D:.*]] = sdy.all_to_all [{"x", "y"}: 0->2] %[[C]]
  // ALL-NEXT: return %[[B]], %[[C]], %[[D]]
  %0 = sdy.all_to_all [{"x"}: 0->2] %arg0 out_sharding=<@m, [{}, {"y"}, {"x"}]> : tensor<8x8x8xf32>
  %1 = sdy.all_to_all [{"y"}: 1->2] %0 out_sharding=<@m, [{}, {}, {"x", "y"}]> : tensor<8x8x8xf32>
  %2 = sdy.all_to_all [{"y"}: 1->0] %arg0 out_sharding=<@m, [{"x", "y"}, {}, {}]> : tensor<8x8x8xf32>
  %3 = sdy.all_to_all [{"x", "y"}: 0->2] %2 out_sharding=<@m, [{}, {}, {"x", "y"}]> : tensor<8x8x8xf32>
  return %1, %2, %3 : tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<8x8x8xf32>
}

// An unused all-to-all goes (like every unused pure op).
// ALL-LABEL: func.func @unused_all_to_all
func.func @unused_all_to_all(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  // ALL-NEXT: return
  %0 = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@m, [{}, {"x"}]> : tensor<8x8xf32>
  return
}

// -----

sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>

// all_reduce then all_slice over the reduced axes: a reduce_scatter.
// ALL-LABEL: func.func @all_reduce_then_all_slice
func.func @all_reduce_then_all_slice(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"z"}], unreduced={"x", "y"}>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // COLLECTIVE-NEXT: %[[RS:.*]] = sdy.reduce_scatter [{"y"}, {"x"}] %arg0 out_sharding=<@m, [{"y"}, {"z", "x"}]>
  // COLLECTIVE-NEXT: return %[[RS]], %[[RS]]
  // RESHARD-NEXT: %[[R:.*]] = sdy.all_reduce {"x", "y"} %arg0
  // RESHARD-NEXT: %[[S1:.*]] = sdy.all_slice [{"y"}, {"x"}] %[[R]]
  // RESHARD-NEXT: %[[S2:.*]] = sdy.all_slice [{"y"}, {"x"}] %[[R]]
  // RESHARD-NEXT: return %[[S1]], %[[S2]]
  %0 = sdy.all_reduce {"x", "y"} %arg0 out_sharding=<@m, [{}, {"z"}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{"y"}, {"x"}] %0 out_sharding=<@m, [{"y"}, {"z", "x"}]> : tensor<8x8xf32>
  %2 = sdy.all_slice [{"y"}, {"x"}] %0 out_sharding=<@m, [{"y"}, {"z", "x"}]> : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// Slicing axes after the reduced ones remain an all_slice.
// ALL-LABEL: func.func @reduce_scatter_with_residual_slice
func.func @reduce_scatter_with_residual_slice(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  // COLLECTIVE-NEXT: %[[RS:.*]] = sdy.reduce_scatter [{"x"}, {}] %arg0 out_sharding=<@m, [{"x"}, {}]>
  // COLLECTIVE-NEXT: %[[S:.*]] = sdy.all_slice [{"y"}, {"z"}] %[[RS]] out_sharding=<@m, [{"x", "y"}, {"z"}]>
  // COLLECTIVE-NEXT: return %[[S]]
  // RESHARD-NEXT: sdy.all_reduce
  // RESHARD-NEXT: sdy.all_slice
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{"x", "y"}, {"z"}] %0 out_sharding=<@m, [{"x", "y"}, {"z"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// Not a reduce_scatter either: a reduce_scatter sums, this all_reduce
// takes the maximum.
// ALL-LABEL: func.func @max_all_reduce_then_all_slice
func.func @max_all_reduce_then_all_slice(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced=max{"x"}>}) -> tensor<8x8xf32> {
  // ALL-NEXT: %[[R:.*]] = sdy.all_reduce max {"x"} %arg0
  // ALL-NEXT: %[[S:.*]] = sdy.all_slice [{"x"}, {}] %[[R]]
  // ALL-NEXT: return %[[S]]
  %0 = sdy.all_reduce max {"x"} %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{"x"}, {}] %0 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// Not a reduce_scatter: a reduced axis is not at the front of a dim's
// slicing axes, the slices differ, or another op uses the all_reduce.
// ALL-LABEL: func.func @no_reduce_scatter
func.func @no_reduce_scatter(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced={"x"}>}) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  // ALL-NEXT: %[[R0:.*]] = sdy.all_reduce {"x"} %arg0
  // ALL-NEXT: %[[S0:.*]] = sdy.all_slice [{"y", "x"}, {}] %[[R0]]
  // ALL-NEXT: %[[R1:.*]] = sdy.all_reduce {"x"} %arg0
  // ALL-NEXT: %[[S1:.*]] = sdy.all_slice [{"x"}, {}] %[[R1]]
  // ALL-NEXT: %[[S2:.*]] = sdy.all_slice [{}, {"x"}] %[[R1]]
  // ALL-NEXT: %[[R2:.*]] = sdy.all_reduce {"x"} %arg0
  // ALL-NEXT: %[[S3:.*]] = sdy.all_slice [{"x"}, {}] %[[R2]]
  // ALL-NEXT: return %[[S0]], %[[S1]], %[[S2]], %[[R2]], %[[S3]]
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{"y", "x"}, {}] %0 out_sharding=<@m, [{"y", "x"}, {}]> : tensor<8x8xf32>
  %2 = sdy.all_reduce {"x"} %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %3 = sdy.all_slice [{"x"}, {}] %2 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  %4 = sdy.all_slice [{}, {"x"}] %2 out_sharding=<@m, [{}, {"x"}]> : tensor<8x8xf32>
  %5 = sdy.all_reduce {"x"} %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %6 = sdy.all_slice [{"x"}, {}] %5 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %1, %3, %4, %5, %6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
