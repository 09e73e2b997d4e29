// Arithmetic, comparisons and conversions on the narrow element types:
// floats narrower than f32 (and tf32) are computed in f32 and rounded back
// to nearest even after every op; i2/i4/ui2/ui4 wrap after every op.
// RUN: mpmd interpret -split-input-file %s | FileCheck %s

// CHECK: PASS: @bf16_rounds_after_each_op
func.func @bf16_rounds_after_each_op() {
  // 1 + 2^-8 is halfway between 1 and the next bf16 (1 + 2^-7): ties to
  // even give 1; 1 + 3 * 2^-8 goes up to 1 + 2^-6.
  %one = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xbf16>
  %d = stablehlo.constant dense<[0.00390625, 0.01171875]> : tensor<2xbf16>
  %sum = stablehlo.add %one, %d : tensor<2xbf16>
  check.expect_eq_const %sum, dense<[1.0, 1.015625]> : tensor<2xbf16>
  // Two adds round twice: (1 + 2^-8) + 2^-8 is 1 + 2^-8 + 2^-8 rounded after
  // each, so 1 then 1 again.
  %twice = stablehlo.add %sum, %d : tensor<2xbf16>
  check.expect_eq_const %twice, dense<[1.0, 1.03125]> : tensor<2xbf16>
  func.return
}

// -----

// CHECK: PASS: @f16_overflow_and_subnormals
func.func @f16_overflow_and_subnormals() {
  %big = stablehlo.constant dense<[65504.0, 6.103515625e-05]> : tensor<2xf16>
  %two = stablehlo.constant dense<[2.0, 0.5]> : tensor<2xf16>
  %product = stablehlo.multiply %big, %two : tensor<2xf16>
  // 65504 * 2 overflows to inf; the smallest normal halved is subnormal.
  check.expect_eq_const %product, dense<[0x7C00, 3.0517578125e-05]> : tensor<2xf16>
  func.return
}

// -----

// CHECK: PASS: @tf32_keeps_ten_mantissa_bits
func.func @tf32_keeps_ten_mantissa_bits() {
  %one = stablehlo.constant dense<[1.0, 1.0, 3.0e38]> : tensor<3xtf32>
  // 2^-11 (a tie: stays 1), 3 * 2^-11 (up to 1 + 2^-9), and an overflow.
  %d = stablehlo.constant dense<[0.00048828125, 0.00146484375, 3.0e38]> : tensor<3xtf32>
  %sum = stablehlo.add %one, %d : tensor<3xtf32>
  %wide = stablehlo.convert %sum : (tensor<3xtf32>) -> tensor<3xf32>
  check.expect_eq_const %wide, dense<[1.0, 1.001953125, 0x7F800000]> : tensor<3xf32>
  // f32 to tf32 rounds to nearest even.
  %x = stablehlo.constant dense<[1.00048828125, 1.000732421875]> : tensor<2xf32>
  %narrow = stablehlo.convert %x : (tensor<2xf32>) -> tensor<2xtf32>
  check.expect_eq_const %narrow, dense<[1.0, 1.0009765625]> : tensor<2xtf32>
  func.return
}

// -----

// CHECK: PASS: @f8E4M3FN_has_no_infinity
func.func @f8E4M3FN_has_no_infinity() {
  %a = stablehlo.constant dense<[448.0, 448.0, 2.0, -3.0]> : tensor<4xf8E4M3FN>
  %b = stablehlo.constant dense<[16.0, 32.0, 0.125, 0.25]> : tensor<4xf8E4M3FN>
  // 464 is a tie between 448 and 480 (past the largest, NaN): even is 448;
  // 480 is NaN; 2.125 ties to 2; -2.75 is exact.
  %sum = stablehlo.add %a, %b : tensor<4xf8E4M3FN>
  %bits = stablehlo.bitcast_convert %sum : (tensor<4xf8E4M3FN>) -> tensor<4xui8>
  check.expect_eq_const %bits, dense<[0x7E, 0x7F, 0x40, 0xC3]> : tensor<4xui8>
  %max = stablehlo.maximum %a, %b : tensor<4xf8E4M3FN>
  check.expect_eq_const %max, dense<[448.0, 448.0, 2.0, 0.25]> : tensor<4xf8E4M3FN>
  %lt = stablehlo.compare LT, %a, %b : (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) -> tensor<4xi1>
  check.expect_eq_const %lt, dense<[false, false, false, true]> : tensor<4xi1>
  func.return
}

