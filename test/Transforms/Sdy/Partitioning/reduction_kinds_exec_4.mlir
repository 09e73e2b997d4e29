// RUN: %partition-and-run %s -sdy-insert-explicit-reshards='enable-full-version=true' -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-convert-global-to-local='partition-count=4' -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL
// Max, min and sum reductions over dimensions sharded on 4 devices, run
// against the unpartitioned program (test/Utils/partition_and_run.py); see
// reduction_kinds_exec_2.mlir.
sdy.mesh @quad = <["x"=2, "y"=2]>

// One reduced dimension over both axes.
// CHECK: PASS: @main_max_two_axes
func.func @parallel_max_two_axes(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@quad, [{}, {"x", "y"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@quad, [{}]>}) {
  %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.cosine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{}, {"x", "y"}]>]>} : tensor<4x8xf32>
  %1 = stablehlo.reduce(%0 init: %low) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Rows on "x", the reduced columns on "y": groups of 2 devices each.
// CHECK: PASS: @main_min_i32_rows
func.func @parallel_min_i32_rows(%arg0: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}, {"y"}]>})
    -> (tensor<4xi32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}]>}) {
  %seven = stablehlo.constant dense<7> : tensor<4x8xi32>
  %eleven = stablehlo.constant dense<11> : tensor<4x8xi32>
  %highest = stablehlo.constant dense<2147483647> : tensor<i32>
  %0 = stablehlo.multiply %arg0, %seven {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : tensor<4x8xi32>
  %1 = stablehlo.remainder %0, %eleven {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : tensor<4x8xi32>
  %2 = stablehlo.reduce(%1 init: %highest) applies stablehlo.minimum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}]>]>} : (tensor<4x8xi32>, tensor<i32>) -> tensor<4xi32>
  return %2 : tensor<4xi32>
}

// Both dimensions reduced, each sharded on its own axis, with max, min and
// sum.
// CHECK: PASS: @main_all_dims
func.func @parallel_all_dims(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}, {"y"}]>})
    -> (tensor<f32> {sdy.sharding = #sdy.sharding<@quad, []>}, tensor<f32> {sdy.sharding = #sdy.sharding<@quad, []>}, tensor<f32> {sdy.sharding = #sdy.sharding<@quad, []>}) {
  %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %high = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  %1 = stablehlo.reduce(%0 init: %low) applies stablehlo.maximum across dimensions = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, []>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
  %2 = stablehlo.reduce(%0 init: %high) applies stablehlo.minimum across dimensions = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, []>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
  %3 = stablehlo.reduce(%0 init: %zero) applies stablehlo.add across dimensions = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, []>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
  return %1, %2, %3 : tensor<f32>, tensor<f32>, tensor<f32>
}

// 7 columns over 4 devices (2, 2, 2, 1 and padding): negative values for
// the maximum, positive ones for the minimum, so zero padding would win.
// CHECK: PASS: @main_non_divisible
func.func @parallel_non_divisible(%arg0: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@quad, [{}, {"x", "y"}]>})
    -> (tensor<4xi32> {sdy.sharding = #sdy.sharding<@quad, [{}]>}, tensor<4xi32> {sdy.sharding = #sdy.sharding<@quad, [{}]>}) {
  %lowest = stablehlo.constant dense<-2147483648> : tensor<i32>
  %highest = stablehlo.constant dense<2147483647> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<4x7xi32>
  %0 = stablehlo.slice %arg0 [0:4, 0:7] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{}, {"x", "y"}]>]>} : (tensor<4x8xi32>) -> tensor<4x7xi32>
  %1 = stablehlo.add %0, %one {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{}, {"x", "y"}]>]>} : tensor<4x7xi32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{}, {"x", "y"}]>]>} : tensor<4x7xi32>
  %3 = stablehlo.reduce(%2 init: %lowest) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{}]>]>} : (tensor<4x7xi32>, tensor<i32>) -> tensor<4xi32>
  %4 = stablehlo.reduce(%1 init: %highest) applies stablehlo.minimum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{}]>]>} : (tensor<4x7xi32>, tensor<i32>) -> tensor<4xi32>
  return %3, %4 : tensor<4xi32>, tensor<4xi32>
}

// Softmax with rows on "x" and the normalised dimension on "y"; the
// shifted rows are returned too (the quotient hides the value subtracted).
// CHECK: PASS: @main_softmax
func.func @parallel_softmax(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}, {"y"}]>})
    -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}, {"y"}]>}, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@quad, [{"x"}, {"y"}]>}) {
  %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %x = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  %max = stablehlo.reduce(%x init: %low) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %maxb = stablehlo.broadcast_in_dim %max, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %shifted = stablehlo.subtract %x, %maxb {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  %e = stablehlo.exponential %shifted {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %sumb = stablehlo.broadcast_in_dim %sum, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %y = stablehlo.divide %e, %sumb {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{"x"}, {"y"}]>]>} : tensor<4x8xf32>
  return %y, %shifted : tensor<4x8xf32>, tensor<4x8xf32>
}
