// The binary elementwise ops (and clamp, select, complex): the examples of
// their sections of the StableHLO specification (inputs and results as
// executable checks), then the element types, ranks and op forms
// StableHLO's interpreter tests vary.
// RUN: mpmd interpret -split-input-file %s | FileCheck %s

// CHECK: PASS: @add_spec
func.func @add_spec() {
  %lhs = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %rhs = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %result = "stablehlo.add"(%lhs, %rhs) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[6, 8], [10, 12]]> : tensor<2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @and_spec
func.func @and_spec() {
  %lhs = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %rhs = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %result = "stablehlo.and"(%lhs, %rhs) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[1, 2], [3, 0]]> : tensor<2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @atan2_spec
func.func @atan2_spec() {
  %lhs = stablehlo.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf64>
  %rhs = stablehlo.constant dense<[0.0, 0.0, 0.0]> : tensor<3xf64>
  %result = "stablehlo.atan2"(%lhs, %rhs) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %result, dense<[0.0, 1.57079637, -1.57079637]> : tensor<3xf64>
  func.return
}

// -----

// CHECK: PASS: @clamp_spec
func.func @clamp_spec() {
  %min = stablehlo.constant dense<[5, 10, 15]> : tensor<3xi32>
  %operand = stablehlo.constant dense<[3, 13, 23]> : tensor<3xi32>
  %max = stablehlo.constant dense<[10, 15, 20]> : tensor<3xi32>
  %result = "stablehlo.clamp"(%min, %operand, %max) : (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %result, dense<[5, 13, 20]> : tensor<3xi32>
  func.return
}

// -----

// CHECK: PASS: @compare_spec
func.func @compare_spec() {
  %lhs = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %rhs = stablehlo.constant dense<[1.1, 2.9]> : tensor<2xf32>
  %result = "stablehlo.compare"(%lhs, %rhs) {
    comparison_direction = #stablehlo<comparison_direction LT>,
    compare_type = #stablehlo<comparison_type FLOAT>
  } : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  check.expect_eq_const %result, dense<[true, false]> : tensor<2xi1>
  func.return
}

// -----

// CHECK: PASS: @complex_spec
func.func @complex_spec() {
  %lhs = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf64>
  %rhs = stablehlo.constant dense<[2.0, 4.0]> : tensor<2xf64>
  %result = "stablehlo.complex"(%lhs, %rhs) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %result, dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f64>>
  func.return
}

// -----

// divide
// divide: 17.1 / 3.0 (the spec lists 5.66666651, the quotient of 17.0 / 3.0).
// CHECK: PASS: @divide_spec
func.func @divide_spec() {
  %lhs = stablehlo.constant dense<[17.1, -17.1, 17.1, -17.1]> : tensor<4xf32>
  %rhs = stablehlo.constant dense<[3.0, 3.0, -3.0, -3.0]> : tensor<4xf32>
  %result = "stablehlo.divide"(%lhs, %rhs) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const %result, dense<[5.70000029, -5.70000029, -5.70000029, 5.70000029]> : tensor<4xf32>
  func.return
}

// -----

// CHECK: PASS: @maximum_spec
func.func @maximum_spec() {
  %lhs = stablehlo.constant dense<[[1, 2], [7, 8]]> : tensor<2x2xi32>
  %rhs = stablehlo.constant dense<[[5, 6], [3, 4]]> : tensor<2x2xi32>
  %result = "stablehlo.maximum"(%lhs, %rhs) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @minimum_spec
func.func @minimum_spec() {
  %lhs = stablehlo.constant dense<[[1, 2], [7, 8]]> : tensor<2x2xi32>
  %rhs = stablehlo.constant dense<[[5, 6], [3, 4]]> : tensor<2x2xi32>
  %result = "stablehlo.minimum"(%lhs, %rhs) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @multiply_spec
func.func @multiply_spec() {
  %lhs = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %rhs = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %result = "stablehlo.multiply"(%lhs, %rhs) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[5, 12], [21, 32]]> : tensor<2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @or_spec
func.func @or_spec() {
  %lhs = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %rhs = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %result = "stablehlo.or"(%lhs, %rhs) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[5, 6], [7, 12]]> : tensor<2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @or_spec_i1
func.func @or_spec_i1() {
  %lhs = stablehlo.constant dense<[[false, false], [true, true]]> : tensor<2x2xi1>
  %rhs = stablehlo.constant dense<[[false, true], [false, true]]> : tensor<2x2xi1>
  %result = "stablehlo.or"(%lhs, %rhs) : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %result, dense<[[false, true], [true, true]]> : tensor<2x2xi1>
  func.return
}

// -----

// power
// power: in f64, 10000^10 = 1e40 is finite (the spec lists inf, the f32
// result).
// CHECK: PASS: @power_spec
func.func @power_spec() {
  %lhs = stablehlo.constant dense<[-2.0, -0.0, -36.0, 5.0, 3.0, 10000.0]> : tensor<6xf64>
  %rhs = stablehlo.constant dense<[2.0, 2.0, 1.1, 2.0, -1.0, 10.0]> : tensor<6xf64>
  %result = "stablehlo.power"(%lhs, %rhs) : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xf64>
  check.expect_almost_eq_const %result, dense<[4.0, 0.0, 0x7FF8000000000000, 25.0, 0.333333343, 1.0e40]> : tensor<6xf64>
  func.return
}

// -----

// CHECK: PASS: @remainder_spec
func.func @remainder_spec() {
  %lhs = stablehlo.constant dense<[17, -17, 17, -17]> : tensor<4xi64>
  %rhs = stablehlo.constant dense<[3, 3, -3, -3]> : tensor<4xi64>
  %result = "stablehlo.remainder"(%lhs, %rhs) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  check.expect_eq_const %result, dense<[2, -2, 2, -2]> : tensor<4xi64>
  func.return
}

// -----

// CHECK: PASS: @select_spec
func.func @select_spec() {
  %pred = stablehlo.constant dense<[[false, true], [true, false]]> : tensor<2x2xi1>
  %on_true = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %on_false = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %result = "stablehlo.select"(%pred, %on_true, %on_false) : (tensor<2x2xi1>, tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[5, 2], [3, 8]]> : tensor<2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @subtract_spec
func.func @subtract_spec() {
  %lhs = stablehlo.constant dense<[[6.0, 8.0], [10.0, 12.0]]> : tensor<2x2xf32>
  %rhs = stablehlo.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %result = "stablehlo.subtract"(%lhs, %rhs) : (tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>)
  check.expect_eq_const %result, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// CHECK: PASS: @xor_spec
func.func @xor_spec() {
  %lhs = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %rhs = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %result = "stablehlo.xor"(%lhs, %rhs) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[[4, 4], [4, 12]]> : tensor<2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @xor_spec_i1
func.func @xor_spec_i1() {
  %lhs = stablehlo.constant dense<[[false, false], [true, true]]> : tensor<2x2xi1>
  %rhs = stablehlo.constant dense<[[false, true], [false, true]]> : tensor<2x2xi1>
  %result = "stablehlo.xor"(%lhs, %rhs) : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %result, dense<[[false, true], [true, false]]> : tensor<2x2xi1>
  func.return
}

// -----

// CHECK: PASS: @shift_left_spec
func.func @shift_left_spec() {
  %lhs = stablehlo.constant dense<[-1, 0, 1]> : tensor<3xi64>
  %rhs = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  %result = "stablehlo.shift_left"(%lhs, %rhs): (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  check.expect_eq_const %result, dense<[-2, 0, 8]> : tensor<3xi64>
  func.return
}

// -----

// CHECK: PASS: @shift_right_arithmetic_spec
func.func @shift_right_arithmetic_spec() {
  %lhs = stablehlo.constant dense<[-1, 0, 8]> : tensor<3xi64>
  %rhs = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  %result = "stablehlo.shift_right_arithmetic"(%lhs, %rhs): (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  check.expect_eq_const %result, dense<[-1, 0, 1]> : tensor<3xi64>
  func.return
}

// -----

// CHECK: PASS: @shift_right_logical_spec
func.func @shift_right_logical_spec() {
  %lhs = stablehlo.constant dense<[-1, 0, 8]> : tensor<3xi64>
  %rhs = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  %result = "stablehlo.shift_right_logical"(%lhs, %rhs): (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  check.expect_eq_const %result, dense<[9223372036854775807, 0, 1]> : tensor<3xi64>
  func.return
}

// -----

// Booleans: add is OR, multiply AND, subtract is not defined on i1 (its
// section allows integers and floats only), maximum OR, minimum AND.
// CHECK: PASS: @arith_i1
func.func @arith_i1() {
  %a = stablehlo.constant dense<[false, false, true, true]> : tensor<4xi1>
  %b = stablehlo.constant dense<[false, true, false, true]> : tensor<4xi1>
  %add = stablehlo.add %a, %b : tensor<4xi1>
  check.expect_eq_const %add, dense<[false, true, true, true]> : tensor<4xi1>
  %mul = stablehlo.multiply %a, %b : tensor<4xi1>
  check.expect_eq_const %mul, dense<[false, false, false, true]> : tensor<4xi1>
  %max = stablehlo.maximum %a, %b : tensor<4xi1>
  check.expect_eq_const %max, dense<[false, true, true, true]> : tensor<4xi1>
  %min = stablehlo.minimum %a, %b : tensor<4xi1>
  check.expect_eq_const %min, dense<[false, false, false, true]> : tensor<4xi1>
  func.return
}

// -----

// Integers wrap around at every width, signed and unsigned.
// CHECK: PASS: @arith_integer_widths
func.func @arith_integer_widths() {
  %a = stablehlo.constant dense<[127, -128, 100]> : tensor<3xi8>
  %b = stablehlo.constant dense<[1, -1, 100]> : tensor<3xi8>
  %add = stablehlo.add %a, %b : tensor<3xi8>
  check.expect_eq_const %add, dense<[-128, 127, -56]> : tensor<3xi8>
  %mul = stablehlo.multiply %a, %b : tensor<3xi8>
  check.expect_eq_const %mul, dense<[127, -128, 16]> : tensor<3xi8>
  %u = stablehlo.constant dense<[250, 3]> : tensor<2xui8>
  %v = stablehlo.constant dense<[10, 5]> : tensor<2xui8>
  %uadd = stablehlo.add %u, %v : tensor<2xui8>
  check.expect_eq_const %uadd, dense<[4, 8]> : tensor<2xui8>
  %usub = stablehlo.subtract %u, %v : tensor<2xui8>
  check.expect_eq_const %usub, dense<[240, 254]> : tensor<2xui8>
  %umax = stablehlo.maximum %u, %v : tensor<2xui8>
  check.expect_eq_const %umax, dense<[250, 5]> : tensor<2xui8>
  %c = stablehlo.constant dense<[32767, 2]> : tensor<2xi16>
  %d = stablehlo.constant dense<[2, -3]> : tensor<2xi16>
  %cmul = stablehlo.multiply %c, %d : tensor<2xi16>
  check.expect_eq_const %cmul, dense<[-2, -6]> : tensor<2xi16>
  %e = stablehlo.constant dense<[65535, 7]> : tensor<2xui16>
  %f = stablehlo.constant dense<[2, 2]> : tensor<2xui16>
  %emul = stablehlo.multiply %e, %f : tensor<2xui16>
  check.expect_eq_const %emul, dense<[65534, 14]> : tensor<2xui16>
  %g = stablehlo.constant dense<[4294967295, 1]> : tensor<2xui32>
  %gadd = stablehlo.add %g, %g : tensor<2xui32>
  check.expect_eq_const %gadd, dense<[4294967294, 2]> : tensor<2xui32>
  %h = stablehlo.constant dense<9223372036854775807> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %hadd = stablehlo.add %h, %one : tensor<i64>
  check.expect_eq_const %hadd, dense<-9223372036854775808> : tensor<i64>
  %k = stablehlo.constant dense<[18446744073709551615, 10]> : tensor<2xui64>
  %l = stablehlo.constant dense<[2, 20]> : tensor<2xui64>
  %kadd = stablehlo.add %k, %l : tensor<2xui64>
  check.expect_eq_const %kadd, dense<[1, 30]> : tensor<2xui64>
  %ksub = stablehlo.subtract %k, %l : tensor<2xui64>
  check.expect_eq_const %ksub, dense<[18446744073709551613, 18446744073709551606]> : tensor<2xui64>
  %kmin = stablehlo.minimum %k, %l : tensor<2xui64>
  check.expect_eq_const %kmin, dense<[2, 10]> : tensor<2xui64>
  func.return
}

// -----

// Integer division truncates toward zero; the remainder takes the dividend's
// sign; unsigned operands divide as unsigned.
// CHECK: PASS: @divide_remainder_integers
func.func @divide_remainder_integers() {
  %a = stablehlo.constant dense<[-7, 7, -7, 7]> : tensor<4xi32>
  %b = stablehlo.constant dense<[2, -2, -2, 2]> : tensor<4xi32>
  %q = stablehlo.divide %a, %b : tensor<4xi32>
  check.expect_eq_const %q, dense<[-3, -3, 3, 3]> : tensor<4xi32>
  %r = stablehlo.remainder %a, %b : tensor<4xi32>
  check.expect_eq_const %r, dense<[-1, 1, -1, 1]> : tensor<4xi32>
  %u = stablehlo.constant dense<[200, 255]> : tensor<2xui8>
  %v = stablehlo.constant dense<[3, 16]> : tensor<2xui8>
  %uq = stablehlo.divide %u, %v : tensor<2xui8>
  check.expect_eq_const %uq, dense<[66, 15]> : tensor<2xui8>
  %ur = stablehlo.remainder %u, %v : tensor<2xui8>
  check.expect_eq_const %ur, dense<[2, 15]> : tensor<2xui8>
  %c = stablehlo.constant dense<[-100, 100]> : tensor<2xi8>
  %d = stablehlo.constant dense<[7, -7]> : tensor<2xi8>
  %cr = stablehlo.remainder %c, %d : tensor<2xi8>
  check.expect_eq_const %cr, dense<[-2, 2]> : tensor<2xi8>
  func.return
}

// -----

// CHECK: PASS: @remainder_floats
func.func @remainder_floats() {
  %a = stablehlo.constant dense<[5.5, -5.5, 5.5, -0.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[2.0, 2.0, -2.0, 3.0]> : tensor<4xf32>
  %r = stablehlo.remainder %a, %b : tensor<4xf32>
  check.expect_eq_const %r, dense<[1.5, -1.5, 1.5, -0.0]> : tensor<4xf32>
  %h = stablehlo.constant dense<[7.0, -7.5]> : tensor<2xf16>
  %k = stablehlo.constant dense<[2.0, 2.0]> : tensor<2xf16>
  %rh = stablehlo.remainder %h, %k : tensor<2xf16>
  check.expect_eq_const %rh, dense<[1.0, -1.5]> : tensor<2xf16>
  func.return
}

// -----

// f16 and bf16 round each result once to the nearest representable value.
// CHECK: PASS: @arith_f16_bf16
func.func @arith_f16_bf16() {
  %a = stablehlo.constant dense<[1.0, 65504.0, 0.1]> : tensor<3xf16>
  %b = stablehlo.constant dense<[0.0004882813, 65504.0, 0.2]> : tensor<3xf16>
  %add = stablehlo.add %a, %b : tensor<3xf16>
  // 1 + 2^-11 is a tie: to even (1.0); 65504 + 65504 overflows to inf.
  check.expect_eq_const %add, dense<[1.0, 0x7C00, 0.2998]> : tensor<3xf16>
  %c = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xbf16>
  %d = stablehlo.constant dense<[0.00390625, 7.0]> : tensor<2xbf16>
  %cadd = stablehlo.add %c, %d : tensor<2xbf16>
  check.expect_eq_const %cadd, dense<[1.0, 10.0]> : tensor<2xbf16>
  %cdiv = stablehlo.divide %c, %d : tensor<2xbf16>
  check.expect_eq_const %cdiv, dense<[256.0, 0.427734375]> : tensor<2xbf16>
  func.return
}

// -----

// IEEE maximum and minimum: NaN wins, -0.0 < +0.0.
// CHECK: PASS: @maximum_minimum_floats
func.func @maximum_minimum_floats() {
  %a = stablehlo.constant dense<[0x7FC00000, 1.0, -0.0, 2.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[1.0, 0x7FC00000, 0.0, -3.0]> : tensor<4xf32>
  %max = stablehlo.maximum %a, %b : tensor<4xf32>
  %min = stablehlo.minimum %a, %b : tensor<4xf32>
  %max_bits = stablehlo.bitcast_convert %max : (tensor<4xf32>) -> tensor<4xi32>
  %min_bits = stablehlo.bitcast_convert %min : (tensor<4xf32>) -> tensor<4xi32>
  %max_nan = stablehlo.compare NE, %max, %max : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %min_nan = stablehlo.compare NE, %min, %min : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %max_nan, dense<[true, true, false, false]> : tensor<4xi1>
  check.expect_eq_const %min_nan, dense<[true, true, false, false]> : tensor<4xi1>
  %max_rest = stablehlo.slice %max_bits [2:4] : (tensor<4xi32>) -> tensor<2xi32>
  %min_rest = stablehlo.slice %min_bits [2:4] : (tensor<4xi32>) -> tensor<2xi32>
  // +0.0, 2.0 and -0.0, -3.0 bit for bit.
  check.expect_eq_const %max_rest, dense<[0, 1073741824]> : tensor<2xi32>
  check.expect_eq_const %min_rest, dense<[-2147483648, -1069547520]> : tensor<2xi32>
  func.return
}

// -----

// Complex maximum and minimum order (real, imag) pairs lexicographically.
// CHECK: PASS: @maximum_minimum_complex
func.func @maximum_minimum_complex() {
  %a = stablehlo.constant dense<[(1.0, 5.0), (2.0, 1.0), (3.0, -1.0)]> : tensor<3xcomplex<f32>>
  %b = stablehlo.constant dense<[(1.0, 6.0), (1.0, 9.0), (3.0, -2.0)]> : tensor<3xcomplex<f32>>
  %max = stablehlo.maximum %a, %b : tensor<3xcomplex<f32>>
  check.expect_eq_const %max, dense<[(1.0, 6.0), (2.0, 1.0), (3.0, -1.0)]> : tensor<3xcomplex<f32>>
  %min = stablehlo.minimum %a, %b : tensor<3xcomplex<f32>>
  check.expect_eq_const %min, dense<[(1.0, 5.0), (1.0, 9.0), (3.0, -2.0)]> : tensor<3xcomplex<f32>>
  func.return
}

// -----

// CHECK: PASS: @arith_complex
func.func @arith_complex() {
  %a = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f64>>
  %b = stablehlo.constant dense<[(0.5, -1.0), (0.0, 2.0)]> : tensor<2xcomplex<f64>>
  %add = stablehlo.add %a, %b : tensor<2xcomplex<f64>>
  check.expect_eq_const %add, dense<[(1.5, 1.0), (3.0, -2.0)]> : tensor<2xcomplex<f64>>
  %sub = stablehlo.subtract %a, %b : tensor<2xcomplex<f64>>
  check.expect_eq_const %sub, dense<[(0.5, 3.0), (3.0, -6.0)]> : tensor<2xcomplex<f64>>
  %mul = stablehlo.multiply %a, %b : tensor<2xcomplex<f64>>
  check.expect_eq_const %mul, dense<[(2.5, 0.0), (8.0, 6.0)]> : tensor<2xcomplex<f64>>
  %div = stablehlo.divide %a, %b : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %div, dense<[(-1.2, 1.6), (-2.0, -1.5)]> : tensor<2xcomplex<f64>>
  %pow = stablehlo.power %a, %b : tensor<2xcomplex<f64>>
  // (1+2i)^(0.5-i) and (3-4i)^(2i), principal branch.
  check.expect_almost_eq_const %pow, dense<[(4.382565059863358, -1.1243974773611554), (-6.370010476388693, -0.49327706538073424)]> : tensor<2xcomplex<f64>>
  func.return
}

// -----

// Integer power: repeated multiplication (wrapping); a negative exponent
// gives 0 except for bases 1 and -1.
// CHECK: PASS: @power_integers
func.func @power_integers() {
  %a = stablehlo.constant dense<[2, -2, 3, 1, -1, 2, 0]> : tensor<7xi32>
  %b = stablehlo.constant dense<[10, 3, 0, -5, -3, -1, 0]> : tensor<7xi32>
  %p = stablehlo.power %a, %b : tensor<7xi32>
  check.expect_eq_const %p, dense<[1024, -8, 1, 1, -1, 0, 1]> : tensor<7xi32>
  %u = stablehlo.constant dense<[2, 3]> : tensor<2xui8>
  %v = stablehlo.constant dense<[9, 5]> : tensor<2xui8>
  %pu = stablehlo.power %u, %v : tensor<2xui8>
  check.expect_eq_const %pu, dense<[0, 243]> : tensor<2xui8>
  func.return
}

// -----

// CHECK: PASS: @atan2_types
func.func @atan2_types() {
  %y = stablehlo.constant dense<[1.0, -1.0, 0.0]> : tensor<3xf16>
  %x = stablehlo.constant dense<[1.0, -1.0, -1.0]> : tensor<3xf16>
  %r = stablehlo.atan2 %y, %x : tensor<3xf16>
  %expected = stablehlo.constant dense<[0.785, -2.355, 3.14]> : tensor<3xf16>
  check.expect_close %r, %expected, max_ulp_difference = 1 : tensor<3xf16>, tensor<3xf16>
  %a = stablehlo.constant dense<(1.0, 0.0)> : tensor<complex<f64>>
  %b = stablehlo.constant dense<(1.0, 0.0)> : tensor<complex<f64>>
  %c = stablehlo.atan2 %a, %b : tensor<complex<f64>>
  check.expect_almost_eq_const %c, dense<(0.78539816339744828, 0.0)> : tensor<complex<f64>>
  func.return
}

// -----

// Compare on every kind of element: unsigned order, booleans, TOTALORDER
// (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN), and complex pairs
// ordered lexicographically.
// CHECK: PASS: @compare_types
func.func @compare_types() {
  %u = stablehlo.constant dense<[200, 1]> : tensor<2xui8>
  %v = stablehlo.constant dense<[1, 200]> : tensor<2xui8>
  %gt = stablehlo.compare GT, %u, %v, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  check.expect_eq_const %gt, dense<[true, false]> : tensor<2xi1>
  %s = stablehlo.constant dense<[-56, 1]> : tensor<2xi8>
  %t = stablehlo.constant dense<[1, -56]> : tensor<2xi8>
  %lt = stablehlo.compare LT, %s, %t, SIGNED : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi1>
  check.expect_eq_const %lt, dense<[true, false]> : tensor<2xi1>
  %p = stablehlo.constant dense<[false, true, true]> : tensor<3xi1>
  %q = stablehlo.constant dense<[true, true, false]> : tensor<3xi1>
  %ge = stablehlo.compare GE, %p, %q : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  check.expect_eq_const %ge, dense<[false, true, true]> : tensor<3xi1>
  %x = stablehlo.constant dense<[-0.0, 0xFFC00000, 0x7FC00000, 1.0]> : tensor<4xf32>
  %y = stablehlo.constant dense<[0.0, 0xFF800000, 0x7F800000, 1.0]> : tensor<4xf32>
  %total = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %total, dense<[true, true, false, false]> : tensor<4xi1>
  %float = stablehlo.compare LT, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %float, dense<[false, false, false, false]> : tensor<4xi1>
  %eq = stablehlo.compare EQ, %x, %y, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %eq, dense<[false, false, false, true]> : tensor<4xi1>
  %feq = stablehlo.compare EQ, %x, %y, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %feq, dense<[true, false, false, true]> : tensor<4xi1>
  %fne = stablehlo.compare NE, %x, %x, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %fne, dense<[false, true, true, false]> : tensor<4xi1>
  %z = stablehlo.constant dense<[(1.0, 5.0), (2.0, 1.0), (3.0, 1.0)]> : tensor<3xcomplex<f32>>
  %w = stablehlo.constant dense<[(1.0, 6.0), (1.0, 9.0), (3.0, 1.0)]> : tensor<3xcomplex<f32>>
  %zlt = stablehlo.compare LT, %z, %w : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  check.expect_eq_const %zlt, dense<[true, false, false]> : tensor<3xi1>
  %zge = stablehlo.compare GE, %z, %w : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  check.expect_eq_const %zge, dense<[false, true, true]> : tensor<3xi1>
  %zeq = stablehlo.compare EQ, %z, %w : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  check.expect_eq_const %zeq, dense<[false, false, true]> : tensor<3xi1>
  func.return
}

// -----

// Shift amounts at or past the bit width: 0 for the left and logical
// shifts, the sign for the arithmetic one; negative amounts count as
// past the width.
// CHECK: PASS: @shifts_widths
func.func @shifts_widths() {
  %a = stablehlo.constant dense<[-128, 1, 64, -1]> : tensor<4xi8>
  %n = stablehlo.constant dense<[1, 8, 9, -1]> : tensor<4xi8>
  %l = stablehlo.shift_left %a, %n : tensor<4xi8>
  check.expect_eq_const %l, dense<[0, 0, 0, 0]> : tensor<4xi8>
  %ra = stablehlo.shift_right_arithmetic %a, %n : tensor<4xi8>
  check.expect_eq_const %ra, dense<[-64, 0, 0, -1]> : tensor<4xi8>
  %rl = stablehlo.shift_right_logical %a, %n : tensor<4xi8>
  check.expect_eq_const %rl, dense<[64, 0, 0, 0]> : tensor<4xi8>
  %u = stablehlo.constant dense<[128, 255]> : tensor<2xui8>
  %m = stablehlo.constant dense<[1, 4]> : tensor<2xui8>
  // The arithmetic shift copies the top bit whatever the signedness.
  %ur = stablehlo.shift_right_arithmetic %u, %m : tensor<2xui8>
  check.expect_eq_const %ur, dense<[192, 255]> : tensor<2xui8>
  %ul = stablehlo.shift_left %u, %m : tensor<2xui8>
  check.expect_eq_const %ul, dense<[0, 240]> : tensor<2xui8>
  %w = stablehlo.constant dense<[1, -2147483648]> : tensor<2xi32>
  %k = stablehlo.constant dense<[31, 31]> : tensor<2xi32>
  %wl = stablehlo.shift_left %w, %k : tensor<2xi32>
  check.expect_eq_const %wl, dense<[-2147483648, 0]> : tensor<2xi32>
  %wr = stablehlo.shift_right_arithmetic %w, %k : tensor<2xi32>
  check.expect_eq_const %wr, dense<[0, -1]> : tensor<2xi32>
  func.return
}

// -----

// CHECK: PASS: @bitwise_widths
func.func @bitwise_widths() {
  %a = stablehlo.constant dense<[12, -1]> : tensor<2xi8>
  %b = stablehlo.constant dense<[10, 85]> : tensor<2xi8>
  %and = stablehlo.and %a, %b : tensor<2xi8>
  check.expect_eq_const %and, dense<[8, 85]> : tensor<2xi8>
  %u = stablehlo.constant dense<[61680, 255]> : tensor<2xui16>
  %v = stablehlo.constant dense<[3855, 65280]> : tensor<2xui16>
  %or = stablehlo.or %u, %v : tensor<2xui16>
  check.expect_eq_const %or, dense<[65535, 65535]> : tensor<2xui16>
  %xor = stablehlo.xor %u, %v : tensor<2xui16>
  check.expect_eq_const %xor, dense<[65535, 65535]> : tensor<2xui16>
  %p = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %q = stablehlo.constant dense<[true, true]> : tensor<2xi1>
  %pand = stablehlo.and %p, %q : tensor<2xi1>
  check.expect_eq_const %pand, dense<[true, false]> : tensor<2xi1>
  %x = stablehlo.constant dense<12297829382473034410> : tensor<ui64>
  %y = stablehlo.constant dense<6148914691236517205> : tensor<ui64>
  %xy = stablehlo.xor %x, %y : tensor<ui64>
  check.expect_eq_const %xy, dense<18446744073709551615> : tensor<ui64>
  func.return
}

// -----

// clamp with rank-0 bounds broadcasts them; floats, and unsigned.
// CHECK: PASS: @clamp_scalar_bounds
func.func @clamp_scalar_bounds() {
  %lo = stablehlo.constant dense<-1.0> : tensor<f32>
  %hi = stablehlo.constant dense<1.0> : tensor<f32>
  %x = stablehlo.constant dense<[-3.0, 0.5, 2.0]> : tensor<3xf32>
  %c = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %c, dense<[-1.0, 0.5, 1.0]> : tensor<3xf32>
  %ulo = stablehlo.constant dense<10> : tensor<ui8>
  %uhi = stablehlo.constant dense<200> : tensor<ui8>
  %u = stablehlo.constant dense<[0, 100, 255]> : tensor<3xui8>
  %cu = "stablehlo.clamp"(%ulo, %u, %uhi) : (tensor<ui8>, tensor<3xui8>, tensor<ui8>) -> tensor<3xui8>
  check.expect_eq_const %cu, dense<[10, 100, 200]> : tensor<3xui8>
  %bmin = stablehlo.constant dense<[0.0, 0.0]> : tensor<2xbf16>
  %bmax = stablehlo.constant dense<[6.0, 6.0]> : tensor<2xbf16>
  %b = stablehlo.constant dense<[-1.0, 7.0]> : tensor<2xbf16>
  %cb = stablehlo.clamp %bmin, %b, %bmax : tensor<2xbf16>
  check.expect_eq_const %cb, dense<[0.0, 6.0]> : tensor<2xbf16>
  func.return
}

// -----

// select with a rank-0 predicate picks a whole tensor.
// CHECK: PASS: @select_scalar_pred
func.func @select_scalar_pred() {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %a = stablehlo.constant dense<[(1.0, 1.0), (2.0, 2.0)]> : tensor<2xcomplex<f32>>
  %b = stablehlo.constant dense<[(3.0, 3.0), (4.0, 4.0)]> : tensor<2xcomplex<f32>>
  %r = stablehlo.select %t, %a, %b : (tensor<i1>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  check.expect_eq_const %r, dense<[(1.0, 1.0), (2.0, 2.0)]> : tensor<2xcomplex<f32>>
  %p = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %y = stablehlo.constant dense<[3, 4]> : tensor<2xui64>
  %s = "stablehlo.select"(%p, %x, %y) : (tensor<2xi1>, tensor<2xui64>, tensor<2xui64>) -> tensor<2xui64>
  check.expect_eq_const %s, dense<[1, 4]> : tensor<2xui64>
  func.return
}

// -----

// Rank 0 and zero elements, generic and pretty forms.
// CHECK: PASS: @binary_rank0_and_empty
func.func @binary_rank0_and_empty() {
  %a = stablehlo.constant dense<2.5> : tensor<f64>
  %b = stablehlo.constant dense<-1.0> : tensor<f64>
  %add = "stablehlo.add"(%a, %b) : (tensor<f64>, tensor<f64>) -> tensor<f64>
  check.expect_eq_const %add, dense<1.5> : tensor<f64>
  %mul = stablehlo.multiply %a, %b : tensor<f64>
  check.expect_eq_const %mul, dense<-2.5> : tensor<f64>
  %e = stablehlo.constant dense<> : tensor<0x3xi32>
  %sum = stablehlo.add %e, %e : tensor<0x3xi32>
  check.expect_eq_const %sum, dense<> : tensor<0x3xi32>
  %cmp = "stablehlo.compare"(%e, %e) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<0x3xi32>, tensor<0x3xi32>) -> tensor<0x3xi1>
  check.expect_eq_const %cmp, dense<> : tensor<0x3xi1>
  %c = stablehlo.complex %a, %b : tensor<complex<f64>>
  check.expect_eq_const %c, dense<(2.5, -1.0)> : tensor<complex<f64>>
  func.return
}

// -----

// CHECK: PASS: @complex_f32
func.func @complex_f32() {
  %re = stablehlo.constant dense<[1.5, -0.0]> : tensor<2xf32>
  %im = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %z = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>
  check.expect_eq_const %z, dense<[(1.5, 2.0), (-0.0, 3.0)]> : tensor<2xcomplex<f32>>
  func.return
}
