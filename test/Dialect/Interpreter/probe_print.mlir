// interpreter.print and interpreter.probe, and check.expect_serialized_eq
// (which reads what probes wrote): their printed form round-trips, and the
// verifier's errors.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @round_trip
func.func @round_trip(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: interpreter.print %{{.*}} : tensor<2xf32>
  interpreter.print %x : tensor<2xf32>
  // CHECK: %[[P:.*]] = interpreter.probe %{{.*}}, probe_id = "layer_1.out" : tensor<2xf32>
  %p = interpreter.probe %x, probe_id = "layer_1.out" : tensor<2xf32>
  // CHECK: check.expect_serialized_eq %[[P]], probe_id = "layer_1.out" : tensor<2xf32>
  check.expect_serialized_eq %p, probe_id = "layer_1.out" : tensor<2xf32>
  // CHECK: check.expect_serialized_eq %[[P]], probe_id = "layer_1.out", iter = 2 : tensor<2xf32>
  check.expect_serialized_eq %p, probe_id = "layer_1.out", iter = 2 : tensor<2xf32>
  return %p : tensor<2xf32>
}

// -----

func.func @probe_id_with_a_separator(%x: tensor<2xf32>) {
  // expected-error @+1 {{'interpreter.probe' op probe_id must be letters, digits, '_', '-' and '.' (not first), got "../x"}}
  %p = interpreter.probe %x, probe_id = "../x" : tensor<2xf32>
  return
}

// -----

func.func @empty_probe_id(%x: tensor<2xf32>) {
  // expected-error @+1 {{'interpreter.probe' op probe_id must be letters, digits, '_', '-' and '.' (not first), got ""}}
  %p = interpreter.probe %x, probe_id = "" : tensor<2xf32>
  return
}

// -----

func.func @probe_type_mismatch(%x: tensor<2xf32>) {
  // expected-error @+1 {{'interpreter.probe' op failed to verify that all of {operand, result} have same type}}
  %p = "interpreter.probe"(%x) {probe_id = "p"} : (tensor<2xf32>) -> tensor<2xf64>
  return
}
