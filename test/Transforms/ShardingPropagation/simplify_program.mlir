// RUN: mpmd-opt %s -mpmd-simplify-program -split-input-file | FileCheck %s

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// f passes %arg0 through (result 1: its users take %arg0), returns %s twice
// (results collapse) and never reads %arg1 (operand dropped). The unused
// fragment u and the unused transfer go.
// CHECK-LABEL: func.func @fragments
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%[[A:.*]]: tensor<4xf32>) {
// CHECK-NEXT:   %[[S:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   mpmd.return %[[S]] : tensor<4xf32>
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT: %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%[[F]], %arg0)
// CHECK-NOT:  mpmd.transfer
// CHECK:      return %[[G]], %[[F]]
func.func @fragments(%arg0: !m1, %arg1: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0:4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !t, %b: !t) {
    %s = stablehlo.add %a, %a : !t
    %dead = stablehlo.multiply %s, %s : !t
    mpmd.return %s, %a, %s, %s : !t, !t, !t, !t
  } : (!m1, !m1) -> (!m1, !m1, !m1, !m1)
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%0#0, %0#1) (%a: !t, %b: !t) {
    %2 = stablehlo.add %a, %b : !t
    mpmd.return %2 : !t
  } : (!m1, !m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["u"]> (%0#2) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %4 = mpmd.transfer %0#3 : (!m1) -> !m2
  return %1, %0#2 : !m1, !m1
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A loop whose iteration returns its second carried value unchanged: the
// loop's result is its operand. Inside the loop body f's duplicate results
// collapse, and so do then g's operands.
// CHECK-LABEL: func.func @loop
// CHECK:      %[[L:.*]]:2 = mpmd.for (%arg0, %arg1)
// CHECK:        %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK:        } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:   %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%[[F]]) (%[[A:.*]]: tensor<4xf32>) {
// CHECK-NEXT:     stablehlo.add %[[A]], %[[A]]
// CHECK:        mpmd.return %[[G]], %{{.*}}
// CHECK:      return %[[L]]#0, %arg1
func.func @loop(%arg0: !m1, %arg1: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0:2 = mpmd.for (%arg0, %arg1) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%x: !m1, %y: !m1, %index: tensor<ui32>) {
    %1:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%x) (%a: !t) {
      %2 = stablehlo.add %a, %a : !t
      mpmd.return %2, %2 : !t, !t
    } : (!m1) -> (!m1, !m1)
    %3 = mpmd.fragment<mesh="m1", origin=["g"]> (%1#0, %1#1) (%a: !t, %b: !t) {
      %4 = stablehlo.add %a, %b : !t
      mpmd.return %4 : !t
    } : (!m1, !m1) -> !m1
    mpmd.return %3, %y : !m1, !m1
  } : !m1, !m1
  return %0#0, %0#1 : !m1, !m1
}
