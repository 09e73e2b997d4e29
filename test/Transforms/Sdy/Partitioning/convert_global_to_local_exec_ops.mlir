// The op rules of -sdy-convert-global-to-local on a 2 x 2 mesh: ops whose
// sharded dimensions stay local, partitioned and run on four partitions,
// against the unpartitioned program (test/Utils/partition_and_run.py).
// RUN: %partition-and-run %s -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Slices, pads, concatenations and dynamic slices on unsharded dimensions.
// CHECK-DAG: PASS: @main_shape_ops
func.func @parallel_shape_ops(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %0 = stablehlo.slice %arg0 [0:8, 1:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x3xf32>
  %z = stablehlo.constant dense<-1.0> : tensor<f32>
  %1 = stablehlo.pad %0, %z, low = [0, 1], high = [0, 2], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<8x3xf32>, tensor<f32>) -> tensor<8x6xf32>
  %2 = stablehlo.concatenate %0, %1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<8x3xf32>, tensor<8x6xf32>) -> tensor<8x9xf32>
  %i = stablehlo.constant dense<2> : tensor<i32>
  %3 = stablehlo.dynamic_slice %2, %i, %i, sizes = [8, 6] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<8x9xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  %4 = stablehlo.dynamic_update_slice %3, %0, %i, %i {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<8x6xf32>, tensor<8x3xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  return %4 : tensor<8x6xf32>
}

// A batched matmul sharded on the batch ("x") and the contraction ("y").
// CHECK-DAG: PASS: @main_batched_matmul
func.func @parallel_batched_matmul(%arg0: tensor<2x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>},
                                   %arg1: tensor<2x8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>})
    -> (tensor<2x4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}, {}]> : tensor<2x4x3xf32>
  return %1 : tensor<2x4x3xf32>
}

// Non-overlapping windows stay within a shard; a loop carries shards.
// CHECK-DAG: PASS: @main_windows_and_loop
func.func @parallel_windows_and_loop(%arg0: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%arg0, %z) <{window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x4xi32>, tensor<i32>) -> tensor<4x4xi32>
  %1:2 = stablehlo.while(%v = %0, %n = %z) : tensor<4x4xi32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, []>]>}
    cond {
    %three = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %n, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %n, %one : tensor<i32>
    %twice = stablehlo.add %v, %v {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xi32>
    stablehlo.return %twice, %next : tensor<4x4xi32>, tensor<i32>
  }
  return %1#0 : tensor<4x4xi32>
}

// A convolution with its input features sharded (then all-reduced), and a
// grouped one whose groups are split between the devices.
// CHECK-DAG: PASS: @main_convolutions
func.func @parallel_convolutions(%arg0: tensor<2x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>},
                                 %arg1: tensor<1x8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {}]>},
                                 %arg2: tensor<1x1x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}]>})
    -> (tensor<2x4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
        tensor<2x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>}) {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<2x4x8xf32>, tensor<1x8x2xf32>) -> tensor<2x4x2xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}, {}]> : tensor<2x4x2xf32>
  %2 = stablehlo.convolution(%arg0, %arg2) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 8 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<2x4x8xf32>, tensor<1x1x8xf32>) -> tensor<2x4x8xf32>
  return %1, %2 : tensor<2x4x2xf32>, tensor<2x4x8xf32>
}

// Gathers rows of a table sharded on its columns (taken whole by every
// slice), with the indices sharded on their batch dimension.
// CHECK-DAG: PASS: @main_gather
func.func @parallel_gather(%arg0: tensor<4x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                           %arg1: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = "stablehlo.gather"(%arg1, %arg0) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<6x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Scatters whole rows into a table sharded on its columns.
// CHECK-DAG: PASS: @main_scatter
func.func @parallel_scatter(%arg0: tensor<2x1xi32>,
                            %arg1: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>},
                            %arg2: tensor<2x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>})
    -> (tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}) {
  %0 = "stablehlo.scatter"(%arg1, %arg0, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x", "y"}]>]>} : (tensor<4x8xi32>, tensor<2x1xi32>, tensor<2x8xi32>) -> tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}

// rng_bit_generator with a sharded output: the state is replicated, every
// device draws the whole output from it and keeps its shard, so each shard
// holds the bits the unpartitioned program draws there.
// CHECK-DAG: PASS: @main_rng_bit_generator
func.func @parallel_rng_bit_generator(%x: tensor<8x6xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                                      %state: tensor<2xui64> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})
    -> (tensor<8x6xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, tensor<2xui64> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %next, %bits = stablehlo.rng_bit_generator %state, algorithm = DEFAULT {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"x"}, {"y"}]>]>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x6xui32>)
  %0 = stablehlo.xor %bits, %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x6xui32>
  return %0, %next : tensor<8x6xui32>, tensor<2xui64>
}
