// Verifier and parser errors of stablehlo ops: one case per message.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics

func.func @f(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.add' op requires the same element type for all operands and results, but operand #1 has type 'tensor<4xi32>' and the result has 'tensor<4xf32>'}}
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.add' op requires compatible shapes for all operands and results, but operand #1 has type 'tensor<5xf32>' and the result has 'tensor<4xf32>'}}
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.and' op operand #0 must be ranked tensor of pred (i1) or integer values, but got 'tensor<4xf32>'}}
  %0 = stablehlo.and %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{'stablehlo.abs' op result element type 'f64' does not match expected 'f32'}}
  %0 = stablehlo.abs %a : (tensor<4xf32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
// -----
func.func @f(%a: tensor<4xf32>, %m: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.clamp' op min shape [3] is incompatible with operand shape [4]}}
  %0 = stablehlo.clamp %m, %a, %m : (tensor<3xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%p: tensor<3xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select' op pred shape [3] is incompatible with on_true shape [4]}}
  %0 = stablehlo.select %p, %a, %a : tensor<3xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select' op on_true type 'tensor<4xf32>' does not match on_false type 'tensor<4xf16>'}}
  %0 = stablehlo.select %p, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'stablehlo.compare' op lhs element type 'f32' does not match rhs element type 'i32'}}
  %0 = stablehlo.compare LT, %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'stablehlo.compare' op compare type SIGNED does not apply to element type 'f32'}}
  %0 = stablehlo.compare LT, %a, %a, SIGNED : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'stablehlo.compare' op result #0 must be ranked tensor of pred (i1) values, but got 'tensor<4xi32>'}}
  %0 = stablehlo.compare LT, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{expected EQ, NE, LT, LE, GT or GE, got 'LTE'}}
  %0 = stablehlo.compare LTE, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<3xi16> {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op cannot bitcast 'tensor<4xf32>' to 'tensor<3xi16>': the shapes must match up to a trailing dimension of size 2}}
  %0 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<3xi16>
  return %0 : tensor<3xi16>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{'stablehlo.constant' op result rank 1 does not match expected rank 0 (expected shape [])}}
  %1 = "stablehlo.constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<2xf32>
  return %a : tensor<4xf32>
}
// -----
func.func @f() -> tensor<4xi32> {
  // expected-error @+1 {{'stablehlo.iota' op iota_dimension 1 is out of range [0, 1)}}
  %0 = stablehlo.iota dim = 1 : tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @f() -> tensor<i32> {
  // expected-error @+1 {{'stablehlo.iota' op does not support scalar results}}
  %0 = stablehlo.iota dim = 0 : tensor<i32>
  return %0 : tensor<i32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{'stablehlo.reshape' op result has 7 elements but the operand has 6}}
  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}
