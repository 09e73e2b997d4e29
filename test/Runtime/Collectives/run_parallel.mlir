// interpreter.run_parallel: a grid of programs, one thread per process;
// inputs and results flattened replica-major; replica_id and partition_id
// give each process its position.
// RUN: not mpmd interpret %s --split-input-file | FileCheck %s

func.func private @position() -> (tensor<ui32>, tensor<ui32>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  return %r, %p : tensor<ui32>, tensor<ui32>
}
// CHECK: PASS: @grid_of_2x2
func.func @grid_of_2x2() {
  %r:8 = "interpreter.run_parallel"() {programs = [[@position, @position], [@position, @position]]}
      : () -> (tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>)
  check.expect_eq_const %r#0, dense<0> : tensor<ui32>
  check.expect_eq_const %r#1, dense<0> : tensor<ui32>
  check.expect_eq_const %r#2, dense<0> : tensor<ui32>
  check.expect_eq_const %r#3, dense<1> : tensor<ui32>
  check.expect_eq_const %r#4, dense<1> : tensor<ui32>
  check.expect_eq_const %r#5, dense<0> : tensor<ui32>
  check.expect_eq_const %r#6, dense<1> : tensor<ui32>
  check.expect_eq_const %r#7, dense<1> : tensor<ui32>
  func.return
}

// Outside run_parallel a program is process (0, 0) of a 1 x 1 grid.
// CHECK: PASS: @single_process
func.func @single_process() {
  %r:2 = func.call @position() : () -> (tensor<ui32>, tensor<ui32>)
  check.expect_eq_const %r#0, dense<0> : tensor<ui32>
  check.expect_eq_const %r#1, dense<0> : tensor<ui32>
  func.return
}

// -----

// Different programs per process (MPMD), each taking as many inputs and
// giving as many results as its function has; a collective between them.
func.func private @sender(%x: tensor<2xf32>, %scale: tensor<f32>) -> tensor<2xf32> {
  %s = stablehlo.broadcast_in_dim %scale, dims = [] : (tensor<f32>) -> tensor<2xf32>
  %y = stablehlo.multiply %x, %s : tensor<2xf32>
  %0 = "stablehlo.collective_permute"(%y) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @receiver() -> (tensor<2xf32>, tensor<ui32>) {
  %z = stablehlo.constant dense<-1.0> : tensor<2xf32>
  %0 = "stablehlo.collective_permute"(%z) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
  %p = stablehlo.partition_id : tensor<ui32>
  return %0, %p : tensor<2xf32>, tensor<ui32>
}
// CHECK: PASS: @different_programs
func.func @different_programs() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = stablehlo.constant dense<3.0> : tensor<f32>
  %r:3 = "interpreter.run_parallel"(%x, %s) {programs = [[@sender, @receiver]]}
      : (tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<ui32>)
  check.expect_eq_const %r#0, dense<0.0> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<[3.0, 6.0]> : tensor<2xf32>
  check.expect_eq_const %r#2, dense<1> : tensor<ui32>
  func.return
}

// -----

// A check that fails inside a process fails the function that ran the
// grid, naming the process.
func.func private @check_replica() -> tensor<ui32> {
  %r = stablehlo.replica_id : tensor<ui32>
  check.expect_eq_const %r, dense<0> : tensor<ui32>
  return %r : tensor<ui32>
}
// CHECK: FAIL: @failed_check_in_a_process: process (1, 0): check.expect_eq_const at {{.*}}: element 0 is [1], expected [0]
func.func @failed_check_in_a_process() {
  %r:2 = "interpreter.run_parallel"() {programs = [[@check_replica], [@check_replica]]} : () -> (tensor<ui32>, tensor<ui32>)
  func.return
}
