// Verifier errors of the check ops.
// RUN: mpmd-opt -split-input-file -verify-diagnostics %s

func.func @expect_eq_types(%a: tensor<4xi64>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'check.expect_eq' op failed to verify that all of {lhs, rhs} have same type}}
  "check.expect_eq"(%a, %b) : (tensor<4xi64>, tensor<4xi32>) -> ()
  return
}

// -----

func.func @expect_eq_not_a_tensor(%a: i64) {
  // expected-error @+1 {{'check.expect_eq' op operand #0 must be tensor of any type values, but got 'i64'}}
  "check.expect_eq"(%a, %a) : (i64, i64) -> ()
  return
}

// -----

func.func @expect_eq_const_type(%a: tensor<4xi64>) {
  // expected-error @+1 {{'check.expect_eq_const' op failed to verify that all of {lhs, value} have same type}}
  "check.expect_eq_const"(%a) <{value = dense<[1, 2]> : tensor<2xi64>}> : (tensor<4xi64>) -> ()
  return
}

// -----

func.func @expect_almost_eq_integer(%a: tensor<4xi64>) {
  // expected-error @+1 {{'check.expect_almost_eq' op operand #0 must be tensor of floating-point or complex-type values, but got 'tensor<4xi64>'}}
  check.expect_almost_eq %a, %a : tensor<4xi64>
  return
}

// -----

func.func @expect_almost_eq_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'check.expect_almost_eq' op failed to verify that all of {lhs, rhs} have same type}}
  "check.expect_almost_eq"(%a, %b) : (tensor<4xf32>, tensor<4xf16>) -> ()
  return
}

// -----

func.func @expect_almost_eq_negative_tolerance(%a: tensor<4xf32>) {
  // expected-error @+1 {{'check.expect_almost_eq' op tolerance must be non-negative, got -1.000000e+00}}
  check.expect_almost_eq %a, %a, tolerance = -1.0 : tensor<4xf32>
  return
}

// -----

func.func @expect_almost_eq_const_type(%a: tensor<2xf32>) {
  // expected-error @+1 {{'check.expect_almost_eq_const' op failed to verify that all of {lhs, value} have same type}}
  "check.expect_almost_eq_const"(%a) <{value = dense<1.0> : tensor<2xf64>}> : (tensor<2xf32>) -> ()
  return
}

// -----

func.func @expect_almost_eq_const_negative_tolerance(%a: tensor<2xf32>) {
  // expected-error @+1 {{'check.expect_almost_eq_const' op tolerance must be non-negative, got -5.000000e-01}}
  check.expect_almost_eq_const %a, dense<1.0> : tensor<2xf32>, tolerance = -0.5
  return
}

// -----

func.func @expect_close_types(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'check.expect_close' op failed to verify that all of {actual, expected} have same type}}
  check.expect_close %a, %b, max_ulp_difference = 1 : tensor<2xf32>, tensor<3xf32>
  return
}

// -----

func.func @expect_close_negative_min(%a: tensor<2xf32>) {
  // expected-error @+1 {{'check.expect_close' op min_ulp_difference must be non-negative, got -1}}
  check.expect_close %a, %a, max_ulp_difference = 1, min_ulp_difference = -1 : tensor<2xf32>, tensor<2xf32>
  return
}

// -----

func.func @expect_close_max_below_min(%a: tensor<2xf32>) {
  // expected-error @+1 {{'check.expect_close' op max_ulp_difference (1) must not be smaller than min_ulp_difference (2)}}
  check.expect_close %a, %a, max_ulp_difference = 1, min_ulp_difference = 2 : tensor<2xf32>, tensor<2xf32>
  return
}

// -----

func.func @expect_close_missing_max(%a: tensor<2xf32>) {
  // expected-error @+1 {{expected ','}}
  check.expect_close %a, %a : tensor<2xf32>, tensor<2xf32>
  return
}

// -----

func.func @unknown_check_op(%a: tensor<2xf32>) {
  // expected-error @+1 {{custom op 'check.expect_ne' is unknown}}
  check.expect_ne %a : tensor<2xf32>
  return
}

// -----

func.func @expect_serialized_eq_without_probe_id(%a: tensor<2xf32>) {
  // expected-error @+1 {{expected ','}}
  check.expect_serialized_eq %a : tensor<2xf32>
  return
}

// -----

func.func @expect_serialized_eq_negative_iter(%a: tensor<2xf32>) {
  // expected-error @+1 {{'check.expect_serialized_eq' op iter must be non-negative, got -1}}
  check.expect_serialized_eq %a, probe_id = "p", iter = -1 : tensor<2xf32>
  return
}
