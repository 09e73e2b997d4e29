// Elementwise ops on every dtype the runtime supports.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @arith_f32
func.func @arith_f32() {
  %a = stablehlo.constant dense<[1.0, -2.0, 3.5, 4.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[2.0, 0.5, -1.0, 4.0]> : tensor<4xf32>
  %add = stablehlo.add %a, %b : tensor<4xf32>
  check.expect_almost_eq_const %add, dense<[3.0, -1.5, 2.5, 8.0]> : tensor<4xf32>
  %sub = stablehlo.subtract %a, %b : tensor<4xf32>
  check.expect_almost_eq_const %sub, dense<[-1.0, -2.5, 4.5, 0.0]> : tensor<4xf32>
  %mul = stablehlo.multiply %a, %b : tensor<4xf32>
  check.expect_almost_eq_const %mul, dense<[2.0, -1.0, -3.5, 16.0]> : tensor<4xf32>
  %div = stablehlo.divide %a, %b : tensor<4xf32>
  check.expect_almost_eq_const %div, dense<[0.5, -4.0, -3.5, 1.0]> : tensor<4xf32>
  %max = stablehlo.maximum %a, %b : tensor<4xf32>
  check.expect_eq_const %max, dense<[2.0, 0.5, 3.5, 4.0]> : tensor<4xf32>
  %min = stablehlo.minimum %a, %b : tensor<4xf32>
  check.expect_eq_const %min, dense<[1.0, -2.0, -1.0, 4.0]> : tensor<4xf32>
  %pow = stablehlo.power %b, %b : tensor<4xf32>
  check.expect_almost_eq_const %pow, dense<[4.0, 0.70710678, -1.0, 256.0]> : tensor<4xf32>
  %rem = stablehlo.remainder %a, %b : tensor<4xf32>
  check.expect_almost_eq_const %rem, dense<[1.0, 0.0, 0.5, 0.0]> : tensor<4xf32>
  %atan2 = stablehlo.atan2 %a, %b : tensor<4xf32>
  check.expect_almost_eq_const %atan2, dense<[0.46364761, -1.32581766, 1.84909599, 0.78539816]> : tensor<4xf32>
  func.return
}

// CHECK: PASS: @unary_f32
func.func @unary_f32() {
  %x = stablehlo.constant dense<[-1.5, 0.0, 0.5, 2.0]> : tensor<4xf32>
  %p = stablehlo.constant dense<[0.25, 1.0, 4.0, 9.0]> : tensor<4xf32>
  %abs = stablehlo.abs %x : tensor<4xf32>
  check.expect_eq_const %abs, dense<[1.5, 0.0, 0.5, 2.0]> : tensor<4xf32>
  %neg = stablehlo.negate %x : tensor<4xf32>
  check.expect_eq_const %neg, dense<[1.5, -0.0, -0.5, -2.0]> : tensor<4xf32>
  %sign = stablehlo.sign %x : tensor<4xf32>
  check.expect_eq_const %sign, dense<[-1.0, 0.0, 1.0, 1.0]> : tensor<4xf32>
  %exp = stablehlo.exponential %x : tensor<4xf32>
  check.expect_almost_eq_const %exp, dense<[0.22313016, 1.0, 1.64872127, 7.3890561]> : tensor<4xf32>
  %expm1 = stablehlo.exponential_minus_one %x : tensor<4xf32>
  check.expect_almost_eq_const %expm1, dense<[-0.77686984, 0.0, 0.64872127, 6.3890561]> : tensor<4xf32>
  %log = stablehlo.log %p : tensor<4xf32>
  check.expect_almost_eq_const %log, dense<[-1.38629436, 0.0, 1.38629436, 2.19722458]> : tensor<4xf32>
  %log1p = stablehlo.log_plus_one %p : tensor<4xf32>
  check.expect_almost_eq_const %log1p, dense<[0.22314355, 0.69314718, 1.60943791, 2.30258509]> : tensor<4xf32>
  %logistic = stablehlo.logistic %x : tensor<4xf32>
  check.expect_almost_eq_const %logistic, dense<[0.18242552, 0.5, 0.62245933, 0.88079708]> : tensor<4xf32>
  %sqrt = stablehlo.sqrt %p : tensor<4xf32>
  check.expect_almost_eq_const %sqrt, dense<[0.5, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %rsqrt = stablehlo.rsqrt %p : tensor<4xf32>
  check.expect_almost_eq_const %rsqrt, dense<[2.0, 1.0, 0.5, 0.33333333]> : tensor<4xf32>
  %cbrt = stablehlo.cbrt %p : tensor<4xf32>
  check.expect_almost_eq_const %cbrt, dense<[0.62996052, 1.0, 1.58740105, 2.08008382]> : tensor<4xf32>
  %tanh = stablehlo.tanh %x : tensor<4xf32>
  check.expect_almost_eq_const %tanh, dense<[-0.90514825, 0.0, 0.46211716, 0.96402758]> : tensor<4xf32>
  %sin = stablehlo.sine %x : tensor<4xf32>
  check.expect_almost_eq_const %sin, dense<[-0.99749499, 0.0, 0.47942554, 0.90929743]> : tensor<4xf32>
  %cos = stablehlo.cosine %x : tensor<4xf32>
  check.expect_almost_eq_const %cos, dense<[0.0707372, 1.0, 0.87758256, -0.41614684]> : tensor<4xf32>
  %tan = stablehlo.tan %x : tensor<4xf32>
  check.expect_almost_eq_const %tan, dense<[-14.10141995, 0.0, 0.54630249, -2.18503986]> : tensor<4xf32>, tolerance = 1.0e-3
  %floor = stablehlo.floor %x : tensor<4xf32>
  check.expect_eq_const %floor, dense<[-2.0, 0.0, 0.0, 2.0]> : tensor<4xf32>
  %ceil = stablehlo.ceil %x : tensor<4xf32>
  check.expect_eq_const %ceil, dense<[-1.0, 0.0, 1.0, 2.0]> : tensor<4xf32>
  %afz = stablehlo.round_nearest_afz %x : tensor<4xf32>
  check.expect_eq_const %afz, dense<[-2.0, 0.0, 1.0, 2.0]> : tensor<4xf32>
  %even = stablehlo.round_nearest_even %x : tensor<4xf32>
  check.expect_eq_const %even, dense<[-2.0, 0.0, 0.0, 2.0]> : tensor<4xf32>
  %sq = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  check.expect_eq_const %sq, dense<[2.25, 0.0, 0.25, 4.0]> : tensor<4xf32>
  %fin = stablehlo.constant dense<[1.0, 0x7F800000, 0x7FC00000, -2.0]> : tensor<4xf32>
  %isfinite = stablehlo.is_finite %fin : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %isfinite, dense<[true, false, false, true]> : tensor<4xi1>
  func.return
}

// CHECK: PASS: @f64
func.func @f64() {
  %a = stablehlo.constant dense<[1.0e-10, 3.0]> : tensor<2xf64>
  %b = stablehlo.constant dense<[1.0, 0.1]> : tensor<2xf64>
  %add = stablehlo.add %a, %b : tensor<2xf64>
  check.expect_almost_eq_const %add, dense<[1.0000000001, 3.1]> : tensor<2xf64>, tolerance = 1.0e-15
  %exp = stablehlo.exponential %b : tensor<2xf64>
  check.expect_almost_eq_const %exp, dense<[2.718281828459045, 1.1051709180756477]> : tensor<2xf64>, tolerance = 1.0e-15
  func.return
}

// f16 and bf16 compute in f32 and round to nearest even on the way back.
// CHECK: PASS: @halves
func.func @halves() {
  %a = stablehlo.constant dense<[1.0, 2.5, -3.0]> : tensor<3xf16>
  %b = stablehlo.constant dense<[0.5, 0.25, 1.0]> : tensor<3xf16>
  %add = stablehlo.add %a, %b : tensor<3xf16>
  check.expect_eq_const %add, dense<[1.5, 2.75, -2.0]> : tensor<3xf16>
  %exp = stablehlo.exponential %b : tensor<3xf16>
  check.expect_almost_eq_const %exp, dense<[1.6487, 1.2840, 2.7183]> : tensor<3xf16>, tolerance = 2.0e-3
  %c = stablehlo.constant dense<[1.0, 256.0, -3.0]> : tensor<3xbf16>
  %d = stablehlo.constant dense<[1.0, 1.0, 0.5]> : tensor<3xbf16>
  // 257 is not a bf16: it rounds to even (256).
  %sum = stablehlo.add %c, %d : tensor<3xbf16>
  check.expect_eq_const %sum, dense<[2.0, 256.0, -2.5]> : tensor<3xbf16>
  %mul = stablehlo.multiply %c, %d : tensor<3xbf16>
  check.expect_eq_const %mul, dense<[1.0, 256.0, -1.5]> : tensor<3xbf16>
  func.return
}

// CHECK: PASS: @integers
func.func @integers() {
  %a = stablehlo.constant dense<[7, -7, 100, -128]> : tensor<4xi8>
  %b = stablehlo.constant dense<[2, 2, 100, -1]> : tensor<4xi8>
  %add = stablehlo.add %a, %b : tensor<4xi8>
  // 100 + 100 wraps around in i8.
  check.expect_eq_const %add, dense<[9, -5, -56, 127]> : tensor<4xi8>
  %div = stablehlo.divide %a, %b : tensor<4xi8>
  check.expect_eq_const %div, dense<[3, -3, 1, -128]> : tensor<4xi8>
  %rem = stablehlo.remainder %a, %b : tensor<4xi8>
  check.expect_eq_const %rem, dense<[1, -1, 0, 0]> : tensor<4xi8>
  %i = stablehlo.constant dense<[5, -6, 0, 3]> : tensor<4xi32>
  %j = stablehlo.constant dense<[0, 4, 0, 2]> : tensor<4xi32>
  // Division by zero is defined: x / 0 = -1 and x % 0 = x.
  %idiv = stablehlo.divide %i, %j : tensor<4xi32>
  check.expect_eq_const %idiv, dense<[-1, -1, -1, 1]> : tensor<4xi32>
  %irem = stablehlo.remainder %i, %j : tensor<4xi32>
  check.expect_eq_const %irem, dense<[5, -2, 0, 1]> : tensor<4xi32>
  %ipow = stablehlo.power %i, %j : tensor<4xi32>
  check.expect_eq_const %ipow, dense<[1, 1296, 1, 9]> : tensor<4xi32>
  %abs = stablehlo.abs %i : tensor<4xi32>
  check.expect_eq_const %abs, dense<[5, 6, 0, 3]> : tensor<4xi32>
  %neg = stablehlo.negate %i : tensor<4xi32>
  check.expect_eq_const %neg, dense<[-5, 6, 0, -3]> : tensor<4xi32>
  %sign = stablehlo.sign %i : tensor<4xi32>
  check.expect_eq_const %sign, dense<[1, -1, 0, 1]> : tensor<4xi32>
  %and = stablehlo.and %i, %j : tensor<4xi32>
  check.expect_eq_const %and, dense<[0, 0, 0, 2]> : tensor<4xi32>
  %or = stablehlo.or %i, %j : tensor<4xi32>
  check.expect_eq_const %or, dense<[5, -2, 0, 3]> : tensor<4xi32>
  %xor = stablehlo.xor %i, %j : tensor<4xi32>
  check.expect_eq_const %xor, dense<[5, -2, 0, 1]> : tensor<4xi32>
  %not = stablehlo.not %i : tensor<4xi32>
  check.expect_eq_const %not, dense<[-6, 5, -1, -4]> : tensor<4xi32>
  %shl = stablehlo.shift_left %i, %j : tensor<4xi32>
  check.expect_eq_const %shl, dense<[5, -96, 0, 12]> : tensor<4xi32>
  %sra = stablehlo.shift_right_arithmetic %i, %j : tensor<4xi32>
  check.expect_eq_const %sra, dense<[5, -1, 0, 0]> : tensor<4xi32>
  %srl = stablehlo.shift_right_logical %i, %j : tensor<4xi32>
  check.expect_eq_const %srl, dense<[5, 268435455, 0, 0]> : tensor<4xi32>
  %pop = stablehlo.popcnt %i : tensor<4xi32>
  check.expect_eq_const %pop, dense<[2, 30, 0, 2]> : tensor<4xi32>
  %clz = stablehlo.count_leading_zeros %i : tensor<4xi32>
  check.expect_eq_const %clz, dense<[29, 0, 32, 30]> : tensor<4xi32>
  %big = stablehlo.constant dense<[9000000000, -1]> : tensor<2xi64>
  %sum = stablehlo.add %big, %big : tensor<2xi64>
  check.expect_eq_const %sum, dense<[18000000000, -2]> : tensor<2xi64>
  %u = stablehlo.constant dense<[4294967295, 10]> : tensor<2xui32>
  %one = stablehlo.constant dense<[1, 3]> : tensor<2xui32>
  // ui32 wraps and divides unsigned.
  %usum = stablehlo.add %u, %one : tensor<2xui32>
  check.expect_eq_const %usum, dense<[0, 13]> : tensor<2xui32>
  %udiv = stablehlo.divide %u, %one : tensor<2xui32>
  check.expect_eq_const %udiv, dense<[4294967295, 3]> : tensor<2xui32>
  %umax = stablehlo.maximum %u, %one : tensor<2xui32>
  check.expect_eq_const %umax, dense<[4294967295, 10]> : tensor<2xui32>
  func.return
}

// CHECK: PASS: @booleans
func.func @booleans() {
  %a = stablehlo.constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %and = stablehlo.and %a, %b : tensor<4xi1>
  check.expect_eq_const %and, dense<[true, false, false, false]> : tensor<4xi1>
  %or = stablehlo.or %a, %b : tensor<4xi1>
  check.expect_eq_const %or, dense<[true, true, true, false]> : tensor<4xi1>
  %xor = stablehlo.xor %a, %b : tensor<4xi1>
  check.expect_eq_const %xor, dense<[false, true, true, false]> : tensor<4xi1>
  %not = stablehlo.not %a : tensor<4xi1>
  check.expect_eq_const %not, dense<[false, false, true, true]> : tensor<4xi1>
  func.return
}

// CHECK: PASS: @compare_select_clamp
func.func @compare_select_clamp() {
  %a = stablehlo.constant dense<[1.0, 2.0, 0x7FC00000]> : tensor<3xf32>
  %b = stablehlo.constant dense<[2.0, 2.0, 1.0]> : tensor<3xf32>
  %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %lt, dense<[true, false, false]> : tensor<3xi1>
  %le = stablehlo.compare LE, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %le, dense<[true, true, false]> : tensor<3xi1>
  %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %eq, dense<[false, true, false]> : tensor<3xi1>
  %ne = stablehlo.compare NE, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %ne, dense<[true, false, true]> : tensor<3xi1>
  %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %gt, dense<[false, false, false]> : tensor<3xi1>
  %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %ge, dense<[false, true, false]> : tensor<3xi1>
  %u = stablehlo.constant dense<[4294967295, 1]> : tensor<2xui32>
  %v = stablehlo.constant dense<[1, 2]> : tensor<2xui32>
  // Unsigned order: 2^32-1 is the largest.
  %ugt = stablehlo.compare GT, %u, %v, UNSIGNED : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xi1>
  check.expect_eq_const %ugt, dense<[true, false]> : tensor<2xi1>
  %sel = stablehlo.select %lt, %a, %b : tensor<3xi1>, tensor<3xf32>
  check.expect_eq_const %sel, dense<[1.0, 2.0, 1.0]> : tensor<3xf32>
  %t = stablehlo.constant dense<false> : tensor<i1>
  %sel_scalar = stablehlo.select %t, %a, %b : tensor<i1>, tensor<3xf32>
  check.expect_eq_const %sel_scalar, dense<[2.0, 2.0, 1.0]> : tensor<3xf32>
  %x = stablehlo.constant dense<[-5, 0, 5, 9]> : tensor<4xi64>
  %lo = stablehlo.constant dense<-1> : tensor<i64>
  %hi = stablehlo.constant dense<6> : tensor<i64>
  %clamp = stablehlo.clamp %lo, %x, %hi : (tensor<i64>, tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  check.expect_eq_const %clamp, dense<[-1, 0, 5, 6]> : tensor<4xi64>
  func.return
}

// CHECK: PASS: @convert
func.func @convert() {
  %f = stablehlo.constant dense<[-2.7, 0.0, 3.9, 1.0e10]> : tensor<4xf32>
  %i = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi32>
  // Truncation toward zero; out of range saturates.
  check.expect_eq_const %i, dense<[-2, 0, 3, 2147483647]> : tensor<4xi32>
  %p = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %p, dense<[true, false, true, true]> : tensor<4xi1>
  %h = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xbf16>
  check.expect_eq_const %h, dense<[-2.703125, 0.0, 3.90625, 9.999220e+09]> : tensor<4xbf16>
  %d = stablehlo.convert %h : (tensor<4xbf16>) -> tensor<4xf64>
  check.expect_eq_const %d, dense<[-2.703125, 0.0, 3.90625, 9999220736.0]> : tensor<4xf64>
  %b = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %bf = stablehlo.convert %b : (tensor<2xi1>) -> tensor<2xf16>
  check.expect_eq_const %bf, dense<[1.0, 0.0]> : tensor<2xf16>
  %n = stablehlo.constant dense<[-1, 300]> : tensor<2xi32>
  %u8 = stablehlo.convert %n : (tensor<2xi32>) -> tensor<2xui32>
  check.expect_eq_const %u8, dense<[4294967295, 300]> : tensor<2xui32>
  %i8 = stablehlo.convert %n : (tensor<2xi32>) -> tensor<2xi8>
  check.expect_eq_const %i8, dense<[-1, 44]> : tensor<2xi8>
  func.return
}
