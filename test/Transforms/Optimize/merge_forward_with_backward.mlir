// RUN: mpmd-opt %s -mpmd-merge-forward-with-backward -split-input-file | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The last stage of a 1F1B schedule: each forward is followed on its mesh by
// the backward of the same microbatch using it, and they merge where the
// backward was. A fragment on another mesh in between does not matter.
// CHECK-LABEL: func.func @last_stage_1f1b
// CHECK-NEXT: %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]>
// CHECK:      %[[F0:.*]] = mpmd.fragment<mesh="m2", origin=["f", "f"(1)]> (%arg0) {call_counter = 0 : ui32}
// CHECK-NEXT:   stablehlo.add
// CHECK-NEXT:   stablehlo.multiply
// CHECK-NEXT:   mpmd.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[F1:.*]] = mpmd.fragment<mesh="m2", origin=["f", "f"(1)]> (%arg0) {call_counter = 1 : ui32}
// CHECK:      return %[[F0]], %[[F1]], %[[G]]
func.func @last_stage_1f1b(%arg0: !m2, %arg1: !m1) -> (!m2, !m2, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m2", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m2) -> !m2
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m2", origin=["f"(1)]> (%0) {call_counter = 0 : ui32} (%a: !t) {
    %3 = stablehlo.multiply %a, %a : !t
    mpmd.return %3 : !t
  } : (!m2) -> !m2
  %4 = mpmd.fragment<mesh="m2", origin=["f"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    %5 = stablehlo.add %a, %a : !t
    mpmd.return %5 : !t
  } : (!m2) -> !m2
  %6 = mpmd.fragment<mesh="m2", origin=["f"(1)]> (%4) {call_counter = 1 : ui32} (%a: !t) {
    %7 = stablehlo.multiply %a, %a : !t
    mpmd.return %7 : !t
  } : (!m2) -> !m2
  return %2, %6, %g : !m2, !m2, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// GPipe order f0 f1 b0 b1: no merge, since f0 is followed by a forward and
// f1 by a backward that does not use it.
// CHECK-LABEL: func.func @no_merge
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32}
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 1 : ui32}
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"(1)]> ({{.*}}) {call_counter = 0 : ui32}
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"(1)]> ({{.*}}) {call_counter = 1 : ui32}
func.func @no_merge(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%1) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %2, %3 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A forward with one operand and one result used once by the backward is a
// trivial producer: the backward's operand order is kept, the forward's
// operand in the place of its result. With a second operand, the forward's
// operands come first.
// CHECK-LABEL: func.func @forward_operand_order
// CHECK-NEXT: %[[A:.*]] = mpmd.fragment<mesh="m1", origin=["f", "f"(1)]> (%arg1, %arg0) {call_counter = 0 : ui32}
// CHECK:      %[[B:.*]] = mpmd.fragment<mesh="m1", origin=["g", "g"(1)]> (%arg0, %arg2, %arg1) {call_counter = 1 : ui32}
// CHECK:      return %[[A]], %[[B]]
func.func @forward_operand_order(%arg0: !m1, %arg1: !m1, %arg2: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%arg1, %0) {call_counter = 0 : ui32} (%b: !t, %a: !t) {
    %3 = stablehlo.multiply %b, %a : !t
    mpmd.return %3 : !t
  } : (!m1, !m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0, %arg2) {call_counter = 1 : ui32} (%a: !t, %c: !t) {
    %5 = stablehlo.add %a, %c : !t
    mpmd.return %5 : !t
  } : (!m1, !m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=["g"(1)]> (%arg1, %4) {call_counter = 1 : ui32} (%b: !t, %a: !t) {
    %7 = stablehlo.multiply %b, %a : !t
    mpmd.return %7 : !t
  } : (!m1, !m1) -> !m1
  return %2, %6 : !m1, !m1
}
