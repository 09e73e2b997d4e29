// The interpreter's testing ops beyond check.expect_*: interpreter.print,
// interpreter.probe with check.expect_serialized_eq, and
// interpreter.run_parallel's `infeed`, as StableHLO's interpreter tests use
// them. Probes go to a temporary directory unless --probe-output-dir names
// one (the second RUN line, which then finds the files there).
// RUN: mpmd interpret -split-input-file %s | FileCheck %s
// RUN: rm -rf %t && mpmd interpret --split-input-file --probe-output-dir %t %s > /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES

// CHECK: tensor<2x2xi64> [1, 2, 3, 4]
// CHECK: tensor<f32> [1.5]
// CHECK: tensor<2xcomplex<f32>> [(1, 2), (3, -4)]
// CHECK: PASS: @print
func.func @print() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  interpreter.print %a : tensor<2x2xi64>
  %b = stablehlo.constant dense<1.5> : tensor<f32>
  interpreter.print %b : tensor<f32>
  %c = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>
  interpreter.print %c : tensor<2xcomplex<f32>>
  func.return
}

// -----

// A probe returns its operand and writes it; the check reads it back.
// FILES: probe_bf16_0.npy
// FILES: probe_i1_0.npy
// FILES: probe_i64_0.npy
// CHECK: PASS: @probe_types
func.func @probe_types() {
  %a = stablehlo.constant dense<[[0, 1], [1, 0]]> : tensor<2x2xi1>
  %pa = interpreter.probe %a, probe_id = "probe_i1" : tensor<2x2xi1>
  check.expect_serialized_eq %pa, probe_id = "probe_i1" : tensor<2x2xi1>
  check.expect_eq_const %pa, dense<[[false, true], [true, false]]> : tensor<2x2xi1>
  %b = stablehlo.constant dense<[-9223372036854775808, 7]> : tensor<2xi64>
  %pb = interpreter.probe %b, probe_id = "probe_i64" : tensor<2xi64>
  check.expect_serialized_eq %pb, probe_id = "probe_i64" : tensor<2xi64>
  // bf16 is written widened to f32 (NumPy has no bf16) and read back exactly.
  %c = stablehlo.constant dense<[1.0078125, -3.0e38]> : tensor<2xbf16>
  %pc = interpreter.probe %c, probe_id = "probe_bf16" : tensor<2xbf16>
  check.expect_serialized_eq %pc, probe_id = "probe_bf16" : tensor<2xbf16>
  func.return
}

// -----

// A probe in a loop writes one file per run; `iter` picks one.
// FILES: probe_loop_0.npy
// FILES: probe_loop_1.npy
// FILES: probe_loop_2.npy
// CHECK: PASS: @probe_iterations
func.func @probe_iterations() {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %three = stablehlo.constant dense<3> : tensor<i64>
  %sum:2 = stablehlo.while(%i = %zero, %s = %zero) : tensor<i64>, tensor<i64>
    cond {
      %lt = stablehlo.compare LT, %i, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %next = stablehlo.add %i, %one : tensor<i64>
      %acc = stablehlo.add %s, %next : tensor<i64>
      %probed = interpreter.probe %acc, probe_id = "probe_loop" : tensor<i64>
      stablehlo.return %next, %probed : tensor<i64>, tensor<i64>
    }
  %first = stablehlo.constant dense<1> : tensor<i64>
  %second = stablehlo.constant dense<3> : tensor<i64>
  check.expect_serialized_eq %first, probe_id = "probe_loop" : tensor<i64>
  check.expect_serialized_eq %second, probe_id = "probe_loop", iter = 1 : tensor<i64>
  check.expect_serialized_eq %sum#1, probe_id = "probe_loop", iter = 2 : tensor<i64>
  check.expect_eq_const %sum#1, dense<6> : tensor<i64>
  func.return
}

// -----

// The spec's infeed example: two infeed ops take the queue's two values in
// order; outfeed takes values and a token and gives a token.
func.func private @infeed_queue0() -> tensor<2x2xi64> {
  %0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}
func.func private @infeed_queue1() -> tensor<2x2xi64> {
  %0 = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}
func.func private @reads_infeed() -> (tensor<2x2xi64>, tensor<2x2xi64>) {
  %token = "stablehlo.after_all"() : () -> !stablehlo.token
  %results0:2 = "stablehlo.infeed"(%token) {infeed_config = ""} : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  %results1:2 = "stablehlo.infeed"(%results0#1) {infeed_config = ""} : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  %done = "stablehlo.outfeed"(%results1#0, %results1#1) {outfeed_config = ""} : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
  func.return %results0#0, %results1#0 : tensor<2x2xi64>, tensor<2x2xi64>
}
// CHECK: PASS: @infeed
func.func @infeed() {
  %r:2 = "interpreter.run_parallel"() {infeed = [@infeed_queue0, @infeed_queue1], programs = [[@reads_infeed]]} : () -> (tensor<2x2xi64>, tensor<2x2xi64>)
  check.expect_eq_const %r#0, dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  check.expect_eq_const %r#1, dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  func.return
}
