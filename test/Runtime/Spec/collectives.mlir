// The collectives' examples of the StableHLO specification, each on the
// example's process grid through interpreter.run_parallel.
// RUN: mpmd interpret -split-input-file %s | FileCheck %s

func.func private @all_gather_spec_process(%operand0: tensor<2x2xi64>, %operand1: tensor<2x2xi64>) -> (tensor<2x4xi64>, tensor<2x4xi64>) {
  %result:2 = "stablehlo.all_gather"(%operand0, %operand1) {
    all_gather_dim = 1 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
    channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
  } : (tensor<2x2xi64>, tensor<2x2xi64>) -> (tensor<2x4xi64>, tensor<2x4xi64>)
  func.return %result#0, %result#1 : tensor<2x4xi64>, tensor<2x4xi64>
}
// CHECK: PASS: @all_gather_spec
func.func @all_gather_spec() {
  %a0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %a1 = stablehlo.constant dense<[[11, 12], [13, 14]]> : tensor<2x2xi64>
  %b0 = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  %b1 = stablehlo.constant dense<[[15, 16], [17, 18]]> : tensor<2x2xi64>
  %r:4 = "interpreter.run_parallel"(%a0, %a1, %b0, %b1) {programs = [[@all_gather_spec_process], [@all_gather_spec_process]]}
      : (tensor<2x2xi64>, tensor<2x2xi64>, tensor<2x2xi64>, tensor<2x2xi64>) -> (tensor<2x4xi64>, tensor<2x4xi64>, tensor<2x4xi64>, tensor<2x4xi64>)
  check.expect_eq_const %r#0, dense<[[1, 2, 5, 6], [3, 4, 7, 8]]> : tensor<2x4xi64>
  check.expect_eq_const %r#1, dense<[[11, 12, 15, 16], [13, 14, 17, 18]]> : tensor<2x4xi64>
  check.expect_eq_const %r#2, dense<[[1, 2, 5, 6], [3, 4, 7, 8]]> : tensor<2x4xi64>
  check.expect_eq_const %r#3, dense<[[11, 12, 15, 16], [13, 14, 17, 18]]> : tensor<2x4xi64>
  func.return
}

// -----

// The spec's example passes %operand0 twice (its %result1 lists the sums
// of %operand1): this one reduces both operands.
func.func private @all_reduce_spec_process(%operand0: tensor<4xi64>, %operand1: tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>) {
  %result:2 = "stablehlo.all_reduce"(%operand0, %operand1) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%0) : (tensor<i64>) -> ()
  }) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
    channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
  } : (tensor<4xi64>, tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>)
  func.return %result#0, %result#1 : tensor<4xi64>, tensor<4xi64>
}
// CHECK: PASS: @all_reduce_spec
func.func @all_reduce_spec() {
  %a0 = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %a1 = stablehlo.constant dense<[9, 10, 11, 12]> : tensor<4xi64>
  %b0 = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi64>
  %b1 = stablehlo.constant dense<[13, 14, 15, 16]> : tensor<4xi64>
  %r:4 = "interpreter.run_parallel"(%a0, %a1, %b0, %b1) {programs = [[@all_reduce_spec_process], [@all_reduce_spec_process]]}
      : (tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>)
  check.expect_eq_const %r#0, dense<[6, 8, 10, 12]> : tensor<4xi64>
  check.expect_eq_const %r#1, dense<[22, 24, 26, 28]> : tensor<4xi64>
  check.expect_eq_const %r#2, dense<[6, 8, 10, 12]> : tensor<4xi64>
  check.expect_eq_const %r#3, dense<[22, 24, 26, 28]> : tensor<4xi64>
  func.return
}

// -----

