// RUN: mpmd-opt %s -mpmd-uniquify-function-inputs-outputs -split-input-file | FileCheck %s
// RUN: mpmd-opt %s -mpmd-uniquify-function-inputs-outputs=use-transfer-instead-of-fragment=true -split-input-file | FileCheck %s --check-prefix=TRANSFER

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A value returned three times, and an argument returned directly, become
// copies at every return position: one identity inferred fragment per mesh,
// taking each such value once and returning it once per position.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK:      %[[C:.*]]:3 = mpmd.fragment<mesh="m1", origin=[]> (%[[F]]) {mpmd.inferred_by = ["uniquify"]} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   mpmd.return %[[A]], %[[A]], %[[A]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>)
// CHECK-NEXT: %[[D:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%arg1) {mpmd.inferred_by = ["uniquify"]} (%[[B:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   mpmd.return %[[B]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[C]]#0, %[[C]]#1, %[[D]], %[[C]]#2, %arg2
// With transfers, every return position but the first of a computed value
// gets its own transfer, in return order.
// TRANSFER-LABEL: func.func @main
// TRANSFER-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]>
// TRANSFER:      %[[C0:.*]] = mpmd.transfer %[[F]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// TRANSFER-NEXT: %[[D:.*]] = mpmd.transfer %arg1 : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// TRANSFER-NEXT: %[[C1:.*]] = mpmd.transfer %[[F]]
// TRANSFER-NEXT: return %[[F]], %[[C0]], %[[D]], %[[C1]], %arg2
func.func @main(%arg0: !m1, %arg1: !m2, %arg2: !t) -> (!m1, !m1, !m2, !m1, !t) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0, %0, %arg1, %0, %arg2 : !m1, !m1, !m2, !m1, !t
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Only entry points are changed.
// CHECK-LABEL: func.func private @not_entry
// CHECK-NEXT: return %arg0, %arg0
func.func private @not_entry(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  return %arg0, %arg0 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Two values of one mesh share its fragment: a returned argument and a
// value returned twice, each one operand.
// CHECK-LABEL: func.func @shared
// CHECK:      %[[C:.*]]:3 = mpmd.fragment<mesh="m1", origin=[]> (%arg0, %{{.*}}) {mpmd.inferred_by = ["uniquify"]} (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   mpmd.return %[[A]], %[[B]], %[[B]]
// CHECK:      return %[[C]]#0, %[[C]]#1, %[[C]]#2
func.func @shared(%arg0: !m1) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %arg0, %0, %0 : !m1, !m1, !m1
}
