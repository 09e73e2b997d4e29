// RUN: mpmd-opt %s -mpmd-convert-sdy-constants | FileCheck %s

// sdy.constant (kept from folding during propagation) becomes an ordinary
// stablehlo.constant, in fragment bodies and elsewhere.
// CHECK-LABEL: func.func @main
// CHECK:         stablehlo.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK:         stablehlo.constant dense<1> : tensor<i32>
// CHECK-NOT:     sdy.constant
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @main(%arg0: !m1) -> (!m1, tensor<i32>) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %c = sdy.constant dense<2.0> : !t
    %m = stablehlo.multiply %a, %c : !t
    mpmd.return %m : !t
  } : (!m1) -> !m1
  %i = sdy.constant dense<1> : tensor<i32>
  return %0, %i : !m1, tensor<i32>
}
