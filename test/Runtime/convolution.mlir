// stablehlo.convolution run by the interpreter, one function per feature:
// dimension numbers, strides, padding (negative too), lhs/rhs dilation,
// window reversal, feature and batch groups. f32 runs on the GEMM path
// (im2col or col2im tiles on sgemm), i64 on the reference loop. The expected
// values come from a direct numpy transcription of the spec's definition
// (pad, dilate, slice the windows, reverse, dot), not from our kernels.
// RUN: mpmd interpret %s | FileCheck %s

// The spec's example: lhs dilation 2 and stride 4 pick the corners.
// CHECK: PASS: @spec_example
func.func @spec_example() {
  %lhs = stablehlo.constant dense<[[[[1], [2], [5], [6]], [[3], [4], [7], [8]], [[10], [11], [14], [15]], [[12], [13], [16], [17]]]]> : tensor<1x4x4x1xi64>
  %rhs = stablehlo.constant dense<[[[[1]], [[1]], [[1]]], [[[1]], [[1]], [[1]]], [[[1]], [[1]], [[1]]]]> : tensor<3x3x1x1xi64>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>
  check.expect_eq_const %r, dense<[[[[10], [26]], [[46], [62]]]]> : tensor<1x2x2x1xi64>
  func.return
}

// A 3x3 box filter with padding 1: each output sums the 3x3 neighbourhood
// (corners 4 elements, edges 6, the centre 9 of 1..9).
// CHECK: PASS: @box_filter_same_padding
func.func @box_filter_same_padding() {
  %lhs = stablehlo.constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %rhs = stablehlo.constant dense<[[[[1.0]], [[1.0]], [[1.0]]], [[[1.0]], [[1.0]], [[1.0]]], [[[1.0]], [[1.0]], [[1.0]]]]> : tensor<3x3x1x1xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x3x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32>
  check.expect_eq_const %r, dense<[[[[12.0], [21.0], [16.0]], [[27.0], [45.0], [33.0]], [[24.0], [39.0], [28.0]]]]> : tensor<1x3x3x1xf32>
  func.return
}

