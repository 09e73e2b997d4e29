// RUN: mpmd-opt %s -split-input-file -mpmd-import-pipeline='name-to-mesh-assignment=layer1@m1/1,layer2@m2/2' | FileCheck %s

// The RFC's "Simple example of mesh inference": its Initial IR becomes its
// "Mesh inference" IR. The multiply joins layer1's fragment on m1, the divide
// layer2's on m2, and the arguments and results become mesh tensors.
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
!t = tensor<4xf32>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:    %[[F1:.*]]:2 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) (%[[A1:.*]]: tensor<4xf32>) {
// CHECK-NEXT:      %[[ADD1:.*]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// CHECK-NEXT:      %[[MUL:.*]] = stablehlo.multiply %[[ADD1]], %[[ADD1]] : tensor<4xf32>
// CHECK-NEXT:      mpmd.return %[[ADD1]], %[[MUL]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:    } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %[[F1]]#0 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[F2:.*]] = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%[[T]]) (%[[A2:.*]]: tensor<4xf32>) {
// CHECK-NEXT:      %[[ADD2:.*]] = stablehlo.add %[[A2]], %[[A2]] : tensor<4xf32>
// CHECK-NEXT:      %[[DIV:.*]] = stablehlo.divide %[[ADD2]], %[[ADD2]] : tensor<4xf32>
// CHECK-NEXT:      mpmd.return %[[DIV]] : tensor<4xf32>
// CHECK-NEXT:    } : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    return %[[F1]]#1, %[[F2]] : !mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>
func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t)
  attributes {topology=#topology} {
  %1 = mpmd.named_computation<"layer1"> (%arg0, %arg1) (%arg2: !t, %arg3: !t) {
    %10 = stablehlo.add %arg2, %arg2 : !t
    mpmd.return %10 : !t
  } : (!t, !t) -> !t
  %c = stablehlo.constant dense<0.000000e+00> : !t
  %2 = mpmd.named_computation<"layer2"> (%1, %c) (%arg2: !t, %arg3: !t) {
    %10 = stablehlo.add %arg2, %arg2 : !t
    mpmd.return %10 : !t
  } : (!t, !t) -> !t
  %3 = stablehlo.multiply %1, %1 : !t
  %4 = stablehlo.divide %2, %2 : !t
  func.return %3, %4  : !t, !t
}
