// stablehlo.all_reduce in every process-group mode, on grids of 2 and 4
// processes, with a recognized combiner and with a body the interpreter
// evaluates per element.
// RUN: mpmd interpret %s --split-input-file | FileCheck %s
// CHECK-NOT: FAIL

// cross_replica (no channel): groups of replicas.
func.func @sum_pairs(%x: tensor<2xi64>) -> tensor<2xi64> {
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) : (tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
// CHECK: PASS: @cross_replica_4
func.func @cross_replica_4() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %b = stablehlo.constant dense<[10, 20]> : tensor<2xi64>
  %c = stablehlo.constant dense<[100, 200]> : tensor<2xi64>
  %d = stablehlo.constant dense<[1000, 2000]> : tensor<2xi64>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@sum_pairs], [@sum_pairs], [@sum_pairs], [@sum_pairs]]}
      : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
  check.expect_eq_const %r#0, dense<[11, 22]> : tensor<2xi64>
  check.expect_eq_const %r#1, dense<[11, 22]> : tensor<2xi64>
  check.expect_eq_const %r#2, dense<[1100, 2200]> : tensor<2xi64>
  check.expect_eq_const %r#3, dense<[1100, 2200]> : tensor<2xi64>
  func.return
}

// -----

// On a 2 x 2 grid without a channel, a group of replicas repeats for each
// partition: (0, p) with (1, p).
func.func @sum_replicas(%x: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// With a channel, a group of replicas takes every partition of them:
// cross_replica_and_partition.
func.func @sum_replica_rows(%x: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// With global device ids, ids are replica * 2 + partition: flattened_ids.
func.func @sum_flattened(%x: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// CHECK: PASS: @modes_on_2x2
func.func @modes_on_2x2() {
  // Inputs are replica-major: (0, 0), (0, 1), (1, 0), (1, 1).
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.constant dense<2.0> : tensor<f32>
  %c = stablehlo.constant dense<4.0> : tensor<f32>
  %d = stablehlo.constant dense<8.0> : tensor<f32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@sum_replicas, @sum_replicas], [@sum_replicas, @sum_replicas]]}
      : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
  check.expect_eq_const %r#0, dense<5.0> : tensor<f32>
  check.expect_eq_const %r#1, dense<10.0> : tensor<f32>
  check.expect_eq_const %r#2, dense<5.0> : tensor<f32>
  check.expect_eq_const %r#3, dense<10.0> : tensor<f32>
  %s:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@sum_replica_rows, @sum_replica_rows], [@sum_replica_rows, @sum_replica_rows]]}
      : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
  check.expect_eq_const %s#0, dense<3.0> : tensor<f32>
  check.expect_eq_const %s#1, dense<3.0> : tensor<f32>
  check.expect_eq_const %s#2, dense<12.0> : tensor<f32>
  check.expect_eq_const %s#3, dense<12.0> : tensor<f32>
  %t:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@sum_flattened, @sum_flattened], [@sum_flattened, @sum_flattened]]}
      : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
  check.expect_eq_const %t#0, dense<9.0> : tensor<f32>
  check.expect_eq_const %t#1, dense<6.0> : tensor<f32>
  check.expect_eq_const %t#2, dense<6.0> : tensor<f32>
  check.expect_eq_const %t#3, dense<9.0> : tensor<f32>
  func.return
}

// -----

// Several operands reduce independently with one body; a body that is not a
// single known op (here a - b, which is not commutative) is evaluated per
// element, folding the members in group order: [[1, 0]] gives x1 - x0.
func.func @subtract_in_group_order(%x: tensor<2xi32>, %y: tensor<i32>) -> (tensor<2xi32>, tensor<i32>) {
  %0:2 = "stablehlo.all_reduce"(%x, %y) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.subtract %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<2xi32>, tensor<i32>) -> (tensor<2xi32>, tensor<i32>)
  return %0#0, %0#1 : tensor<2xi32>, tensor<i32>
}
// CHECK: PASS: @region_body_two_operands
func.func @region_body_two_operands() {
  %x0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %y0 = stablehlo.constant dense<100> : tensor<i32>
  %x1 = stablehlo.constant dense<[10, 30]> : tensor<2xi32>
  %y1 = stablehlo.constant dense<7> : tensor<i32>
  %r:4 = "interpreter.run_parallel"(%x0, %y0, %x1, %y1) {programs = [[@subtract_in_group_order, @subtract_in_group_order]]}
      : (tensor<2xi32>, tensor<i32>, tensor<2xi32>, tensor<i32>) -> (tensor<2xi32>, tensor<i32>, tensor<2xi32>, tensor<i32>)
  check.expect_eq_const %r#0, dense<[9, 28]> : tensor<2xi32>
  check.expect_eq_const %r#1, dense<-93> : tensor<i32>
  check.expect_eq_const %r#2, dense<[9, 28]> : tensor<2xi32>
  check.expect_eq_const %r#3, dense<-93> : tensor<i32>
  func.return
}

// -----

// Outside interpreter.run_parallel a program is the only process of a
// 1 x 1 grid: a group of one reduces to the operand itself.
// CHECK: PASS: @one_process_is_identity
func.func @one_process_is_identity() {
  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const %0, dense<[1.5, -2.0]> : tensor<2xf32>
  // No groups at all: one group of every process.
  %1 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<> : tensor<0x0xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const %1, dense<[1.5, -2.0]> : tensor<2xf32>
  func.return
}