// -----

// CHECK: PASS: @f8E5M2_overflows_to_inf
func.func @f8E5M2_overflows_to_inf() {
  %a = stablehlo.constant dense<[57344.0, -57344.0, 1.5]> : tensor<3xf8E5M2>
  %b = stablehlo.constant dense<[2.0, 2.0, 1.5]> : tensor<3xf8E5M2>
  %product = stablehlo.multiply %a, %b : tensor<3xf8E5M2>
  // 1.5 * 1.5 = 2.25 is a tie between 2 and 2.5: even is 2.
  check.expect_eq_const %product, dense<[0x7C, 0xFC, 2.0]> : tensor<3xf8E5M2>
  %finite = stablehlo.is_finite %product : (tensor<3xf8E5M2>) -> tensor<3xi1>
  check.expect_eq_const %finite, dense<[false, false, true]> : tensor<3xi1>
  func.return
}

// -----

// CHECK: PASS: @fnuz_types_have_one_zero_and_one_nan
func.func @fnuz_types_have_one_zero_and_one_nan() {
  %a = stablehlo.constant dense<[1.0, 240.0, 0.0]> : tensor<3xf8E4M3FNUZ>
  %neg = stablehlo.negate %a : tensor<3xf8E4M3FNUZ>
  %bits = stablehlo.bitcast_convert %neg : (tensor<3xf8E4M3FNUZ>) -> tensor<3xui8>
  // -0 is +0 (0x00); 0x80 is the NaN.
  check.expect_eq_const %bits, dense<[0xC0, 0xFF, 0x00]> : tensor<3xui8>
  %two = stablehlo.constant dense<2.0> : tensor<3xf8E4M3FNUZ>
  %over = stablehlo.multiply %a, %two : tensor<3xf8E4M3FNUZ>
  %overBits = stablehlo.bitcast_convert %over : (tensor<3xf8E4M3FNUZ>) -> tensor<3xui8>
  check.expect_eq_const %overBits, dense<[0x48, 0x80, 0x00]> : tensor<3xui8>
  %b11 = stablehlo.constant dense<[30.0, 0.5]> : tensor<2xf8E4M3B11FNUZ>
  %b11sum = stablehlo.add %b11, %b11 : tensor<2xf8E4M3B11FNUZ>
  %b11bits = stablehlo.bitcast_convert %b11sum : (tensor<2xf8E4M3B11FNUZ>) -> tensor<2xui8>
  check.expect_eq_const %b11bits, dense<[0x80, 0x58]> : tensor<2xui8>
  %e5 = stablehlo.constant dense<[57344.0, -1.0]> : tensor<2xf8E5M2FNUZ>
  %e5sum = stablehlo.add %e5, %e5 : tensor<2xf8E5M2FNUZ>
  %e5bits = stablehlo.bitcast_convert %e5sum : (tensor<2xf8E5M2FNUZ>) -> tensor<2xui8>
  check.expect_eq_const %e5bits, dense<[0x80, 0xC4]> : tensor<2xui8>
  func.return
}

// -----

