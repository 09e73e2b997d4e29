// RUN: mpmd-opt %s -mpmd-sink-create-token-into-fragments -split-input-file | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Each token operand becomes a token created in the body, in operand order;
// the outer create_token goes away.
// CHECK-LABEL: func.func @main
// CHECK-NOT:  stablehlo.create_token
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[T:.*]] = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT:   stablehlo.after_all %[[T]]
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (%{{.*}}) (%{{.*}}: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[U:.*]] = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT:   %[[V:.*]] = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT:   stablehlo.after_all %[[U]], %[[V]]
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

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Tokens from a function argument and from another fragment are replaced
// too; the producing fragment's token result then goes. A token returned by
// the function stays.
// CHECK-LABEL: func.func @other_producers
// CHECK:       %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:    %[[T:.*]] = stablehlo.create_token
// CHECK-NEXT:    %[[S:.*]] = stablehlo.after_all %[[T]]
// CHECK-NEXT:    mpmd.return %[[A]], %[[S]] : tensor<4x8xf32>, !stablehlo.token
// CHECK:       %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%[[F]]#0) (%{{.*}}: tensor<4x8xf32>) {
// CHECK-NEXT:    stablehlo.create_token
// CHECK:       } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK:       return %[[G]], %[[F]]#1
func.func @other_producers(%arg0: !m1, %arg1: !stablehlo.token) -> (!m1, !stablehlo.token) attributes {topology = #topology} {
  %0:3 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !t, %tk: !stablehlo.token) {
    %1 = stablehlo.after_all %tk : !stablehlo.token
    mpmd.return %a, %1, %1 : !t, !stablehlo.token, !stablehlo.token
  } : (!m1, !stablehlo.token) -> (!m1, !stablehlo.token, !stablehlo.token)
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0#0, %0#1) (%a: !t, %tk: !stablehlo.token) {
    %3 = stablehlo.after_all %tk : !stablehlo.token
    mpmd.return %a : !t
  } : (!m1, !stablehlo.token) -> !m1
  return %2, %0#2 : !m1, !stablehlo.token
}
