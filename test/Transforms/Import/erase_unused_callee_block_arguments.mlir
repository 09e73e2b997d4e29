// RUN: mpmd-opt %s -mpmd-erase-unused-callee-block-arguments -split-input-file | FileCheck %s

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Argument 1 is only returned (twice): it goes with results 1 and 2, whose
// users take the call operand. Argument 2 is unused: it goes too. Argument 0
// is used by an op: it stays. Call attributes survive.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[C0:.*]] = mpmd.call @f(%arg0) {call_counter = 0 : ui32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[C1:.*]] = mpmd.call @f(%[[C0]]) {call_counter = 1 : ui32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[S:.*]] = stablehlo.add %arg1, %arg0
// CHECK-NEXT:  return %[[C1]], %[[S]]
// CHECK:       func.func private @f(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[N:.*]] = stablehlo.negate %arg0
// CHECK-NEXT:  return %[[N]] : tensor<4xf32>
func.func @main(%arg0: !t, %arg1: !t, %arg2: !t) -> (!t, !t) attributes {topology = #topology} {
  %0:3 = mpmd.call @f(%arg0, %arg1, %arg2) {call_counter = 0 : ui32} : (!t, !t, !t) -> (!t, !t, !t)
  %1:3 = mpmd.call @f(%0#0, %arg0, %arg2) {call_counter = 1 : ui32} : (!t, !t, !t) -> (!t, !t, !t)
  %2 = stablehlo.add %0#1, %1#2 : !t
  return %1#0, %2 : !t, !t
}
func.func private @f(%arg0: !t, %arg1: !t, %arg2: !t) -> (!t, !t, !t) attributes {topology = #topology} {
  %0 = stablehlo.negate %arg0 : !t
  return %0, %arg1, %arg1 : !t, !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A callee that only returns its arguments loses every result: its calls
// and the callee itself are erased. An argument that is returned and also
// used elsewhere stays. A callee also referenced by func.call is skipped.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[K:.*]]:2 = mpmd.call @keep(%arg0)
// CHECK-NEXT:  %[[O:.*]] = mpmd.call @other(%arg0)
// CHECK-NEXT:  %[[P:.*]] = call @other(%arg0)
// CHECK-NEXT:  return %arg1, %arg0, %[[K]]#0, %[[O]]
// CHECK-NOT:   func.func private @identity
// CHECK:       func.func private @keep(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK:       func.func private @other(%arg0: tensor<4xf32>) -> tensor<4xf32>
func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t, !t, !t) attributes {topology = #topology} {
  %0:2 = mpmd.call @identity(%arg0, %arg1) : (!t, !t) -> (!t, !t)
  %1:2 = mpmd.call @keep(%arg0) : (!t) -> (!t, !t)
  %2 = mpmd.call @other(%arg0) : (!t) -> !t
  %3 = func.call @other(%arg0) : (!t) -> !t
  return %0#1, %0#0, %1#0, %2 : !t, !t, !t, !t
}
func.func private @identity(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  return %arg0, %arg1 : !t, !t
}
func.func private @keep(%arg0: !t) -> (!t, !t) attributes {topology = #topology} {
  %0 = stablehlo.negate %arg0 : !t
  return %arg0, %0 : !t, !t
}
func.func private @other(%arg0: !t) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A callee without results loses its unused arguments, but it and its calls
// stay: no result was erased.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  mpmd.call @no_results() : () -> ()
// CHECK:       func.func private @no_results()
func.func @main(%arg0: !t) attributes {topology = #topology} {
  mpmd.call @no_results(%arg0) : (!t) -> ()
  return
}
func.func private @no_results(%arg0: !t) attributes {topology = #topology} {
  return
}
