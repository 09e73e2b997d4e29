// Every sdy collective on a mesh of two devices, partitioned and run on two
// partitions, against the unpartitioned program (test/Utils/partition_and_run.py).
// RUN: %partition-and-run %s -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL

// The devices in reverse order: device 1 holds shard 0.
sdy.mesh @mesh = <["x"=2], device_ids=[1, 0]>

// CHECK-DAG: PASS: @main_gather
func.func @parallel_gather(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> tensor<4x2xf32> {
  %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// CHECK-DAG: PASS: @main_slice
func.func @parallel_slice(%arg0: tensor<6x2xi64>)
    -> (tensor<6x2xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x2xi64>
  return %0 : tensor<6x2xi64>
}

// CHECK-DAG: PASS: @main_reduce
func.func @parallel_reduce(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                           %arg1: tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<2x3xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// CHECK-DAG: PASS: @main_reduce_scatter
func.func @parallel_reduce_scatter(%arg0: tensor<2x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                                   %arg1: tensor<4x6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<2x6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<2x4xi32>, tensor<4x6xi32>) -> tensor<2x6xi32>
  %1 = sdy.reduce_scatter [{}, {"x"}] %0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<2x6xi32>
  return %1 : tensor<2x6xi32>
}

// CHECK-DAG: PASS: @main_all_to_all
func.func @parallel_all_to_all(%arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// Every device keeps its shard (pairs to itself).
// CHECK-DAG: PASS: @main_permute
func.func @parallel_permute(%arg0: tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}