// CHECK: PASS: @f8E3M4_and_f8E4M3
func.func @f8E3M4_and_f8E4M3() {
  %a = stablehlo.constant dense<[15.5, 1.0, 0.015625]> : tensor<3xf8E3M4>
  %b = stablehlo.constant dense<[0.5, 0.03125, 0.5]> : tensor<3xf8E3M4>
  // 16 is past the largest (15.5): inf; 1.03125 and 0.515625 tie to 1 and
  // 0.5; the product of the smallest subnormal and 0.5 ties to 0.
  %sum = stablehlo.add %a, %b : tensor<3xf8E3M4>
  check.expect_eq_const %sum, dense<[0x70, 1.0, 0.5]> : tensor<3xf8E3M4>
  %product = stablehlo.multiply %a, %b : tensor<3xf8E3M4>
  check.expect_eq_const %product, dense<[7.75, 0.03125, 0.0]> : tensor<3xf8E3M4>
  %c = stablehlo.constant dense<[240.0, -0.001953125]> : tensor<2xf8E4M3>
  %d = stablehlo.constant dense<[16.0, 0.5]> : tensor<2xf8E4M3>
  %e = stablehlo.add %c, %d : tensor<2xf8E4M3>
  check.expect_eq_const %e, dense<[0x78, 0.5]> : tensor<2xf8E4M3>
  %f = stablehlo.multiply %c, %d : tensor<2xf8E4M3>
  %fbits = stablehlo.bitcast_convert %f : (tensor<2xf8E4M3>) -> tensor<2xui8>
  // -2^-10 ties to -0 (0x80).
  check.expect_eq_const %fbits, dense<[0x78, 0x80]> : tensor<2xui8>
  func.return
}

// -----

// CHECK: PASS: @f8E8M0FNU_powers_of_two
func.func @f8E8M0FNU_powers_of_two() {
  %a = stablehlo.constant dense<[2.0, 0.25, 1.0]> : tensor<3xf8E8M0FNU>
  %b = stablehlo.constant dense<[4.0, 0.5, 2.0]> : tensor<3xf8E8M0FNU>
  // 8, 0.125; 1 + 2 = 3 is halfway (in f8E8M0FNU's one-bit precision)
  // between 2 and 4 and rounds up to 4.
  %product = stablehlo.multiply %a, %b : tensor<3xf8E8M0FNU>
  check.expect_eq_const %product, dense<[8.0, 0.125, 2.0]> : tensor<3xf8E8M0FNU>
  %sum = stablehlo.add %a, %b : tensor<3xf8E8M0FNU>
  check.expect_eq_const %sum, dense<[8.0, 1.0, 4.0]> : tensor<3xf8E8M0FNU>
  // No sign: a negative result is NaN.
  %diff = stablehlo.subtract %a, %b : tensor<3xf8E8M0FNU>
  %bits = stablehlo.bitcast_convert %diff : (tensor<3xf8E8M0FNU>) -> tensor<3xui8>
  check.expect_eq_const %bits, dense<[0xFF, 0xFF, 0xFF]> : tensor<3xui8>
  func.return
}

// -----

// CHECK: PASS: @f4_f6_saturate
func.func @f4_f6_saturate() {
  %a = stablehlo.constant dense<[4.0, 6.0, 0.5, -1.5]> : tensor<4xf4E2M1FN>
  %b = stablehlo.constant dense<[2.0, 1.0, 0.5, -1.5]> : tensor<4xf4E2M1FN>
  // 7 is past the largest (6), which it saturates to; -3 is exact.
  %sum = stablehlo.add %a, %b : tensor<4xf4E2M1FN>
  check.expect_eq_const %sum, dense<[6.0, 6.0, 1.0, -3.0]> : tensor<4xf4E2M1FN>
  %bits = stablehlo.bitcast_convert %sum : (tensor<4xf4E2M1FN>) -> tensor<4xui4>
  check.expect_eq_const %bits, dense<[7, 7, 2, 13]> : tensor<4xui4>
  %c = stablehlo.constant dense<[7.5, 0.125]> : tensor<2xf6E2M3FN>
  %csum = stablehlo.add %c, %c : tensor<2xf6E2M3FN>
  check.expect_eq_const %csum, dense<[7.5, 0.25]> : tensor<2xf6E2M3FN>
  %d = stablehlo.constant dense<[28.0, 0.0625]> : tensor<2xf6E3M2FN>
  %dprod = stablehlo.multiply %d, %d : tensor<2xf6E3M2FN>
  // 2^-8 is below half the smallest subnormal (2^-4): 0.
  check.expect_eq_const %dprod, dense<[28.0, 0.0]> : tensor<2xf6E3M2FN>
  func.return
}

// -----

