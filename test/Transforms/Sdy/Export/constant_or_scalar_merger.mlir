// -sdy-constant-or-scalar-merger: copies that ended up alike are merged.
// RUN: mpmd-opt -sdy-constant-or-scalar-merger %s | FileCheck %s

sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @main(
func.func @main(%x: tensor<8xf32>, %s: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  // CHECK-NEXT: %[[C:.*]] = sdy.constant dense<1.000000e+00>
  // CHECK-NEXT: %[[A0:.*]] = stablehlo.add %arg0, %[[C]]
  // CHECK-NEXT: %[[CS:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} dense<1.000000e+00>
  // CHECK-NEXT: %[[A1:.*]] = stablehlo.add %[[A0]], %[[C]]
  // CHECK-NEXT: %[[A2:.*]] = stablehlo.add %[[A1]], %[[CS]]
  // CHECK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %arg1
  // CHECK-NEXT: %[[M0:.*]] = stablehlo.multiply %[[A2]], %[[B]]
  // CHECK-NEXT: %[[M1:.*]] = stablehlo.multiply %[[M0]], %[[B]]
  // CHECK-NEXT: return %[[M1]], %[[A0]], %[[A1]]
  %c0 = sdy.constant dense<1.0> : tensor<8xf32>
  %0 = stablehlo.add %x, %c0 : tensor<8xf32>
  %c1 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} dense<1.0> : tensor<8xf32>
  %c2 = sdy.constant dense<1.0> : tensor<8xf32>
  %1 = stablehlo.add %0, %c2 : tensor<8xf32>
  %2 = stablehlo.add %1, %c1 : tensor<8xf32>
  %b0 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %3 = stablehlo.multiply %2, %b0 : tensor<8xf32>
  %b1 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %4 = stablehlo.multiply %3, %b1 : tensor<8xf32>
  return %4, %0, %1 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
