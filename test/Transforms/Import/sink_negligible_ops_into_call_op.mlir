// RUN: mpmd-opt %s -mpmd-sink-negligible-ops-into-call-op -split-input-file | FileCheck %s

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Every call passes the same constant as argument 1: it is cloned into the
// callee and the argument disappears. Argument 2 gets different constants
// and argument 0 a non-negligible value: they stay. The constant is erased
// once unused.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[C1:.*]] = stablehlo.constant dense<1.000000e+00>
// CHECK-NEXT:  %[[C2:.*]] = stablehlo.constant dense<2.000000e+00>
// CHECK-NEXT:  %[[A:.*]] = mpmd.call @f(%arg0, %[[C1]]) {call_counter = 0 : ui32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[B:.*]] = mpmd.call @f(%[[A]], %[[C2]]) {call_counter = 1 : ui32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  return %[[B]]
// CHECK:       func.func private @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[Z:.*]] = stablehlo.constant dense<0.000000e+00>
// CHECK-NEXT:  %[[S:.*]] = stablehlo.add %arg0, %[[Z]]
// CHECK-NEXT:  %[[M:.*]] = stablehlo.multiply %[[S]], %arg1
// CHECK-NEXT:  return %[[M]]
func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  %zero = stablehlo.constant dense<0.0> : !t
  %c1 = stablehlo.constant dense<1.0> : !t
  %c2 = stablehlo.constant dense<2.0> : !t
  %0 = mpmd.call @f(%arg0, %zero, %c1) {call_counter = 0 : ui32} : (!t, !t, !t) -> !t
  %1 = mpmd.call @f(%0, %zero, %c2) {call_counter = 1 : ui32} : (!t, !t, !t) -> !t
  return %1 : !t
}
func.func private @f(%arg0: !t, %arg1: !t, %arg2: !t) -> !t attributes {topology = #topology} {
  %0 = stablehlo.add %arg0, %arg1 : !t
  %1 = stablehlo.multiply %0, %arg2 : !t
  return %1 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// The constant has another user, so it stays next to the call; the callee
// still gets its own copy. Arguments with attributes are handled.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[C:.*]] = stablehlo.constant dense<3.000000e+00>
// CHECK-NEXT:  %[[R:.*]] = mpmd.call @g() : () -> tensor<4xf32>
// CHECK-NEXT:  stablehlo.add %[[R]], %[[C]]
// CHECK:       func.func private @g() -> tensor<4xf32>
// CHECK-NEXT:  %[[IN:.*]] = stablehlo.constant dense<3.000000e+00>
// CHECK-NEXT:  return %[[IN]]
func.func @main() -> !t attributes {topology = #topology} {
  %c = stablehlo.constant dense<3.0> : !t
  %0 = mpmd.call @g(%c) : (!t) -> !t
  %1 = stablehlo.add %0, %c : !t
  return %1 : !t
}
func.func private @g(%arg0: !t {mhlo.sharding = "{replicated}"}) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Nothing happens for an op with operands, a value that is not the same
// at all call sites, or a callee also used by func.call.
// CHECK-LABEL: func.func @main
// CHECK:       mpmd.call @h(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:       mpmd.call @k(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:       func.func private @h(%arg0: tensor<4xf32>)
// CHECK:       func.func private @k(%arg0: tensor<4xf32>)
func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  %n = stablehlo.negate %arg0 : !t
  %0 = mpmd.call @h(%n) : (!t) -> !t
  %c = stablehlo.constant dense<3.0> : !t
  %1 = mpmd.call @k(%c) : (!t) -> !t
  %2 = func.call @k(%c) : (!t) -> !t
  return %1 : !t
}
func.func private @h(%arg0: !t) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}
func.func private @k(%arg0: !t) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}
