// Every sdy collective on a 2 x 2 mesh, partitioned and run on four
// partitions, against the unpartitioned program (test/Utils/partition_and_run.py).
// RUN: %partition-and-run %s -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// RUN: %partition-and-run %s -sdy-convert-global-to-local=per-dim-all-gather=true -sdy-drop-sharding-and-mesh | FileCheck %s
// RUN: %partition-and-run %s -sdy-convert-global-to-local=combine-multi-dimension-reduce-scatter=true -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-DAG: PASS: @main_gather_one_dim
func.func @parallel_gather_one_dim(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-DAG: PASS: @main_gather_two_dims
func.func @parallel_gather_two_dims(%arg0: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>})
    -> (tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.all_gather [{"y"}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x4xi32>
  return %0 : tensor<8x4xi32>
}

// CHECK-DAG: PASS: @main_gather_minor_axis
func.func @parallel_gather_minor_axis(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}

// CHECK-DAG: PASS: @main_slice
func.func @parallel_slice(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = sdy.all_slice [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-DAG: PASS: @main_slice_two_axes
func.func @parallel_slice_two_axes(%arg0: tensor<8x2xi32>)
    -> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}) {
  %0 = sdy.all_slice [{"y", "x"}, {}] %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}

// A contracting dimension sharded on "x": partial sums, then an all-reduce.
// CHECK-DAG: PASS: @main_reduce
func.func @parallel_reduce(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>},
                           %arg1: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}

// CHECK-DAG: PASS: @main_reduce_both_axes
func.func @parallel_reduce_both_axes(%arg0: tensor<2x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "x"}]>},
                                     %arg1: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}]>})
    -> tensor<2xi32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<2x8xi32>, tensor<8xi32>) -> tensor<2xi32>
  %1 = sdy.all_reduce {"x", "y"} %0 out_sharding=<@mesh, [{}]> : tensor<2xi32>
  return %1 : tensor<2xi32>
}

// CHECK-DAG: PASS: @main_reduce_scatter
func.func @parallel_reduce_scatter(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                                   %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = sdy.reduce_scatter [{}, {"x"}] %0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// Partial sums over both axes, scattered over both dimensions.
// CHECK-DAG: PASS: @main_reduce_scatter_two_dims
func.func @parallel_reduce_scatter_two_dims(%arg0: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>},
                                            %arg1: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<4x8xi32>, tensor<8x4xi32>) -> tensor<4x4xi32>
  %1 = sdy.reduce_scatter [{"y"}, {"x"}] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<4x4xi32>
  return %1 : tensor<4x4xi32>
}

// CHECK-DAG: PASS: @main_all_to_all
func.func @parallel_all_to_all(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-DAG: PASS: @main_all_to_all_two_params
func.func @parallel_all_to_all_two_params(%arg0: tensor<4x2x6x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>})
    -> (tensor<4x2x6x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}, {"y"}]>}) {
  %0 = sdy.all_to_all [{"x"}: 0->2, {"y"}: 1->3] %arg0 out_sharding=<@mesh, [{}, {}, {"x"}, {"y"}]> : tensor<4x2x6x4xi32>
  return %0 : tensor<4x2x6x4xi32>
}

// CHECK-DAG: PASS: @main_all_to_all_backwards
func.func @parallel_all_to_all_backwards(%arg0: tensor<4x8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {"x"}]>})
    -> (tensor<4x8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}) {
  %0 = sdy.all_to_all [{"x"}: 2->0] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}, {}]> : tensor<4x8x2xi32>
  return %0 : tensor<4x8x2xi32>
}

// CHECK-DAG: PASS: @main_permute_swap_axes
func.func @parallel_permute_swap_axes(%arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// CHECK-DAG: PASS: @main_permute_order
func.func @parallel_permute_order(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}]>}) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}]> : tensor<8xi32>
  return %0 : tensor<8xi32>
}

// Replicated on "y" before, sharded on it after: devices of one "x" row
// swap nothing but must still each get the right shard.
// CHECK-DAG: PASS: @main_permute_partly_replicated
func.func @parallel_permute_partly_replicated(%arg0: tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<4x4xi32>
  %1 = sdy.all_to_all [{"y"}: 0->1] %0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<4x4xi32>
  %2 = sdy.collective_permute %1 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x4xi32>
  return %2 : tensor<4x4xi32>
}

// Sharded constants and iotas: each device makes its own shard.
// CHECK-DAG: PASS: @main_constant_and_iota
func.func @parallel_constant_and_iota(%arg0: tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<4x4xi32>
  %1 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} dense<[[0, 0, 0, 100], [0, 0, 100, 0], [0, 100, 0, 0], [100, 0, 0, 0]]> : tensor<4x4xi32>
  %2 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} dense<7> : tensor<4x4xi32>
  %3 = stablehlo.iota dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xi32>
  %4 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xi32>
  %5 = stablehlo.multiply %3, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xi32>
  %6 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xi32>
  %7 = stablehlo.add %5, %6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xi32>
  %8 = stablehlo.subtract %7, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xi32>
  %9 = stablehlo.add %8, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xi32>
  return %9 : tensor<4x4xi32>
}
