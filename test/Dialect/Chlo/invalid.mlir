// Verifier errors of the chlo ops.
// RUN: mpmd-opt -split-input-file -verify-diagnostics %s

func.func @unary_shape(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'chlo.erf' op all non-scalar operands/results must have the same shape and base type}}
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unary_element_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'chlo.square' op requires the same element type for all operands and results}}
  %0 = chlo.square %x : tensor<4xf32> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @float_only(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.lgamma' op operand #0 must be tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = chlo.lgamma %x : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @float_or_complex_only(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.tan' op operand #0 must be tensor of floating-point or complex-type values, but got 'tensor<4xi32>'}}
  %0 = chlo.tan %x : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @is_inf_result_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.is_inf' op result #0 must be tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @is_pos_inf_shape(%x: tensor<4xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'chlo.is_pos_inf' op all non-scalar operands/results must have the same shape and base type}}
  %0 = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @is_neg_inf_integer(%x: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.is_neg_inf' op operand #0 must be tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = chlo.is_neg_inf %x : tensor<4xi32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @binary_shape(%x: tensor<4xf32>, %y: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.zeta' op all non-scalar operands/results must have the same shape and base type}}
  %0 = chlo.zeta %x, %y : tensor<4xf32>, tensor<2xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @top_k_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'chlo.top_k' op operand must have rank at least 1}}
  %0:2 = chlo.top_k(%x, k = 1) : tensor<f32> -> (tensor<f32>, tensor<i32>)
  return
}

// -----

func.func @top_k_negative_k(%x: tensor<8xf32>) {
  // expected-error @+1 {{'chlo.top_k' op k must be non-negative, got -1}}
  %0:2 = chlo.top_k(%x, k = -1) : tensor<8xf32> -> (tensor<1xf32>, tensor<1xi32>)
  return
}

// -----

func.func @top_k_too_large(%x: tensor<8xf32>) {
  // expected-error @+1 {{'chlo.top_k' op k (9) is larger than the last dimension (8)}}
  %0:2 = chlo.top_k(%x, k = 9) : tensor<8xf32> -> (tensor<9xf32>, tensor<9xi32>)
  return
}

// -----

func.func @top_k_values_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'chlo.top_k' op values must have type 'tensor<4x2xf32>', got 'tensor<4x3xf32>'}}
  %0:2 = chlo.top_k(%x, k = 2) : tensor<4x8xf32> -> (tensor<4x3xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @top_k_indices_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'chlo.top_k' op indices must have the shape of the values, got 'tensor<2xi32>'}}
  %0:2 = chlo.top_k(%x, k = 2) : tensor<4x8xf32> -> (tensor<4x2xf32>, tensor<2xi32>)
  return
}

// -----

func.func @top_k_indices_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'chlo.top_k' op result #1 must be tensor of 32-bit signless integer values, but got 'tensor<4x2xi64>'}}
  %0:2 = chlo.top_k(%x, k = 2) : tensor<4x8xf32> -> (tensor<4x2xf32>, tensor<4x2xi64>)
  return
}
