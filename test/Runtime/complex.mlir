// complex<f32> and complex<f64>: constants, stablehlo.complex, parts, conversions and the
// elementwise ops the spec allows on complex, dot_general and reduce.
// Expected values from NumPy's complex128 arithmetic.
// RUN: mpmd interpret -split-input-file %s | FileCheck %s

// CHECK: PASS: @complex_f32_ops
func.func @complex_f32_ops() {
  %re = stablehlo.constant dense<[1.0, -0.5, 3.0]> : tensor<3xf32>
  %im = stablehlo.constant dense<[2.0, 0.25, -4.0]> : tensor<3xf32>
  %built = stablehlo.complex %re, %im : tensor<3xcomplex<f32>>
  %z = stablehlo.constant dense<[(1.0, 2.0), (-0.5, 0.25), (3.0, -4.0)]> : tensor<3xcomplex<f32>>
  %w = stablehlo.constant dense<[(0.5, -1.0), (2.0, 0.0), (-1.0, 1.0)]> : tensor<3xcomplex<f32>>
  check.expect_eq %built, %z : tensor<3xcomplex<f32>>
  %real = stablehlo.real %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  check.expect_eq_const %real, dense<[1.0, -0.5, 3.0]> : tensor<3xf32>
  %imag = stablehlo.imag %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  check.expect_eq_const %imag, dense<[2.0, 0.25, -4.0]> : tensor<3xf32>
  %add = stablehlo.add %z, %w : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %add, dense<[(1.5, 1.0), (1.5, 0.25), (2.0, -3.0)]> : tensor<3xcomplex<f32>>
  %subtract = stablehlo.subtract %z, %w : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %subtract, dense<[(0.5, 3.0), (-2.5, 0.25), (4.0, -5.0)]> : tensor<3xcomplex<f32>>
  %multiply = stablehlo.multiply %z, %w : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %multiply, dense<[(2.5, 0.0), (-1.0, 0.5), (1.0, 7.0)]> : tensor<3xcomplex<f32>>
  %divide = stablehlo.divide %z, %w : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %divide, dense<[(-1.2, 1.6), (-0.25, 0.125), (-3.5, 0.5)]> : tensor<3xcomplex<f32>>
  %power = stablehlo.power %z, %w : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %power, dense<[(4.38256506, -1.12439748), (0.1875, -0.25), (-0.415842035, 0.287469374)]> : tensor<3xcomplex<f32>>
  %negate = stablehlo.negate %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %negate, dense<[(-1.0, -2.0), (0.5, -0.25), (-3.0, 4.0)]> : tensor<3xcomplex<f32>>
  %exponential = stablehlo.exponential %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %exponential, dense<[(-1.13120438, 2.47172667), (0.58767509, 0.150058087), (-13.1287831, 15.2007845)]> : tensor<3xcomplex<f32>>
  %log = stablehlo.log %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %log, dense<[(0.804718956, 1.10714872), (-0.581575405, 2.67794504), (1.60943791, -0.927295218)]> : tensor<3xcomplex<f32>>
  %sqrt = stablehlo.sqrt %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %sqrt, dense<[(1.27201965, 0.786151378), (0.171780375, 0.727673345), (2.0, -1.0)]> : tensor<3xcomplex<f32>>
  %rsqrt = stablehlo.rsqrt %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %rsqrt, dense<[(0.568864481, -0.351577584), (0.307290076, -1.30170165), (0.4, 0.2)]> : tensor<3xcomplex<f32>>
  %sine = stablehlo.sine %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %sine, dense<[(3.16577851, 1.95960104), (-0.494485781, 0.221688164), (3.85373804, 27.0168133)]> : tensor<3xcomplex<f32>>
  %cosine = stablehlo.cosine %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %cosine, dense<[(2.03272301, -3.0518978), (0.905150151, 0.121108796), (-27.0349456, 3.85115333)]> : tensor<3xcomplex<f32>>
  %tanh = stablehlo.tanh %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %tanh, dense<[(1.16673626, -0.243458201), (-0.485487281, 0.19805545), (1.00070954, -0.00490825807)]> : tensor<3xcomplex<f32>>
  %sign = stablehlo.sign %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %sign, dense<[(0.447213595, 0.894427191), (-0.894427191, 0.447213595), (0.6, -0.8)]> : tensor<3xcomplex<f32>>
  %exponential_minus_one = stablehlo.exponential_minus_one %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %exponential_minus_one, dense<[(-2.13120438, 2.47172667), (-0.41232491, 0.150058087), (-14.1287831, 15.2007845)]> : tensor<3xcomplex<f32>>
  %log_plus_one = stablehlo.log_plus_one %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %log_plus_one, dense<[(1.03972077, 0.785398163), (-0.581575405, 0.463647609), (1.73286795, -0.785398163)]> : tensor<3xcomplex<f32>>
  %tan = stablehlo.tan %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %tan, dense<[(0.0338128261, 1.01479362), (-0.504500703, 0.312420693), (-0.000187346205, -0.999355987)]> : tensor<3xcomplex<f32>>
  %abs = stablehlo.abs %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  check.expect_almost_eq_const %abs, dense<[2.23606798, 0.559016994, 5.0]> : tensor<3xf32>
  %eq = stablehlo.compare EQ, %z, %z : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  check.expect_eq_const %eq, dense<true> : tensor<3xi1>
  %ne = stablehlo.compare NE, %z, %w : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  check.expect_eq_const %ne, dense<true> : tensor<3xi1>
  %p = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %sel = stablehlo.select %p, %z, %w : tensor<3xi1>, tensor<3xcomplex<f32>>
  check.expect_eq_const %sel, dense<[(1.0, 2.0), (2.0, 0.0), (3.0, -4.0)]> : tensor<3xcomplex<f32>>
  func.return
}

