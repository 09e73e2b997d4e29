// Padding must not change what the global program computes. Each sharded
// function below has a twin without shardings (same ops, `_reference`
// suffix) that the pass leaves alone; @main runs both on the same inputs and
// compares. The inputs have no zeros where the padding reads them, so a
// missing mask changes the sums.
// RUN: mpmd-opt -sdy-pad-for-divisibility -sdy-drop-sharding-and-mesh %s | mpmd interpret - | FileCheck %s
// The pass did pad (otherwise the comparison would prove nothing):
// RUN: mpmd-opt -sdy-pad-for-divisibility %s | FileCheck %s --check-prefix=PADDED

sdy.mesh @mesh = <["x"=4]>

// CHECK: PASS: @main
func.func @main() {
  %m0 = stablehlo.constant dense<[[-2.0, 9.0, 8.0, -5.0], [2.0, 6.0, 9.0, -7.0], [-9.0, 6.0, -1.0, 8.0], [-2.0, -3.0, 6.0, 8.0], [8.0, 6.0, 3.0, -5.0], [-2.0, -5.0, 7.0, 3.0], [-9.0, -7.0, -4.0, 9.0], [-8.0, 1.0, -9.0, -1.0]]> : tensor<8x4xf32>
  %m1 = stablehlo.constant dense<[[6.0, 3.0, 4.0], [3.0, 9.0, 5.0], [-5.0, 2.0, -6.0], [-8.0, -5.0, 6.0], [-3.0, -1.0, 4.0], [2.0, 4.0, 7.0], [3.0, 9.0, 2.0], [8.0, 9.0, 4.0]]> : tensor<8x3xf32>
  %v0 = stablehlo.constant dense<[9.0, -2.0, 1.0, -9.0, -1.0, -4.0, 1.0, 8.0]> : tensor<8xf32>
  %v1 = stablehlo.constant dense<[[[9.0], [9.0], [-6.0], [-3.0], [9.0], [-1.0], [2.0], [-6.0]]]> : tensor<1x8x1xf32>
  %k = stablehlo.constant dense<[[[-7.0]], [[6.0]], [[6.0]], [[-7.0]]]> : tensor<4x1x1xf32>

  %0 = func.call @contract(%m0, %m1) : (tensor<8x4xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %1 = func.call @contract_reference(%m0, %m1) : (tensor<8x4xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  check.expect_eq %0, %1 : tensor<4x3xf32>

  %2:2 = func.call @pad_and_sum(%v0) : (tensor<8xf32>) -> (tensor<f32>, tensor<f32>)
  %3:2 = func.call @pad_and_sum_reference(%v0) : (tensor<8xf32>) -> (tensor<f32>, tensor<f32>)
  check.expect_eq %2#0, %3#0 : tensor<f32>
  check.expect_eq %2#1, %3#1 : tensor<f32>

  %4 = func.call @conv_over_padded_input(%v1, %k) : (tensor<1x8x1xf32>, tensor<4x1x1xf32>) -> tensor<1x4x1xf32>
  %5 = func.call @conv_over_padded_input_reference(%v1, %k) : (tensor<1x8x1xf32>, tensor<4x1x1xf32>) -> tensor<1x4x1xf32>
  check.expect_eq %4, %5 : tensor<1x4x1xf32>

  %6 = func.call @conv_with_padded_kernel(%v1, %k) : (tensor<1x8x1xf32>, tensor<4x1x1xf32>) -> tensor<1x6x1xf32>
  %7 = func.call @conv_with_padded_kernel_reference(%v1, %k) : (tensor<1x8x1xf32>, tensor<4x1x1xf32>) -> tensor<1x6x1xf32>
  check.expect_eq %6, %7 : tensor<1x6x1xf32>

  %8 = func.call @loop_then_window(%v0) : (tensor<8xf32>) -> tensor<4xf32>
  %9 = func.call @loop_then_window_reference(%v0) : (tensor<8xf32>) -> tensor<4xf32>
  check.expect_eq %8, %9 : tensor<4xf32>
  func.return
}

// A contracting dimension of 6 over 4 shards: the slices are extended to 8
// rows, which read rows 6 and 7 of the arguments; the mask zeroes them.
// PADDED-LABEL: func.func @contract(
// PADDED: stablehlo.dot_general {{.*}} : (tensor<8x4xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
func.func @contract(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                    %arg1: tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x3xf32> {
  %0 = stablehlo.slice %arg0 [0:6, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<6x4xf32>
  %1 = stablehlo.slice %arg1 [0:6, 0:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>) -> tensor<6x3xf32>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [0] x [0] : (tensor<6x4xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  return %2 : tensor<4x3xf32>
}
func.func @contract_reference(%arg0: tensor<8x4xf32>, %arg1: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %0 = stablehlo.slice %arg0 [0:6, 0:4] : (tensor<8x4xf32>) -> tensor<6x4xf32>
  %1 = stablehlo.slice %arg1 [0:6, 0:3] : (tensor<8x3xf32>) -> tensor<6x3xf32>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [0] x [0] : (tensor<6x4xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  return %2 : tensor<4x3xf32>
}

// Two pads of a 5-element slice (padded to 8): with interior padding, where
// the operand's padding lands beyond the real result, and with high padding,
// where the operand's padding must be re-masked with the padding value.
// Both are summed, so the reduce must mask its padding with the init value.
// PADDED-LABEL: func.func @pad_and_sum(
// PADDED: stablehlo.pad {{.*}} low = [1], high = [-4], interior = [1] {{.*}} : (tensor<8xf32>, tensor<f32>) -> tensor<12xf32>
// PADDED: stablehlo.select
// PADDED: stablehlo.pad {{.*}} low = [0], high = [0], interior = [0] {{.*}} : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
func.func @pad_and_sum(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<f32>, tensor<f32>) {
  %half = stablehlo.constant dense<1.5> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.slice %arg0 [0:5] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<5xf32>
  %1 = stablehlo.pad %0, %half, low = [1], high = [1], interior = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<5xf32>, tensor<f32>) -> tensor<11xf32>
  %2 = stablehlo.pad %0, %half, low = [0], high = [2], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<5xf32>, tensor<f32>) -> tensor<7xf32>
  %3 = stablehlo.reduce(%1 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<11xf32>, tensor<f32>) -> tensor<f32>
  %4 = stablehlo.reduce(%2 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<7xf32>, tensor<f32>) -> tensor<f32>
  return %3, %4 : tensor<f32>, tensor<f32>
}
func.func @pad_and_sum_reference(%arg0: tensor<8xf32>) -> (tensor<f32>, tensor<f32>) {
  %half = stablehlo.constant dense<1.5> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.slice %arg0 [0:5] : (tensor<8xf32>) -> tensor<5xf32>
  %1 = stablehlo.pad %0, %half, low = [1], high = [1], interior = [1] : (tensor<5xf32>, tensor<f32>) -> tensor<11xf32>
  %2 = stablehlo.pad %0, %half, low = [0], high = [2], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<7xf32>
  %3 = stablehlo.reduce(%1 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<11xf32>, tensor<f32>) -> tensor<f32>
  %4 = stablehlo.reduce(%2 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<7xf32>, tensor<f32>) -> tensor<f32>
  return %3, %4 : tensor<f32>, tensor<f32>
}

// A convolution over a 7-wide input padded to 8: output position 6 reads
// input 7, which must be the convolution's zero padding, not the argument's
// last element; the 8-wide output is trimmed to the padded result (8).
// PADDED-LABEL: func.func @conv_over_padded_input(
// PADDED: stablehlo.convolution{{.*}} : (tensor<1x8x1xf32>, tensor<3x1x1xf32>) -> tensor<1x8x1xf32>
func.func @conv_over_padded_input(%arg0: tensor<1x8x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>},
                                  %arg1: tensor<4x1x1xf32>) -> tensor<1x4x1xf32> {
  %0 = stablehlo.slice %arg0 [0:1, 0:7, 0:1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<1x8x1xf32>) -> tensor<1x7x1xf32>
  %1 = stablehlo.slice %arg1 [0:3, 0:1, 0:1] : (tensor<4x1x1xf32>) -> tensor<3x1x1xf32>
  %2 = stablehlo.convolution(%0, %1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<1x7x1xf32>, tensor<3x1x1xf32>) -> tensor<1x7x1xf32>
  %3 = stablehlo.slice %2 [0:1, 3:7, 0:1] : (tensor<1x7x1xf32>) -> tensor<1x4x1xf32>
  return %3 : tensor<1x4x1xf32>
}
func.func @conv_over_padded_input_reference(%arg0: tensor<1x8x1xf32>, %arg1: tensor<4x1x1xf32>) -> tensor<1x4x1xf32> {
  %0 = stablehlo.slice %arg0 [0:1, 0:7, 0:1] : (tensor<1x8x1xf32>) -> tensor<1x7x1xf32>
  %1 = stablehlo.slice %arg1 [0:3, 0:1, 0:1] : (tensor<4x1x1xf32>) -> tensor<3x1x1xf32>
  %2 = stablehlo.convolution(%0, %1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x7x1xf32>, tensor<3x1x1xf32>) -> tensor<1x7x1xf32>
  %3 = stablehlo.slice %2 [0:1, 3:7, 0:1] : (tensor<1x7x1xf32>) -> tensor<1x4x1xf32>
  return %3 : tensor<1x4x1xf32>
}

// A 3-wide kernel sharded over 2 devices is padded to 4 (its fourth tap
// masked to zero); the input gets one more element of high padding so that
// all 6 output positions remain.
// PADDED-LABEL: func.func @conv_with_padded_kernel(
// PADDED: stablehlo.convolution{{.*}}pad = {{\[\[}}0, 1]]{{.*}} : (tensor<1x8x1xf32>, tensor<4x1x1xf32>) -> tensor<1x6x1xf32>
sdy.mesh @pair = <["y"=2, "z"=2]>
func.func @conv_with_padded_kernel(%arg0: tensor<1x8x1xf32>,
                                   %arg1: tensor<4x1x1xf32> {sdy.sharding = #sdy.sharding<@pair, [{"y"}, {}, {}]>}) -> tensor<1x6x1xf32> {
  %0 = stablehlo.slice %arg1 [0:3, 0:1, 0:1] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{"y"}, {}, {}]>]>} : (tensor<4x1x1xf32>) -> tensor<3x1x1xf32>
  %1 = stablehlo.convolution(%arg0, %0) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x1xf32>, tensor<3x1x1xf32>) -> tensor<1x6x1xf32>
  return %1 : tensor<1x6x1xf32>
}
func.func @conv_with_padded_kernel_reference(%arg0: tensor<1x8x1xf32>, %arg1: tensor<4x1x1xf32>) -> tensor<1x6x1xf32> {
  %0 = stablehlo.slice %arg1 [0:3, 0:1, 0:1] : (tensor<4x1x1xf32>) -> tensor<3x1x1xf32>
  %1 = stablehlo.convolution(%arg0, %0) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x1xf32>, tensor<3x1x1xf32>) -> tensor<1x6x1xf32>
  return %1 : tensor<1x6x1xf32>
}

