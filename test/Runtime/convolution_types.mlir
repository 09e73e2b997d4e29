// stablehlo.convolution on every element type the interpreter runs: f64
// (dgemm), f16/bf16 (through f32), integers (the reference loop, wrapping
// like the spec's integer arithmetic), i1 (or of ands), and a result type
// wider than the operands' (JAX's preferred_element_type). Expected values:
// a numpy transcription of the spec.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @nhwc_f64
func.func @nhwc_f64() {
  %lhs = stablehlo.constant dense<[[[[0.0, 0.0], [2.0, 0.0], [2.0, -3.0], [0.0, -1.0]], [[-3.0, 1.0], [0.0, -3.0], [-1.0, 3.0], [-3.0, 2.0]], [[3.0, -3.0], [-3.0, 2.0], [-3.0, -2.0], [2.0, 1.0]], [[0.0, -2.0], [-2.0, 1.0], [-2.0, 3.0], [0.0, 3.0]]]]> : tensor<1x4x4x2xf64>
  %rhs = stablehlo.constant dense<[[[[-1.0, 1.0], [-2.0, -2.0]], [[3.0, -1.0], [2.0, -2.0]], [[-3.0, 3.0], [3.0, -1.0]]], [[[3.0, 0.0], [-1.0, -1.0]], [[2.0, -3.0], [3.0, -1.0]], [[-2.0, 2.0], [3.0, -1.0]]]]> : tensor<2x3x2x2xf64>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf64>, tensor<2x3x2x2xf64>) -> tensor<1x4x2x2xf64>
  check.expect_eq_const %r, dense<[[[[-4.0, 4.0], [-2.0, -2.0]], [[-18.0, 17.0], [17.0, 2.0]], [[-7.0, -10.0], [0.0, 2.0]], [[19.0, -11.0], [-10.0, 4.0]]]]> : tensor<1x4x2x2xf64>
  func.return
}

// CHECK: PASS: @nhwc_f16
func.func @nhwc_f16() {
  %lhs = stablehlo.constant dense<[[[[0.0, 0.0], [2.0, 0.0], [2.0, -3.0], [0.0, -1.0]], [[-3.0, 1.0], [0.0, -3.0], [-1.0, 3.0], [-3.0, 2.0]], [[3.0, -3.0], [-3.0, 2.0], [-3.0, -2.0], [2.0, 1.0]], [[0.0, -2.0], [-2.0, 1.0], [-2.0, 3.0], [0.0, 3.0]]]]> : tensor<1x4x4x2xf16>
  %rhs = stablehlo.constant dense<[[[[-1.0, 1.0], [-2.0, -2.0]], [[3.0, -1.0], [2.0, -2.0]], [[-3.0, 3.0], [3.0, -1.0]]], [[[3.0, 0.0], [-1.0, -1.0]], [[2.0, -3.0], [3.0, -1.0]], [[-2.0, 2.0], [3.0, -1.0]]]]> : tensor<2x3x2x2xf16>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf16>, tensor<2x3x2x2xf16>) -> tensor<1x4x2x2xf16>
  check.expect_eq_const %r, dense<[[[[-4.0, 4.0], [-2.0, -2.0]], [[-18.0, 17.0], [17.0, 2.0]], [[-7.0, -10.0], [0.0, 2.0]], [[19.0, -11.0], [-10.0, 4.0]]]]> : tensor<1x4x2x2xf16>
  func.return
}

// CHECK: PASS: @nhwc_bf16
func.func @nhwc_bf16() {
  %lhs = stablehlo.constant dense<[[[[0.0, 0.0], [2.0, 0.0], [2.0, -3.0], [0.0, -1.0]], [[-3.0, 1.0], [0.0, -3.0], [-1.0, 3.0], [-3.0, 2.0]], [[3.0, -3.0], [-3.0, 2.0], [-3.0, -2.0], [2.0, 1.0]], [[0.0, -2.0], [-2.0, 1.0], [-2.0, 3.0], [0.0, 3.0]]]]> : tensor<1x4x4x2xbf16>
  %rhs = stablehlo.constant dense<[[[[-1.0, 1.0], [-2.0, -2.0]], [[3.0, -1.0], [2.0, -2.0]], [[-3.0, 3.0], [3.0, -1.0]]], [[[3.0, 0.0], [-1.0, -1.0]], [[2.0, -3.0], [3.0, -1.0]], [[-2.0, 2.0], [3.0, -1.0]]]]> : tensor<2x3x2x2xbf16>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xbf16>, tensor<2x3x2x2xbf16>) -> tensor<1x4x2x2xbf16>
  check.expect_eq_const %r, dense<[[[[-4.0, 4.0], [-2.0, -2.0]], [[-18.0, 17.0], [17.0, 2.0]], [[-7.0, -10.0], [0.0, 2.0]], [[19.0, -11.0], [-10.0, 4.0]]]]> : tensor<1x4x2x2xbf16>
  func.return
}