// -----

// CHECK: PASS: @complex_conversions
func.func @complex_conversions() {
  %i = stablehlo.constant dense<[-1, 0, 3]> : tensor<3xi64>
  %c = stablehlo.convert %i : (tensor<3xi64>) -> tensor<3xcomplex<f64>>
  check.expect_eq_const %c, dense<[(-1.0, 0.0), (0.0, 0.0), (3.0, 0.0)]> : tensor<3xcomplex<f64>>
  %z = stablehlo.constant dense<[(1.5, -2.0), (0.0, 1.0), (0.0, 0.0)]> : tensor<3xcomplex<f64>>
  %f = stablehlo.convert %z : (tensor<3xcomplex<f64>>) -> tensor<3xf32>
  check.expect_eq_const %f, dense<[1.5, 0.0, 0.0]> : tensor<3xf32>
  %b = stablehlo.convert %z : (tensor<3xcomplex<f64>>) -> tensor<3xi1>
  check.expect_eq_const %b, dense<[true, true, false]> : tensor<3xi1>
  %narrow = stablehlo.convert %z : (tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f32>>
  check.expect_eq_const %narrow, dense<[(1.5, -2.0), (0.0, 1.0), (0.0, 0.0)]> : tensor<3xcomplex<f32>>
  %bits = stablehlo.bitcast_convert %narrow : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  check.expect_eq %bits, %narrow : tensor<3xcomplex<f32>>
  %splat = stablehlo.constant dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>
  %r = stablehlo.real %splat : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<1.0> : tensor<2xf32>
  func.return
}

// -----

// CHECK: PASS: @complex_dot_and_reduce
func.func @complex_dot_and_reduce() {
  %a = stablehlo.constant dense<[[(1.0, 1.0), (2.0, -1.0)], [(0.0, 0.5), (-3.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %b = stablehlo.constant dense<[[(2.0, 0.0), (0.0, 1.0)], [(-1.0, 2.0), (0.5, -0.5)]]> : tensor<2x2xcomplex<f64>>
  %dot = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
  check.expect_almost_eq_const %dot, dense<[[(2.0, 7.0), (-0.5, -0.5)], [(3.0, -5.0), (-2.0, 1.5)]]> : tensor<2x2xcomplex<f64>>
  %dotT = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
  check.expect_almost_eq_const %dotT, dense<[[(1.5, 2.0), (-2.75, 1.25)], [(4.0, -5.0), (-1.5, 6.5)]]> : tensor<2x2xcomplex<f64>>
  %zero = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f64>>
  %sum = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x2xcomplex<f64>>, tensor<complex<f64>>) -> tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %sum, dense<[(3.0, 0.0), (-3.0, 0.5)]> : tensor<2xcomplex<f64>>
  %one = stablehlo.constant dense<(1.0, 0.0)> : tensor<complex<f64>>
  %prod = stablehlo.reduce(%a init: %one) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<2x2xcomplex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
  check.expect_almost_eq_const %prod, dense<(1.5, -4.5)> : tensor<complex<f64>>
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
  check.expect_eq_const %t, dense<[[(1.0, 1.0), (0.0, 0.5)], [(2.0, -1.0), (-3.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %bc = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<complex<f64>>) -> tensor<2x2xcomplex<f64>>
  %padded = stablehlo.pad %a, %zero, low = [0, 1], high = [0, 0], interior = [0, 0] : (tensor<2x2xcomplex<f64>>, tensor<complex<f64>>) -> tensor<2x3xcomplex<f64>>
  %slice = stablehlo.slice %padded [0:2, 1:3] : (tensor<2x3xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
  check.expect_eq %slice, %a : tensor<2x2xcomplex<f64>>
  func.return
}
