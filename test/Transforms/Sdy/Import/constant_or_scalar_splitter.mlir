// -sdy-constant-or-scalar-splitter: every use of a constant expression or
// of a broadcast scalar gets its own copy, right before the user.
// RUN: mpmd-opt -split-input-file -sdy-constant-or-scalar-splitter %s | FileCheck %s

// CHECK-LABEL: func.func @constant_expression(
func.func @constant_expression(%x: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  // CHECK-NEXT: %[[C0:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
  // CHECK-NEXT: %[[B0:.*]] = stablehlo.broadcast_in_dim %[[C0]], dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
  // CHECK-NEXT: %[[I0:.*]] = stablehlo.iota dim = 1 : tensor<8x4xf32>
  // CHECK-NEXT: %[[M0:.*]] = stablehlo.multiply %[[B0]], %[[I0]] : tensor<8x4xf32>
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %[[M0]] : tensor<8x4xf32>
  // CHECK-NEXT: %[[C1:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
  // CHECK-NEXT: %[[B1:.*]] = stablehlo.broadcast_in_dim %[[C1]], dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
  // CHECK-NEXT: %[[I1:.*]] = stablehlo.iota dim = 1 : tensor<8x4xf32>
  // CHECK-NEXT: %[[M1:.*]] = stablehlo.multiply %[[B1]], %[[I1]] : tensor<8x4xf32>
  // CHECK-NEXT: %[[S:.*]] = stablehlo.subtract %arg0, %[[M1]] : tensor<8x4xf32>
  // CHECK-NEXT: return %[[A]], %[[S]]
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %b = stablehlo.broadcast_in_dim %c, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
  %i = stablehlo.iota dim = 1 : tensor<8x4xf32>
  %m = stablehlo.multiply %b, %i : tensor<8x4xf32>
  %0 = stablehlo.add %x, %m : tensor<8x4xf32>
  %1 = stablehlo.subtract %x, %m : tensor<8x4xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// Rank-0 values are shared; a broadcast of a rank-0 value that is not
// constant is still cloned per use, and its sharding group goes along.
// CHECK-LABEL: func.func @scalar_broadcast(
func.func @scalar_broadcast(%s: tensor<f32>, %x: tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>) {
  // CHECK-NEXT: %[[C:.*]] = sdy.constant dense<2.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[B0:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<8xf32>
  // CHECK-NEXT: sdy.sharding_group %[[B0]] group_id=3
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg1, %[[B0]]
  // CHECK-NEXT: %[[B1:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<8xf32>
  // CHECK-NEXT: sdy.sharding_group %[[B1]] group_id=3
  // CHECK-NEXT: %[[M:.*]] = stablehlo.multiply %[[A]], %[[B1]]
  // CHECK-NEXT: %[[T:.*]] = stablehlo.multiply %arg0, %[[C]] : tensor<f32>
  // CHECK-NEXT: return %[[M]], %[[T]]
  %c = stablehlo.constant dense<2.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
  sdy.sharding_group %b group_id=3 : tensor<8xf32>
  %0 = stablehlo.add %x, %b : tensor<8xf32>
  %1 = stablehlo.multiply %0, %b : tensor<8xf32>
  %2 = stablehlo.multiply %s, %c : tensor<f32>
  return %1, %2 : tensor<8xf32>, tensor<f32>
}

// -----

// A constant keeps its attributes (the sharding among them).
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @keeps_sharding(
// CHECK-NEXT: sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} dense<0> : tensor<8xi32>
func.func @keeps_sharding() -> tensor<8xi32> {
  %c = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} dense<0> : tensor<8xi32>
  return %c : tensor<8xi32>
}