// -----
// A per-axis quantized reshape must keep each slice along the axis whole.
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) -> tensor<4x!quant.uniform<i8:f32:0, {1.0, 0.5, 1.0, 0.5}>> {
  // expected-error @+1 {{'stablehlo.reshape' op operand element type '!quant.uniform<i8:f32:0, {1.000000e+00,5.000000e-01}>' does not match result element type '!quant.uniform<i8:f32:0, {1.000000e+00,5.000000e-01,1.000000e+00,5.000000e-01}>'}}
  %0 = stablehlo.reshape %a : (tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) -> tensor<4x!quant.uniform<i8:f32:0, {1.0, 0.5, 1.0, 0.5}>>
  return %0 : tensor<4x!quant.uniform<i8:f32:0, {1.0, 0.5, 1.0, 0.5}>>
}
// -----
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 0.5}>> {
  // expected-error @+1 {{'stablehlo.reshape' op quantization dimension 0 of the result does not keep the elements of dimension 1 of the operand together (its size and the number of elements before it must match)}}
  %0 = stablehlo.reshape %a : (tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 0.5}>>
  return %0 : tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 0.5}>>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions size 1 does not match operand rank 2}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions value 3 is out of range [0, 3)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 3] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions has duplicate value 0}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op operand dimension 1 of size 3 cannot broadcast to result dimension 2 of size 4}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'stablehlo.transpose' op permutation size 1 does not match operand rank 2}}
  %0 = stablehlo.transpose %a, dims = [0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'stablehlo.transpose' op permutation has duplicate value 1}}
  %0 = stablehlo.transpose %a, dims = [1, 1] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.transpose' op result dimension 0 has size 2 but expected 3 (expected shape [3, 2])}}
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%a: tensor<3x8xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.slice' op limit index 9 of dimension 1 exceeds its size 8}}
  %0 = stablehlo.slice %a [1:3, 4:9:2] : (tensor<3x8xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
// -----
func.func @f(%a: tensor<3x8xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.slice' op limit index 1 of dimension 0 is less than its start index 2}}
  %0 = stablehlo.slice %a [2:1, 4:8:2] : (tensor<3x8xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
// -----
func.func @f(%a: tensor<3x8xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.slice' op stride 0 of dimension 1 must be positive}}
  %0 = stablehlo.slice %a [1:3, 4:8:0] : (tensor<3x8xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
// -----
func.func @f(%a: tensor<3x8xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.slice' op result dimension 1 has size 3 but expected 2 (expected shape [2, 2])}}
  %0 = stablehlo.slice %a [1:3, 4:8:2] : (tensor<3x8xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%a: tensor<3x8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.slice' op expects 2 start, limit and stride values (operand rank), got 1, 1 and 1}}
  %0 = stablehlo.slice %a [1:3] : (tensor<3x8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %i: tensor<i32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op has 1 start indices but the operand rank is 2}}
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [1, 4] : (tensor<3x4xf32>, tensor<i32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %i: tensor<i32>) -> tensor<1x5xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op slice size 5 of dimension 1 is out of range [0, 4]}}
  %0 = stablehlo.dynamic_slice %a, %i, %i, sizes = [1, 5] : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %i: tensor<i32>, %j: tensor<i64>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op start indices must all have the same element type}}
  %0 = stablehlo.dynamic_slice %a, %i, %j, sizes = [1, 4] : (tensor<3x4xf32>, tensor<i32>, tensor<i64>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
// -----
func.func @f(%a: tensor<3xf32>, %u: tensor<4xf32>, %i: tensor<i32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op update dimension 0 of size 4 exceeds operand size 3}}
  %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<3xf32>, tensor<4xf32>, tensor<i32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @f(%a: tensor<4x1xf32>, %b: tensor<3x2xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.concatenate' op input #1 dimension 0 has size 3 but input #0 has 4}}
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x1xf32>, tensor<3x2xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// -----
func.func @f(%a: tensor<4x1xf32>, %b: tensor<4x2xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.concatenate' op dimension 2 is out of range [0, 2)}}
  %0 = stablehlo.concatenate %a, %b, dim = 2 : (tensor<4x1xf32>, tensor<4x2xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// -----
func.func @f(%a: tensor<4x1xf32>, %b: tensor<4x2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.concatenate' op result dimension 1 has size 4 but expected 3 (expected shape [4, 3])}}
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x1xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
// -----
func.func @f(%a: tensor<8xf32>, %p: tensor<f32>) -> tensor<16xf32> {
  // expected-error @+1 {{'stablehlo.pad' op interior padding -1 of dimension 0 is negative}}
  %0 = stablehlo.pad %a, %p, low = [4], high = [4], interior = [-1] : (tensor<8xf32>, tensor<f32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
// -----
func.func @f(%a: tensor<8xf32>, %p: tensor<f32>) -> tensor<17xf32> {
  // expected-error @+1 {{'stablehlo.pad' op result dimension 0 has size 17 but expected 16 (expected shape [16])}}
  %0 = stablehlo.pad %a, %p, low = [4], high = [4], interior = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<17xf32>
  return %0 : tensor<17xf32>
}
// -----
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.reverse' op dimensions value 1 is out of range [0, 1)}}
  %0 = stablehlo.reverse %a, dims = [1] : tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
func.func @f(%a: tensor<2x4x32xf32>, %b: tensor<2x32x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op lhs and rhs batching dimensions have different sizes: 1 vs 0}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<2x4x32xf32>, tensor<2x32x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}
// -----
func.func @f(%a: tensor<2x4x32xf32>, %b: tensor<3x32x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op batching dimension sizes do not match: lhs dimension 0 has size 2, rhs dimension 0 has size 3}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x32xf32>, tensor<3x32x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}
// -----
func.func @f(%a: tensor<2x4x32xf32>, %b: tensor<2x16x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op contracting dimension sizes do not match: lhs dimension 2 has size 32, rhs dimension 1 has size 16}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x32xf32>, tensor<2x16x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}
// -----
func.func @f(%a: tensor<2x4x32xf32>, %b: tensor<2x32x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op lhs batching/contracting dimensions value 3 is out of range [0, 3)}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [3] x [1] : (tensor<2x4x32xf32>, tensor<2x32x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}
// -----
func.func @f(%a: tensor<2x4x32xf32>, %b: tensor<2x32x8xf32>) -> tensor<2x8x4xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op result dimension 1 has size 8 but expected 4 (expected shape [2, 4, 8])}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x32xf32>, tensor<2x32x8xf32>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}
// -----
func.func @f(%a: tensor<2x4x32xf32>, %b: tensor<2x32x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op precision_config has 3 entries, expected at most 2}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT, HIGH] : (tensor<2x4x32xf32>, tensor<2x32x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %b: tensor<5xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.dot' op contracting dimension sizes do not match: 4 vs 5}}
  %0 = stablehlo.dot %a, %b : (tensor<3x4xf32>, tensor<5xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @f(%x: tensor<2x4x32xf32>, %c: tensor<f32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op dimensions value 3 is out of range [0, 3)}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [3] : (tensor<2x4x32xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
// -----
func.func @f(%x: tensor<2x4x32xf32>, %c: tensor<f32>) -> tensor<2x32xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op result #0 dimension 1 has size 32 but expected 4 (expected shape [2, 4])}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [2] : (tensor<2x4x32xf32>, tensor<f32>) -> tensor<2x32xf32>
  return %0 : tensor<2x32xf32>
}
// -----
func.func @f(%x: tensor<2x4x32xf32>, %c: tensor<f16>) -> tensor<2x4xf16> {
  // expected-error @+1 {{'stablehlo.reduce' op input #0 element type 'f32' does not match init value element type 'f16'}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [2] : (tensor<2x4x32xf32>, tensor<f16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}
// -----
func.func @f(%x: tensor<2x4xf32>, %c: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op body region return value #0 has type 'tensor<i1>' but expected 'tensor<f32>'}}
  %0 = stablehlo.reduce(%x init: %c) across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%x: tensor<2x4xf32>, %c: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{unknown reducer operation 'stablehlo.frobnicate'}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.frobnicate across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%c0: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'stablehlo.while' op cond region return value #0 has type 'tensor<i32>' but expected 'tensor<i1>'}}
  %0 = stablehlo.while(%iterArg = %c0) : tensor<i32>
   cond {
    stablehlo.return %iterArg : tensor<i32>
  } do {
    stablehlo.return %iterArg : tensor<i32>
  }
  return %0 : tensor<i32>
}
// -----
func.func @f(%c0: tensor<i32>, %x: tensor<f32>, %p: tensor<i1>) -> tensor<i32> {
  // expected-error @+1 {{'stablehlo.while' op body region return value #0 has type 'tensor<f32>' but expected 'tensor<i32>'}}
  %0 = stablehlo.while(%iterArg = %c0) : tensor<i32>
   cond {
    stablehlo.return %p : tensor<i1>
  } do {
    stablehlo.return %x : tensor<f32>
  }
  return %0 : tensor<i32>
}
// -----
func.func @f(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.if' op false_branch region return value #0 has type 'tensor<i32>' but expected 'tensor<f32>'}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<f32>
  }, {
    stablehlo.return %y : tensor<i32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}
// -----
func.func @f(%k: tensor<16xi32>) -> tensor<16xi32> {
  // expected-error @+1 {{'stablehlo.sort' op dimension 1 is out of range [-1, 1)}}
  %0 = "stablehlo.sort"(%k) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<16xi32>) -> tensor<16xi32>
  return %0 : tensor<16xi32>
}
// -----
func.func @f(%k: tensor<16xi32>) -> tensor<16xi32> {
  // expected-error @+1 {{'stablehlo.sort' op comparator region has 1 arguments but 2 are expected}}
  %0 = "stablehlo.sort"(%k) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i32>):
    %p = stablehlo.compare LT, %a, %a : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<16xi32>) -> tensor<16xi32>
  return %0 : tensor<16xi32>
}
// -----
func.func @f(%t: tensor<64x32xbf16>, %i: tensor<2x4x1xi32>) -> tensor<2x4x32xbf16> {
  // expected-error @+1 {{'stablehlo.gather' op slice_sizes size 1 does not match operand rank 2}}
  %0 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1>}> : (tensor<64x32xbf16>, tensor<2x4x1xi32>) -> tensor<2x4x32xbf16>
  return %0 : tensor<2x4x32xbf16>
}
// -----
func.func @f(%t: tensor<64x32xbf16>, %i: tensor<2x4x1xi32>) -> tensor<2x4x32xbf16> {
  // expected-error @+1 {{'stablehlo.gather' op index_vector_dim 4 is out of range [0, 3]}}
  %0 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 4>, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<2x4x1xi32>) -> tensor<2x4x32xbf16>
  return %0 : tensor<2x4x32xbf16>
}
// -----
func.func @f(%t: tensor<64x32xbf16>, %i: tensor<2x4x1xi32>) -> tensor<2x4x32xbf16> {
  // expected-error @+1 {{'stablehlo.gather' op slice size of collapsed or batching dimension 0 must be at most 1, got 2}}
  %0 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 2, 32>}> : (tensor<64x32xbf16>, tensor<2x4x1xi32>) -> tensor<2x4x32xbf16>
  return %0 : tensor<2x4x32xbf16>
}
// -----
func.func @f(%t: tensor<64x32xbf16>, %i: tensor<2x4x1xi32>) -> tensor<2x4x16xbf16> {
  // expected-error @+1 {{'stablehlo.gather' op result dimension 2 has size 16 but expected 32 (expected shape [2, 4, 32])}}
  %0 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<2x4x1xi32>) -> tensor<2x4x16xbf16>
  return %0 : tensor<2x4x16xbf16>
}
// -----
func.func @f(%t: tensor<64x32xbf16>, %i: tensor<2x4x2xi32>) -> tensor<2x4x32xbf16> {
  // expected-error @+1 {{'stablehlo.gather' op start_index_map size 1 does not match index vector size 2}}
  %0 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<2x4x2xi32>) -> tensor<2x4x32xbf16>
  return %0 : tensor<2x4x32xbf16>
}
// -----
func.func @f(%x: tensor<8x4xf32>, %i: tensor<8x2x1xi32>, %u: tensor<8x2xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op scatter_dims_to_operand_dims size 2 does not match index vector size 1}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<8x2x1xi32>, tensor<8x2xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
// -----
func.func @f(%x: tensor<8x4xf32>, %i: tensor<8x2x1xi32>, %u: tensor<8x2x3xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op updates #0 has rank 3 but expected 2}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<8x2x1xi32>, tensor<8x2x3xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'stablehlo.all_gather' op all_gather_dim 2 is out of range [0, 2)}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.collective_permute' op source_target_pairs must have shape [N, 2], got [2]}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[0, 1]> : tensor<2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.all_reduce' op replica_groups repeats id 0}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @f(%x: tensor<4x7xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'stablehlo.all_to_all' op split dimension size 7 is not divisible by split_count 2}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x7xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
// -----
func.func @f(%t: !stablehlo.token) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.recv' op last result must be a !stablehlo.token}}
  %0 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>}> : (!stablehlo.token) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op has 2 operand layouts but 1 operands}}
  %0 = stablehlo.custom_call @foo(%x) {operand_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0:2 = stablehlo.optimization_barrier %x, %x : tensor<4xf32>, tensor<4xf32>
  // expected-error @+1 {{'stablehlo.optimization_barrier' op result #0 element type 'i32' does not match expected 'f32'}}
  %1 = "stablehlo.optimization_barrier"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}
