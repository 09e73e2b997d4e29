// gather and scatter with StableHLO's dimension numbers.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @embedding_lookup
func.func @embedding_lookup() {
  %table = stablehlo.constant dense<[[0.0, 0.1, 0.2], [1.0, 1.1, 1.2], [2.0, 2.1, 2.2], [3.0, 3.1, 3.2]]> : tensor<4x3xf32>
  %ids = stablehlo.constant dense<[[2], [0], [3]]> : tensor<3x1xi32>
  %rows = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<3x1xi32>) -> tensor<3x3xf32>
  check.expect_eq_const %rows, dense<[[2.0, 2.1, 2.2], [0.0, 0.1, 0.2], [3.0, 3.1, 3.2]]> : tensor<3x3xf32>
  // The index vector dimension may be implicit (= rank of the indices).
  %flat = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %twice = "stablehlo.gather"(%table, %flat) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  check.expect_eq_const %twice, dense<[[1.0, 1.1, 1.2], [1.0, 1.1, 1.2]]> : tensor<2x3xf32>
  func.return
}

// CHECK: PASS: @index_vector_dim_left_out
func.func @index_vector_dim_left_out() {
  // As JAX writes them: without index_vector_dim, which is then 0 (here the
  // index vectors run along dimension 0 of the indices).
  %table = stablehlo.constant dense<[[0.0, 0.1, 0.2], [1.0, 1.1, 1.2], [2.0, 2.1, 2.2], [3.0, 3.1, 3.2]]> : tensor<4x3xf32>
  %ids = stablehlo.constant dense<[[3, 1]]> : tensor<1x2xi32>
  %rows = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0]>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<1x2xi32>) -> tensor<2x3xf32>
  check.expect_eq_const %rows, dense<[[3.0, 3.1, 3.2], [1.0, 1.1, 1.2]]> : tensor<2x3xf32>
  %zeros = stablehlo.constant dense<0.0> : tensor<4x3xf32>
  %updated = "stablehlo.scatter"(%zeros, %ids, %rows) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    %sum = stablehlo.add %old, %new : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<1x2xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  check.expect_eq_const %updated, dense<[[0.0, 0.0, 0.0], [1.0, 1.1, 1.2], [0.0, 0.0, 0.0], [3.0, 3.1, 3.2]]> : tensor<4x3xf32>
  func.return
}

// CHECK: PASS: @gather_clamps_and_batches
func.func @gather_clamps_and_batches() {
  %a = stablehlo.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  // Start (1, 3) is clamped to (1, 2) so that the 2x2 window fits.
  %start = stablehlo.constant dense<[[1, 3]]> : tensor<1x2xi32>
  %w = "stablehlo.gather"(%a, %start) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 2, 2>}> : (tensor<3x4xi32>, tensor<1x2xi32>) -> tensor<1x2x2xi32>
  check.expect_eq_const %w, dense<[[[6, 7], [10, 11]]]> : tensor<1x2x2xi32>
  // Batching dims: row b of the operand is indexed by index b.
  %b = stablehlo.constant dense<[[0, 1, 2], [10, 11, 12]]> : tensor<2x3xi32>
  %ids = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %picked = "stablehlo.gather"(%b, %ids) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2xi32>
  check.expect_eq_const %picked, dense<[2, 10]> : tensor<2xi32>
  func.return
}

// CHECK: PASS: @scatter_add_and_replace
func.func @scatter_add_and_replace() {
  %zeros = stablehlo.constant dense<0.0> : tensor<4xf32>
  // Index 1 twice (both updates add up); index 5 is out of bounds (skipped).
  %ids = stablehlo.constant dense<[[1], [3], [1], [5]]> : tensor<4x1xi32>
  %upd = stablehlo.constant dense<[1.0, 2.0, 3.0, 100.0]> : tensor<4xf32>
  %sum = "stablehlo.scatter"(%zeros, %ids, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%cur: tensor<f32>, %new: tensor<f32>):
    %s = stablehlo.add %cur, %new : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_eq_const %sum, dense<[0.0, 4.0, 0.0, 2.0]> : tensor<4xf32>
  %m = stablehlo.constant dense<0> : tensor<3x2xi32>
  %rows = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %vals = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %set = "stablehlo.scatter"(%m, %rows, %vals) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%cur: tensor<i32>, %new: tensor<i32>):
    stablehlo.return %new : tensor<i32>
  }) : (tensor<3x2xi32>, tensor<2x1xi32>, tensor<2x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %set, dense<[[3, 4], [0, 0], [1, 2]]> : tensor<3x2xi32>
  // The input itself is not modified.
  check.expect_eq_const %m, dense<0> : tensor<3x2xi32>
  func.return
}

// CHECK: PASS: @scatter_bf16_max
func.func @scatter_bf16_max() {
  %x = stablehlo.constant dense<[1.0, 5.0]> : tensor<2xbf16>
  %ids = stablehlo.constant dense<[[0], [1]]> : tensor<2x1xi32>
  %upd = stablehlo.constant dense<[3.0, 2.0]> : tensor<2xbf16>
  %r = "stablehlo.scatter"(%x, %ids, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%cur: tensor<bf16>, %new: tensor<bf16>):
    %s = stablehlo.maximum %cur, %new : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) : (tensor<2xbf16>, tensor<2x1xi32>, tensor<2xbf16>) -> tensor<2xbf16>
  check.expect_eq_const %r, dense<[3.0, 5.0]> : tensor<2xbf16>
  func.return
}
