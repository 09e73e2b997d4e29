// Every check op reports its first mismatch with the values, and a failing
// function makes mpmd interpret exit with 1; the other functions still run.
// RUN: not mpmd interpret %s | FileCheck %s

// CHECK: FAIL: @eq_const: check.expect_eq_const at {{.*}}check_failures.mlir:[[#@LINE+3]]:3: element 1 is [4], expected [5]; got [1, 4], expected [1, 5]
func.func @eq_const() {
  %a = stablehlo.constant dense<[1, 4]> : tensor<2xi32>
  check.expect_eq_const %a, dense<[1, 5]> : tensor<2xi32>
  func.return
}

// CHECK: FAIL: @eq: check.expect_eq at {{.*}}: element 0 is [true], expected [false]
func.func @eq() {
  %a = stablehlo.constant dense<[true]> : tensor<1xi1>
  %b = stablehlo.constant dense<[false]> : tensor<1xi1>
  check.expect_eq %a, %b : tensor<1xi1>
  func.return
}

// Only the first failed check of a function is reported.
// CHECK: FAIL: @almost_eq: check.expect_almost_eq at {{.*}}: element 0 is [1.1], expected [1] (tolerance 0.010000)
func.func @almost_eq() {
  %a = stablehlo.constant dense<[1.1]> : tensor<1xf64>
  %b = stablehlo.constant dense<[1.0]> : tensor<1xf64>
  check.expect_almost_eq %a, %b, tolerance = 1.0e-2 : tensor<1xf64>
  check.expect_eq %a, %b : tensor<1xf64>
  func.return
}

// CHECK: PASS: @within_tolerance
func.func @within_tolerance() {
  %a = stablehlo.constant dense<[1.00001]> : tensor<1xf32>
  check.expect_almost_eq_const %a, dense<[1.0]> : tensor<1xf32>
  func.return
}

// CHECK: FAIL: @almost_eq_const: check.expect_almost_eq_const at {{.*}}: element 1 is [2.5], expected [2] (tolerance 0.000100)
func.func @almost_eq_const() {
  %a = stablehlo.constant dense<[1.0, 2.5]> : tensor<2xbf16>
  check.expect_almost_eq_const %a, dense<[1.0, 2.0]> : tensor<2xbf16>
  func.return
}

// 1.0 and the next f32 up are one ULP apart.
// CHECK: PASS: @close
// CHECK: FAIL: @not_close: check.expect_close at {{.*}}: element 0 is [1], expected [1.0000001] (1 ULPs apart)
func.func @close() {
  %a = stablehlo.constant dense<[1.0, -0.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[0x3F800001, 0.0]> : tensor<2xf32>
  check.expect_close %a, %b, max_ulp_difference = 1 : tensor<2xf32>, tensor<2xf32>
  func.return
}
func.func @not_close() {
  %a = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %b = stablehlo.constant dense<[0x3F800001]> : tensor<1xf32>
  check.expect_close %a, %b, max_ulp_difference = 0 : tensor<1xf32>, tensor<1xf32>
  func.return
}

// Functions with arguments and private ones are not tests.
// CHECK-NOT: @helper
// CHECK-NOT: @private_test
func.func @helper(%x: tensor<f32>) {
  func.return
}
func.func private @private_test() {
  func.return
}