// CHECK: PASS: @narrow_float_dot_and_reduce
func.func @narrow_float_dot_and_reduce() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf8E4M3FN>
  %dot = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<2x2xf8E4M3FN>, tensor<2x2xf8E4M3FN>) -> tensor<2x2xf8E4M3FN>
  check.expect_eq_const %dot, dense<[[7.0, 10.0], [15.0, 22.0]]> : tensor<2x2xf8E4M3FN>
  %zero = stablehlo.constant dense<0.0> : tensor<f8E4M3FN>
  %sum = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<2x2xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<2xf8E4M3FN>
  check.expect_eq_const %sum, dense<[4.0, 6.0]> : tensor<2xf8E4M3FN>
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x2xf8E4M3FN>) -> tensor<2x2xf8E4M3FN>
  check.expect_eq_const %t, dense<[[1.0, 3.0], [2.0, 4.0]]> : tensor<2x2xf8E4M3FN>
  func.return
}

// -----

// CHECK: PASS: @sub_byte_integers_wrap
func.func @sub_byte_integers_wrap() {
  %a = stablehlo.constant dense<[7, -8, -1, 3]> : tensor<4xi4>
  %b = stablehlo.constant dense<[1, -1, -1, 3]> : tensor<4xi4>
  %sum = stablehlo.add %a, %b : tensor<4xi4>
  check.expect_eq_const %sum, dense<[-8, 7, -2, 6]> : tensor<4xi4>
  %product = stablehlo.multiply %a, %b : tensor<4xi4>
  check.expect_eq_const %product, dense<[7, -8, 1, -7]> : tensor<4xi4>
  %quotient = stablehlo.divide %a, %b : tensor<4xi4>
  check.expect_eq_const %quotient, dense<[7, -8, 1, 1]> : tensor<4xi4>
  %neg = stablehlo.negate %a : tensor<4xi4>
  check.expect_eq_const %neg, dense<[-7, -8, 1, -3]> : tensor<4xi4>
  %popcnt = stablehlo.popcnt %a : tensor<4xi4>
  check.expect_eq_const %popcnt, dense<[3, 1, 4, 2]> : tensor<4xi4>
  %clz = stablehlo.count_leading_zeros %a : tensor<4xi4>
  check.expect_eq_const %clz, dense<[1, 0, 0, 2]> : tensor<4xi4>
  %one = stablehlo.constant dense<1> : tensor<4xi4>
  %srl = stablehlo.shift_right_logical %a, %one : tensor<4xi4>
  check.expect_eq_const %srl, dense<[3, 4, 7, 1]> : tensor<4xi4>
  %sra = stablehlo.shift_right_arithmetic %a, %one : tensor<4xi4>
  check.expect_eq_const %sra, dense<[3, -4, -1, 1]> : tensor<4xi4>
  %shl = stablehlo.shift_left %a, %one : tensor<4xi4>
  check.expect_eq_const %shl, dense<[-2, 0, -2, 6]> : tensor<4xi4>
  %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<4xi4>, tensor<4xi4>) -> tensor<4xi1>
  check.expect_eq_const %lt, dense<[false, true, false, false]> : tensor<4xi1>
  %u = stablehlo.constant dense<[15, 3]> : tensor<2xui4>
  %u1 = stablehlo.constant dense<[1, 14]> : tensor<2xui4>
  %usum = stablehlo.add %u, %u1 : tensor<2xui4>
  check.expect_eq_const %usum, dense<[0, 1]> : tensor<2xui4>
  %i2 = stablehlo.constant dense<[1, -2]> : tensor<2xi2>
  %i2sum = stablehlo.add %i2, %i2 : tensor<2xi2>
  check.expect_eq_const %i2sum, dense<[-2, 0]> : tensor<2xi2>
  %ui2 = stablehlo.constant dense<[3, 2]> : tensor<2xui2>
  %ui2prod = stablehlo.multiply %ui2, %ui2 : tensor<2xui2>
  check.expect_eq_const %ui2prod, dense<[1, 0]> : tensor<2xui2>
  func.return
}

// -----

