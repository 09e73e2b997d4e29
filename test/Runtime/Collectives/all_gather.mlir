// stablehlo.all_gather: members' operands concatenated in group order along
// all_gather_dim, for each of several operands, in every group mode.
// RUN: mpmd interpret %s --split-input-file | FileCheck %s
// CHECK-NOT: FAIL

func.func @gather_columns(%x: tensor<2x2xi64>, %y: tensor<1x1xf32>) -> (tensor<2x4xi64>, tensor<1x2xf32>) {
  %0:2 = "stablehlo.all_gather"(%x, %y) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xi64>, tensor<1x1xf32>) -> (tensor<2x4xi64>, tensor<1x2xf32>)
  return %0#0, %0#1 : tensor<2x4xi64>, tensor<1x2xf32>
}
// CHECK: PASS: @two_replicas_two_operands
func.func @two_replicas_two_operands() {
  %x0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %y0 = stablehlo.constant dense<[[0.5]]> : tensor<1x1xf32>
  %x1 = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  %y1 = stablehlo.constant dense<[[-1.0]]> : tensor<1x1xf32>
  %r:4 = "interpreter.run_parallel"(%x0, %y0, %x1, %y1) {programs = [[@gather_columns], [@gather_columns]]}
      : (tensor<2x2xi64>, tensor<1x1xf32>, tensor<2x2xi64>, tensor<1x1xf32>) -> (tensor<2x4xi64>, tensor<1x2xf32>, tensor<2x4xi64>, tensor<1x2xf32>)
  check.expect_eq_const %r#0, dense<[[1, 2, 5, 6], [3, 4, 7, 8]]> : tensor<2x4xi64>
  check.expect_eq_const %r#1, dense<[[0.5, -1.0]]> : tensor<1x2xf32>
  check.expect_eq_const %r#2, dense<[[1, 2, 5, 6], [3, 4, 7, 8]]> : tensor<2x4xi64>
  check.expect_eq_const %r#3, dense<[[0.5, -1.0]]> : tensor<1x2xf32>
  func.return
}

// -----

// Four partitions with flattened ids, in groups {0, 2} and {3, 1}: the
// order of a group is the order of its result.
func.func @gather_strided(%x: tensor<1xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [3, 1]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<1xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @gather_all(%x: tensor<1xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// CHECK: PASS: @four_partitions
func.func @four_partitions() {
  %a = stablehlo.constant dense<[10]> : tensor<1xi32>
  %b = stablehlo.constant dense<[11]> : tensor<1xi32>
  %c = stablehlo.constant dense<[12]> : tensor<1xi32>
  %d = stablehlo.constant dense<[13]> : tensor<1xi32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@gather_strided, @gather_strided, @gather_strided, @gather_strided]]}
      : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[10, 12]> : tensor<2xi32>
  check.expect_eq_const %r#1, dense<[13, 11]> : tensor<2xi32>
  check.expect_eq_const %r#2, dense<[10, 12]> : tensor<2xi32>
  check.expect_eq_const %r#3, dense<[13, 11]> : tensor<2xi32>
  %s:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@gather_all, @gather_all, @gather_all, @gather_all]]}
      : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
  check.expect_eq_const %s#0, dense<[10, 11, 12, 13]> : tensor<4xi32>
  check.expect_eq_const %s#3, dense<[10, 11, 12, 13]> : tensor<4xi32>
  func.return
}

// -----

// On a 2 x 2 grid: without a channel, replicas of each partition gather
// (cross_replica); with a channel and no global ids, a group of replicas
// gathers every partition of them, partition-major (cross_replica_and_partition).
func.func @gather_replicas(%x: tensor<1xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}> : (tensor<1xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @gather_replicas_and_partitions(%x: tensor<1xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// CHECK: PASS: @modes_on_2x2
func.func @modes_on_2x2() {
  %a = stablehlo.constant dense<[0]> : tensor<1xi32>
  %b = stablehlo.constant dense<[1]> : tensor<1xi32>
  %c = stablehlo.constant dense<[10]> : tensor<1xi32>
  %d = stablehlo.constant dense<[11]> : tensor<1xi32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@gather_replicas, @gather_replicas], [@gather_replicas, @gather_replicas]]}
      : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[10, 0]> : tensor<2xi32>
  check.expect_eq_const %r#1, dense<[11, 1]> : tensor<2xi32>
  check.expect_eq_const %r#2, dense<[10, 0]> : tensor<2xi32>
  check.expect_eq_const %r#3, dense<[11, 1]> : tensor<2xi32>
  %s:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@gather_replicas_and_partitions, @gather_replicas_and_partitions], [@gather_replicas_and_partitions, @gather_replicas_and_partitions]]}
      : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
  check.expect_eq_const %s#0, dense<[0, 10, 1, 11]> : tensor<4xi32>
  check.expect_eq_const %s#2, dense<[0, 10, 1, 11]> : tensor<4xi32>
  func.return
}

// -----

// CHECK: PASS: @one_process_is_identity
func.func @one_process_is_identity() {
  %x = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<1x2xi32>) -> tensor<1x2xi32>
  check.expect_eq_const %0, dense<[[1, 2]]> : tensor<1x2xi32>
  func.return
}
