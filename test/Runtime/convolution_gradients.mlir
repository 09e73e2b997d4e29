// The two gradients of a strided convolution in the forms JAX's autodiff
// emits them (jax.lax conv_general_dilated transpose rules), run by the
// interpreter. Forward: x [1, 5, 5, 2] NHWC, w [3, 3, 2, 3] HWIO, stride 2,
// padding 1 -> y [1, 3, 3, 3]; g is the cotangent of y. The expected values
// are PyTorch autograd's (conv2d on the NCHW/OIHW transposes).
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @gradients_as_jax_emits_them
func.func @gradients_as_jax_emits_them() {
  %x = stablehlo.constant dense<[[[[3.0, 1.0], [1.0, 3.0], [1.0, 2.0], [2.0, -2.0], [-3.0, -1.0]], [[-2.0, 3.0], [3.0, -3.0], [0.0, 2.0], [-3.0, 2.0], [-3.0, 0.0]], [[2.0, -1.0], [-1.0, -2.0], [2.0, -2.0], [3.0, 0.0], [0.0, 0.0]], [[1.0, 0.0], [0.0, 3.0], [2.0, 2.0], [1.0, 1.0], [-1.0, 3.0]], [[0.0, -2.0], [2.0, -2.0], [3.0, 1.0], [-3.0, -3.0], [0.0, -3.0]]]]> : tensor<1x5x5x2xf32>
  %w = stablehlo.constant dense<[[[[-3.0, 0.0, 3.0], [0.0, 2.0, 3.0]], [[2.0, 1.0, 0.0], [0.0, -2.0, 0.0]], [[-1.0, -2.0, 3.0], [-3.0, -3.0, -2.0]]], [[[3.0, 1.0, 3.0], [-2.0, 2.0, -1.0]], [[0.0, -3.0, 1.0], [2.0, 1.0, -2.0]], [[0.0, -2.0, 3.0], [3.0, -2.0, 0.0]]], [[[3.0, 2.0, 1.0], [1.0, -3.0, 2.0]], [[0.0, -3.0, -2.0], [0.0, 2.0, 0.0]], [[1.0, 3.0, 1.0], [-1.0, 1.0, 1.0]]]]> : tensor<3x3x2x3xf32>
  %g = stablehlo.constant dense<[[[[-3.0, -3.0, 1.0], [-1.0, 1.0, -1.0], [-2.0, -2.0, -1.0]], [[2.0, -1.0, -1.0], [1.0, 3.0, -1.0], [1.0, 0.0, 1.0]], [[0.0, 1.0, 0.0], [1.0, 3.0, -2.0], [0.0, 0.0, -1.0]]]]> : tensor<1x3x3x3xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x3x3x3xf32>
  check.expect_eq_const %y, dense<[[[[17.0, 2.0, 8.0], [-4.0, 18.0, -1.0], [1.0, 3.0, 14.0]], [[-9.0, -6.0, 17.0], [-12.0, -36.0, 5.0], [16.0, 12.0, 11.0]], [[-17.0, -10.0, 4.0], [3.0, 1.0, 10.0], [-14.0, -17.0, 6.0]]]]> : tensor<1x3x3x3xf32>
  // Input gradient: g dilated by the stride, convolved with the spatially
  // reversed kernel whose input and output features swap roles.
  %w_rev = stablehlo.reverse %w, dims = [0, 1] : tensor<3x3x2x3xf32>
  %dx = stablehlo.convolution(%g, %w_rev) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x3x3x3xf32>, tensor<3x3x2x3xf32>) -> tensor<1x5x5x2xf32>
  check.expect_eq_const %dx, dense<[[[[10.0, -11.0], [4.0, 2.0], [-4.0, 1.0], [-16.0, -4.0], [5.0, -4.0]], [[10.0, -4.0], [-22.0, -3.0], [4.0, -4.0], [-20.0, -4.0], [10.0, -4.0]], [[2.0, 5.0], [2.0, 13.0], [-10.0, 7.0], [-3.0, -6.0], [1.0, 0.0]], [[6.0, -4.0], [-5.0, -17.0], [-2.0, 0.0], [-3.0, -7.0], [-2.0, 0.0]], [[-3.0, 1.0], [-2.0, 4.0], [-11.0, 9.0], [-15.0, -2.0], [-1.0, 2.0]]]]> : tensor<1x5x5x2xf32>
  // Filter gradient: x with batch and feature swapped, convolved with g
  // (batch as input feature) dilated by the stride.
  %dw = stablehlo.convolution(%x, %g) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x5x5x2xf32>, tensor<1x3x3x3xf32>) -> tensor<3x3x2x3xf32>
  check.expect_eq_const %dw, dense<[[[[0.0, 9.0, -7.0], [2.0, 0.0, -2.0]], [[-5.0, 9.0, -4.0], [10.0, 9.0, -12.0]], [[4.0, -9.0, -2.0], [-3.0, 15.0, -1.0]]], [[[-1.0, 0.0, 0.0], [-3.0, -5.0, 8.0]], [[5.0, 11.0, -5.0], [-6.0, -3.0, 4.0]], [[-7.0, 2.0, 3.0], [-14.0, -20.0, 13.0]]], [[[4.0, 9.0, 1.0], [3.0, 2.0, -1.0]], [[15.0, 17.0, -3.0], [-6.0, -1.0, 2.0]], [[-5.0, -9.0, 5.0], [14.0, 11.0, -9.0]]]]> : tensor<3x3x2x3xf32>
  func.return
}