// CHECK: PASS: @sub_byte_conversions
func.func @sub_byte_conversions() {
  // From floats: truncated toward zero and saturated to the type's range
  // (NaN is 0); from integers: wrapped.
  %f = stablehlo.constant dense<[100.0, -100.0, 2.9, -2.9, 0x7FC00000]> : tensor<5xf32>
  %i4 = stablehlo.convert %f : (tensor<5xf32>) -> tensor<5xi4>
  check.expect_eq_const %i4, dense<[7, -8, 2, -2, 0]> : tensor<5xi4>
  %ui2 = stablehlo.convert %f : (tensor<5xf32>) -> tensor<5xui2>
  check.expect_eq_const %ui2, dense<[3, 0, 2, 0, 0]> : tensor<5xui2>
  %i = stablehlo.constant dense<[300, -9, 15]> : tensor<3xi32>
  %wrapped = stablehlo.convert %i : (tensor<3xi32>) -> tensor<3xi4>
  check.expect_eq_const %wrapped, dense<[-4, 7, -1]> : tensor<3xi4>
  %back = stablehlo.convert %wrapped : (tensor<3xi4>) -> tensor<3xf32>
  check.expect_eq_const %back, dense<[-4.0, 7.0, -1.0]> : tensor<3xf32>
  %u = stablehlo.convert %wrapped : (tensor<3xi4>) -> tensor<3xui4>
  check.expect_eq_const %u, dense<[12, 7, 15]> : tensor<3xui4>
  func.return
}

// -----

// CHECK: PASS: @sub_byte_bitcasts
func.func @sub_byte_bitcasts() {
  // Element 0 takes the low bits.
  %a = stablehlo.constant dense<[[1, -1], [7, -8]]> : tensor<2x2xi4>
  %packed = stablehlo.bitcast_convert %a : (tensor<2x2xi4>) -> tensor<2xi8>
  check.expect_eq_const %packed, dense<[-15, -121]> : tensor<2xi8>
  %b = stablehlo.constant dense<[90]> : tensor<1xui8>
  %unpacked = stablehlo.bitcast_convert %b : (tensor<1xui8>) -> tensor<1x4xui2>
  check.expect_eq_const %unpacked, dense<[[2, 2, 1, 1]]> : tensor<1x4xui2>
  %f = stablehlo.constant dense<[[1.0, -0.5]]> : tensor<1x2xf4E2M1FN>
  %fbits = stablehlo.bitcast_convert %f : (tensor<1x2xf4E2M1FN>) -> tensor<1xui8>
  check.expect_eq_const %fbits, dense<[0x92]> : tensor<1xui8>
  func.return
}

// -----

// CHECK: PASS: @conversions_between_narrow_floats
func.func @conversions_between_narrow_floats() {
  // f8E5M2 to f8E4M3FN: 57344 is past 448 (NaN); 0.5 exact.
  %a = stablehlo.constant dense<[57344.0, 0.5, -1.5]> : tensor<3xf8E5M2>
  %b = stablehlo.convert %a : (tensor<3xf8E5M2>) -> tensor<3xf8E4M3FN>
  %bits = stablehlo.bitcast_convert %b : (tensor<3xf8E4M3FN>) -> tensor<3xui8>
  check.expect_eq_const %bits, dense<[0x7F, 0x30, 0xBC]> : tensor<3xui8>
  // f64 to f16 rounds once: 1 + 2^-11 + 2^-40 is just past the tie and
  // goes up (through f32 it would round to the tie, then to even: 1).
  %x = stablehlo.constant dense<1.0004882812509095> : tensor<f64>
  %h = stablehlo.convert %x : (tensor<f64>) -> tensor<f16>
  check.expect_eq_const %h, dense<1.0009765625> : tensor<f16>
  // Integers to f8 round from the exact value.
  %i = stablehlo.constant dense<[17, 1000, -3]> : tensor<3xi32>
  %f8 = stablehlo.convert %i : (tensor<3xi32>) -> tensor<3xf8E4M3FN>
  check.expect_eq_const %f8, dense<[16.0, 0x7F, -3.0]> : tensor<3xf8E4M3FN>
  %back = stablehlo.convert %f8 : (tensor<3xf8E4M3FN>) -> tensor<3xi32>
  check.expect_eq_const %back, dense<[16, 0, -3]> : tensor<3xi32>
  func.return
}
