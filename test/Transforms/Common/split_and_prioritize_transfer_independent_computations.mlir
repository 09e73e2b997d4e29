// RUN: mpmd-opt %s -mpmd-split-and-prioritize-transfer-independent-computations -split-input-file | FileCheck %s

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=1]>>, <"m2": <["x"=1]>>>

// The first part computes what does not wait for the transfer (the add and
// the sine of the weight): it returns the add, a result of the fragment, and
// the sine, the residual the second part needs; the second part takes the
// transferred activation and the residual.
// CHECK-LABEL: func.func @main
// CHECK:       %[[T:.*]] = mpmd.transfer %arg1
// CHECK-NEXT:  %[[A:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%arg0) {call_counter = 0 : ui32, split_keep_transferred} (%[[W:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[W]], %[[W]]
// CHECK-NEXT:    %[[SIN:.*]] = stablehlo.sine %[[ADD]]
// CHECK-NEXT:    mpmd.return %[[ADD]], %[[SIN]]
// CHECK-NEXT:  } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK-NEXT:  %[[B:.*]] = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%[[T]], %[[A]]#1) {call_counter = 0 : ui32, split_drop_transferred} (%[[X:.*]]: tensor<4xf32>, %[[R:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[MUL:.*]] = stablehlo.multiply %[[X]], %[[R]]
// CHECK-NEXT:    mpmd.return %[[MUL]]
// CHECK-NEXT:  } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:  return %[[A]]#0, %[[B]]
func.func @main(%arg0: !m1, %arg1: !m2) -> (!m1, !m1) attributes {topology = #topology} {
  %t = mpmd.transfer %arg1 : (!m2) -> !m1
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%arg0, %t) {call_counter = 0 : ui32} (%w: !t, %x: !t) {
    %1 = stablehlo.add %w, %w : !t
    %2 = stablehlo.sine %1 : !t
    %3 = stablehlo.multiply %x, %2 : !t
    mpmd.return %1, %3 : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  return %0#0, %0#1 : !m1, !m1
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=1]>>, <"m2": <["x"=1]>>>

// Nothing to split: no operand from a transfer, every operand from a
// transfer, every result waiting for the transfer, or already split.
// CHECK-LABEL: func.func @unchanged
// CHECK-COUNT-3: mpmd.fragment<mesh="m1", origin=["f"]> ({{[^)]*}}) (
// CHECK:         mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %0) {split_drop_transferred} (
// CHECK-NOT:     mpmd.fragment
func.func @unchanged(%arg0: !m1, %arg1: !m2) -> (!m1, !m1, !m1, !m1) attributes {topology = #topology} {
  %t = mpmd.transfer %arg1 : (!m2) -> !m1
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %1 = stablehlo.negate %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"]> (%t) (%a: !t) {
    %3 = stablehlo.negate %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %t) (%a: !t, %b: !t) {
    %5 = stablehlo.negate %a : !t
    %6 = stablehlo.add %5, %b : !t
    mpmd.return %6 : !t
  } : (!m1, !m1) -> !m1
  %7:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %t) {split_drop_transferred} (%a: !t, %b: !t) {
    %8 = stablehlo.negate %a : !t
    %9 = stablehlo.add %8, %b : !t
    mpmd.return %8, %9 : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  return %0, %2, %4, %7#1 : !m1, !m1, !m1, !m1
}