// CHECK: PASS: @nhwc_i32
func.func @nhwc_i32() {
  %lhs = stablehlo.constant dense<[[[[0, 0], [2, 0], [2, -3], [0, -1]], [[-3, 1], [0, -3], [-1, 3], [-3, 2]], [[3, -3], [-3, 2], [-3, -2], [2, 1]], [[0, -2], [-2, 1], [-2, 3], [0, 3]]]]> : tensor<1x4x4x2xi32>
  %rhs = stablehlo.constant dense<[[[[-1, 1], [-2, -2]], [[3, -1], [2, -2]], [[-3, 3], [3, -1]]], [[[3, 0], [-1, -1]], [[2, -3], [3, -1]], [[-2, 2], [3, -1]]]]> : tensor<2x3x2x2xi32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xi32>, tensor<2x3x2x2xi32>) -> tensor<1x4x2x2xi32>
  check.expect_eq_const %r, dense<[[[[-4, 4], [-2, -2]], [[-18, 17], [17, 2]], [[-7, -10], [0, 2]], [[19, -11], [-10, 4]]]]> : tensor<1x4x2x2xi32>
  func.return
}

// CHECK: PASS: @nhwc_i64
func.func @nhwc_i64() {
  %lhs = stablehlo.constant dense<[[[[0, 0], [2, 0], [2, -3], [0, -1]], [[-3, 1], [0, -3], [-1, 3], [-3, 2]], [[3, -3], [-3, 2], [-3, -2], [2, 1]], [[0, -2], [-2, 1], [-2, 3], [0, 3]]]]> : tensor<1x4x4x2xi64>
  %rhs = stablehlo.constant dense<[[[[-1, 1], [-2, -2]], [[3, -1], [2, -2]], [[-3, 3], [3, -1]]], [[[3, 0], [-1, -1]], [[2, -3], [3, -1]], [[-2, 2], [3, -1]]]]> : tensor<2x3x2x2xi64>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xi64>, tensor<2x3x2x2xi64>) -> tensor<1x4x2x2xi64>
  check.expect_eq_const %r, dense<[[[[-4, 4], [-2, -2]], [[-18, 17], [17, 2]], [[-7, -10], [0, 2]], [[19, -11], [-10, 4]]]]> : tensor<1x4x2x2xi64>
  func.return
}

// CHECK: PASS: @nhwc_i16
func.func @nhwc_i16() {
  %lhs = stablehlo.constant dense<[[[[0, 0], [2, 0], [2, -3], [0, -1]], [[-3, 1], [0, -3], [-1, 3], [-3, 2]], [[3, -3], [-3, 2], [-3, -2], [2, 1]], [[0, -2], [-2, 1], [-2, 3], [0, 3]]]]> : tensor<1x4x4x2xi16>
  %rhs = stablehlo.constant dense<[[[[-1, 1], [-2, -2]], [[3, -1], [2, -2]], [[-3, 3], [3, -1]]], [[[3, 0], [-1, -1]], [[2, -3], [3, -1]], [[-2, 2], [3, -1]]]]> : tensor<2x3x2x2xi16>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xi16>, tensor<2x3x2x2xi16>) -> tensor<1x4x2x2xi16>
  check.expect_eq_const %r, dense<[[[[-4, 4], [-2, -2]], [[-18, 17], [17, 2]], [[-7, -10], [0, 2]], [[19, -11], [-10, 4]]]]> : tensor<1x4x2x2xi16>
  func.return
}

// CHECK: PASS: @nhwc_ui32
func.func @nhwc_ui32() {
  %lhs = stablehlo.constant dense<[[[[0, 0], [2, 0], [2, 3], [0, 1]], [[3, 1], [0, 3], [1, 3], [3, 2]], [[3, 3], [3, 2], [3, 2], [2, 1]], [[0, 2], [2, 1], [2, 3], [0, 3]]]]> : tensor<1x4x4x2xui32>
  %rhs = stablehlo.constant dense<[[[[1, 1], [2, 2]], [[3, 1], [2, 2]], [[3, 3], [3, 1]]], [[[3, 0], [1, 1]], [[2, 3], [3, 1]], [[2, 2], [3, 1]]]]> : tensor<2x3x2x2xui32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xui32>, tensor<2x3x2x2xui32>) -> tensor<1x4x2x2xui32>
  check.expect_eq_const %r, dense<[[[[4, 4], [22, 10]], [[24, 19], [43, 28]], [[47, 28], [60, 42]], [[43, 27], [58, 34]]]]> : tensor<1x4x2x2xui32>
  func.return
}

