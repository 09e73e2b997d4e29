// RUN: mpmd-opt %s -mpmd-fragment-dce -split-input-file | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Unused results go, then the ops computing them, then the arguments only
// those ops used.
// CHECK-LABEL: func.func @unused_results_and_args
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   mpmd.return %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT: return %[[F]]
func.func @unused_results_and_args(%arg0: !m1, %arg1: !m1) -> !m1 attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !t, %b: !t) {
    %1 = stablehlo.add %a, %a : !t
    %2 = stablehlo.multiply %b, %b : !t
    %3 = stablehlo.negate %2 : !t
    %4 = stablehlo.subtract %a, %a : !t
    mpmd.return %1, %3 : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  return %0#0 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// One backward sweep: the consumer drops its unused argument, which frees
// the producer's result, and the producer, now unused and pure, is erased
// with the dead transfer. Per-value attributes follow.
// CHECK-LABEL: func.func @backward_sweep
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["g"], in_shardings=[<@mesh, [{"x"}, {}]>], out_shardings=[<@mesh, [{}, {}]>]> (%arg1) {arg_attrs = [{b}], res_attrs = [{r}]} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   mpmd.return %[[A]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @backward_sweep(%arg0: !m1, %arg1: !m1) -> !m1 attributes {topology = #topology} {
    %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
      %1 = stablehlo.add %a, %a : !t
      mpmd.return %1 : !t
    } : (!m1) -> !m1
    %t = mpmd.transfer %0 : (!m1) -> !m2
    %2:2 = mpmd.fragment<mesh="m1", origin=["g"], in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>], out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>]> (%0, %arg1) {arg_attrs = [{a}, {b}], res_attrs = [{r}, {s}]} (%a: !t, %b: !t) {
      mpmd.return %b, %a : !t, !t
    } : (!m1, !m1) -> (!m1, !m1)
    return %2#0 : !m1
  }
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Side effects are kept: a fragment without results whose body has a side
// effect stays, and so do side-effecting ops. Dead ops in nested regions are
// erased. Control operands are kept although unused.
// CHECK-LABEL: func.func @side_effects
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) {mpmd.control_operand_start_idx = 1 : i64} (%[[A:.*]]: tensor<4x8xf32>, %{{.*}}: tensor<4x8xf32>) {
// CHECK-NEXT:   stablehlo.custom_call @effect(%[[A]])
// CHECK-NEXT:   mpmd.return
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> ()
// CHECK-NEXT: %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0)
// CHECK-NEXT:   stablehlo.while
// CHECK-NEXT:   cond {
// CHECK-NEXT:     stablehlo.constant
// CHECK-NEXT:     stablehlo.return
// CHECK-NEXT: } do {
// CHECK-NEXT:   stablehlo.return
// CHECK-NEXT: }
// CHECK-NEXT: mpmd.return
// CHECK: return %[[G]]
func.func @side_effects(%arg0: !m1, %arg1: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) {mpmd.control_operand_start_idx = 1 : i64} (%a: !t, %b: !t) {
    %1 = stablehlo.custom_call @effect(%a) {has_side_effect = true} : (!t) -> !t
    %2 = stablehlo.negate %a : !t
    mpmd.return %2 : !t
  } : (!m1, !m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (%a: !t) {
    %4 = stablehlo.while(%it = %a) : !t
    cond {
      %5 = stablehlo.negate %it : !t
      %c = stablehlo.compare LT, %it, %it : (!t, !t) -> tensor<4x8xi1>
      %r = stablehlo.reshape %c : (tensor<4x8xi1>) -> tensor<4x8xi1>
      %s = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %s : tensor<i1>
    } do {
      %6 = stablehlo.negate %it : !t
      stablehlo.return %it : !t
    }
    mpmd.return %4 : !t
  } : (!m1) -> !m1
  return %3 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Fragments in mpmd.for bodies are simplified too.
// CHECK-LABEL: func.func @in_loop
// CHECK: mpmd.for
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["g"]> (%{{.*}}) (%{{.*}}: tensor<4x8xf32>)
// CHECK-NEXT: mpmd.return
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func @in_loop(%arg0: !m1, %arg1: !m1) -> !m1 attributes {topology = #topology} {
  %2:2 = mpmd.for (%arg0, %arg1) {iterations = 1 : ui32, unroll_factor = 1 : ui32} (%x: !m1, %y: !m1, %index: tensor<ui32>) {
    %3:2 = mpmd.fragment<mesh="m1", origin=["g"]> (%x, %y) (%a: !t, %b: !t) {
      mpmd.return %a, %b : !t, !t
    } : (!m1, !m1) -> (!m1, !m1)
    mpmd.return %3#0, %y : !m1, !m1
  } : !m1, !m1
  return %2#0 : !m1
}
