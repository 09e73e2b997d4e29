// With replica-count > 1 the device id is the replica id: the program runs
// as four replicas of one partition (test/Utils/partition_and_run.py).
// All-gathers, all-reduces and reduce-scatters use global device ids, so
// their groups are the same; all-slices read their offset at replica_id.
// RUN: %partition-and-run %s -sdy-convert-global-to-local=replica-count=4 -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-DAG: PASS: @main_gather
func.func @parallel_gather(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8x4xf32> {
  %0 = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-DAG: PASS: @main_slice
func.func @parallel_slice(%arg0: tensor<8x4xi32>)
    -> (tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = sdy.all_slice [{"y"}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x4xi32>
  return %0 : tensor<8x4xi32>
}

// CHECK-DAG: PASS: @main_reduce_scatter
func.func @parallel_reduce_scatter(%arg0: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                                   %arg1: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>})
    -> (tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<4x8xi32>, tensor<8x4xi32>) -> tensor<4x4xi32>
  %1 = sdy.reduce_scatter [{"y"}, {}] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<4x4xi32>
  return %1 : tensor<4x4xi32>
}
