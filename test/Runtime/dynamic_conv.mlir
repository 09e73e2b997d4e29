// stablehlo.dynamic_conv: convolution with its padding read from an
// operand, as a constant and through a call (so the verifier cannot see
// it); a padding that does not give the result type's size is an error.
// RUN: not mpmd interpret %s --split-input-file 2>&1 | FileCheck %s

// The spec's example: lhs dilation 2, padding 1, stride 4.
// CHECK: PASS: @spec_example
func.func @spec_example() {
  %lhs = stablehlo.constant dense<[[[[1], [2], [5], [6]], [[3], [4], [7], [8]], [[10], [11], [14], [15]], [[12], [13], [16], [17]]]]> : tensor<1x4x4x1xi64>
  %rhs = stablehlo.constant dense<1> : tensor<3x3x1x1xi64>
  %padding = stablehlo.constant dense<1> : tensor<2x2xi64>
  %result = "stablehlo.dynamic_conv"(%lhs, %rhs, %padding) {window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>, tensor<2x2xi64>) -> tensor<1x2x2x1xi64>
  check.expect_eq_const %result, dense<[[[[1], [5]], [[10], [14]]]]> : tensor<1x2x2x1xi64>
  func.return
}

// -----

// Asymmetric and negative padding, i32 padding values, two features and
// window reversal: the same numbers as the convolution with that padding.
func.func private @padded(%lhs: tensor<2x5x4x2xf32>, %rhs: tensor<2x3x2x3xf32>, %padding: tensor<2x2xi32>) -> tensor<2x5x3x3xf32> {
  %result = "stablehlo.dynamic_conv"(%lhs, %rhs, %padding) {window_reversal = array<i1: true, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<2x5x4x2xf32>, tensor<2x3x2x3xf32>, tensor<2x2xi32>) -> tensor<2x5x3x3xf32>
  func.return %result : tensor<2x5x3x3xf32>
}

// CHECK: PASS: @matches_convolution
func.func @matches_convolution() {
  %lhs = stablehlo.iota dim = 1 : tensor<2x5x4x2xf32>
  %c = stablehlo.iota dim = 2 : tensor<2x5x4x2xf32>
  %f = stablehlo.iota dim = 3 : tensor<2x5x4x2xf32>
  %lc = stablehlo.multiply %lhs, %c : tensor<2x5x4x2xf32>
  %x = stablehlo.add %lc, %f : tensor<2x5x4x2xf32>
  %w0 = stablehlo.iota dim = 0 : tensor<2x3x2x3xf32>
  %w3 = stablehlo.iota dim = 3 : tensor<2x3x2x3xf32>
  %w = stablehlo.subtract %w0, %w3 : tensor<2x3x2x3xf32>
  %padding = stablehlo.constant dense<[[0, 1], [2, -1]]> : tensor<2x2xi32>
  %dynamic = func.call @padded(%x, %w, %padding) : (tensor<2x5x4x2xf32>, tensor<2x3x2x3xf32>, tensor<2x2xi32>) -> tensor<2x5x3x3xf32>
  %static = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, 1], [2, -1]], reverse = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x4x2xf32>, tensor<2x3x2x3xf32>) -> tensor<2x5x3x3xf32>
  check.expect_eq %dynamic, %static : tensor<2x5x3x3xf32>
  func.return
}

// -----

// A padding value that gives another result size than the type's.
func.func private @wrong_padding(%padding: tensor<1x2xi64>) {
  %lhs = stablehlo.constant dense<1.0> : tensor<1x4x1xf32>
  %rhs = stablehlo.constant dense<1.0> : tensor<3x1x1xf32>
  // CHECK: error: padding [1, 0] gives 3 windows in spatial dimension 0 but the result type 'tensor<1x4x1xf32>' has 4
  %result = "stablehlo.dynamic_conv"(%lhs, %rhs, %padding) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<3x1x1xf32>, tensor<1x2xi64>) -> tensor<1x4x1xf32>
  func.return
}

func.func @wrong_padding_caller() {
  %padding = stablehlo.constant dense<[[1, 0]]> : tensor<1x2xi64>
  func.call @wrong_padding(%padding) : (tensor<1x2xi64>) -> ()
  func.return
}
// CHECK: FAIL: @wrong_padding_caller
