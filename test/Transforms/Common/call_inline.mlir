// RUN: mpmd-opt %s -mpmd-call-inline -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Every call is inlined; fragments and fragment calls get the call's
// discardable attributes, assigns, unassigns and transfers do not.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[ARG:.*]]: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>)
// CHECK-NEXT: %[[F0:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%[[ARG]]) {call_counter = 0 : ui32, unroll_counter = 5 : ui32}
// CHECK-NEXT:   stablehlo.add
// CHECK-NEXT:   mpmd.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[T0:.*]] = mpmd.transfer %[[F0]] :
// CHECK-NEXT: %[[U0:.*]] = mpmd.unassign %[[T0]] :
// CHECK-NEXT: %[[A0:.*]] = mpmd.assign %[[U0]] :
// CHECK-NEXT: %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%[[A0]]) {call_counter = 1 : ui32}
// CHECK:      %[[T1:.*]] = mpmd.transfer %[[F1]] :
// CHECK-NEXT: %[[U1:.*]] = mpmd.unassign %[[T1]] :
// CHECK-NEXT: %[[A1:.*]] = mpmd.assign %[[U1]] :
// CHECK-NEXT: return %[[A1]]
// The callee is gone.
// CHECK-NOT: func.func private @body
func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.call @body(%arg0) {call_counter = 0 : ui32, unroll_counter = 5 : ui32} : (!m1) -> !m1
  %1 = mpmd.call @body(%0) {call_counter = 1 : ui32} : (!m1) -> !m1
  return %1 : !m1
}
func.func private @body(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    %1 = stablehlo.add %x, %x : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.transfer %0 : (!m1) -> !m2
  %3 = mpmd.unassign %2 : (!m2) -> !t
  %4 = mpmd.assign %3 : (!t) -> !m1
  return %4 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The call's counter replaces the one a fragment already had. A callee that
// returns its argument forwards the call operand. Calls inside mpmd.for are
// inlined too.
// CHECK-LABEL: func.func @main
// CHECK: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 3 : ui32, other = "x"}
// CHECK: mpmd.for
// CHECK-NOT: mpmd.call
// CHECK: mpmd.fragment<mesh="m1", origin=["f"]> ({{.*}}) {call_counter = 7 : ui32, other = "x"}
// CHECK: return %arg0, %{{.*}}, %arg0
func.func @main(%arg0: !m1) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %0:2 = mpmd.call @body(%arg0) {call_counter = 3 : ui32} : (!m1) -> (!m1, !m1)
  %1 = mpmd.for (%0#0) {iterations = 1 : ui32, unroll_factor = 1 : ui32} (%x: !m1, %index: tensor<ui32>) {
    %2:2 = mpmd.call @body(%x) {call_counter = 7 : ui32} : (!m1) -> (!m1, !m1)
    mpmd.return %2#0 : !m1
  } : !m1
  return %0#1, %1, %arg0 : !m1, !m1, !m1
}
func.func private @body(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32, other = "x"} (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  return %0, %arg0 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// func.call and fragment_call are not inlined; the fragment_call gets the
// counter of the mpmd.call it was inlined from. A public callee is kept.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[C:.*]] = mpmd.fragment_call<mesh="m1", origin=["g"]> @spmd(%arg0) {call_counter = 2 : ui32}
// CHECK-NEXT: %[[D:.*]] = call @plain(%arg1)
// CHECK-NEXT: return %[[C]], %[[D]]
// CHECK: func.func @spmd
// CHECK: func.func @plain
// CHECK: func.func @public_body
func.func @main(%arg0: !m1, %arg1: !t) -> (!m1, !t) attributes {topology = #topology} {
  %0 = mpmd.call @public_body(%arg0) {call_counter = 2 : ui32} : (!m1) -> !m1
  %1 = func.call @plain(%arg1) : (!t) -> !t
  return %0, %1 : !m1, !t
}
func.func @spmd(%arg0: !t) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  return %arg0 : !t
}
func.func @plain(%arg0: !t) -> !t {
  return %arg0 : !t
}
func.func @public_body(%arg0: !m1) -> !m1 {
  %0 = mpmd.fragment_call<mesh="m1", origin=["g"]> @spmd(%arg0) : (!m1) -> !m1
  return %0 : !m1
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Nested calls (from callees that are not MPMD functions) are inlined too:
// the inner call's attributes win, the outer ones fill in the rest. The
// callees, now unused and private, are erased.
// CHECK-LABEL: func.func @outer
// CHECK-NEXT: %[[C:.*]] = mpmd.fragment_call<mesh="m1", origin=["g"]> @spmd(%arg0) {call_counter = 4 : ui32, outer}
// CHECK-NEXT: return %[[C]]
// CHECK-NOT: func.func private
func.func @outer(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.call @middle(%arg0) {call_counter = 1 : ui32, outer} : (!m1) -> !m1
  return %0 : !m1
}
func.func private @middle(%arg0: !m1) -> !m1 {
  %0 = mpmd.call @inner(%arg0) {call_counter = 4 : ui32} : (!m1) -> !m1
  return %0 : !m1
}
func.func private @inner(%arg0: !m1) -> !m1 {
  %0 = mpmd.fragment_call<mesh="m1", origin=["g"]> @spmd(%arg0) : (!m1) -> !m1
  return %0 : !m1
}
func.func @spmd(%arg0: !t) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  return %arg0 : !t
}

// -----

!t = tensor<4xf32>

func.func @recursive(%arg0: !t) -> !t {
  // expected-error @+1 {{recursive call of @recursive cannot be inlined}}
  %0 = mpmd.call @recursive(%arg0) : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4xf32>

func.func @caller(%arg0: !t) -> !t {
  // expected-error @+1 {{cannot inline callee @external: it must have a body of exactly one block}}
  %0 = mpmd.call @external(%arg0) : (!t) -> !t
  return %0 : !t
}
func.func private @external(%arg0: !t) -> !t

// -----

// A transfer must stay directly in a function: a callee holding one is not
// inlined into an mpmd.for body (found by the import-pipeline fuzzer).
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 1 : ui32} (%x: !m1, %index: tensor<ui32>) {
    // expected-error @+1 {{cannot inline callee @body into mpmd.for: it holds an mpmd.transfer, which must be directly in a function; unroll the loop first}}
    %1 = mpmd.call @body(%x) : (!m1) -> !m1
    mpmd.return %1 : !m1
  } : !m1
  return %0 : !m1
}
func.func private @body(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  // expected-note @+1 {{the transfer}}
  %0 = mpmd.transfer %arg0 : (!m1) -> !m2
  %1 = mpmd.transfer %0 : (!m2) -> !m1
  return %1 : !m1
}
