// Convolution: batch and output features pass through, input features are
// a reduction, each spatial input dimension splits into window-count
// (permutation, shared with the result) and window-size (reduction, shared
// with the kernel) factors; group counts get factors of their own. Without
// the spatial factors when propagation is conservative.
// RUN: mpmd-opt -sdy-populate-op-sharding-rules %s | FileCheck %s
// RUN: mpmd-opt -sdy-populate-op-sharding-rules=conservative-propagation %s | FileCheck %s --check-prefix=CONSERVATIVE

// A strided 1-D convolution: the input width 8 is 4 windows x 2 positions.
// CHECK-LABEL: func.func @strided_1d(
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk, l], [k, l, m])->([i, j, m]) {i=2, j=4, k=2, l=4, m=6} reduction={k, l} permutation={j}>
// CONSERVATIVE-LABEL: func.func @strided_1d(
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, j], [m, j, k])->([i, n, k]) {i=2, j=4, k=6, l=1, m=1, n=1} reduction={j}>
func.func @strided_1d(%x: tensor<2x8x4xf32>, %w: tensor<2x4x6xf32>) -> tensor<2x4x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x4xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  return %0 : tensor<2x4x6xf32>
}

// A 3x3 "same" convolution: the windows take the whole input size, the
// kernel's spatial dimensions get size-1 factors.
// CHECK-LABEL: func.func @same_3x3(
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [n, o, l, m])->([i, j, k, m]) {i=4, j=32, k=32, l=16, m=8, n=1, o=1} reduction={l} permutation={j, k}>
func.func @same_3x3(%x: tensor<4x32x32x16xf32>, %w: tensor<3x3x16x8xf32>) -> tensor<4x32x32x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x32x32x16xf32>, tensor<3x3x16x8xf32>) -> tensor<4x32x32x8xf32>
  return %0 : tensor<4x32x32x8xf32>
}

// feature_group_count 2: a group factor on the input features and the
// kernel's and result's output features, before the in-group factors.
// CHECK-LABEL: func.func @feature_groups(
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk, lm], [k, m, ln])->([i, j, ln]) {i=2, j=4, k=2, l=2, m=2, n=3} reduction={k, m} permutation={j}>
func.func @feature_groups(%x: tensor<2x8x4xf32>, %w: tensor<2x2x6xf32>) -> tensor<2x4x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x8x4xf32>, tensor<2x2x6xf32>) -> tensor<2x4x6xf32>
  return %0 : tensor<2x4x6xf32>
}

// batch_group_count 2 (a grouped filter gradient): the group factor comes
// first, on the input batch and the output features.
// CHECK-LABEL: func.func @batch_groups(
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([ij, kl, m], [l, m, in])->([j, k, in]) {i=2, j=2, k=4, l=2, m=2, n=2} reduction={l, m} permutation={k}>
func.func @batch_groups(%x: tensor<4x8x2xf32>, %w: tensor<2x2x4xf32>) -> tensor<2x4x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x8x2xf32>, tensor<2x2x4xf32>) -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}
