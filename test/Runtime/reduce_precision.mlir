// stablehlo.reduce_precision: as if converted to a narrower float format
// and back (round to nearest, ties to even; out of range: infinity or zero).
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @e5m2_like_f8
func.func @e5m2_like_f8() {
  // Two mantissa bits keep 1, 1.25, 1.5, 1.75 per binade; five exponent
  // bits reach 57344 and down to 2^-14.
  %x = stablehlo.constant dense<[1.0, 1.1, 1.125, 1.375, -2.6, 70000.0, 1.0e-6, 0x7F800000]> : tensor<8xf32>
  %r = stablehlo.reduce_precision %x, format = e5m2 : tensor<8xf32>
  check.expect_eq_const %r, dense<[1.0, 1.0, 1.0, 1.5, -2.5, 0x7F800000, 0.0, 0x7F800000]> : tensor<8xf32>
  func.return
}

// CHECK: PASS: @nan_stays_nan
func.func @nan_stays_nan() {
  %x = stablehlo.constant dense<[0x7FC00000, 3.0]> : tensor<2xf32>
  %r = stablehlo.reduce_precision %x, format = e2m1 : tensor<2xf32>
  %finite = stablehlo.is_finite %r : (tensor<2xf32>) -> tensor<2xi1>
  check.expect_eq_const %finite, dense<[false, true]> : tensor<2xi1>
  func.return
}

// CHECK: PASS: @wider_than_the_type_changes_nothing
func.func @wider_than_the_type_changes_nothing() {
  %x = stablehlo.constant dense<[0.1, -3.3]> : tensor<2xf64>
  %r = stablehlo.reduce_precision %x, format = e11m52 : tensor<2xf64>
  check.expect_eq_const %r, dense<[0.1, -3.3]> : tensor<2xf64>
  // bf16 to its own 8 exponent and 7 mantissa bits, then to 2 of them.
  %b = stablehlo.constant dense<[1.375, 3.0]> : tensor<2xbf16>
  %same = stablehlo.reduce_precision %b, format = e8m7 : tensor<2xbf16>
  check.expect_eq_const %same, dense<[1.375, 3.0]> : tensor<2xbf16>
  %less = stablehlo.reduce_precision %b, format = e8m2 : tensor<2xbf16>
  check.expect_eq_const %less, dense<[1.5, 3.0]> : tensor<2xbf16>
  func.return
}
