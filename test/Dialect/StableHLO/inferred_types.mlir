// Result types checked against the inferred ones (InferTypeOpInterface):
// compatible types pass, each kind of mismatch has its own message.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics

// Dynamic dimensions are accepted where the sizes may agree; dot products may
// accumulate in another element type.
func.func @compatible(%a: tensor<2x3xf32>, %d: tensor<?x3xf32>, %w: tensor<3x4xbf16>, %x: tensor<2x3xbf16>) -> tensor<?x2xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<?x2xf32>
  %1 = stablehlo.add %a, %d : (tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %2 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  %3 = stablehlo.slice %d [0:1, 0:3:2] : (tensor<?x3xf32>) -> tensor<1x2xf32>
  return %0 : tensor<?x2xf32>
}
// -----
func.func @f(%c: tensor<4xcomplex<f32>>) -> tensor<4xf64> {
  // expected-error @+1 {{'stablehlo.real' op result element type 'f64' does not match expected 'f32'}}
  %0 = stablehlo.real %c : (tensor<4xcomplex<f32>>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
// -----
func.func @f(%a: tensor<3x8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.slice' op result rank 1 does not match expected rank 2 (expected shape [2, 2])}}
  %0 = stablehlo.slice %a [1:3, 4:8:2] : (tensor<3x8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %i: tensor<i32>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op result dimension 1 has size 3 but expected 4 (expected shape [1, 4])}}
  %0 = stablehlo.dynamic_slice %a, %i, %i, sizes = [1, 4] : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}
// -----
func.func @f(%x: tensor<2x4xf32>, %y: tensor<2x4xi32>, %c: tensor<f32>, %k: tensor<i32>) -> tensor<2xi32> {
  // expected-error @+1 {{'stablehlo.reduce' op result #1 dimension 0 has size 4 but expected 2 (expected shape [2])}}
  %0:2 = stablehlo.reduce(%x init: %c), (%y init: %k) across dimensions = [1] : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%p: tensor<i32>, %q: tensor<i32>) {
    stablehlo.return %a, %p : tensor<f32>, tensor<i32>
  }
  return %0#1 : tensor<4xi32>
}
// -----
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.optimization_barrier' op has 2 results but expected 1}}
  %0:2 = "stablehlo.optimization_barrier"(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}
// -----
func.func @f(%x: tensor<4xf32>) -> !stablehlo.token {
  // expected-error @+1 {{'stablehlo.optimization_barrier' op result #0 type '!stablehlo.token' does not match expected 'tensor<4xf32>'}}
  %0 = "stablehlo.optimization_barrier"(%x) : (tensor<4xf32>) -> !stablehlo.token
  return %0 : !stablehlo.token
}
// -----
func.func @f(%p: tensor<i1>, %x: tensor<f32>) -> tensor<i32> {
  // expected-error @+1 {{'stablehlo.if' op result #0 element type 'i32' does not match expected 'f32'}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<f32>
  }, {
    stablehlo.return %x : tensor<f32>
  }) : (tensor<i1>) -> tensor<i32>
  return %0 : tensor<i32>
}
// -----
func.func @f(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.if' op true_branch region must end with stablehlo.return}}
  %0 = "stablehlo.if"(%p) ({
    %c = stablehlo.constant dense<1.0> : tensor<f32>
  }, {
    stablehlo.return %x : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}
// -----
func.func @f(%x: tensor<4x6xf32>, %c: tensor<f32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op result #0 dimension 1 has size 4 but expected 3 (expected shape [2, 3])}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
