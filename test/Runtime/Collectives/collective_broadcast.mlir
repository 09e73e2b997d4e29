// stablehlo.collective_broadcast: every member of a group gets the operand
// of the group's first process; processes in no group get zeros.
// RUN: mpmd interpret %s --split-input-file | FileCheck %s
// CHECK-NOT: FAIL

// Four replicas, one group {2, 1}: 2 is the root, 0 and 3 are in no group.
func.func @from_two(%x: tensor<1x2xi64>) -> tensor<1x2xi64> {
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>}> : (tensor<1x2xi64>) -> tensor<1x2xi64>
  return %0 : tensor<1x2xi64>
}
// CHECK: PASS: @four_replicas
func.func @four_replicas() {
  %a = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi64>
  %b = stablehlo.constant dense<[[3, 4]]> : tensor<1x2xi64>
  %c = stablehlo.constant dense<[[5, 6]]> : tensor<1x2xi64>
  %d = stablehlo.constant dense<[[7, 8]]> : tensor<1x2xi64>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@from_two], [@from_two], [@from_two], [@from_two]]}
      : (tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>) -> (tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>)
  check.expect_eq_const %r#0, dense<0> : tensor<1x2xi64>
  check.expect_eq_const %r#1, dense<[[5, 6]]> : tensor<1x2xi64>
  check.expect_eq_const %r#2, dense<[[5, 6]]> : tensor<1x2xi64>
  check.expect_eq_const %r#3, dense<0> : tensor<1x2xi64>
  func.return
}

// -----

// A 2 x 2 grid with a channel: groups of partitions in each replica
// (cross_partition), partition 1 the root.
func.func @from_partition_one(%x: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.collective_broadcast"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}> : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// CHECK: PASS: @partitions_on_2x2
func.func @partitions_on_2x2() {
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.constant dense<2.0> : tensor<f32>
  %c = stablehlo.constant dense<3.0> : tensor<f32>
  %d = stablehlo.constant dense<4.0> : tensor<f32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@from_partition_one, @from_partition_one], [@from_partition_one, @from_partition_one]]}
      : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
  check.expect_eq_const %r#0, dense<2.0> : tensor<f32>
  check.expect_eq_const %r#1, dense<2.0> : tensor<f32>
  check.expect_eq_const %r#2, dense<4.0> : tensor<f32>
  check.expect_eq_const %r#3, dense<4.0> : tensor<f32>
  func.return
}

// -----

// CHECK: PASS: @one_process
func.func @one_process() {
  %x = stablehlo.constant dense<[7, 8]> : tensor<2xi16>
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<2xi16>) -> tensor<2xi16>
  check.expect_eq_const %0, dense<[7, 8]> : tensor<2xi16>
  func.return
}
