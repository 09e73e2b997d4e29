// stablehlo.all_to_all: each member cuts its operands into split_count parts
// along split_dimension and sends part k to the k-th member, which
// concatenates what it receives along concat_dimension in group order.
// RUN: mpmd interpret %s --split-input-file | FileCheck %s
// CHECK-NOT: FAIL

// Two replicas (no channel), columns to rows, two operands.
func.func @columns_to_rows(%x: tensor<2x4xi64>, %y: tensor<1x2xi32>) -> (tensor<4x2xi64>, tensor<2x1xi32>) {
  %0:2 = "stablehlo.all_to_all"(%x, %y) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xi64>, tensor<1x2xi32>) -> (tensor<4x2xi64>, tensor<2x1xi32>)
  return %0#0, %0#1 : tensor<4x2xi64>, tensor<2x1xi32>
}
// CHECK: PASS: @two_replicas
func.func @two_replicas() {
  %x0 = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi64>
  %y0 = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %x1 = stablehlo.constant dense<[[9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<2x4xi64>
  %y1 = stablehlo.constant dense<[[3, 4]]> : tensor<1x2xi32>
  %r:4 = "interpreter.run_parallel"(%x0, %y0, %x1, %y1) {programs = [[@columns_to_rows], [@columns_to_rows]]}
      : (tensor<2x4xi64>, tensor<1x2xi32>, tensor<2x4xi64>, tensor<1x2xi32>) -> (tensor<4x2xi64>, tensor<2x1xi32>, tensor<4x2xi64>, tensor<2x1xi32>)
  check.expect_eq_const %r#0, dense<[[1, 2], [5, 6], [9, 10], [13, 14]]> : tensor<4x2xi64>
  check.expect_eq_const %r#1, dense<[[1], [3]]> : tensor<2x1xi32>
  check.expect_eq_const %r#2, dense<[[3, 4], [7, 8], [11, 12], [15, 16]]> : tensor<4x2xi64>
  check.expect_eq_const %r#3, dense<[[2], [4]]> : tensor<2x1xi32>
  func.return
}

// -----

// Four partitions (a channel: cross_partition), the same dimension split
// and concatenated: a transpose of the 4 x 4 matrix the processes hold by
// rows.
func.func @transpose_blocks(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.all_to_all"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// CHECK: PASS: @four_partitions
func.func @four_partitions() {
  %a = stablehlo.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %b = stablehlo.constant dense<[4, 5, 6, 7]> : tensor<4xi32>
  %c = stablehlo.constant dense<[8, 9, 10, 11]> : tensor<4xi32>
  %d = stablehlo.constant dense<[12, 13, 14, 15]> : tensor<4xi32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@transpose_blocks, @transpose_blocks, @transpose_blocks, @transpose_blocks]]}
      : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
  check.expect_eq_const %r#0, dense<[0, 4, 8, 12]> : tensor<4xi32>
  check.expect_eq_const %r#1, dense<[1, 5, 9, 13]> : tensor<4xi32>
  check.expect_eq_const %r#2, dense<[2, 6, 10, 14]> : tensor<4xi32>
  check.expect_eq_const %r#3, dense<[3, 7, 11, 15]> : tensor<4xi32>
  func.return
}

// -----

// On a 2 x 2 grid with a channel, each replica's two partitions exchange;
// the replicas stay apart.
func.func @swap_halves(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_to_all"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
// CHECK: PASS: @partitions_of_each_replica
func.func @partitions_of_each_replica() {
  %a = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
  %b = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %c = stablehlo.constant dense<[10, 11]> : tensor<2xi32>
  %d = stablehlo.constant dense<[12, 13]> : tensor<2xi32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@swap_halves, @swap_halves], [@swap_halves, @swap_halves]]}
      : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[0, 2]> : tensor<2xi32>
  check.expect_eq_const %r#1, dense<[1, 3]> : tensor<2xi32>
  check.expect_eq_const %r#2, dense<[10, 12]> : tensor<2xi32>
  check.expect_eq_const %r#3, dense<[11, 13]> : tensor<2xi32>
  func.return
}

// -----

// CHECK: PASS: @one_process_is_identity
func.func @one_process_is_identity() {
  %x = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>, split_count = 1 : i64, split_dimension = 1 : i64}> : (tensor<1x2xi32>) -> tensor<1x2xi32>
  check.expect_eq_const %0, dense<[[1, 2]]> : tensor<1x2xi32>
  func.return
}
