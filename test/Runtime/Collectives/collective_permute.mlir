// stablehlo.collective_permute: each target receives its source's operand;
// a process no pair targets gets zeros.
// RUN: mpmd interpret %s --split-input-file | FileCheck %s
// CHECK-NOT: FAIL

// Four replicas (no channel) in a chain: replica 0 receives nothing.
func.func @shift(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// CHECK: PASS: @chain_of_four
func.func @chain_of_four() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %c = stablehlo.constant dense<[5.0, 6.0]> : tensor<2xf32>
  %d = stablehlo.constant dense<[7.0, 8.0]> : tensor<2xf32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@shift], [@shift], [@shift], [@shift]]}
      : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_eq_const %r#0, dense<0.0> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_eq_const %r#2, dense<[3.0, 4.0]> : tensor<2xf32>
  check.expect_eq_const %r#3, dense<[5.0, 6.0]> : tensor<2xf32>
  func.return
}

// -----

// A 2 x 2 grid with a channel: pairs name partitions of each replica
// (cross_partition); every process both sends and receives.
func.func @swap_partitions(%x: tensor<i64>) -> tensor<i64> {
  %0 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
}
// CHECK: PASS: @swap_on_2x2
func.func @swap_on_2x2() {
  %a = stablehlo.constant dense<1> : tensor<i64>
  %b = stablehlo.constant dense<2> : tensor<i64>
  %c = stablehlo.constant dense<3> : tensor<i64>
  %d = stablehlo.constant dense<4> : tensor<i64>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@swap_partitions, @swap_partitions], [@swap_partitions, @swap_partitions]]}
      : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>)
  check.expect_eq_const %r#0, dense<2> : tensor<i64>
  check.expect_eq_const %r#1, dense<1> : tensor<i64>
  check.expect_eq_const %r#2, dense<4> : tensor<i64>
  check.expect_eq_const %r#3, dense<3> : tensor<i64>
  func.return
}

// -----

// A cycle over four partitions in a loop, and a self pair: the permute
// meets once per iteration.
func.func @rotate_three_times(%x: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<i32>
  cond {
    %lt = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %p = "stablehlo.collective_permute"(%v) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<i32>) -> tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %n, %p : tensor<i32>, tensor<i32>
  }
  %self = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 0], [1, 1], [2, 2], [3, 3]]> : tensor<4x2xi64>}> : (tensor<i32>) -> tensor<i32>
  return %r#1, %self : tensor<i32>, tensor<i32>
}
// CHECK: PASS: @cycle_of_four
func.func @cycle_of_four() {
  %a = stablehlo.constant dense<10> : tensor<i32>
  %b = stablehlo.constant dense<11> : tensor<i32>
  %c = stablehlo.constant dense<12> : tensor<i32>
  %d = stablehlo.constant dense<13> : tensor<i32>
  %r:8 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@rotate_three_times, @rotate_three_times, @rotate_three_times, @rotate_three_times]]}
      : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>)
  // Partition p holds the value of p - 3 = p + 1 (mod 4).
  check.expect_eq_const %r#0, dense<11> : tensor<i32>
  check.expect_eq_const %r#2, dense<12> : tensor<i32>
  check.expect_eq_const %r#4, dense<13> : tensor<i32>
  check.expect_eq_const %r#6, dense<10> : tensor<i32>
  check.expect_eq_const %r#1, dense<10> : tensor<i32>
  check.expect_eq_const %r#7, dense<13> : tensor<i32>
  func.return
}

// -----

// One process: a self pair copies, no pair gives zeros.
// CHECK: PASS: @one_process
func.func @one_process() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xui8>
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>}> : (tensor<2xui8>) -> tensor<2xui8>
  check.expect_eq_const %0, dense<[1, 2]> : tensor<2xui8>
  %1 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<> : tensor<0x2xi64>}> : (tensor<2xui8>) -> tensor<2xui8>
  check.expect_eq_const %1, dense<0> : tensor<2xui8>
  func.return
}
