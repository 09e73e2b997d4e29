// RUN: mpmd-opt %s -mpmd-remat-fragment -split-input-file | FileCheck %s
// RUN: mpmd-opt %s -mpmd-remat-fragment=merge-remat-fragments=true -split-input-file | FileCheck %s --check-prefix=MERGE

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The backward of "f1" (cc 1) runs after another fragment on the mesh: a clone
// of "f1" marked remat is inserted right before it and feeds it; the other
// user of "f1" keeps the original.
// CHECK-LABEL: func.func @remat
// CHECK-NEXT: %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f1"], stage=0> (%arg0) {call_counter = 1 : ui32} (%{{.*}}: tensor<4x8xf32>) {
// CHECK:      %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%[[F]]#1)
// CHECK:      %[[R:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f1"], stage=0> (%arg0) {call_counter = 1 : ui32, remat} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.multiply %[[X]], %[[X]]
// CHECK-NEXT:   mpmd.return %[[X]], %[[Y]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[B:.*]] = mpmd.fragment<mesh="m1", origin=["f1"(1)], stage=0> (%[[R]]#0, %[[R]]#1, %arg1) {call_counter = 1 : ui32}
// CHECK:      return %[[B]], %[[G]]

// Merged: the backward absorbs the clone.
// MERGE-LABEL: func.func @remat
// MERGE-NEXT: %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f1"], stage=0> (%arg0) {call_counter = 1 : ui32}
// MERGE:      %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%[[F]]#1)
// MERGE:      %[[B:.*]] = mpmd.fragment<mesh="m1", origin=["f1", "f1"(1)], stage=0> (%arg0, %arg1) {call_counter = 1 : ui32, remat} (%[[A:.*]]: tensor<4x8xf32>, %[[C:.*]]: tensor<4x8xf32>) {
// MERGE-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// MERGE-NEXT:   %[[Y:.*]] = stablehlo.multiply %[[X]], %[[X]]
// MERGE-NEXT:   %[[Z:.*]] = stablehlo.subtract %[[X]], %[[Y]]
// MERGE-NEXT:   %[[W:.*]] = stablehlo.add %[[Z]], %[[C]]
// MERGE-NEXT:   mpmd.return %[[W]]
// MERGE-NEXT: }
// MERGE-NEXT: return %[[B]], %[[G]]
func.func @remat(%arg0: !m1, %arg1: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f1"], stage=0> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    %2 = stablehlo.multiply %1, %1 : !t
    mpmd.return %1, %2 : !t, !t
  } : (!m1) -> (!m1, !m1)
  %3 = mpmd.fragment<mesh="m1", origin=["g"]> (%0#1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["f1"(1)], stage=0> (%0#0, %0#1, %arg1) {call_counter = 1 : ui32} (%a: !t, %b: !t, %c: !t) {
    %5 = stablehlo.subtract %a, %b : !t
    %6 = stablehlo.add %5, %c : !t
    mpmd.return %6 : !t
  } : (!m1, !m1, !m1) -> !m1
  return %4, %3 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Each qualifying backward user gets its own clone (both the keep and the
// drop part of a split backward), and a backward using two forwards gets a
// clone of each (merged in order of the forwards).
// CHECK-LABEL: func.func @several_users
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (
// CHECK:      mpmd.fragment<mesh="m1", origin=["h"]>
// CHECK:      %[[R1:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {remat}
// CHECK:      %[[R2:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) {remat}
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"(1)]> (%[[R1]], %[[R2]]) {split_keep_transferred}
// CHECK:      %[[R3:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {remat}
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"(1)]> (%[[R3]]) {split_drop_transferred}

// MERGE-LABEL: func.func @several_users
// MERGE:      mpmd.fragment<mesh="m1", origin=["f", "g", "f"(1)]> (%arg0) {remat, split_keep_transferred}
// MERGE:      mpmd.fragment<mesh="m1", origin=["f", "f"(1)]> (%arg0) {remat, split_drop_transferred}
func.func @several_users(%arg0: !m1) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %1 = stablehlo.negate %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (%a: !t) {
    %3 = stablehlo.abs %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %h = mpmd.fragment<mesh="m1", origin=["h"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%0, %2) {split_keep_transferred} (%a: !t, %b: !t) {
    %5 = stablehlo.add %a, %b : !t
    mpmd.return %5 : !t
  } : (!m1, !m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%0) {split_drop_transferred} (%a: !t) {
    %7 = stablehlo.multiply %a, %a : !t
    mpmd.return %7 : !t
  } : (!m1) -> !m1
  return %4, %6, %h : !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// No remat: the backward does not use the forward; the call counters differ;
// the stages differ; the backward is the next fragment on the mesh (the
// forward's results are still at hand).
// CHECK-LABEL: func.func @no_remat
// CHECK-NOT:  remat
// MERGE-LABEL: func.func @no_remat
// MERGE-NOT:  remat
func.func @no_remat(%arg0: !m1) -> (!m1, !m1, !m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%1) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["h"(1)]> (%0) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["k"], stage=0> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=["l"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %7 = mpmd.fragment<mesh="m1", origin=["l"(1)]> (%5) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=["k"(1)], stage=1> (%4) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %2, %3, %6, %7, %0 : !m1, !m1, !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A clone with one operand and one result used once by the backward fragment
// is a trivial producer: merged, its operand takes the place of its result
// in the backward fragment's operands.
// CHECK-LABEL: func.func @merged_trivial_clone_keeps_backward_operand_order
// CHECK:      %[[R:.*]] = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0) {call_counter = 0 : ui32, remat}
// CHECK:      mpmd.fragment<mesh="m1", origin=["f1"(1)]> (%arg1, %[[R]])
// MERGE-LABEL: func.func @merged_trivial_clone_keeps_backward_operand_order
// MERGE:      %[[B:.*]] = mpmd.fragment<mesh="m1", origin=["f1", "f1"(1)]> (%arg1, %arg0) {call_counter = 0 : ui32, remat} (%[[C:.*]]: tensor<4x8xf32>, %[[A:.*]]: tensor<4x8xf32>) {
// MERGE-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// MERGE-NEXT:   %[[Y:.*]] = stablehlo.subtract %[[C]], %[[X]]
// MERGE-NEXT:   mpmd.return %[[Y]]
func.func @merged_trivial_clone_keeps_backward_operand_order(%arg0: !m1, %arg1: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) (%a: !t) {
    %3 = stablehlo.negate %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["f1"(1)]> (%arg1, %0) {call_counter = 0 : ui32} (%c: !t, %a: !t) {
    %5 = stablehlo.subtract %c, %a : !t
    mpmd.return %5 : !t
  } : (!m1, !m1) -> !m1
  return %4, %2 : !m1, !m1
}