// i8 sums wrap around: 100 * 2 + 100 * 1 = 300 = 44 (mod 256).
// CHECK: PASS: @i8_wraps
func.func @i8_wraps() {
  %lhs = stablehlo.constant dense<[[[100], [100]]]> : tensor<1x2x1xi8>
  %rhs = stablehlo.constant dense<[[[2]], [[1]]]> : tensor<2x1x1xi8>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x1xi8>, tensor<2x1x1xi8>) -> tensor<1x1x1xi8>
  check.expect_eq_const %r, dense<[[[44]]]> : tensor<1x1x1xi8>
  func.return
}

// CHECK: PASS: @ui8
func.func @ui8() {
  %lhs = stablehlo.constant dense<[[[200], [3], [7]]]> : tensor<1x3x1xui8>
  %rhs = stablehlo.constant dense<[[[2]], [[1]]]> : tensor<2x1x1xui8>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1xui8>, tensor<2x1x1xui8>) -> tensor<1x2x1xui8>
  check.expect_eq_const %r, dense<[[[147], [13]]]> : tensor<1x2x1xui8>
  func.return
}

// i1: or of ands.
// CHECK: PASS: @i1
func.func @i1() {
  %lhs = stablehlo.constant dense<[[[true], [false], [false], [true], [false]]]> : tensor<1x5x1xi1>
  %rhs = stablehlo.constant dense<[[[true, false]], [[false, true]]]> : tensor<2x1x2xi1>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x1xi1>, tensor<2x1x2xi1>) -> tensor<1x4x2xi1>
  check.expect_eq_const %r, dense<[[[true, false], [false, false], [false, true], [true, false]]]> : tensor<1x4x2xi1>
  func.return
}

// bf16 operands with an f32 result (preferred_element_type).
// CHECK: PASS: @bf16_to_f32
func.func @bf16_to_f32() {
  %lhs = stablehlo.constant dense<[[[[0.0, 0.0], [2.0, 0.0], [2.0, -3.0], [0.0, -1.0]], [[-3.0, 1.0], [0.0, -3.0], [-1.0, 3.0], [-3.0, 2.0]], [[3.0, -3.0], [-3.0, 2.0], [-3.0, -2.0], [2.0, 1.0]], [[0.0, -2.0], [-2.0, 1.0], [-2.0, 3.0], [0.0, 3.0]]]]> : tensor<1x4x4x2xbf16>
  %rhs = stablehlo.constant dense<[[[[-1.0, 1.0], [-2.0, -2.0]], [[3.0, -1.0], [2.0, -2.0]], [[-3.0, 3.0], [3.0, -1.0]]], [[[3.0, 0.0], [-1.0, -1.0]], [[2.0, -3.0], [3.0, -1.0]], [[-2.0, 2.0], [3.0, -1.0]]]]> : tensor<2x3x2x2xbf16>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xbf16>, tensor<2x3x2x2xbf16>) -> tensor<1x4x4x2xf32>
  check.expect_eq_const %r, dense<[[[[-4.0, 4.0], [-9.0, 1.0], [-2.0, -2.0], [6.0, 4.0]], [[-18.0, 17.0], [-17.0, 4.0], [17.0, 2.0], [-4.0, 14.0]], [[-7.0, -10.0], [19.0, 1.0], [0.0, 2.0], [-10.0, -13.0]], [[19.0, -11.0], [15.0, 1.0], [-10.0, 4.0], [15.0, -9.0]]]]> : tensor<1x4x4x2xf32>
  func.return
}

// i8 operands accumulated in i32: no wrap-around (100 * 2 + 100 * 1).
// CHECK: PASS: @i8_to_i32
func.func @i8_to_i32() {
  %lhs = stablehlo.constant dense<[[[100], [100]]]> : tensor<1x2x1xi8>
  %rhs = stablehlo.constant dense<[[[2]], [[1]]]> : tensor<2x1x1xi8>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x1xi8>, tensor<2x1x1xi8>) -> tensor<1x1x1xi32>
  check.expect_eq_const %r, dense<[[[300]]]> : tensor<1x1x1xi32>
  func.return
}

