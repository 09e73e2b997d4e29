// stablehlo.reduce_scatter: the members' sum, cut along scatter_dimension;
// each member keeps the part at its position in the group.
// RUN: mpmd interpret %s --split-input-file | FileCheck %s
// CHECK-NOT: FAIL

func.func @scatter_columns(%x: tensor<2x4xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) : (tensor<2x4xi64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}
// CHECK: PASS: @two_replicas
func.func @two_replicas() {
  %x0 = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi64>
  %x1 = stablehlo.constant dense<[[10, 20, 30, 40], [50, 60, 70, 80]]> : tensor<2x4xi64>
  %r:2 = "interpreter.run_parallel"(%x0, %x1) {programs = [[@scatter_columns], [@scatter_columns]]}
      : (tensor<2x4xi64>, tensor<2x4xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>)
  check.expect_eq_const %r#0, dense<[[11, 22], [55, 66]]> : tensor<2x2xi64>
  check.expect_eq_const %r#1, dense<[[33, 44], [77, 88]]> : tensor<2x2xi64>
  func.return
}

// -----

// Four partitions, flattened ids listed backwards: partition 3 is first in
// the group and keeps part 0. The body is a region the interpreter runs per
// element (maximum through compare and select).
func.func @scatter_backwards(%x: tensor<4xf32>) -> tensor<1xf32> {
  %0 = "stablehlo.reduce_scatter"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[3, 2, 1, 0]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
// CHECK: PASS: @four_partitions
func.func @four_partitions() {
  %a = stablehlo.constant dense<[1.0, 9.0, 0.0, -1.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[2.0, 0.0, 0.0, -2.0]> : tensor<4xf32>
  %c = stablehlo.constant dense<[3.0, 0.0, 7.0, -3.0]> : tensor<4xf32>
  %d = stablehlo.constant dense<[4.0, 0.0, 0.0, -4.0]> : tensor<4xf32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@scatter_backwards, @scatter_backwards, @scatter_backwards, @scatter_backwards]]}
      : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>)
  // The maximum is [4, 9, 7, -1]; partition 3 keeps part 0.
  check.expect_eq_const %r#3, dense<[4.0]> : tensor<1xf32>
  check.expect_eq_const %r#2, dense<[9.0]> : tensor<1xf32>
  check.expect_eq_const %r#1, dense<[7.0]> : tensor<1xf32>
  check.expect_eq_const %r#0, dense<[-1.0]> : tensor<1xf32>
  func.return
}

// -----

// CHECK: PASS: @one_process_is_identity
func.func @one_process_is_identity() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>, scatter_dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<2xi32>) -> tensor<2xi32>
  check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi32>
  func.return
}
