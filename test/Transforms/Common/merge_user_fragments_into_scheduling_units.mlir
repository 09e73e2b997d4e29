// RUN: mpmd-opt %s -mpmd-merge-user-fragments-into-scheduling-units -split-input-file | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A user producer and its user consumer on one mesh merge (at the consumer);
// the origins are unioned and the equal counters kept.
// CHECK-LABEL: func.func @producer_and_consumer
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f1", "f2"], stage=0> (%arg0) {call_counter = 0 : ui32} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.multiply %[[X]], %[[X]]
// CHECK-NEXT:   mpmd.return %[[Y]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @producer_and_consumer(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f1"], stage=0> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f2"], stage=0> (%0) {call_counter = 0 : ui32} (%a: !t) {
    %3 = stablehlo.multiply %a, %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  return %2 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A chain of three backward fragments becomes one unit; one of them has no
// call counter and two have no stage: the merge keeps the defined ones.
// CHECK-LABEL: func.func @chain_with_undefined_counter
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["a"(1), "b"(1), "c"(1)], stage=5> (%arg0) {call_counter = 3 : ui32}
// CHECK:      return %[[F]]
func.func @chain_with_undefined_counter(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"(1)], stage=5> (%arg0) {call_counter = 3 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["b"(1)]> (%0) (%a: !t) {
    %2 = stablehlo.negate %a : !t
    mpmd.return %2 : !t
  } : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["c"(1)]> (%1) {call_counter = 3 : ui32} (%a: !t) {
    %4 = stablehlo.abs %a : !t
    mpmd.return %4 : !t
  } : (!m1) -> !m1
  return %3 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// No merge: transpose counts 0 and 1; call counters 0 and 1; stages 0 and 1;
// an inferred consumer; a producer with mixed transpose counts.
// CHECK-LABEL: func.func @no_merge
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32}
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"(1)]> ({{.*}}) {call_counter = 0 : ui32}
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"(1)], stage=1> ({{.*}}) {call_counter = 1 : ui32}
// CHECK:      mpmd.fragment<mesh="m1", origin=["h"(1)], stage=2> ({{.*}}) {call_counter = 1 : ui32}
// CHECK:      mpmd.fragment<mesh="m1", origin=[]>
// CHECK:      mpmd.fragment<mesh="m1", origin=["j", "j"(1)]>
// CHECK:      mpmd.fragment<mesh="m1", origin=["k"]>
func.func @no_merge(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["g"(1)], stage=1> (%1) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["h"(1)], stage=2> (%2) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=[]> (%4) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=["j", "j"(1)]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %7 = mpmd.fragment<mesh="m1", origin=["k"]> (%6) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %5, %7 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Only the closest consumer is considered: "f" is used first by "g"(1), so it
// does not merge with the later "h"; and a function without topology is not
// touched.
// CHECK-LABEL: func.func @closest_consumer_only
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"(1)]>
// CHECK:      mpmd.fragment<mesh="m1", origin=["h"]>
func.func @closest_consumer_only(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["g"(1)]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["h"]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %1, %2 : !m1, !m1
}

// CHECK-LABEL: func.func @not_mpmd
// CHECK-COUNT-2: mpmd.fragment
func.func @not_mpmd(%arg0: !m1) -> !m1 {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %1 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A producer with one operand and one result used once by its consumer keeps
// the consumer's operand order, its operand in the place of its result.
// CHECK-LABEL: func.func @trivial_producer_keeps_consumer_operand_order
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f1", "f2"]> (%arg1, %arg0) {call_counter = 0 : ui32} (%[[B:.*]]: tensor<4x8xf32>, %[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.multiply %[[B]], %[[X]]
// CHECK-NEXT:   mpmd.return %[[Y]]
func.func @trivial_producer_keeps_consumer_operand_order(%arg0: !m1, %arg1: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f2"]> (%arg1, %0) {call_counter = 0 : ui32} (%b: !t, %a: !t) {
    %3 = stablehlo.multiply %b, %a : !t
    mpmd.return %3 : !t
  } : (!m1, !m1) -> !m1
  return %2 : !m1
}
