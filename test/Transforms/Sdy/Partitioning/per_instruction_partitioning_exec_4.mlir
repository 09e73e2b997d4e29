// RUN: %partition-and-run %s -sdy-per-instruction-partitioning='partition-count=4' -sdy-insert-explicit-reshards='enable-full-version=true' -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-convert-global-to-local='partition-count=4' -sdy-drop-sharding-and-mesh | FileCheck %s
// RUN: %partition-and-run %s -sdy-per-instruction-partitioning='partition-count=4 filter=dot,reduce,slice' -sdy-insert-explicit-reshards='enable-full-version=true' -sdy-resolve-permutation-factors -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-convert-global-to-local='partition-count=4' -sdy-drop-sharding-and-mesh | FileCheck %s
// RUN: %partition-and-run %s -sdy-per-instruction-partitioning='partition-count=4 enable-halo-exchange=false' -sdy-insert-explicit-reshards='enable-full-version=true' -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-convert-global-to-local='partition-count=4' -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL
// Each op partitioned on its own inside a manual computation (every op, or
// only the dots, reduces and slices with the rest left to the
// whole-program partitioner), then the program partitioned and run on 4
// devices against the unpartitioned program
// (test/Utils/partition_and_run.py).
sdy.mesh @quad = <["x"=2, "y"=2]>

// A contraction over "y" (all-reduce inside its body), then elementwise ops
// whose operands disagree (all-to-all, collective-permute inside), then a
// reduction over a sharded dimension.
// CHECK: PASS: @main_matmul_chain
func.func @parallel_matmul_chain(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}, {"y"}]>},
                                 %arg1: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@quad, [{"y"}, {}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}]>}) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : tensor<8x6xf32>
  %2 = stablehlo.add %1, %0 {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"y"}, {"x"}]>]>} : tensor<8x6xf32>
  %3 = stablehlo.reduce(%2 init: %zero) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}]>]>} : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// A transpose, a slice of a sharded dimension (its rows move between
// devices) and a broadcast onto a dimension sharded over both axes.
// CHECK: PASS: @main_layout_ops
func.func @parallel_layout_ops(%arg0: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@quad, [{"x", "y"}, {}]>})
    -> (tensor<4x4x8xi32> {sdy.sharding = #sdy.sharding<@quad, [{}, {"x"}, {"y"}]>}) {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : (tensor<8x4xi32>) -> tensor<4x8xi32>
  %1 = stablehlo.slice %0 [0:4, 2:6] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : (tensor<4x8xi32>) -> tensor<4x4xi32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{}, {"x"}, {"y"}]>]>} : (tensor<4x4xi32>) -> tensor<4x4x8xi32>
  return %2 : tensor<4x4x8xi32>
}

// Shardings that do not divide: 7 rows and 3 columns over 2 shards each.
// Each op's operands are padded before its manual computation and its
// results sliced after it.
// CHECK: PASS: @main_uneven
func.func @parallel_uneven(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}, {}]>})
    -> (tensor<3xf32> {sdy.sharding = #sdy.sharding<@quad, [{}]>}) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.slice %arg0 [1:8, 0:3] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : (tensor<8x4xf32>) -> tensor<7x3xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : tensor<7x3xf32>
  %2 = stablehlo.reduce(%1 init: %zero) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"y"}]>]>} : (tensor<7x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %2 : tensor<3xf32>
}
