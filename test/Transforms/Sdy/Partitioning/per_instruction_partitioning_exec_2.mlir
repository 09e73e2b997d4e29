// RUN: %partition-and-run %s -sdy-per-instruction-partitioning='partition-count=2' -sdy-insert-explicit-reshards='enable-full-version=true' -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-convert-global-to-local='partition-count=2' -sdy-drop-sharding-and-mesh | FileCheck %s
// RUN: %partition-and-run %s -sdy-per-instruction-partitioning='partition-count=2 filter=selectLow=1,selectHigh=2' -sdy-insert-explicit-reshards='enable-full-version=true' -sdy-resolve-permutation-factors -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-convert-global-to-local='partition-count=2' -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL
// Each op (or candidates 1 and 2 only) partitioned on its own inside a
// manual computation, then the program partitioned and run on 2 devices
// against the unpartitioned program (test/Utils/partition_and_run.py).
sdy.mesh @pair = <["x"=2]>

// Row-sharded operands feeding a contraction over the rows: partial
// products summed inside the dot's body; a reshape and a max-reduction of
// the result.
// CHECK: PASS: @main_contract_rows
func.func @parallel_contract_rows(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@pair, [{"x"}, {}]>},
                                  %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@pair, [{"x"}, {}]>})
    -> (tensor<2xf32> {sdy.sharding = #sdy.sharding<@pair, [{"x"}]>}) {
  %low = stablehlo.constant dense<-1000.0> : tensor<f32>
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{"x"}, {}]>]>} : (tensor<4x6xf32>) -> tensor<2x12xf32>
  %2 = stablehlo.reduce(%1 init: %low) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{"x"}]>]>} : (tensor<2x12xf32>, tensor<f32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}

// Integers: a comparison and a select whose operands are sharded on
// different dimensions.
// CHECK: PASS: @main_select
func.func @parallel_select(%arg0: tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@pair, [{"x"}, {}]>},
                           %arg1: tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@pair, [{}, {"x"}]>})
    -> (tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@pair, [{}, {"x"}]>}) {
  %0 = stablehlo.compare GT, %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{"x"}, {}]>]>} : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
  %1 = stablehlo.select %0, %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x4xi1>, tensor<4x4xi32>
  return %1 : tensor<4x4xi32>
}

// 5 rows over 2 shards: padded to 6 around each op.
// CHECK: PASS: @main_uneven_rows
func.func @parallel_uneven_rows(%arg0: tensor<5x4xf32> {sdy.sharding = #sdy.sharding<@pair, [{}, {}]>},
                                %arg1: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@pair, [{}, {}]>})
    -> (tensor<5x2xf32> {sdy.sharding = #sdy.sharding<@pair, [{}, {}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{"x"}, {}]>]>} : tensor<5x4xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{"x"}, {}]>]>} : (tensor<5x4xf32>, tensor<4x2xf32>) -> tensor<5x2xf32>
  return %1 : tensor<5x2xf32>
}