// NHWC/HWIO with several input and output features (the GEMM path tiles).
// CHECK: PASS: @nhwc_features
func.func @nhwc_features() {
  %lhs = stablehlo.constant dense<[[[[0.0, 0.0, 2.0], [0.0, 2.0, -3.0], [0.0, -1.0, -3.0], [1.0, 0.0, -3.0], [-1.0, 3.0, -3.0]], [[2.0, 3.0, -3.0], [-3.0, 2.0, -3.0], [-2.0, 2.0, 1.0], [0.0, -2.0, -2.0], [1.0, -2.0, 3.0]], [[0.0, 3.0, -1.0], [1.0, -2.0, -2.0], [3.0, -1.0, 2.0], [-2.0, -3.0, 3.0], [3.0, -1.0, 3.0]], [[0.0, -1.0, -1.0], [2.0, -3.0, 3.0], [-1.0, -2.0, 2.0], [3.0, -1.0, 3.0], [1.0, 1.0, 1.0]]], [[[2.0, -3.0, -2.0], [2.0, 0.0, 1.0], [-1.0, 2.0, 0.0], [-2.0, -2.0, 3.0], [-2.0, 3.0, -3.0]], [[3.0, -2.0, 3.0], [2.0, 1.0, 1.0], [-1.0, 0.0, -3.0], [3.0, 1.0, 3.0], [1.0, 1.0, 1.0]], [[-3.0, -3.0, -3.0], [3.0, 2.0, -1.0], [-3.0, -3.0, 1.0], [3.0, -3.0, 2.0], [-3.0, 0.0, 2.0]], [[2.0, -3.0, 2.0], [-2.0, 1.0, 2.0], [-1.0, 2.0, -1.0], [2.0, 1.0, -1.0], [-2.0, 0.0, -2.0]]]]> : tensor<2x4x5x3xf32>
  %rhs = stablehlo.constant dense<[[[[-2.0, -2.0, -2.0, 0.0], [2.0, 1.0, 2.0, 0.0], [0.0, 2.0, 3.0, 3.0]], [[2.0, -3.0, -2.0, -2.0], [0.0, 2.0, -2.0, -1.0], [-3.0, 1.0, 3.0, -3.0]]], [[[-2.0, -3.0, -1.0, 3.0], [-1.0, 0.0, 3.0, -3.0], [1.0, 3.0, -1.0, -2.0]], [[3.0, -3.0, 0.0, 0.0], [-2.0, 1.0, -3.0, -3.0], [-2.0, 1.0, -1.0, -1.0]]], [[[0.0, 3.0, 3.0, -1.0], [3.0, 2.0, -3.0, 1.0], [-2.0, 1.0, -2.0, -3.0]], [[-3.0, 2.0, -3.0, -1.0], [-1.0, 0.0, -3.0, 2.0], [1.0, 1.0, 0.0, -2.0]]]]> : tensor<3x2x3x4xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x5x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x4x5x4xf32>
  check.expect_eq_const %r, dense<[[[[23.0, 5.0, 1.0, 16.0], [20.0, -24.0, 6.0, 24.0], [11.0, -18.0, -5.0, 13.0], [-8.0, -10.0, 9.0, -4.0], [-16.0, -4.0, 16.0, -18.0]], [[0.0, 3.0, -4.0, 18.0], [-6.0, 5.0, 0.0, -21.0], [25.0, 0.0, 16.0, -28.0], [-14.0, -10.0, -34.0, -9.0], [2.0, 15.0, -5.0, -19.0]], [[11.0, -3.0, 12.0, -7.0], [0.0, -1.0, 18.0, -17.0], [-10.0, 9.0, 0.0, 7.0], [-8.0, 11.0, -9.0, -32.0], [-7.0, 8.0, -8.0, 12.0]], [[20.0, -17.0, 3.0, 14.0], [-7.0, -11.0, -20.0, -4.0], [-10.0, 2.0, 10.0, 3.0], [-8.0, -2.0, -1.0, -3.0], [-10.0, -1.0, 2.0, 7.0]]], [[[-17.0, -4.0, -10.0, 2.0], [-9.0, 6.0, -5.0, 1.0], [-9.0, 13.0, 1.0, -3.0], [-3.0, 38.0, -19.0, -24.0], [-1.0, 3.0, 12.0, -12.0]], [[-23.0, -33.0, -42.0, 4.0], [14.0, 9.0, 23.0, 4.0], [-22.0, -8.0, 19.0, -22.0], [-2.0, 17.0, 14.0, 2.0], [4.0, -6.0, -11.0, -14.0]], [[-2.0, -13.0, 2.0, -9.0], [-10.0, -11.0, -10.0, 31.0], [20.0, -3.0, -22.0, -12.0], [-10.0, 10.0, -1.0, 23.0], [12.0, 8.0, 2.0, -2.0]], [[-2.0, 0.0, -40.0, -8.0], [-11.0, 14.0, 8.0, -15.0], [5.0, -14.0, 15.0, -15.0], [-32.0, 1.0, 10.0, 13.0], [8.0, 10.0, 16.0, 4.0]]]]> : tensor<2x4x5x4xf32>
  func.return
}

