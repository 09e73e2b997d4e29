// What the testing ops report when a probe does not hold the value, was
// never written, or an infeed is empty.
// RUN: not mpmd interpret -split-input-file %s 2>&1 | FileCheck %s

// CHECK: FAIL: @probe_mismatch: check.expect_serialized_eq at {{.*}}: element 1 is [2], expected [2.5]
func.func @probe_mismatch() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %pa = interpreter.probe %a, probe_id = "probe_mismatch" : tensor<2xf32>
  %b = stablehlo.constant dense<[1.0, 2.5]> : tensor<2xf32>
  check.expect_serialized_eq %b, probe_id = "probe_mismatch" : tensor<2xf32>
  func.return
}

// -----

// CHECK: error: no value of probe "probe_twice" run 1: {{.*}}probe_twice_1.npy
// CHECK: FAIL: @probe_run_never_written: cannot be interpreted
func.func @probe_run_never_written() {
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %pa = interpreter.probe %a, probe_id = "probe_twice" : tensor<f32>
  check.expect_serialized_eq %pa, probe_id = "probe_twice", iter = 1 : tensor<f32>
  func.return
}

// -----

// CHECK: error: probe "probe_shape" holds a tensor<2xf32>, not a 'tensor<1x2xf32>'
// CHECK: FAIL: @probe_other_shape: cannot be interpreted
func.func @probe_other_shape() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %pa = interpreter.probe %a, probe_id = "probe_shape" : tensor<2xf32>
  %b = stablehlo.reshape %pa : (tensor<2xf32>) -> tensor<1x2xf32>
  check.expect_serialized_eq %b, probe_id = "probe_shape" : tensor<1x2xf32>
  func.return
}

// -----

// CHECK: error: the infeed is empty (interpreter.run_parallel's `infeed` lists the values it holds)
// CHECK: FAIL: @infeed_without_values: cannot be interpreted
func.func @infeed_without_values() {
  %token = "stablehlo.after_all"() : () -> !stablehlo.token
  %r:2 = "stablehlo.infeed"(%token) {infeed_config = ""} : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
  func.return
}

// -----

func.func private @one_value() -> tensor<2xi64> {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  func.return %0 : tensor<2xi64>
}
func.func private @reads_f32() -> tensor<2xf32> {
  %token = "stablehlo.after_all"() : () -> !stablehlo.token
  %r:2 = "stablehlo.infeed"(%token) {infeed_config = ""} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  func.return %r#0 : tensor<2xf32>
}
// CHECK: error: the infeed's next value is a tensor<2xi64> but result #0 is 'tensor<2xf32>'
// CHECK: FAIL: @infeed_of_another_type: cannot be interpreted
func.func @infeed_of_another_type() {
  %r = "interpreter.run_parallel"() {infeed = [@one_value], programs = [[@reads_f32]]} : () -> tensor<2xf32>
  func.return
}
