// RUN: mpmd-opt %s -mpmd-simplify-named-computations -split-input-file | FileCheck %s

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The same operand twice becomes one operand; a result returning a block
// argument is forwarded to the operand; a duplicated result is merged into
// the first; unused results and operands disappear, and so do the dead ops
// of the body.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[F:.*]] = mpmd.named_computation<"f"> (%arg0) (%[[A:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[S:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:    mpmd.return %[[S]] : tensor<4xf32>
// CHECK-NEXT:  } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[M:.*]] = stablehlo.multiply %[[F]], %[[F]]
// CHECK-NEXT:  return %[[M]], %arg1
func.func @main(%arg0: !t, %arg1: !t, %arg2: !t) -> (!t, !t) attributes {topology = #topology} {
  %0:4 = mpmd.named_computation<"f"> (%arg0, %arg0, %arg1, %arg2) (%a: !t, %b: !t, %c: !t, %d: !t) {
    %s = stablehlo.add %a, %b : !t
    %unused = stablehlo.negate %s : !t
    mpmd.return %s, %c, %s, %unused : !t, !t, !t, !t
  } : (!t, !t, !t, !t) -> (!t, !t, !t, !t)
  %1 = stablehlo.multiply %0#0, %0#2 : !t
  return %1, %0#1 : !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// arg -> optimization_barrier -> return becomes arg -> return, which is
// then forwarded. A barrier of a computed value stays, without the pair
// nothing uses any more.
// CHECK-LABEL: func.func @barrier
// CHECK-NEXT:  %[[F:.*]] = mpmd.named_computation<"f"> (%arg0) (%[[A:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[A]]
// CHECK-NEXT:    %[[B:.*]] = stablehlo.optimization_barrier %[[N]]
// CHECK-NEXT:    mpmd.return %[[B]] : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %arg0, %[[F]]
func.func @barrier(%arg0: !t) -> (!t, !t) attributes {topology = #topology} {
  %0:2 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    %n = stablehlo.negate %a : !t
    %b:2 = stablehlo.optimization_barrier %a, %n : !t, !t
    mpmd.return %b#0, %b#1 : !t, !t
  } : (!t) -> (!t, !t)
  return %0#0, %0#1 : !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Nested computations are simplified first; attributes survive. A
// computation without any used result and with a pure body is erased.
// CHECK-LABEL: func.func @nested
// CHECK-NEXT:  %[[O:.*]] = mpmd.named_computation<"outer"> (%arg0) {foo} (%[[A:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[I:.*]] = mpmd.named_computation<"inner"> (%[[A]]) (%[[B:.*]]: tensor<4xf32>) {
// CHECK-NEXT:      stablehlo.abs %[[B]]
// CHECK:         mpmd.return %[[I]] : tensor<4xf32>
// CHECK:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  return %[[O]]
func.func @nested(%arg0: !t) -> !t attributes {topology = #topology} {
  %0:2 = mpmd.named_computation<"outer"> (%arg0) {foo} (%a: !t) {
    %1:2 = mpmd.named_computation<"inner"> (%a, %a) (%b: !t, %c: !t) {
      %2 = stablehlo.abs %b : !t
      mpmd.return %2, %c : !t, !t
    } : (!t, !t) -> (!t, !t)
    mpmd.return %1#0, %1#1 : !t, !t
  } : (!t) -> (!t, !t)
  %3 = mpmd.named_computation<"dead"> (%arg0) (%d: !t) {
    mpmd.return %d : !t
  } : (!t) -> !t
  return %0#0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// An unused result of a side-effecting op stays, so the computation keeps a
// result; a duplicate barrier operand is merged.
// CHECK-LABEL: func.func @side_effects
// CHECK-NEXT:  mpmd.named_computation<"f"> (%arg0) (%[[A:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[C:.*]] = stablehlo.custom_call @print(%[[A]]) {has_side_effect = true}
// CHECK-NEXT:    mpmd.return %[[C]] : tensor<4xf32>
// CHECK-NEXT:  } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[G:.*]] = mpmd.named_computation<"g"> (%arg0) (%[[B:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[B]]
// CHECK-NEXT:    %[[BAR:.*]] = stablehlo.optimization_barrier %[[N]]
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %[[BAR]], %[[BAR]]
// CHECK-NEXT:    mpmd.return %[[M]]
// CHECK:       return %[[G]]
func.func @side_effects(%arg0: !t) -> !t attributes {topology = #topology} {
  %0:2 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    %c = stablehlo.custom_call @print(%a) {has_side_effect = true} : (!t) -> !t
    %n = stablehlo.negate %a : !t
    mpmd.return %c, %n : !t, !t
  } : (!t) -> (!t, !t)
  %1 = mpmd.named_computation<"g"> (%arg0) (%b: !t) {
    %n = stablehlo.negate %b : !t
    %bar:2 = stablehlo.optimization_barrier %n, %n : !t, !t
    %m = stablehlo.multiply %bar#0, %bar#1 : !t
    mpmd.return %m : !t
  } : (!t) -> !t
  return %1 : !t
}