// NCHW/OIHW (operands transposed into the canonical layout), stride 2,
// uneven padding.
// CHECK: PASS: @nchw_stride_2
func.func @nchw_stride_2() {
  %lhs = stablehlo.constant dense<[[[[3.0, 3.0, -2.0, 2.0, 1.0], [0.0, -2.0, 2.0, -2.0, -1.0], [-1.0, -1.0, -1.0, 0.0, -3.0], [-1.0, -2.0, -1.0, -3.0, 1.0], [2.0, 0.0, -2.0, -2.0, -1.0]], [[1.0, -2.0, -1.0, -2.0, 0.0], [3.0, 1.0, 1.0, 1.0, -2.0], [3.0, -2.0, -1.0, -1.0, 1.0], [1.0, 2.0, 0.0, -1.0, 2.0], [-1.0, 2.0, 0.0, -2.0, 3.0]], [[-2.0, -3.0, -3.0, 1.0, 0.0], [0.0, -3.0, 1.0, -2.0, 3.0], [3.0, -3.0, 0.0, 2.0, 2.0], [3.0, 0.0, -1.0, 3.0, 2.0], [-1.0, 3.0, -1.0, 0.0, 1.0]]], [[[-1.0, -2.0, 3.0, 1.0, 0.0], [3.0, -1.0, 3.0, 1.0, -3.0], [0.0, -3.0, -3.0, -1.0, -3.0], [3.0, 0.0, -2.0, 0.0, -1.0], [1.0, -3.0, -2.0, 1.0, 1.0]], [[-3.0, 3.0, 0.0, -3.0, -1.0], [-2.0, -1.0, 3.0, 0.0, 1.0], [0.0, -2.0, 2.0, 1.0, -1.0], [2.0, -1.0, 0.0, 3.0, 0.0], [3.0, -3.0, 1.0, -2.0, 1.0]], [[2.0, 3.0, 0.0, -2.0, -1.0], [0.0, 3.0, 1.0, -2.0, 0.0], [-3.0, 2.0, -1.0, -1.0, -3.0], [-3.0, -2.0, -2.0, 2.0, -1.0], [-3.0, 3.0, 3.0, -1.0, -1.0]]]]> : tensor<2x3x5x5xf32>
  %rhs = stablehlo.constant dense<[[[[0.0, -2.0, -3.0], [-2.0, 1.0, -2.0], [1.0, 0.0, 1.0]], [[-2.0, 2.0, 2.0], [-3.0, 2.0, 2.0], [0.0, 0.0, -2.0]], [[2.0, 1.0, -1.0], [-3.0, 1.0, 3.0], [3.0, -2.0, 3.0]]], [[[-3.0, 2.0, -2.0], [1.0, -2.0, -1.0], [-3.0, 3.0, -2.0]], [[3.0, 1.0, -2.0], [-1.0, -1.0, 0.0], [-2.0, -3.0, 0.0]], [[0.0, 0.0, -3.0], [2.0, -1.0, 3.0], [-3.0, -2.0, 1.0]]], [[[-3.0, -3.0, 0.0], [-3.0, -2.0, -1.0], [2.0, 0.0, 0.0]], [[-2.0, -1.0, -2.0], [-3.0, -3.0, 2.0], [1.0, 0.0, -2.0]], [[2.0, -2.0, 0.0], [-3.0, 1.0, -3.0], [2.0, 2.0, -3.0]]], [[[-3.0, 0.0, -3.0], [2.0, -1.0, 2.0], [0.0, 1.0, -3.0]], [[-1.0, 0.0, -1.0], [-3.0, 0.0, -2.0], [3.0, -3.0, 1.0]], [[-2.0, -3.0, 3.0], [3.0, -3.0, 3.0], [0.0, 3.0, 1.0]]]]> : tensor<4x3x3x3xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[1, 0], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x2x2xf32>
  check.expect_eq_const %r, dense<[[[[-5.0, 34.0], [-28.0, 12.0]], [[-22.0, -22.0], [-12.0, -7.0]], [[-8.0, 18.0], [0.0, 9.0]], [[-17.0, -17.0], [7.0, 14.0]]], [[[3.0, -13.0], [4.0, -15.0]], [[-15.0, -2.0], [-28.0, -5.0]], [[2.0, 2.0], [24.0, -1.0]], [[12.0, 24.0], [-43.0, -25.0]]]]> : tensor<2x4x2x2xf32>
  func.return
}

// Negative padding crops: [1..6] loses 1 at the front and 2 at the back;
// window [1, 10] over [2, 3, 4]: [32, 43].
// CHECK: PASS: @negative_padding
func.func @negative_padding() {
  %lhs = stablehlo.constant dense<[[[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]]]> : tensor<1x6x1xf32>
  %rhs = stablehlo.constant dense<[[[1.0]], [[10.0]]]> : tensor<2x1x1xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[-1, -2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x1xf32>, tensor<2x1x1xf32>) -> tensor<1x2x1xf32>
  check.expect_eq_const %r, dense<[[[32.0], [43.0]]]> : tensor<1x2x1xf32>
  func.return
}

// lhs dilation 2 reads [1, 0, 2, 0, 3]: window [1, 10] gives [1, 20, 2, 30].
// CHECK: PASS: @lhs_dilation
func.func @lhs_dilation() {
  %lhs = stablehlo.constant dense<[[[1.0], [2.0], [3.0]]]> : tensor<1x3x1xf32>
  %rhs = stablehlo.constant dense<[[[1.0]], [[10.0]]]> : tensor<2x1x1xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1xf32>, tensor<2x1x1xf32>) -> tensor<1x4x1xf32>
  check.expect_eq_const %r, dense<[[[1.0], [20.0], [2.0], [30.0]]]> : tensor<1x4x1xf32>
  func.return
}

