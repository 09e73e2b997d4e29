// RUN: mpmd-opt %s -mpmd-copy-topology-from-main -split-input-file | FileCheck %s

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main
func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.call @body(%arg0) {call_counter = 0 : ui32} : (!t) -> !t
  %1 = mpmd.call @body(%0) {call_counter = 1 : ui32} : (!t) -> !t
  %2 = mpmd.for (%1) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%x: !t, %i: tensor<ui32>) {
    %3 = mpmd.call @loop_body(%x) : (!t) -> !t
    mpmd.return %3 : !t
  } : !t
  return %2 : !t
}
// Callees become private and get the caller's topology, also when called
// from inside a loop.
// CHECK: func.func private @body(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {topology = #mpmd.topology<<"m1" : <["x"=2]>>, <"m2" : <["x"=2]>>>}
func.func @body(%arg0: !t) -> !t {
  return %arg0 : !t
}
// CHECK: func.func private @loop_body(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {topology = #mpmd.topology<<"m1" : <["x"=2]>>, <"m2" : <["x"=2]>>>}
func.func @loop_body(%arg0: !t) -> !t {
  return %arg0 : !t
}
// A function nobody calls through mpmd.call is left alone.
// CHECK: func.func @unrelated(%arg0: tensor<4xf32>) -> tensor<4xf32> {
func.func @unrelated(%arg0: !t) -> !t {
  return %arg0 : !t
}

// -----

!t = tensor<4xf32>
// A function without a topology is not an MPMD program: its calls are not
// touched.
// CHECK-LABEL: func.func @not_mpmd
// CHECK: func.func @callee(%arg0: tensor<4xf32>) -> tensor<4xf32> {
func.func @not_mpmd(%arg0: !t) -> !t {
  %0 = mpmd.call @callee(%arg0) : (!t) -> !t
  return %0 : !t
}
func.func @callee(%arg0: !t) -> !t {
  return %arg0 : !t
}
