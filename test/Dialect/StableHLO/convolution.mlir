// stablehlo.convolution in upstream's pretty syntax and in the generic form:
// both print the pretty form, which parses back to the same op.
// RUN: mpmd-opt %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt %s -mlir-print-op-generic | mpmd-opt | FileCheck %s
// RUN: mpmd-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @nhwc(
// CHECK: %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x56x56x64xf32>
// GENERIC: "stablehlo.convolution"(%{{.*}}, %{{.*}}) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}> : (tensor<8x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x56x56x64xf32>
func.func @nhwc(%x: tensor<8x56x56x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<8x56x56x64xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x56x56x64xf32>
  return %0 : tensor<8x56x56x64xf32>
}

// NCHW / OIHW, stride 2, an empty window, reversal given as booleans
// (printed as 0/1), a 1-D and a 0-D (no spatial dimension) convolution, and
// a bf16 convolution accumulating in f32.
// CHECK-LABEL: func.func @layouts(
// CHECK: %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = {{\[\[}}3, 3], [3, 3]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<8x64x112x112xf32>
// CHECK: %1 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x10x4xf32>, tensor<3x2x6xf32>) -> tensor<2x8x6xf32>
// CHECK: %2 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = {{\[\[}}-1, 2]], lhs_dilate = [3], rhs_dilate = [2], reverse = [1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x10x4xf32>, tensor<3x2x6xf32>) -> tensor<2x13x6xf32>
// CHECK: %3 = stablehlo.convolution(%arg4, %arg5) dim_numbers = [f, b]x[i, o]->[b, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<5x3xf32>, tensor<5x7xf32>) -> tensor<3x7xf32>
// CHECK: %4 = stablehlo.convolution(%arg6, %arg6) dim_numbers = [b, 0, f]x[o, 0, i]->[0, b, f], window = {reverse = [0]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x4xbf16>, tensor<4x5x4xbf16>) -> tensor<1x2x4xf32>
func.func @layouts(%x: tensor<8x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %s: tensor<2x10x4xf32>, %k: tensor<3x2x6xf32>, %m: tensor<5x3xf32>, %n: tensor<5x7xf32>, %h: tensor<4x5x4xbf16>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[3, 3], [3, 3]], stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<8x64x112x112xf32>
  %1 = stablehlo.convolution(%s, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x10x4xf32>, tensor<3x2x6xf32>) -> tensor<2x8x6xf32>
  // Dilated and padded input: 28 - 1 + 2 = 29; window 5: (29 - 5) / 2 + 1.
  %2 = stablehlo.convolution(%s, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[-1, 2]], lhs_dilate = [3], rhs_dilate = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x10x4xf32>, tensor<3x2x6xf32>) -> tensor<2x13x6xf32>
  %3 = stablehlo.convolution(%m, %n) dim_numbers = [f, b]x[i, o]->[b, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<5x3xf32>, tensor<5x7xf32>) -> tensor<3x7xf32>
  %4 = stablehlo.convolution(%h, %h) dim_numbers = [b, 0, f]x[o, 0, i]->[0, b, f], window = {reverse = [false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x4xbf16>, tensor<4x5x4xbf16>) -> tensor<1x2x4xf32>
  return
}

// The generic form with the spec's attribute spellings, the raw dimension
// numbers and window_reversal as a bool array.
// CHECK-LABEL: func.func @generic(
// CHECK: %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], pad = {{\[\[}}0, 0], [0, 0]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [0, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>
// CHECK: %1 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>
func.func @generic(%lhs: tensor<1x4x4x1xi64>, %rhs: tensor<3x3x1x1xi64>) {
  %0 = "stablehlo.convolution"(%lhs, %rhs) {
    window_strides = array<i64: 4, 4>,
    padding = dense<0> : tensor<2x2xi64>,
    lhs_dilation = array<i64: 2, 2>,
    rhs_dilation = array<i64: 1, 1>,
    window_reversal = array<i1: false, false>,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    batch_group_count = 1 : i64,
    feature_group_count = 1 : i64,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
  } : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>
  %1 = "stablehlo.convolution"(%lhs, %rhs) {
    dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>,
    batch_group_count = 1 : i64,
    feature_group_count = 1 : i64
  } : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>
  return
}

// Dynamic sizes stay dynamic where they decide a result size.
// CHECK-LABEL: func.func @dynamic(
// CHECK: stablehlo.convolution(%arg0, %arg1) {{.*}} : (tensor<?x9x4xf32>, tensor<3x4x?xf32>) -> tensor<?x7x?xf32>
func.func @dynamic(%x: tensor<?x9x4xf32>, %w: tensor<3x4x?xf32>) -> tensor<?x7x?xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x9x4xf32>, tensor<3x4x?xf32>) -> tensor<?x7x?xf32>
  return %0 : tensor<?x7x?xf32>
}