// A while loop carries a padded value (7 of 8 elements); windows of 2 with
// high padding 1 are summed, so the last window reads the padding, which
// must be the init value 0, not the argument's last element.
// PADDED-LABEL: func.func @loop_then_window(
// PADDED: stablehlo.while{{.*}} : tensor<i64>, tensor<8xf32>
// PADDED: %[[MASKED:.*]] = stablehlo.select
// PADDED: "stablehlo.reduce_window"(%[[MASKED]],
// PADDED: : (tensor<8xf32>, tensor<f32>) -> tensor<4xf32>
func.func @loop_then_window(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@pair, [{"y"}]>}) -> tensor<4xf32> {
  %0 = stablehlo.slice %arg0 [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{"y"}]>]>} : (tensor<8xf32>) -> tensor<7xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %1:2 = stablehlo.while(%i = %c0, %v = %0) : tensor<i64>, tensor<7xf32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@pair, []>, <@pair, [{"y"}]>]>}
   cond {
    %c3 = stablehlo.constant dense<3> : tensor<i64>
    %lt = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %d = stablehlo.add %v, %v : tensor<7xf32>
    %c1 = stablehlo.constant dense<1> : tensor<i64>
    %j = stablehlo.add %i, %c1 : tensor<i64>
    stablehlo.return %j, %d : tensor<i64>, tensor<7xf32>
  }
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = "stablehlo.reduce_window"(%1#1, %zero) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[0, 1]]> : tensor<1x2xi64>, sdy.sharding = #sdy.sharding_per_value<[<@pair, [{"y"}]>]>} : (tensor<7xf32>, tensor<f32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
func.func @loop_then_window_reference(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %0 = stablehlo.slice %arg0 [0:7] : (tensor<8xf32>) -> tensor<7xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %1:2 = stablehlo.while(%i = %c0, %v = %0) : tensor<i64>, tensor<7xf32>
   cond {
    %c3 = stablehlo.constant dense<3> : tensor<i64>
    %lt = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %d = stablehlo.add %v, %v : tensor<7xf32>
    %c1 = stablehlo.constant dense<1> : tensor<i64>
    %j = stablehlo.add %i, %c1 : tensor<i64>
    stablehlo.return %j, %d : tensor<i64>, tensor<7xf32>
  }
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = "stablehlo.reduce_window"(%1#1, %zero) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<7xf32>, tensor<f32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
