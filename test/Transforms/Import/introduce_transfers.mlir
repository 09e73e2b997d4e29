// RUN: mpmd-opt %s -mpmd-introduce-transfers -split-input-file | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
!m10 = !mpmd.mesh_tensor<"m10", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m10": <["x"=2]>>>

// One m1 value assigned to m10 and m2 (twice) becomes one chain of
// transfers in numeric-aware mesh order, m1 -> m2 -> m10, placed before the
// earliest assign. The assign to m1 itself is a no-op. The unassign goes.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:  %[[N:.*]] = stablehlo.negate %arg1
// CHECK-NEXT:  %[[T2:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:  %[[T10:.*]] = mpmd.transfer %[[T2]] : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m10", tensor<4x8xf32>>
// CHECK-NEXT:  %[[F:.*]] = mpmd.fragment<mesh="m10", origin=["g"]> (%[[T10]])
// CHECK:       %[[G:.*]] = mpmd.fragment<mesh="m2", origin=["h"]> (%[[T2]], %[[T2]])
// CHECK:       return %arg0, %[[F]], %[[G]]
// CHECK-NOT:   mpmd.unassign
func.func @chain(%arg0: !m1, %arg1: !t) -> (!m1, !m10, !m2) attributes {topology = #topology} {
  %0 = mpmd.unassign {origin = "f"} %arg0 : (!m1) -> !t
  %n = stablehlo.negate %arg1 : !t
  %1 = mpmd.assign {origin = "g"} %0 : (!t) -> !m10
  %2 = mpmd.fragment<mesh="m10", origin=["g"]> (%1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m10) -> !m10
  %3 = mpmd.assign {origin = "h"} %0 : (!t) -> !m2
  %4 = mpmd.assign {origin = "h"} %0 : (!t) -> !m2
  %5 = mpmd.fragment<mesh="m2", origin=["h"]> (%3, %4) (%x: !t, %y: !t) {
    mpmd.return %x : !t
  } : (!m2, !m2) -> !m2
  %6 = mpmd.assign {origin = "user_out"} %0 : (!t) -> !m1
  return %6, %2, %5 : !m1, !m10, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
!m3 = !mpmd.mesh_tensor<"m3", tensor<4x8xf32>>
!m2host = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>, memory_kind="pinned_host">
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// An existing transfer of the value to a target type is reused and moved
// before the earliest assign; the other device target is transferred from
// the source, and a target in another memory kind is transferred to
// directly, in the order of the assigns. Unassigns with other users stay.
// CHECK-LABEL: func.func @reuse
// CHECK-NEXT:  %[[U:.*]] = mpmd.unassign %arg0
// CHECK-NEXT:  %[[T3:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m3", tensor<4x8xf32>>
// CHECK-NEXT:  %[[H:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>, memory_kind="pinned_host">
// CHECK-NEXT:  %[[T2:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:  %[[N:.*]] = stablehlo.negate %[[U]]
// CHECK-NEXT:  return %[[T3]], %[[T3]], %[[H]], %[[T2]], %[[N]]
func.func @reuse(%arg0: !m1) -> (!m3, !m3, !m2host, !m2, !t) attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.assign %0 : (!t) -> !m3
  %2 = mpmd.assign %0 : (!t) -> !m2host
  %3 = mpmd.assign %0 : (!t) -> !m2
  %n = stablehlo.negate %0 : !t
  %4 = mpmd.transfer %arg0 : (!m1) -> !m3
  return %1, %4, %2, %3, %n : !m3, !m3, !m2host, !m2, !t
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// add(unassign(m1 value), add(unassign(m2 value), unassign(m1 value)))
// assigned to m1 is pushed onto m1 one add at a time: an inferred fragment
// per add, inner add first, operands in the add's order; the m2 operand is
// transferred. An add with another user is not part of a tree.
// CHECK-LABEL: func.func @add_tree
// CHECK-NEXT:  %[[T:.*]] = mpmd.transfer %arg1 : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[T]], %arg2) {mpmd.inferred_by = ["introduce_transfers"]} (%[[B:.*]]: tensor<4x8xf32>, %[[C:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:    %[[S1:.*]] = stablehlo.add %[[B]], %[[C]]
// CHECK-NEXT:    mpmd.return %[[S1]]
// CHECK-NEXT:  } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[F2:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0, %[[F1]]) {mpmd.inferred_by = ["introduce_transfers"]} (%[[A:.*]]: tensor<4x8xf32>, %[[S:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:    %[[S2:.*]] = stablehlo.add %[[A]], %[[S]]
// CHECK-NEXT:    mpmd.return %[[S2]]
// CHECK-NEXT:  } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[U0:.*]] = mpmd.unassign %arg0
// CHECK-NEXT:  %[[U1:.*]] = mpmd.unassign %arg1
// CHECK-NEXT:  %[[SHARED:.*]] = stablehlo.add %[[U0]], %[[U1]]
// CHECK-NEXT:  %[[K:.*]] = mpmd.assign %[[SHARED]]
// CHECK-NEXT:  return %[[F2]], %[[K]], %[[SHARED]]
func.func @add_tree(%arg0: !m1, %arg1: !m2, %arg2: !m1) -> (!m1, !m1, !t) attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m2) -> !t
  %2 = mpmd.unassign %arg2 : (!m1) -> !t
  %3 = stablehlo.add %1, %2 : !t
  %4 = stablehlo.add %0, %3 : !t
  %5 = mpmd.assign %4 : (!t) -> !m1
  %6 = mpmd.unassign %arg0 : (!m1) -> !t
  %7 = mpmd.unassign %arg1 : (!m2) -> !t
  %8 = stablehlo.add %6, %7 : !t
  %9 = mpmd.assign %8 : (!t) -> !m1
  return %5, %9, %8 : !m1, !m1, !t
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Every call passes an unassign of an m1 value as argument 0 and the
// callee assigns it to m2: the argument stays unassigned (mesh inference
// types it), the callers keep their unassigns, and the assign to m2 becomes
// an assign to the callers' mesh m1 followed by a transfer inside the
// callee. Argument 1 has a non-unassign at one call site and argument 2 has
// no assign user: both stay as they are.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[U0:.*]] = mpmd.unassign %arg0
// CHECK-NEXT:  %[[U1:.*]] = mpmd.unassign %arg1
// CHECK-NEXT:  %[[C0:.*]] = mpmd.call @f(%[[U0]], %[[U1]], %[[U0]]) {call_counter = 0 : ui32} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:  %[[C1:.*]] = mpmd.call @f(%[[U1]], %arg2, %[[U0]]) {call_counter = 1 : ui32}
// CHECK:       func.func private @f(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>)
// CHECK-NEXT:  %[[A0:.*]] = mpmd.assign {origin = "g"} %arg0 : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[T:.*]] = mpmd.transfer %[[A0]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:  %[[A1:.*]] = mpmd.assign {origin = "g"} %arg1
// CHECK-NEXT:  mpmd.fragment<mesh="m2", origin=["g"]> (%[[T]], %[[A1]])
func.func @main(%arg0: !m1, %arg1: !m1, %arg2: !t) -> (!m2, !m2) attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m1) -> !t
  %2 = mpmd.call @f(%0, %1, %0) {call_counter = 0 : ui32} : (!t, !t, !t) -> !m2
  %3 = mpmd.call @f(%1, %arg2, %0) {call_counter = 1 : ui32} : (!t, !t, !t) -> !m2
  return %2, %3 : !m2, !m2
}
func.func private @f(%arg0: !t, %arg1: !t, %arg2: !t) -> !m2 attributes {topology = #topology} {
  %0 = mpmd.assign {origin = "g"} %arg0 : (!t) -> !m2
  %1 = mpmd.assign {origin = "g"} %arg1 : (!t) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["g"]> (%0, %1) (%x: !t, %y: !t) {
    mpmd.return %x : !t
  } : (!m2, !m2) -> !m2
  return %2 : !m2
}
