// Dynamic dimensions are accepted where sizes are compatible; a while with no carried values.
// RUN: mpmd-opt %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt %s -mlir-print-op-generic | mpmd-opt | FileCheck %s

// CHECK-LABEL: func.func @dyn(
// CHECK: %0 = stablehlo.add %arg0, %arg0 : tensor<?x4xf32>
// CHECK: %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
// CHECK: %2 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<?x4xf32>) -> tensor<3x2x4xf32>
// CHECK: %3 = stablehlo.reduce(%arg0 init: %arg2) applies stablehlo.add across dimensions = [0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: %4 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: %5 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
// CHECK: stablehlo.while()
// CHECK: cond {
// CHECK: %c = stablehlo.constant dense<false> : tensor<i1>
// CHECK: stablehlo.return %c : tensor<i1>
// CHECK: } do {
// CHECK: stablehlo.return

func.func @dyn(%a: tensor<?x4xf32>, %b: tensor<4x?xf32>, %f: tensor<f32>) {
  %0 = stablehlo.add %a, %a : tensor<?x4xf32>
  %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  %2 = stablehlo.broadcast_in_dim %a, dims = [0, 2] : (tensor<?x4xf32>) -> tensor<3x2x4xf32>
  %3 = stablehlo.reduce(%a init: %f) applies stablehlo.add across dimensions = [0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %5 = stablehlo.transpose %a, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
  stablehlo.while()
   cond {
    %t = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    stablehlo.return
  }
  return
}
