// One diagnostic per constraint of the spec's convolution (C1-C27; the
// quantized C28-C34 do not apply: the dialect has no quantized types), and
// the syntax errors of the pretty form.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics

// (C1)
func.func @rank_mismatch(%x: tensor<1x4x4x1xf32>, %w: tensor<3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op lhs rank 4 does not match rhs rank 3}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

func.func @rank_below_two(%x: tensor<4xf32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{operands must have rank at least 2 (batch and feature), got 1}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0, input_spatial_dimensions = [], kernel_input_feature_dimension = 0, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [], output_batch_dimension = 0, output_feature_dimension = 0, output_spatial_dimensions = []>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// (C2)
func.func @strides_size(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{window_strides has 1 entries but there are 2 spatial dimensions}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C3)
func.func @strides_positive(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{window_strides must be positive, got 0}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C4)
func.func @padding_shape(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{padding must have shape [2, 2], got [1, 2]}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C5)
func.func @lhs_dilation_size(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{lhs_dilation has 3 entries but there are 2 spatial dimensions}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {lhs_dilate = [1, 1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C6)
func.func @lhs_dilation_positive(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{lhs_dilation must be positive, got -2}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {lhs_dilate = [1, -2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C7)
func.func @rhs_dilation_size(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{rhs_dilation has 0 entries but there are 2 spatial dimensions}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {rhs_dilate = []} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C8)
func.func @rhs_dilation_positive(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{rhs_dilation must be positive, got 0}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {rhs_dilate = [0, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C9)
func.func @reversal_size(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{window_reversal has 1 entries but there are 2 spatial dimensions}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C10)
func.func @batch_not_divisible(%x: tensor<3x4x4x2xf32>, %w: tensor<3x3x2x2xf32>) {
  // expected-error @+1 {{input batch size 3 is not a multiple of batch_group_count 2}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<3x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32>
  return
}

// -----

// (C11)
func.func @features_not_divisible(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x1x2xf32>) {
  // expected-error @+1 {{input feature size 3 is not a multiple of feature_group_count 2}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x3xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32>
  return
}

// -----

// (C12)
func.func @input_spatial_size(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{input_spatial_dimensions has 1 entries but there are 2 spatial dimensions}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C13)
func.func @input_dims_duplicate(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{input dimension numbers has duplicate value 1}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

func.func @input_dims_range(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{input dimension numbers value 4 is out of range [0, 4)}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 4, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C14)
func.func @kernel_input_features(%x: tensor<1x4x4x4xf32>, %w: tensor<3x3x4x2xf32>) {
  // expected-error @+1 {{kernel input feature size 4 does not match the input feature size 4 divided by feature_group_count 2}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x2x2x2xf32>
  return
}

// -----

// (C15)
func.func @kernel_output_batch_groups(%x: tensor<2x4x4x1xf32>, %w: tensor<3x3x1x3xf32>) {
  // expected-error @+1 {{kernel output feature size 3 is not a multiple of batch_group_count 2}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x4x4x1xf32>, tensor<3x3x1x3xf32>) -> tensor<1x2x2x3xf32>
  return
}

// -----

// (C16)
func.func @kernel_output_feature_groups(%x: tensor<1x4x4x4xf32>, %w: tensor<3x3x2x3xf32>) {
  // expected-error @+1 {{kernel output feature size 3 is not a multiple of feature_group_count 2}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32>
  return
}

// -----

// (C17)
func.func @kernel_spatial_size(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{kernel_spatial_dimensions has 3 entries but there are 2 spatial dimensions}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1, 2], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C18)
func.func @kernel_dims_duplicate(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{kernel dimension numbers has duplicate value 2}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C19)
func.func @output_spatial_size(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{output_spatial_dimensions has 1 entries but there are 2 spatial dimensions}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C20)
func.func @output_dims_range(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{output dimension numbers value -1 is out of range [0, 4)}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = -1, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C21)
func.func @feature_groups_positive(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{feature_group_count must be positive, got 0}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 0 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C22)
func.func @batch_groups_positive(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{batch_group_count must be positive, got -1}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = -1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C23)
func.func @both_groups(%x: tensor<2x4x4x2xf32>, %w: tensor<3x3x1x2xf32>) {
  // expected-error @+1 {{feature_group_count (2) and batch_group_count (2) cannot both be larger than 1}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x4x4x2xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32>
  return
}

// -----

// (C24)
func.func @precision_config(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{precision_config has 3 entries, expected at most 2}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>, #stablehlo<precision HIGH>]} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// (C25): the number of windows.
func.func @spatial_size(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{result dimension 2 has size 3 but expected 2 (expected shape [1, 2, 2, 1])}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x3x1xf32>
  return
}

// -----

// (C25): the batch divided by batch_group_count.
func.func @batch_size(%x: tensor<4x4x4x1xf32>, %w: tensor<3x3x1x2xf32>) {
  // expected-error @+1 {{result dimension 0 has size 4 but expected 2 (expected shape [2, 2, 2, 2])}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x4x4x1xf32>, tensor<3x3x1x2xf32>) -> tensor<4x2x2x2xf32>
  return
}

// -----

// (C25): the kernel's output features, in the output's feature dimension.
func.func @feature_size(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x5xf32>) {
  // expected-error @+1 {{result dimension 1 has size 2 but expected 5 (expected shape [1, 5, 2, 2])}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x5xf32>) -> tensor<1x2x2x2xf32>
  return
}

// -----

// (C26)
func.func @result_rank(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{result rank 3 does not match expected rank 4 (expected shape [1, 2, 2, 1])}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2xf32>
  return
}

// -----

// (C27)
func.func @operand_element_types(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf16>) {
  // expected-error @+1 {{lhs element type 'f32' does not match rhs element type 'f16'}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf16>) -> tensor<1x2x2x1xf32>
  return
}

// -----

func.func @result_element_type(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{result element type 'i32' must be the operands' element type 'f32' or another float type}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xi32>
  return
}

// -----

// The 64-bit bound on the padded input.
func.func @padding_overflow(%x: tensor<1x4x1xf32>, %w: tensor<3x1x1xf32>) {
  // expected-error @+1 {{the padded input or the dilated window of spatial dimension 0 does not fit in 64 bits}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {lhs_dilate = [4611686018427387904]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<3x1x1xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @syntax_label(%x: tensor<1x4x1xf32>, %w: tensor<3x1x1xf32>) {
  // expected-error @+1 {{expected 'b', 'f' or a spatial dimension number, got 'i'}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, i]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<3x1x1xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @syntax_duplicate_label(%x: tensor<1x4x1xf32>, %w: tensor<3x1x1xf32>) {
  // expected-error @+1 {{'o' appears more than once}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[o, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<3x1x1xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @syntax_spatial_numbers(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{spatial dimension number 2 is out of range [0, 2)}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 2, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

func.func @syntax_spatial_counts(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{the input, kernel and output have 2, 1 and 2 spatial dimensions; expected the same number}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

func.func @syntax_window_key(%x: tensor<1x4x1xf32>, %w: tensor<3x1x1xf32>) {
  // expected-error @+1 {{expected 'stride', 'pad', 'lhs_dilate', 'rhs_dilate' or 'reverse', got 'strides'}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {strides = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<3x1x1xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @syntax_window_twice(%x: tensor<1x4x1xf32>, %w: tensor<3x1x1xf32>) {
  // expected-error @+1 {{'stride' appears more than once}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<3x1x1xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @syntax_pad_pair(%x: tensor<1x4x1xf32>, %w: tensor<3x1x1xf32>) {
  // expected-error @+1 {{expected a [low, high] pair, got 3 values}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<3x1x1xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @syntax_raw_field(%x: tensor<1x4x1xf32>, %w: tensor<3x1x1xf32>) {
  // expected-error @+1 {{missing convolution dimension field 'output_spatial_dimensions'}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 2, input_spatial_dimensions = [1], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0], output_batch_dimension = 0, output_feature_dimension = 2>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<3x1x1xf32>) -> tensor<1x2x1xf32>
  return
}