func.func private @all_to_all_spec_process(%operand1: tensor<2x4xi64>, %operand2: tensor<2x4xi64>) -> (tensor<4x2xi64>, tensor<4x2xi64>) {
  %result:2 = "stablehlo.all_to_all"(%operand1, %operand2) {
    split_dimension = 1 : i64,
    concat_dimension = 0 : i64,
    split_count = 2 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x4xi64>, tensor<2x4xi64>) -> (tensor<4x2xi64>, tensor<4x2xi64>)
  func.return %result#0, %result#1 : tensor<4x2xi64>, tensor<4x2xi64>
}
// CHECK: PASS: @all_to_all_spec
func.func @all_to_all_spec() {
  %a0 = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi64>
  %a1 = stablehlo.constant dense<[[17, 18, 19, 20], [21, 22, 23, 24]]> : tensor<2x4xi64>
  %b0 = stablehlo.constant dense<[[9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<2x4xi64>
  %b1 = stablehlo.constant dense<[[25, 26, 27, 28], [29, 30, 31, 32]]> : tensor<2x4xi64>
  %r:4 = "interpreter.run_parallel"(%a0, %a1, %b0, %b1) {programs = [[@all_to_all_spec_process], [@all_to_all_spec_process]]}
      : (tensor<2x4xi64>, tensor<2x4xi64>, tensor<2x4xi64>, tensor<2x4xi64>) -> (tensor<4x2xi64>, tensor<4x2xi64>, tensor<4x2xi64>, tensor<4x2xi64>)
  check.expect_eq_const %r#0, dense<[[1, 2], [5, 6], [9, 10], [13, 14]]> : tensor<4x2xi64>
  check.expect_eq_const %r#1, dense<[[17, 18], [21, 22], [25, 26], [29, 30]]> : tensor<4x2xi64>
  check.expect_eq_const %r#2, dense<[[3, 4], [7, 8], [11, 12], [15, 16]]> : tensor<4x2xi64>
  check.expect_eq_const %r#3, dense<[[19, 20], [23, 24], [27, 28], [31, 32]]> : tensor<4x2xi64>
  func.return
}

// -----

// Processes outside the group get zeros.
func.func private @collective_broadcast_spec_process(%operand: tensor<1x2xi64>) -> tensor<1x2xi64> {
  %result = "stablehlo.collective_broadcast"(%operand) {
    replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>,
    channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
  } : (tensor<1x2xi64>) -> tensor<1x2xi64>
  func.return %result : tensor<1x2xi64>
}
// CHECK: PASS: @collective_broadcast_spec
func.func @collective_broadcast_spec() {
  %o0 = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi64>
  %o1 = stablehlo.constant dense<[[3, 4]]> : tensor<1x2xi64>
  %o2 = stablehlo.constant dense<[[5, 6]]> : tensor<1x2xi64>
  %o3 = stablehlo.constant dense<[[7, 8]]> : tensor<1x2xi64>
  %r:4 = "interpreter.run_parallel"(%o0, %o1, %o2, %o3) {programs = [[@collective_broadcast_spec_process], [@collective_broadcast_spec_process], [@collective_broadcast_spec_process], [@collective_broadcast_spec_process]]}
      : (tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>) -> (tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>)
  check.expect_eq_const %r#0, dense<[[0, 0]]> : tensor<1x2xi64>
  check.expect_eq_const %r#1, dense<[[5, 6]]> : tensor<1x2xi64>
  check.expect_eq_const %r#2, dense<[[5, 6]]> : tensor<1x2xi64>
  check.expect_eq_const %r#3, dense<[[0, 0]]> : tensor<1x2xi64>
  func.return
}

// -----

func.func private @collective_permute_spec_process(%operand: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %result = "stablehlo.collective_permute"(%operand) {
    source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
    channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
  } : (tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %result : tensor<2x2xi64>
}
// CHECK: PASS: @collective_permute_spec
func.func @collective_permute_spec() {
  %o0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %o1 = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  %o2 = stablehlo.constant dense<[[9, 10], [11, 12]]> : tensor<2x2xi64>
  %r:3 = "interpreter.run_parallel"(%o0, %o1, %o2) {programs = [[@collective_permute_spec_process], [@collective_permute_spec_process], [@collective_permute_spec_process]]}
      : (tensor<2x2xi64>, tensor<2x2xi64>, tensor<2x2xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>, tensor<2x2xi64>)
  check.expect_eq_const %r#0, dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>
  check.expect_eq_const %r#1, dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  check.expect_eq_const %r#2, dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  func.return
}

// -----

func.func private @reduce_scatter_spec_process(%operand: tensor<2x4xi64>) -> tensor<2x2xi64> {
  %result = "stablehlo.reduce_scatter"(%operand) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%0) : (tensor<i64>) -> ()
  }) {
    scatter_dimension = 1 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
    channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
  } : (tensor<2x4xi64>) -> tensor<2x2xi64>
  func.return %result : tensor<2x2xi64>
}
// CHECK: PASS: @reduce_scatter_spec
func.func @reduce_scatter_spec() {
  %o0 = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi64>
  %o1 = stablehlo.constant dense<[[9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<2x4xi64>
  %r:2 = "interpreter.run_parallel"(%o0, %o1) {programs = [[@reduce_scatter_spec_process], [@reduce_scatter_spec_process]]}
      : (tensor<2x4xi64>, tensor<2x4xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>)
  check.expect_eq_const %r#0, dense<[[10, 12], [18, 20]]> : tensor<2x2xi64>
  check.expect_eq_const %r#1, dense<[[14, 16], [22, 24]]> : tensor<2x2xi64>
  func.return
}

// -----

// async_start / async_done: the spec's all_gather on 8 replicas in two
// groups of 4.
func.func private @async_all_gather_process(%arg0: tensor<8x2xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.async_start"(%arg0) ({
    %1 = "stablehlo.all_gather"(%arg0) {
      all_gather_dim = 1 : i64,
      replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>
    } : (tensor<8x2xf32>) -> tensor<8x8xf32>
    "stablehlo.return"(%1) : (tensor<8x8xf32>) -> ()
  }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x8xf32>>
  %2 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<8x8xf32>>) -> tensor<8x8xf32>
  func.return %2 : tensor<8x8xf32>
}
// CHECK: PASS: @async_spec
func.func @async_spec() {
  %c0 = stablehlo.constant dense<0.0> : tensor<8x2xf32>
  %c1 = stablehlo.constant dense<1.0> : tensor<8x2xf32>
  %c2 = stablehlo.constant dense<2.0> : tensor<8x2xf32>
  %c3 = stablehlo.constant dense<3.0> : tensor<8x2xf32>
  %c4 = stablehlo.constant dense<4.0> : tensor<8x2xf32>
  %c5 = stablehlo.constant dense<5.0> : tensor<8x2xf32>
  %c6 = stablehlo.constant dense<6.0> : tensor<8x2xf32>
  %c7 = stablehlo.constant dense<7.0> : tensor<8x2xf32>
  %r:8 = "interpreter.run_parallel"(%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7) {programs = [[@async_all_gather_process], [@async_all_gather_process], [@async_all_gather_process], [@async_all_gather_process], [@async_all_gather_process], [@async_all_gather_process], [@async_all_gather_process], [@async_all_gather_process]]}
      : (tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
  %even_row = stablehlo.constant dense<[0.0, 0.0, 2.0, 2.0, 4.0, 4.0, 6.0, 6.0]> : tensor<8xf32>
  %odd_row = stablehlo.constant dense<[1.0, 1.0, 3.0, 3.0, 5.0, 5.0, 7.0, 7.0]> : tensor<8xf32>
  %even = stablehlo.broadcast_in_dim %even_row, dims = [1] : (tensor<8xf32>) -> tensor<8x8xf32>
  %odd = stablehlo.broadcast_in_dim %odd_row, dims = [1] : (tensor<8xf32>) -> tensor<8x8xf32>
  check.expect_eq %r#0, %even : tensor<8x8xf32>
  check.expect_eq %r#1, %odd : tensor<8x8xf32>
  check.expect_eq %r#6, %even : tensor<8x8xf32>
  check.expect_eq %r#7, %odd : tensor<8x8xf32>
  func.return
}