// rhs dilation 2 pairs x[i] with x[i + 2]: [1 + 30, 2 + 40, 3 + 50].
// CHECK: PASS: @rhs_dilation
func.func @rhs_dilation() {
  %lhs = stablehlo.constant dense<[[[1.0], [2.0], [3.0], [4.0], [5.0]]]> : tensor<1x5x1xf32>
  %rhs = stablehlo.constant dense<[[[1.0]], [[10.0]]]> : tensor<2x1x1xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x1xf32>, tensor<2x1x1xf32>) -> tensor<1x3x1xf32>
  check.expect_eq_const %r, dense<[[[31.0], [42.0], [53.0]]]> : tensor<1x3x1xf32>
  func.return
}

// Reversal pairs the window [x[i], x[i+1]] with the kernel backwards:
// [10 + 2, 20 + 3, 30 + 4] instead of [1 + 20, ...].
// CHECK: PASS: @window_reversal
func.func @window_reversal() {
  %lhs = stablehlo.constant dense<[[[1.0], [2.0], [3.0], [4.0]]]> : tensor<1x4x1xf32>
  %rhs = stablehlo.constant dense<[[[1.0]], [[10.0]]]> : tensor<2x1x1xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {reverse = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<2x1x1xf32>) -> tensor<1x3x1xf32>
  check.expect_eq_const %r, dense<[[[12.0], [23.0], [34.0]]]> : tensor<1x3x1xf32>
  func.return
}

// Everything at once on two spatial dimensions.
// CHECK: PASS: @all_window_attributes
func.func @all_window_attributes() {
  %lhs = stablehlo.constant dense<[[[[-2.0, -2.0], [-3.0, -2.0], [0.0, -2.0], [-3.0, 0.0]], [[-1.0, 2.0], [1.0, -1.0], [-3.0, 0.0], [-2.0, 3.0]], [[1.0, 0.0], [-2.0, 3.0], [-2.0, 3.0], [-2.0, -1.0]], [[-3.0, -2.0], [-3.0, 0.0], [-3.0, -3.0], [-1.0, -3.0]], [[0.0, 3.0], [3.0, -1.0], [2.0, 1.0], [-2.0, -1.0]]]]> : tensor<1x5x4x2xf32>
  %rhs = stablehlo.constant dense<[[[[0.0, -3.0, 1.0], [3.0, 2.0, 2.0]], [[1.0, 0.0, 0.0], [3.0, -3.0, 0.0]], [[-2.0, -1.0, -2.0], [0.0, -3.0, 2.0]]], [[[-2.0, -1.0, 2.0], [-1.0, -2.0, -1.0]], [[0.0, 0.0, -2.0], [3.0, -1.0, -1.0]], [[-1.0, 0.0, -2.0], [1.0, -1.0, 3.0]]]]> : tensor<2x3x2x3xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[2, -1], [1, 3]], lhs_dilate = [2, 3], rhs_dilate = [1, 2], reverse = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x4x2xf32>, tensor<2x3x2x3xf32>) -> tensor<1x5x10x3xf32>
  check.expect_eq_const %r, dense<[[[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[1.0, 2.0, 0.0], [6.0, 6.0, -2.0], [-6.0, 2.0, 8.0], [-2.0, 2.0, -6.0], [8.0, 7.0, -4.0], [-6.0, 2.0, 2.0], [3.0, 0.0, 6.0], [2.0, 4.0, 2.0], [0.0, 0.0, 6.0], [0.0, 0.0, 0.0]], [[-2.0, 1.0, -5.0], [0.0, -3.0, -4.0], [-3.0, 1.0, -1.0], [3.0, 0.0, 6.0], [-1.0, 1.0, 3.0], [0.0, 0.0, 6.0], [5.0, -3.0, 13.0], [6.0, 3.0, -6.0], [9.0, -3.0, 1.0], [0.0, 0.0, 0.0]], [[5.0, -3.0, 13.0], [-2.0, -1.0, 2.0], [9.0, -3.0, 1.0], [5.0, -3.0, 13.0], [1.0, -4.0, -7.0], [9.0, -3.0, 1.0], [1.0, 1.0, 1.0], [1.0, -4.0, -7.0], [-3.0, 1.0, 5.0], [0.0, 0.0, 0.0]], [[3.0, 0.0, 6.0], [8.0, 7.0, -4.0], [0.0, 0.0, 6.0], [0.0, 3.0, -3.0], [6.0, 3.0, -6.0], [-9.0, 3.0, 9.0], [-2.0, 3.0, -7.0], [9.0, 9.0, -3.0], [-9.0, 3.0, 5.0], [0.0, 0.0, 0.0]]]]> : tensor<1x5x10x3xf32>
  func.return
}

