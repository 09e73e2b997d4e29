// RUN: mpmd-opt %s -mpmd-unroll-for-loops -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A 3-iteration loop becomes three copies of its body, each with its index
// as a ui32 constant; every top-level op of copy i has unroll_counter = i.
// The results of one copy feed the next; the last copy's are the loop's.
// CHECK-LABEL: func.func @unroll_three
// CHECK-NEXT:  %[[I0:.*]] = stablehlo.constant {unroll_counter = 0 : ui32} dense<0> : tensor<ui32>
// CHECK-NEXT:  %[[C0:.*]] = mpmd.call @body(%arg0, %[[I0]]) {call_counter = 7 : ui32, unroll_counter = 0 : ui32}
// CHECK-NEXT:  %[[A0:.*]] = stablehlo.add %[[C0]], %arg1 {unroll_counter = 0 : ui32}
// CHECK-NEXT:  %[[I1:.*]] = stablehlo.constant {unroll_counter = 1 : ui32} dense<1> : tensor<ui32>
// CHECK-NEXT:  %[[C1:.*]] = mpmd.call @body(%[[A0]], %[[I1]]) {call_counter = 7 : ui32, unroll_counter = 1 : ui32}
// CHECK-NEXT:  %[[A1:.*]] = stablehlo.add %[[C1]], %[[C0]] {unroll_counter = 1 : ui32}
// CHECK-NEXT:  %[[I2:.*]] = stablehlo.constant {unroll_counter = 2 : ui32} dense<2> : tensor<ui32>
// CHECK-NEXT:  %[[C2:.*]] = mpmd.call @body(%[[A1]], %[[I2]]) {call_counter = 7 : ui32, unroll_counter = 2 : ui32}
// CHECK-NEXT:  %[[A2:.*]] = stablehlo.add %[[C2]], %[[C1]] {unroll_counter = 2 : ui32}
// CHECK-NEXT:  return %[[A2]], %[[C2]]
// CHECK-NOT:   mpmd.for
func.func @unroll_three(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  %0:2 = mpmd.for (%arg0, %arg1) {iterations = 3 : ui32, unroll_factor = 3 : ui32} (%x: !t, %y: !t, %index: tensor<ui32>) {
    %1 = mpmd.call @body(%x, %index) {call_counter = 7 : ui32} : (!t, tensor<ui32>) -> !t
    %2 = stablehlo.add %1, %y : !t
    mpmd.return %2, %1 : !t, !t
  } : !t, !t
  return %0#0, %0#1 : !t, !t
}
func.func private @body(%arg0: !t, %arg1: tensor<ui32>) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Counters continue across the loops of a function: 0..2, then 3..4. Ops
// inside nested regions of the body are cloned but not tagged.
// CHECK-LABEL: func.func @two_loops
// CHECK:       stablehlo.constant {unroll_counter = 0 : ui32} dense<0>
// CHECK:       stablehlo.constant {unroll_counter = 1 : ui32} dense<1>
// CHECK:       stablehlo.constant {unroll_counter = 2 : ui32} dense<2>
// CHECK:       %[[L1:.*]] = stablehlo.negate %{{.*}} {unroll_counter = 2 : ui32}
// CHECK:       stablehlo.constant {unroll_counter = 3 : ui32} dense<0>
// CHECK:       mpmd.named_computation<"f"> (%[[L1]]) {unroll_counter = 3 : ui32}
// CHECK-NEXT:    stablehlo.abs %{{.*}} : tensor<4xf32>
// CHECK:       stablehlo.constant {unroll_counter = 4 : ui32} dense<1>
// CHECK:       mpmd.named_computation<"f"> (%{{.*}}) {unroll_counter = 4 : ui32}
// CHECK-NOT:   mpmd.for
func.func @two_loops(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 3 : ui32, unroll_factor = 3 : ui32} (%x: !t, %index: tensor<ui32>) {
    %1 = stablehlo.negate %x : !t
    mpmd.return %1 : !t
  } : !t
  %2 = mpmd.for (%0) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%x: !t, %index: tensor<ui32>) {
    %3 = mpmd.named_computation<"f"> (%x) (%a: !t) {
      %4 = stablehlo.abs %a : !t
      mpmd.return %4 : !t
    } : (!t) -> !t
    mpmd.return %3 : !t
  } : !t
  return %2 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A loop without unroll_factor stays rolled, and so do loops of functions
// that are not distributed. A loop whose body ignores its index and
// returns its argument unrolls to nothing but the constants.
// CHECK-LABEL: func.func @rolled
// CHECK:       mpmd.for
// CHECK-LABEL: func.func @not_distributed
// CHECK:       mpmd.for
// CHECK-LABEL: func.func @pass_through
// CHECK-NEXT:  stablehlo.constant {unroll_counter = 0 : ui32} dense<0>
// CHECK-NEXT:  stablehlo.constant {unroll_counter = 1 : ui32} dense<1>
// CHECK-NEXT:  return %arg0
func.func @rolled(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 3 : ui32} (%x: !t, %index: tensor<ui32>) {
    mpmd.return %x : !t
  } : !t
  return %0 : !t
}
func.func @not_distributed(%arg0: !t) -> !t {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%x: !t, %index: tensor<ui32>) {
    mpmd.return %x : !t
  } : !t
  return %0 : !t
}
func.func @pass_through(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%x: !t, %index: tensor<ui32>) {
    mpmd.return %x : !t
  } : !t
  return %0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @partial_unroll(%arg0: !t) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{only full unrolling of mpmd.for is supported, but unroll_factor (2) differs from iterations (4)}}
  %0 = mpmd.for (%arg0) {iterations = 4 : ui32, unroll_factor = 2 : ui32} (%x: !t, %index: tensor<ui32>) {
    mpmd.return %x : !t
  } : !t
  return %0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @nested(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%x: !t, %index: tensor<ui32>) {
    // expected-error @+1 {{nested mpmd.for loops are not supported}}
    %1 = mpmd.for (%x) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%y: !t, %index2: tensor<ui32>) {
      mpmd.return %y : !t
    } : !t
    mpmd.return %1 : !t
  } : !t
  return %0 : !t
}
