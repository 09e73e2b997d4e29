// RUN: mpmd-opt %s -mpmd-sink-create-token-into-fragments | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Each fragment using the token creates its own; the outer create_token
// goes away.
// CHECK-LABEL: func.func @main
// CHECK-NOT:  stablehlo.create_token
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[T:.*]] = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT:   stablehlo.after_all %[[T]]
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (%{{.*}}) (%{{.*}}: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[U:.*]] = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT:   stablehlo.after_all %[[U]], %[[U]]
func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %token = stablehlo.create_token : !stablehlo.token
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %token) (%a: !t, %tk: !stablehlo.token) {
    %1 = stablehlo.after_all %tk : !stablehlo.token
    mpmd.return %a : !t
  } : (!m1, !stablehlo.token) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%token, %0, %token) (%tk: !stablehlo.token, %a: !t, %tk2: !stablehlo.token) {
    %3 = stablehlo.after_all %tk, %tk2 : !stablehlo.token
    mpmd.return %a : !t
  } : (!stablehlo.token, !m1, !stablehlo.token) -> !m1
  return %2 : !m1
}