// feature_group_count 2: input features {0, 1} feed outputs {0, 1, 2},
// features {2, 3} outputs {3, 4, 5}.
// CHECK: PASS: @feature_groups
func.func @feature_groups() {
  %lhs = stablehlo.constant dense<[[[0.0, 1.0, -2.0, -1.0], [-1.0, 0.0, 1.0, -1.0], [1.0, 2.0, 2.0, 1.0], [2.0, 3.0, 3.0, 1.0]], [[-1.0, 1.0, 3.0, -2.0], [0.0, 1.0, -2.0, 3.0], [1.0, -1.0, -3.0, -3.0], [2.0, 2.0, 3.0, 0.0]]]> : tensor<2x4x4xf32>
  %rhs = stablehlo.constant dense<[[[3.0, 1.0, 3.0, 3.0, -3.0, 2.0], [0.0, 3.0, -3.0, 0.0, -1.0, 0.0]], [[-2.0, 3.0, 0.0, 2.0, 0.0, 0.0], [0.0, 2.0, 1.0, 1.0, -3.0, 0.0]]]> : tensor<2x2x6xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x4xf32>, tensor<2x2x6xf32>) -> tensor<2x3x6xf32>
  check.expect_eq_const %r, dense<[[[2.0, 0.0, -3.0, -5.0, 10.0, -4.0], [-5.0, 6.0, -1.0, 8.0, -5.0, 2.0], [-1.0, 19.0, 0.0, 13.0, -10.0, 4.0]], [[-3.0, 4.0, -5.0, 8.0, -16.0, 6.0], [-2.0, 4.0, -4.0, -15.0, 12.0, -4.0], [-1.0, 8.0, 8.0, -3.0, 12.0, -6.0]]]> : tensor<2x3x6xf32>
  func.return
}

// Depthwise (feature_group_count = features), NCHW.
// CHECK: PASS: @depthwise
func.func @depthwise() {
  %lhs = stablehlo.constant dense<[[[[2.0, 2.0, -2.0, 0.0], [3.0, 2.0, 3.0, -2.0], [-2.0, -3.0, -3.0, -2.0], [3.0, -1.0, -2.0, 0.0]], [[-3.0, 3.0, 1.0, -3.0], [0.0, -2.0, 1.0, 2.0], [-1.0, 3.0, -1.0, -2.0], [2.0, -3.0, 2.0, 2.0]], [[-3.0, 2.0, -1.0, 2.0], [-3.0, 3.0, 3.0, -3.0], [0.0, 1.0, 2.0, 1.0], [-2.0, 1.0, -3.0, 3.0]]]]> : tensor<1x3x4x4xf32>
  %rhs = stablehlo.constant dense<[[[[-1.0, -3.0], [3.0, 3.0]]], [[[-3.0, 0.0], [-2.0, -2.0]]], [[[-3.0, 1.0], [2.0, -2.0]]]]> : tensor<3x1x2x2xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 0], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<1x3x4x4xf32>, tensor<3x1x2x2xf32>) -> tensor<1x3x4x4xf32>
  check.expect_eq_const %r, dense<[[[[12.0, 0.0, -6.0, 0.0], [7.0, 19.0, 5.0, -6.0], [-24.0, -29.0, -12.0, -4.0], [17.0, 3.0, 3.0, 2.0]], [[0.0, -8.0, 4.0, 6.0], [13.0, -7.0, -9.0, 5.0], [-4.0, 2.0, 3.0, -2.0], [5.0, -7.0, -5.0, 2.0]], [[-10.0, 6.0, -6.0, 4.0], [-1.0, -7.0, 17.0, -12.0], [10.0, -8.0, -10.0, 11.0], [-5.0, 7.0, -17.0, 3.0]]]]> : tensor<1x3x4x4xf32>
  func.return
}

