// sort (comparator region), bitcast_convert, the chlo unary ops, and the
// remaining integer dtypes.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @sort_rows_with_payload
func.func @sort_rows_with_payload() {
  %keys = stablehlo.constant dense<[[3.0, 1.0, 2.0], [0.5, 0.25, 0.75]]> : tensor<2x3xf32>
  %vals = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %r:2 = "stablehlo.sort"(%keys, %vals) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  check.expect_eq_const %r#0, dense<[[1.0, 2.0, 3.0], [0.25, 0.5, 0.75]]> : tensor<2x3xf32>
  check.expect_eq_const %r#1, dense<[[1, 2, 0], [1, 0, 2]]> : tensor<2x3xi32>
  // Along dimension 0 (strided lines), descending.
  %cols = "stablehlo.sort"(%keys) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %cols, dense<[[3.0, 1.0, 2.0], [0.5, 0.25, 0.75]]> : tensor<2x3xf32>
  func.return
}

// A 0-d input (dimension 0 verifies, as upstream) is its own sorted result.
// CHECK: PASS: @sort_scalar
func.func @sort_scalar() {
  %x = stablehlo.constant dense<3.0> : tensor<f32>
  %r = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<f32>) -> tensor<f32>
  check.expect_eq_const %r, dense<3.0> : tensor<f32>
  func.return
}

// CHECK: PASS: @bitcast
func.func @bitcast() {
  %one = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %bits = stablehlo.bitcast_convert %one : (tensor<2xf32>) -> tensor<2xi32>
  check.expect_eq_const %bits, dense<[1065353216, -1073741824]> : tensor<2xi32>
  %halves = stablehlo.bitcast_convert %one : (tensor<2xf32>) -> tensor<2x2xui16>
  check.expect_eq_const %halves, dense<[[0, 16256], [0, 49152]]> : tensor<2x2xui16>
  func.return
}

// CHECK: PASS: @chlo_unary
func.func @chlo_unary() {
  %x = stablehlo.constant dense<[-0.5, 0.0, 0.5]> : tensor<3xf32>
  %erf = chlo.erf %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %erf, dense<[-0.52049988, 0.0, 0.52049988]> : tensor<3xf32>
  %erfc = chlo.erfc %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %erfc, dense<[1.52049988, 1.0, 0.47950012]> : tensor<3xf32>
  %sinh = chlo.sinh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %sinh, dense<[-0.52109531, 0.0, 0.52109531]> : tensor<3xf32>
  %cosh = chlo.cosh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %cosh, dense<[1.12762597, 1.0, 1.12762597]> : tensor<3xf32>
  %asin = chlo.asin %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %asin, dense<[-0.52359878, 0.0, 0.52359878]> : tensor<3xf32>
  %acos = chlo.acos %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %acos, dense<[2.0943951, 1.57079633, 1.04719755]> : tensor<3xf32>
  %atan = chlo.atan %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %atan, dense<[-0.46364761, 0.0, 0.46364761]> : tensor<3xf32>
  %asinh = chlo.asinh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %asinh, dense<[-0.48121183, 0.0, 0.48121183]> : tensor<3xf32>
  %atanh = chlo.atanh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %atanh, dense<[-0.54930614, 0.0, 0.54930614]> : tensor<3xf32>
  %y = stablehlo.constant dense<[1.0, 2.0, 5.0]> : tensor<3xf64>
  %acosh = chlo.acosh %y : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const %acosh, dense<[0.0, 1.3169578969248166, 2.2924316695611777]> : tensor<3xf64>
  %lgamma = chlo.lgamma %y : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const %lgamma, dense<[0.0, 0.0, 3.1780538303479458]> : tensor<3xf64>
  %ctan = chlo.tan %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %ctan, dense<[-0.54630249, 0.0, 0.54630249]> : tensor<3xf32>
  func.return
}

// CHECK: PASS: @other_integer_dtypes
func.func @other_integer_dtypes() {
  %a = stablehlo.constant dense<[200, 100]> : tensor<2xui8>
  %b = stablehlo.constant dense<[100, 7]> : tensor<2xui8>
  %s = stablehlo.add %a, %b : tensor<2xui8>
  check.expect_eq_const %s, dense<[44, 107]> : tensor<2xui8>
  %c = stablehlo.constant dense<[-30000, 12]> : tensor<2xi16>
  %d = stablehlo.multiply %c, %c : tensor<2xi16>
  check.expect_eq_const %d, dense<[-5888, 144]> : tensor<2xi16>
  %e = stablehlo.constant dense<[65535, 2]> : tensor<2xui16>
  %f = stablehlo.shift_right_logical %e, %e : tensor<2xui16>
  check.expect_eq_const %f, dense<[0, 0]> : tensor<2xui16>
  %g = stablehlo.constant dense<[18446744073709551615, 5]> : tensor<2xui64>
  %h = stablehlo.constant dense<[1, 10]> : tensor<2xui64>
  %lt = stablehlo.compare LT, %g, %h, UNSIGNED : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
  check.expect_eq_const %lt, dense<[false, true]> : tensor<2xi1>
  %fl = stablehlo.convert %g : (tensor<2xui64>) -> tensor<2xf64>
  check.expect_eq_const %fl, dense<[1.8446744073709552e19, 5.0]> : tensor<2xf64>
  func.return
}
