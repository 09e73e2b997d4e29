// scatter whose update computation is not a recognized combiner, or that
// scatters several inputs: the region runs once per update element, on the
// current values and the updates, in update order.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @subtracting_body
func.func @subtracting_body() {
  %x = stablehlo.constant dense<[1.0, 5.0, 2.0]> : tensor<3xf32>
  %ids = stablehlo.constant dense<[[0], [2], [0]]> : tensor<3x1xi32>
  %upd = stablehlo.constant dense<[3.0, 0.5, 10.0]> : tensor<3xf32>
  %r = "stablehlo.scatter"(%x, %ids, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%cur: tensor<f32>, %new: tensor<f32>):
    %s = stablehlo.subtract %cur, %new : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[-12.0, 5.0, 1.5]> : tensor<3xf32>
  func.return
}

// An add followed by a sharding annotation, as JAX writes scatters inside
// sharded programs; and an out-of-bounds update that is skipped.
// CHECK: PASS: @add_then_annotation
func.func @add_then_annotation() {
  %x = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %ids = stablehlo.constant dense<[[1], [5]]> : tensor<2x1xi32>
  %upd = stablehlo.constant dense<[[10, 20], [30, 40]]> : tensor<2x2xi32>
  %r = "stablehlo.scatter"(%x, %ids, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%cur: tensor<i32>, %new: tensor<i32>):
    %s = stablehlo.add %cur, %new : tensor<i32>
    %a = stablehlo.custom_call @Sharding(%s) {mhlo.sharding = "{replicated}"} : (tensor<i32>) -> tensor<i32>
    stablehlo.return %a : tensor<i32>
  }) : (tensor<2x2xi32>, tensor<2x1xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[1, 2], [13, 24]]> : tensor<2x2xi32>
  func.return
}

// Two inputs scattered together: a running sum and the largest update.
// CHECK: PASS: @two_inputs
func.func @two_inputs() {
  %sum0 = stablehlo.constant dense<0.0> : tensor<3xf32>
  %max0 = stablehlo.constant dense<-1> : tensor<3xi32>
  %ids = stablehlo.constant dense<[[1], [1], [2]]> : tensor<3x1xi32>
  %vals = stablehlo.constant dense<[1.5, 2.5, 4.0]> : tensor<3xf32>
  %keys = stablehlo.constant dense<[7, 3, 9]> : tensor<3xi32>
  %r:2 = "stablehlo.scatter"(%sum0, %max0, %ids, %vals, %keys) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%s: tensor<f32>, %m: tensor<i32>, %v: tensor<f32>, %k: tensor<i32>):
    %ns = stablehlo.add %s, %v : tensor<f32>
    %nm = stablehlo.maximum %m, %k : tensor<i32>
    stablehlo.return %ns, %nm : tensor<f32>, tensor<i32>
  }) : (tensor<3xf32>, tensor<3xi32>, tensor<3x1xi32>, tensor<3xf32>, tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>)
  check.expect_eq_const %r#0, dense<[0.0, 4.0, 4.0]> : tensor<3xf32>
  check.expect_eq_const %r#1, dense<[-1, 7, 9]> : tensor<3xi32>
  func.return
}

// The spec's select_and_scatter example, which pads the operand: padding is
// never selected.
// CHECK: PASS: @select_and_scatter_with_padding
func.func @select_and_scatter_with_padding() {
  %operand = stablehlo.constant dense<[[1, 5], [2, 5], [3, 6], [4, 4]]> : tensor<4x2xi64>
  %source = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  %init = stablehlo.constant dense<0> : tensor<i64>
  %result = "stablehlo.select_and_scatter"(%operand, %source, %init) <{window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  check.expect_eq_const %result, dense<[[0, 0], [0, 0], [5, 14], [7, 0]]> : tensor<4x2xi64>
  func.return
}
