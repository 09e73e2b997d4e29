// RUN: %partition-and-run %s -sdy-pad-for-divisibility -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL
// Padded programs partitioned to per-device programs and run on the
// interpreter against the unpartitioned program (test/Utils/partition_and_run.py).
sdy.mesh @quad = <["x"=2, "y"=2]>

// A contraction over 7 rows split in 4+3: each device contracts its 4 rows
// (the second device's last row masked to zero) and the all-reduce sums.

// CHECK: PASS: @main_contract
func.func @parallel_contract(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}, {}]>},
                             %arg1: tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}, {}]>})
    -> (tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@quad, [{}, {}]>}) {
  %0 = stablehlo.slice %arg0 [0:7, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<7x4xf32>
  %1 = stablehlo.slice %arg1 [0:7, 0:3] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {}]>]>} : (tensor<8x3xf32>) -> tensor<7x3xf32>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [0] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{}, {}]>]>} : (tensor<7x4xf32>, tensor<7x3xf32>) -> tensor<4x3xf32>
  %3 = sdy.all_reduce {"x"} %2 out_sharding=<@quad, [{}, {}]> : tensor<4x3xf32>
  return %3 : tensor<4x3xf32>
}

// A 6-row value over 4 shards: all_slice pads it to 8 first, all_gather
// gathers 8 rows and slices back to 6.
// CHECK: PASS: @main_slice_then_gather
func.func @parallel_slice_then_gather(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@quad, [{}, {}]>})
    -> (tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@quad, [{}, {}]>}) {
  %0 = stablehlo.slice %arg0 [1:7, 0:2] : (tensor<8x2xf32>) -> tensor<6x2xf32>
  %1 = sdy.all_slice [{"x", "y"}, {}] %0 out_sharding=<@quad, [{"x", "y"}, {}]> : tensor<6x2xf32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x", "y"}, {}]>]>} : tensor<6x2xf32>
  %3 = sdy.all_gather [{"x", "y"}, {}] %2 out_sharding=<@quad, [{}, {}]> : tensor<6x2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %4 = stablehlo.pad %3, %zero, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<6x2xf32>, tensor<f32>) -> tensor<8x2xf32>
  return %4 : tensor<8x2xf32>
}

// all_to_all moves the axis of a padded dim (7 rows over 2) to a divisible
// one; the reduction over the padded rows must not see the padding.
// CHECK: PASS: @main_all_to_all_then_sum
func.func @parallel_all_to_all_then_sum(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}, {}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}]>}) {
  %0 = stablehlo.slice %arg0 [0:7, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<7x4xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@quad, [{}, {"x"}]> : tensor<7x4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %zero) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}]>]>} : (tensor<7x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