// batch_group_count 2: batches {0, 1} give outputs {0, 1}, batches {2, 3}
// outputs {2, 3}; the result has 2 batches.
// CHECK: PASS: @batch_groups
func.func @batch_groups() {
  %lhs = stablehlo.constant dense<[[[2.0, 2.0], [-1.0, 2.0], [-1.0, 2.0]], [[-1.0, 2.0], [-3.0, 2.0], [2.0, -2.0]], [[2.0, 0.0], [-2.0, 3.0], [1.0, 1.0]], [[2.0, 0.0], [0.0, 2.0], [1.0, -2.0]]]> : tensor<4x3x2xf32>
  %rhs = stablehlo.constant dense<[[[-2.0, 3.0, -2.0, 0.0], [0.0, 2.0, 2.0, -2.0]], [[0.0, -3.0, 1.0, 3.0], [3.0, 0.0, -2.0, 2.0]]]> : tensor<2x2x4xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x3x2xf32>, tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  check.expect_eq_const %r, dense<[[[2.0, 13.0, -12.0, 0.0], [8.0, 4.0, 9.0, -1.0]], [[8.0, 10.0, -8.0, 4.0], [0.0, -11.0, 9.0, -5.0]]]> : tensor<2x2x4xf32>
  func.return
}

// Dimension numbers in no common layout: [f, 0, b]x[i, o, 0]->[0, f, b].
// CHECK: PASS: @unusual_dimension_order
func.func @unusual_dimension_order() {
  %lhs = stablehlo.constant dense<[[[0.0, -2.0], [-3.0, 0.0], [0.0, -1.0], [2.0, -2.0], [3.0, -3.0]], [[-3.0, 0.0], [0.0, -2.0], [2.0, 1.0], [-3.0, -2.0], [2.0, 2.0]], [[0.0, -1.0], [-3.0, 2.0], [2.0, -3.0], [-3.0, -1.0], [-2.0, 0.0]]]> : tensor<3x5x2xf32>
  %rhs = stablehlo.constant dense<[[[2.0, 2.0], [0.0, 0.0], [2.0, -2.0], [-1.0, 0.0]], [[0.0, 2.0], [0.0, -3.0], [2.0, -2.0], [1.0, -3.0]], [[-1.0, 3.0], [-2.0, 2.0], [1.0, 1.0], [-2.0, 2.0]]]> : tensor<3x4x2xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [f, 0, b]x[i, o, 0]->[0, f, b], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x5x2xf32>, tensor<3x4x2xf32>) -> tensor<2x4x2xf32>
  check.expect_eq_const %r, dense<[[[-15.0, -1.0], [-6.0, 12.0], [-3.0, 1.0], [-9.0, 14.0]], [[-13.0, -10.0], [-1.0, 10.0], [5.0, 4.0], [1.0, 12.0]]]> : tensor<2x4x2xf32>
  func.return
}

// No spatial dimension: a matrix product.
// CHECK: PASS: @no_spatial_dimensions
func.func @no_spatial_dimensions() {
  %lhs = stablehlo.constant dense<[[-3.0, 2.0, -2.0, 1.0], [2.0, 3.0, 1.0, 2.0], [3.0, -3.0, 1.0, 3.0]]> : tensor<3x4xf32>
  %rhs = stablehlo.constant dense<[[-3.0, 1.0], [-3.0, 1.0], [-3.0, 2.0], [3.0, 3.0]]> : tensor<4x2xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, f]x[i, o]->[b, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %r, dense<[[12.0, -2.0], [-12.0, 13.0], [6.0, 11.0]]> : tensor<3x2xf32>
  func.return
}

// An empty input padded to 3 positions: every window reads padding.
// CHECK: PASS: @empty_input_padded
func.func @empty_input_padded() {
  %lhs = stablehlo.constant dense<0.0> : tensor<1x0x2xf32>
  %rhs = stablehlo.constant dense<[[[-3.0, 3.0, 3.0], [-3.0, 2.0, -1.0]], [[3.0, 2.0, -1.0], [-3.0, 0.0, -3.0]]]> : tensor<2x2x3xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x0x2xf32>, tensor<2x2x3xf32>) -> tensor<1x2x3xf32>
  check.expect_eq_const %r, dense<[[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]> : tensor<1x2x3xf32>
  func.return
}

