// The unary elementwise ops: the examples of their sections of the StableHLO
// specification (inputs and results as executable checks), then the element
// types, ranks and op forms StableHLO's interpreter tests vary.
// RUN: mpmd interpret -split-input-file %s | FileCheck %s

// CHECK: PASS: @abs_spec
func.func @abs_spec() {
  %operand = stablehlo.constant dense<[-2, 0, 2]> : tensor<3xi32>
  %result = "stablehlo.abs"(%operand) : (tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %result, dense<[2, 0, 2]> : tensor<3xi32>
  func.return
}

// -----

// CHECK: PASS: @bitcast_convert_spec
func.func @bitcast_convert_spec() {
  %operand = stablehlo.constant dense<0x0123456789ABCDEF> : tensor<f64>
  %result = "stablehlo.bitcast_convert"(%operand) : (tensor<f64>) -> tensor<4xf16>
  check.expect_eq_const %result, dense<[0xCDEF, 0x89AB, 0x4567, 0x0123]> : tensor<4xf16>
  func.return
}

// -----

// CHECK: PASS: @cbrt_spec
func.func @cbrt_spec() {
  %operand = stablehlo.constant dense<[0.0, 1.0, 8.0, 27.0]> : tensor<4xf64>
  %result = "stablehlo.cbrt"(%operand) : (tensor<4xf64>) -> tensor<4xf64>
  check.expect_almost_eq_const %result, dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf64>
  func.return
}

// -----

// CHECK: PASS: @ceil_spec
func.func @ceil_spec() {
  %operand = stablehlo.constant dense<[-0.8166, -0.2530, 0.2530, 0.8166, 2.0]> : tensor<5xf32>
  %result = "stablehlo.ceil"(%operand) : (tensor<5xf32>) -> tensor<5xf32>
  check.expect_almost_eq_const %result, dense<[-0.0, -0.0, 1.0, 1.0, 2.0]> : tensor<5xf32>
  func.return
}

// -----

// CHECK: PASS: @convert_spec
func.func @convert_spec() {
  %operand = stablehlo.constant dense<[-1, 0, 1]> : tensor<3xi64>
  %result = "stablehlo.convert"(%operand) : (tensor<3xi64>) -> tensor<3xcomplex<f64>>
  check.expect_almost_eq_const %result, dense<[(-1.0, 0.0), (0.0, 0.0), (1.0, 0.0)]> : tensor<3xcomplex<f64>>
  func.return
}

// -----

// CHECK: PASS: @cosine_spec
func.func @cosine_spec() {
  %operand = stablehlo.constant dense<[ [0.0, 1.57079632], [3.14159265, 4.71238898] ]> : tensor<2x2xf32>
  %result = "stablehlo.cosine"(%operand) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %result, dense<[[1.0, 0.0], [-1.0, 0.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// CHECK: PASS: @count_leading_zeros_spec
func.func @count_leading_zeros_spec() {
  %operand = stablehlo.constant dense<[[0, 1], [128, -1]]> : tensor<2x2xi64>
  %result = "stablehlo.count_leading_zeros"(%operand) : (tensor<2x2xi64>) -> tensor<2x2xi64>
  check.expect_eq_const %result, dense<[[64, 63], [56, 0]]> : tensor<2x2xi64>
  func.return
}

// -----

// CHECK: PASS: @exponential_spec
func.func @exponential_spec() {
  %operand = stablehlo.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf64>
  %result = "stablehlo.exponential"(%operand) : (tensor<2x2xf64>) -> tensor<2x2xf64>
  check.expect_almost_eq_const %result, dense<[[1.0, 2.7182818284590451], [7.3890560989306504, 20.085536923187668]]> : tensor<2x2xf64>
  func.return
}

// -----

// CHECK: PASS: @exponential_minus_one_spec
func.func @exponential_minus_one_spec() {
  %operand = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf64>
  %result = "stablehlo.exponential_minus_one"(%operand) : (tensor<2xf64>) -> tensor<2xf64>
  check.expect_almost_eq_const %result, dense<[0.0, 1.71828187]> : tensor<2xf64>
  func.return
}

// -----

// CHECK: PASS: @floor_spec
func.func @floor_spec() {
  %operand = stablehlo.constant dense<[-0.8166, -0.2530, 0.2530, 0.8166, 2.0]> : tensor<5xf32>
  %result = "stablehlo.floor"(%operand) : (tensor<5xf32>) -> tensor<5xf32>
  check.expect_almost_eq_const %result, dense<[-1.0, -1.0, 0.0, 0.0, 2.0]> : tensor<5xf32>
  func.return
}

// -----

// CHECK: PASS: @imag_spec
func.func @imag_spec() {
  %operand = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  %result = "stablehlo.imag"(%operand) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_almost_eq_const %result, dense<[2.0, 4.0]> : tensor<2xf32>
  func.return
}

// -----

// CHECK: PASS: @log_spec
func.func @log_spec() {
  %operand = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
  %result = "stablehlo.log"(%operand) : (tensor<2x2xf64>) -> tensor<2x2xf64>
  check.expect_almost_eq_const %result, dense<[[0.0, 0.69314718055994529], [1.0986122886681098, 1.3862943611198906]]> : tensor<2x2xf64>
  func.return
}

// -----

// CHECK: PASS: @log_plus_one_spec
func.func @log_plus_one_spec() {
  %operand = stablehlo.constant dense<[0.0, -0.999, 7.0, 6.38905621, 15.0]> : tensor<5xf64>
  %result = "stablehlo.log_plus_one"(%operand) : (tensor<5xf64>) -> tensor<5xf64>
  check.expect_almost_eq_const %result, dense<[0.0, -6.90776825, 2.07944155, 2.0, 2.77258873]> : tensor<5xf64>
  func.return
}

// -----

// CHECK: PASS: @logistic_spec
func.func @logistic_spec() {
  %operand = stablehlo.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf64>
  %result = "stablehlo.logistic"(%operand) : (tensor<2x2xf64>) -> tensor<2x2xf64>
  check.expect_almost_eq_const %result, dense<[[0.5, 0.73105858], [0.88079708, 0.95257413]]> : tensor<2x2xf64>
  func.return
}

// -----

// CHECK: PASS: @popcnt_spec
func.func @popcnt_spec() {
  %operand = stablehlo.constant dense<[0, 1, 2, 127]> : tensor<4xi64>
  %result = "stablehlo.popcnt"(%operand) : (tensor<4xi64>) -> tensor<4xi64>
  check.expect_eq_const %result, dense<[0, 1, 1, 7]> : tensor<4xi64>
  func.return
}

// -----

// CHECK: PASS: @real_spec
func.func @real_spec() {
  %operand = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  %result = "stablehlo.real"(%operand) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_almost_eq_const %result, dense<[1.0, 3.0]> : tensor<2xf32>
  func.return
}

// -----

// CHECK: PASS: @reduce_precision_spec
func.func @reduce_precision_spec() {
  %operand = stablehlo.constant dense<[0x7FF0000000000000, 0x7FFFFFFFFFFFFFFF, 0x0000000000000001, 0.0, 65519.0, 65520.0]> : tensor<6xf64>
  %output = "stablehlo.reduce_precision"(%operand) {
    exponent_bits = 5 : i32,
    mantissa_bits = 10 : i32
  } : (tensor<6xf64>) -> tensor<6xf64>
  check.expect_almost_eq_const %output, dense<[0x7FF0000000000000, 0x7FFFFFFFFFFFFFFF, 0.0, 0.0, 65504.0, 0x7FF0000000000000]> : tensor<6xf64>
  func.return
}

// -----

// CHECK: PASS: @rsqrt_spec
func.func @rsqrt_spec() {
  %operand = stablehlo.constant dense<[[1.0, 4.0], [9.0, 25.0]]> : tensor<2x2xf32>
  %result = "stablehlo.rsqrt"(%operand) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %result, dense<[[1.0, 0.5], [0.33333343, 0.2]]> : tensor<2x2xf32>
  func.return
}

// -----

// CHECK: PASS: @sine_spec
func.func @sine_spec() {
  %operand = stablehlo.constant dense<[ [0.0, 1.57079632], [3.14159265, 4.71238898] ]> : tensor<2x2xf32>
  %result = "stablehlo.sine"(%operand) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %result, dense<[[0.0, 1.0], [0.0, -1.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// CHECK: PASS: @sqrt_spec
func.func @sqrt_spec() {
  %operand = stablehlo.constant dense<[[0.0, 1.0], [4.0, 9.0]]> : tensor<2x2xf32>
  %result = "stablehlo.sqrt"(%operand) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %result, dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// CHECK: PASS: @tanh_spec
func.func @tanh_spec() {
  %operand = stablehlo.constant dense<[-1.0, 0.0, 1.0]> : tensor<3xf32>
  %result = "stablehlo.tanh"(%operand) : (tensor<3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const %result, dense<[-0.76159416, 0.0, 0.76159416]> : tensor<3xf32>
  func.return
}

// -----

// CHECK: PASS: @negate_spec
func.func @negate_spec() {
  %operand = stablehlo.constant dense<[0, -2]> : tensor<2xi32>
  %result = "stablehlo.negate"(%operand) : (tensor<2xi32>) -> tensor<2xi32>
  check.expect_eq_const %result, dense<[0, 2]> : tensor<2xi32>
  func.return
}

// -----

// CHECK: PASS: @negate_spec_complex
func.func @negate_spec_complex() {
  %operand = stablehlo.constant dense<(2.5, 0.0)> : tensor<1xcomplex<f32>>
  %result = "stablehlo.negate"(%operand) : (tensor<1xcomplex<f32>>) -> tensor<1xcomplex<f32>>
  check.expect_eq_const %result, dense<(-2.5, -0.0)> : tensor<1xcomplex<f32>>
  func.return
}

// -----

// CHECK: PASS: @not_spec
func.func @not_spec() {
  %operand = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %result = "stablehlo.not"(%operand) : (tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[-2, -3], [-4, -5]]> : tensor<2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @not_spec_i1
func.func @not_spec_i1() {
  %operand = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %result = "stablehlo.not"(%operand) : (tensor<2xi1>) -> tensor<2xi1>
  check.expect_eq_const %result, dense<[false, true]> : tensor<2xi1>
  func.return
}

// -----

// CHECK: PASS: @is_finite_spec
func.func @is_finite_spec() {
  %x = stablehlo.constant dense<[0xFFF0000000000000, 0x7FF0000000000000, 0x7FF8000000000000, -10.0, -0.0, 0.0, 10.0]> : tensor<7xf64>
  %y = "stablehlo.is_finite"(%x) : (tensor<7xf64>) -> tensor<7xi1>
  check.expect_eq_const %y, dense<[false, false, false, true, true, true, true]> : tensor<7xi1>
  func.return
}

// -----

// CHECK: PASS: @round_nearest_afz_spec
func.func @round_nearest_afz_spec() {
  %operand = stablehlo.constant dense<[-2.5, 0.4, 0.5, 0.6, 2.5]> : tensor<5xf64>
  %result = "stablehlo.round_nearest_afz"(%operand) : (tensor<5xf64>) -> tensor<5xf64>
  check.expect_eq_const %result, dense<[-3.0, 0.0, 1.0, 1.0, 3.0]> : tensor<5xf64>
  func.return
}

// -----

// CHECK: PASS: @round_nearest_even_spec
func.func @round_nearest_even_spec() {
  %operand = stablehlo.constant dense<[-2.5, 0.4, 0.5, 0.6, 2.5]> : tensor<5xf64>
  %result = "stablehlo.round_nearest_even"(%operand) : (tensor<5xf64>) -> tensor<5xf64>
  check.expect_eq_const %result, dense<[-2.0, 0.0, 0.0, 1.0, 2.0]> : tensor<5xf64>
  func.return
}

// -----

// sign: the spec's example (a NaN stays NaN, zeros keep their sign).
// CHECK: PASS: @sign_spec
func.func @sign_spec() {
  %operand = stablehlo.constant dense<[0x7FFFFFFFFFFFFFFF, -1.0, -0.0, 0.0, 1.0]> : tensor<5xf64>
  %result = "stablehlo.sign"(%operand) : (tensor<5xf64>) -> tensor<5xf64>
  %nan = stablehlo.slice %result [0:1] : (tensor<5xf64>) -> tensor<1xf64>
  %is_nan = stablehlo.compare NE, %nan, %nan : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
  check.expect_eq_const %is_nan, dense<true> : tensor<1xi1>
  %bits = stablehlo.bitcast_convert %result : (tensor<5xf64>) -> tensor<5xui64>
  %rest = stablehlo.slice %bits [1:5] : (tensor<5xui64>) -> tensor<4xui64>
  // -1.0, -0.0, +0.0, 1.0 bit for bit.
  check.expect_eq_const %rest, dense<[13830554455654793216, 9223372036854775808, 0, 4607182418800017408]> : tensor<4xui64>
  func.return
}

// -----

// tan: tan(pi/2) and tan(3pi/2) of the f64 nearest pi/2 and 3pi/2 are large but finite.
// CHECK: PASS: @tan_spec
func.func @tan_spec() {
  %operand = stablehlo.constant dense<[[0.0, 1.5707963267948966], [3.141592653589793, 4.71238898038469]]> : tensor<2x2xf64>
  %result = "stablehlo.tan"(%operand) : (tensor<2x2xf64>) -> tensor<2x2xf64>
  %expected = stablehlo.constant dense<[[0.0, 1.633123935319537e+16], [-1.2246467991473532e-16, 5443746451065123.0]]> : tensor<2x2xf64>
  check.expect_close %result, %expected, max_ulp_difference = 4 : tensor<2x2xf64>, tensor<2x2xf64>
  func.return
}

// -----

// abs of every integer width wraps the most negative value (two's complement).
// CHECK: PASS: @abs_si8_si16_si64
func.func @abs_si8_si16_si64() {
  %a = stablehlo.constant dense<[-128, -1, 0, 127]> : tensor<4xi8>
  %ra = stablehlo.abs %a : tensor<4xi8>
  check.expect_eq_const %ra, dense<[-128, 1, 0, 127]> : tensor<4xi8>
  %b = stablehlo.constant dense<[-32768, -300, 300]> : tensor<3xi16>
  %rb = stablehlo.abs %b : tensor<3xi16>
  check.expect_eq_const %rb, dense<[-32768, 300, 300]> : tensor<3xi16>
  %c = stablehlo.constant dense<[-9223372036854775808, -5, 5]> : tensor<3xi64>
  %rc = stablehlo.abs %c : tensor<3xi64>
  check.expect_eq_const %rc, dense<[-9223372036854775808, 5, 5]> : tensor<3xi64>
  func.return
}

// -----

// CHECK: PASS: @abs_floats
func.func @abs_floats() {
  %h = stablehlo.constant dense<[-1.5, -0.0, 65504.0, 0xFC00]> : tensor<4xf16>
  %rh = stablehlo.abs %h : tensor<4xf16>
  check.expect_eq_const %rh, dense<[1.5, 0.0, 65504.0, 0x7C00]> : tensor<4xf16>
  %b = stablehlo.constant dense<[-2.5, 3.0]> : tensor<2xbf16>
  %rb = stablehlo.abs %b : tensor<2xbf16>
  check.expect_eq_const %rb, dense<[2.5, 3.0]> : tensor<2xbf16>
  %d = stablehlo.constant dense<[-1.0e300, 2.0e-300]> : tensor<2xf64>
  %rd = stablehlo.abs %d : tensor<2xf64>
  check.expect_eq_const %rd, dense<[1.0e300, 2.0e-300]> : tensor<2xf64>
  func.return
}

// -----

// abs of a complex is its modulus, a real of the part type.
// CHECK: PASS: @abs_complex
func.func @abs_complex() {
  %z = stablehlo.constant dense<[(3.0, 4.0), (0.0, -2.0)]> : tensor<2xcomplex<f32>>
  %r = "stablehlo.abs"(%z) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_almost_eq_const %r, dense<[5.0, 2.0]> : tensor<2xf32>
  %w = stablehlo.constant dense<(-5.0, 12.0)> : tensor<complex<f64>>
  %s = stablehlo.abs %w : (tensor<complex<f64>>) -> tensor<f64>
  check.expect_almost_eq_const %s, dense<13.0> : tensor<f64>
  func.return
}

// -----

// Rank 0 and zero elements, generic and pretty forms.
// CHECK: PASS: @unary_rank0_and_empty
func.func @unary_rank0_and_empty() {
  %s = stablehlo.constant dense<-7> : tensor<i32>
  %rs = "stablehlo.negate"(%s) : (tensor<i32>) -> tensor<i32>
  check.expect_eq_const %rs, dense<7> : tensor<i32>
  %e = stablehlo.constant dense<> : tensor<0xf32>
  %re = stablehlo.exponential %e : tensor<0xf32>
  check.expect_eq_const %re, dense<> : tensor<0xf32>
  %e2 = stablehlo.constant dense<> : tensor<2x0xi8>
  %re2 = "stablehlo.not"(%e2) : (tensor<2x0xi8>) -> tensor<2x0xi8>
  check.expect_eq_const %re2, dense<> : tensor<2x0xi8>
  %f = stablehlo.constant dense<4.0> : tensor<f64>
  %rf = stablehlo.sqrt %f : tensor<f64>
  check.expect_eq_const %rf, dense<2.0> : tensor<f64>
  func.return
}

// -----

// Unsigned integers: negate wraps, not flips every bit.
// CHECK: PASS: @negate_not_unsigned
func.func @negate_not_unsigned() {
  %a = stablehlo.constant dense<[0, 1, 5, 255]> : tensor<4xui8>
  %na = stablehlo.negate %a : tensor<4xui8>
  check.expect_eq_const %na, dense<[0, 255, 251, 1]> : tensor<4xui8>
  %ta = stablehlo.not %a : tensor<4xui8>
  check.expect_eq_const %ta, dense<[255, 254, 250, 0]> : tensor<4xui8>
  %b = stablehlo.constant dense<[0, 4294967295]> : tensor<2xui32>
  %tb = stablehlo.not %b : tensor<2xui32>
  check.expect_eq_const %tb, dense<[4294967295, 0]> : tensor<2xui32>
  %c = stablehlo.constant dense<[1, 18446744073709551615]> : tensor<2xui64>
  %nc = stablehlo.negate %c : tensor<2xui64>
  check.expect_eq_const %nc, dense<[18446744073709551615, 1]> : tensor<2xui64>
  %d = stablehlo.constant dense<[-32768, 32767]> : tensor<2xi16>
  %nd = stablehlo.negate %d : tensor<2xi16>
  check.expect_eq_const %nd, dense<[-32768, -32767]> : tensor<2xi16>
  func.return
}

// -----

// CHECK: PASS: @sign_integers_and_complex
func.func @sign_integers_and_complex() {
  %a = stablehlo.constant dense<[-5, 0, 7]> : tensor<3xi32>
  %ra = stablehlo.sign %a : tensor<3xi32>
  check.expect_eq_const %ra, dense<[-1, 0, 1]> : tensor<3xi32>
  %b = stablehlo.constant dense<[-128, 0, 127]> : tensor<3xi8>
  %rb = stablehlo.sign %b : tensor<3xi8>
  check.expect_eq_const %rb, dense<[-1, 0, 1]> : tensor<3xi8>
  %z = stablehlo.constant dense<[(3.0, 4.0), (0.0, 0.0)]> : tensor<2xcomplex<f32>>
  %rz = stablehlo.sign %z : tensor<2xcomplex<f32>>
  check.expect_almost_eq_const %rz, dense<[(0.6, 0.8), (0.0, 0.0)]> : tensor<2xcomplex<f32>>
  %h = stablehlo.constant dense<[-3.0, 0.0, 2.0]> : tensor<3xf16>
  %rh = stablehlo.sign %h : tensor<3xf16>
  check.expect_eq_const %rh, dense<[-1.0, 0.0, 1.0]> : tensor<3xf16>
  func.return
}

// -----

// CHECK: PASS: @popcnt_clz_widths
func.func @popcnt_clz_widths() {
  %a = stablehlo.constant dense<[-1, 0, 64]> : tensor<3xi8>
  %pa = stablehlo.popcnt %a : tensor<3xi8>
  check.expect_eq_const %pa, dense<[8, 0, 1]> : tensor<3xi8>
  %ca = stablehlo.count_leading_zeros %a : tensor<3xi8>
  check.expect_eq_const %ca, dense<[0, 8, 1]> : tensor<3xi8>
  %b = stablehlo.constant dense<[65535, 1]> : tensor<2xui16>
  %pb = stablehlo.popcnt %b : tensor<2xui16>
  check.expect_eq_const %pb, dense<[16, 1]> : tensor<2xui16>
  %cb = stablehlo.count_leading_zeros %b : tensor<2xui16>
  check.expect_eq_const %cb, dense<[0, 15]> : tensor<2xui16>
  %c = stablehlo.constant dense<[0, 255]> : tensor<2xui32>
  %cc = stablehlo.count_leading_zeros %c : tensor<2xui32>
  check.expect_eq_const %cc, dense<[32, 24]> : tensor<2xui32>
  %d = stablehlo.constant dense<[-1, 3]> : tensor<2xi32>
  %pd = stablehlo.popcnt %d : tensor<2xi32>
  check.expect_eq_const %pd, dense<[32, 2]> : tensor<2xi32>
  func.return
}

// -----

// Transcendentals in f16 and bf16: computed wider, rounded once.
// CHECK: PASS: @transcendental_f16_bf16
func.func @transcendental_f16_bf16() {
  %h = stablehlo.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf16>
  %eh = stablehlo.exponential %h : tensor<3xf16>
  %eh_expected = stablehlo.constant dense<[1.0, 2.719, 0.368]> : tensor<3xf16>
  check.expect_close %eh, %eh_expected, max_ulp_difference = 1 : tensor<3xf16>, tensor<3xf16>
  %l = stablehlo.constant dense<[1.0, 2.0, 10.0]> : tensor<3xf16>
  %lh = stablehlo.log %l : tensor<3xf16>
  %lh_expected = stablehlo.constant dense<[0.0, 0.6934, 2.303]> : tensor<3xf16>
  check.expect_close %lh, %lh_expected, max_ulp_difference = 1 : tensor<3xf16>, tensor<3xf16>
  %t = stablehlo.constant dense<[0.5, -2.0]> : tensor<2xf16>
  %th = stablehlo.tanh %t : tensor<2xf16>
  %th_expected = stablehlo.constant dense<[0.4622, -0.964]> : tensor<2xf16>
  check.expect_close %th, %th_expected, max_ulp_difference = 1 : tensor<2xf16>, tensor<2xf16>
  %b = stablehlo.constant dense<[1.0, 3.0, 2.0]> : tensor<3xbf16>
  %eb = stablehlo.exponential %b : tensor<3xbf16>
  %lb = stablehlo.log %b : tensor<3xbf16>
  %sb = stablehlo.sqrt %b : tensor<3xbf16>
  %eb0 = stablehlo.slice %eb [0:1] : (tensor<3xbf16>) -> tensor<1xbf16>
  %lb1 = stablehlo.slice %lb [1:2] : (tensor<3xbf16>) -> tensor<1xbf16>
  %sb2 = stablehlo.slice %sb [2:3] : (tensor<3xbf16>) -> tensor<1xbf16>
  %eb_expected = stablehlo.constant dense<2.71875> : tensor<1xbf16>
  %lb_expected = stablehlo.constant dense<1.1015625> : tensor<1xbf16>
  %sb_expected = stablehlo.constant dense<1.4140625> : tensor<1xbf16>
  check.expect_close %eb0, %eb_expected, max_ulp_difference = 1 : tensor<1xbf16>, tensor<1xbf16>
  check.expect_close %lb1, %lb_expected, max_ulp_difference = 1 : tensor<1xbf16>, tensor<1xbf16>
  check.expect_close %sb2, %sb_expected, max_ulp_difference = 1 : tensor<1xbf16>, tensor<1xbf16>
  func.return
}

// -----

// CHECK: PASS: @transcendental_complex
func.func @transcendental_complex() {
  %a = stablehlo.constant dense<(-4.0, 0.0)> : tensor<complex<f32>>
  %sa = stablehlo.sqrt %a : tensor<complex<f32>>
  check.expect_almost_eq_const %sa, dense<(0.0, 2.0)> : tensor<complex<f32>>
  %b = stablehlo.constant dense<[(1.0, 1.0), (0.0, 1.0)]> : tensor<2xcomplex<f64>>
  %eb = stablehlo.exponential %b : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %eb, dense<[(1.4686939399158851, 2.2873552871788423), (0.54030230586813977, 0.8414709848078965)]> : tensor<2xcomplex<f64>>
  %lb = stablehlo.log %b : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %lb, dense<[(0.34657359027997264, 0.78539816339744828), (0.0, 1.5707963267948966)]> : tensor<2xcomplex<f64>>
  func.return
}

// -----

// CHECK: PASS: @cbrt_log1p_expm1_accuracy
func.func @cbrt_log1p_expm1_accuracy() {
  %a = stablehlo.constant dense<[-8.0, -27.0, 0.001]> : tensor<3xf32>
  %ca = stablehlo.cbrt %a : tensor<3xf32>
  check.expect_almost_eq_const %ca, dense<[-2.0, -3.0, 0.1]> : tensor<3xf32>
  // Near zero, log1p and expm1 keep the digits log(1 + x) and exp(x) - 1 lose.
  %s = stablehlo.constant dense<1.0e-10> : tensor<f64>
  %l = stablehlo.log_plus_one %s : tensor<f64>
  %e = stablehlo.exponential_minus_one %s : tensor<f64>
  %l_expected = stablehlo.constant dense<9.9999999995e-11> : tensor<f64>
  %e_expected = stablehlo.constant dense<1.00000000005e-10> : tensor<f64>
  check.expect_close %l, %l_expected, max_ulp_difference = 2 : tensor<f64>, tensor<f64>
  check.expect_close %e, %e_expected, max_ulp_difference = 2 : tensor<f64>, tensor<f64>
  func.return
}

// -----

// CHECK: PASS: @real_imag_f64
func.func @real_imag_f64() {
  %z = stablehlo.constant dense<[(1.5, -2.5), (0.0, 7.0)]> : tensor<2xcomplex<f64>>
  %re = stablehlo.real %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %im = stablehlo.imag %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  check.expect_eq_const %re, dense<[1.5, 0.0]> : tensor<2xf64>
  check.expect_eq_const %im, dense<[-2.5, 7.0]> : tensor<2xf64>
  // Of a real: the value itself, and zeros.
  %x = stablehlo.constant dense<[3.0, -1.0]> : tensor<2xf32>
  %rx = stablehlo.real %x : tensor<2xf32>
  %ix = stablehlo.imag %x : tensor<2xf32>
  check.expect_eq_const %rx, dense<[3.0, -1.0]> : tensor<2xf32>
  check.expect_eq_const %ix, dense<[0.0, 0.0]> : tensor<2xf32>
  func.return
}

// -----

// CHECK: PASS: @is_finite_f16_bf16
func.func @is_finite_f16_bf16() {
  %h = stablehlo.constant dense<[0x7C00, 0x7E00, 65504.0]> : tensor<3xf16>
  %rh = stablehlo.is_finite %h : (tensor<3xf16>) -> tensor<3xi1>
  check.expect_eq_const %rh, dense<[false, false, true]> : tensor<3xi1>
  %b = stablehlo.constant dense<[0xFF80, 1.0]> : tensor<2xbf16>
  %rb = stablehlo.is_finite %b : (tensor<2xbf16>) -> tensor<2xi1>
  check.expect_eq_const %rb, dense<[false, true]> : tensor<2xi1>
  func.return
}

// -----

// Rounding ops on halfway cases of f32 and bf16.
// CHECK: PASS: @rounding_f32_bf16
func.func @rounding_f32_bf16() {
  %a = stablehlo.constant dense<[-0.5, 1.5, 2.5, -3.5]> : tensor<4xf32>
  %afz = stablehlo.round_nearest_afz %a : tensor<4xf32>
  check.expect_eq_const %afz, dense<[-1.0, 2.0, 3.0, -4.0]> : tensor<4xf32>
  %even = stablehlo.round_nearest_even %a : tensor<4xf32>
  check.expect_eq_const %even, dense<[-0.0, 2.0, 2.0, -4.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[-1.5, 0.5, 2.75]> : tensor<3xbf16>
  %fl = stablehlo.floor %b : tensor<3xbf16>
  check.expect_eq_const %fl, dense<[-2.0, 0.0, 2.0]> : tensor<3xbf16>
  %ce = stablehlo.ceil %b : tensor<3xbf16>
  check.expect_eq_const %ce, dense<[-1.0, 1.0, 3.0]> : tensor<3xbf16>
  %ev = stablehlo.round_nearest_even %b : tensor<3xbf16>
  check.expect_eq_const %ev, dense<[-2.0, 0.0, 3.0]> : tensor<3xbf16>
  func.return
}

// -----

// The spec's bitcast example in other directions: f32 <-> i32, and a
// narrowing bitcast that adds a dimension (little-endian).
// CHECK: PASS: @bitcast_convert_more
func.func @bitcast_convert_more() {
  %a = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %ia = stablehlo.bitcast_convert %a : (tensor<2xf32>) -> tensor<2xi32>
  check.expect_eq_const %ia, dense<[1065353216, -1073741824]> : tensor<2xi32>
  %back = stablehlo.bitcast_convert %ia : (tensor<2xi32>) -> tensor<2xf32>
  check.expect_eq_const %back, dense<[1.0, -2.0]> : tensor<2xf32>
  %w = stablehlo.constant dense<[258, -1]> : tensor<2xi16>
  %bytes = stablehlo.bitcast_convert %w : (tensor<2xi16>) -> tensor<2x2xui8>
  check.expect_eq_const %bytes, dense<[[2, 1], [255, 255]]> : tensor<2x2xui8>
  %joined = stablehlo.bitcast_convert %bytes : (tensor<2x2xui8>) -> tensor<2xi16>
  check.expect_eq_const %joined, dense<[258, -1]> : tensor<2xi16>
  func.return
}

// -----

// CHECK: PASS: @reduce_precision_f32_to_bf16_range
func.func @reduce_precision_f32_to_bf16_range() {
  // 8 exponent and 7 mantissa bits (bfloat16 in f32): ties to even, and a
  // denormal keeps its leading 7 mantissa bits (the exponent range is f32's).
  %a = stablehlo.constant dense<[1.00390625, 1.01171875, 3.0e38, 1.0e-39]> : tensor<4xf32>
  %r = stablehlo.reduce_precision %a, format = e8m7 : tensor<4xf32>
  check.expect_eq_const %r, dense<[1.0, 1.015625, 0x7F620000, 0x000B0000]> : tensor<4xf32>
  func.return
}
