// RUN: mpmd-opt %s -sdy-explicit-gather-scatter-batching -split-input-file | FileCheck %s

// Index component 0 is an iota along the batch dimension of the indices and
// indexes operand dimension 0 of the same size: it becomes an explicit
// batching dimension, and the concatenation loses that input.
// CHECK-LABEL: func.func @gather_iota
// CHECK-NOT:     stablehlo.iota
// CHECK-NOT:     stablehlo.concatenate
// CHECK:         "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 16>}> : (tensor<4x8x16xf32>, tensor<4x1xi32>) -> tensor<4x16xf32>
func.func @gather_iota(%operand: tensor<4x8x16xf32>, %idx: tensor<4x1xi32>) -> tensor<4x16xf32> {
  %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %indices = stablehlo.concatenate %iota, %idx, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %0 = "stablehlo.gather"(%operand, %indices) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 16>}> : (tensor<4x8x16xf32>, tensor<4x2xi32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// The iota seen through a broadcast and a reshape; the component is the
// second of three, so a concatenation of the other two stays.
// CHECK-LABEL: func.func @gather_iota_through_broadcast
// CHECK:         %[[C:.*]] = stablehlo.concatenate %arg1, %arg2, dim = 2 : (tensor<4x3x1xi32>, tensor<4x3x1xi32>) -> tensor<4x3x2xi32>
// CHECK-NEXT:    "stablehlo.gather"(%arg0, %[[C]]) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 5>}>
func.func @gather_iota_through_broadcast(%operand: tensor<4x8x5xf32>, %a: tensor<4x3x1xi32>, %b: tensor<4x3x1xi32>) -> tensor<4x3x5xf32> {
  %iota = stablehlo.iota dim = 0 : tensor<4xi32>
  %r = stablehlo.reshape %iota : (tensor<4xi32>) -> tensor<4x1xi32>
  %bc = stablehlo.broadcast_in_dim %r, dims = [0, 2] : (tensor<4x1xi32>) -> tensor<4x3x1xi32>
  %indices = stablehlo.concatenate %a, %bc, %b, dim = 2 : (tensor<4x3x1xi32>, tensor<4x3x1xi32>, tensor<4x3x1xi32>) -> tensor<4x3x3xi32>
  %0 = "stablehlo.gather"(%operand, %indices) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [1, 0, 2], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 5>}> : (tensor<4x8x5xf32>, tensor<4x3x3xi32>) -> tensor<4x3x5xf32>
  return %0 : tensor<4x3x5xf32>
}

// -----

// Scatter: the same with inserted window dims.
// CHECK-LABEL: func.func @scatter_iota
// CHECK-NOT:     stablehlo.concatenate
// CHECK:         "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}>
func.func @scatter_iota(%input: tensor<4x8x16xf32>, %idx: tensor<4x1xi32>, %updates: tensor<4x16xf32>) -> tensor<4x8x16xf32> {
  %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %indices = stablehlo.concatenate %iota, %idx, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %0 = "stablehlo.scatter"(%input, %indices, %updates) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8x16xf32>, tensor<4x2xi32>, tensor<4x16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// Not rewritten: the iota runs along the wrong dimension; operand and
// indices batch sizes differ; the component is not an iota; operand dim 0
// is not collapsed.
// CHECK-LABEL: func.func @no_match
// CHECK-COUNT-4: start_index_map = [0, 1], index_vector_dim = 2
// CHECK-NOT:     batching_dims
func.func @no_match(%operand: tensor<4x8x16xf32>, %big: tensor<6x8x16xf32>, %idx: tensor<4x3x1xi32>) -> (tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<4x3x1x16xf32>) {
  %iota1 = stablehlo.iota dim = 1 : tensor<4x3x1xi32>
  %wrong_dim = stablehlo.concatenate %iota1, %idx, dim = 2 : (tensor<4x3x1xi32>, tensor<4x3x1xi32>) -> tensor<4x3x2xi32>
  %0 = "stablehlo.gather"(%operand, %wrong_dim) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 16>}> : (tensor<4x8x16xf32>, tensor<4x3x2xi32>) -> tensor<4x3x16xf32>
  %iota0 = stablehlo.iota dim = 0 : tensor<4x3x1xi32>
  %good = stablehlo.concatenate %iota0, %idx, dim = 2 : (tensor<4x3x1xi32>, tensor<4x3x1xi32>) -> tensor<4x3x2xi32>
  %1 = "stablehlo.gather"(%big, %good) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 16>}> : (tensor<6x8x16xf32>, tensor<4x3x2xi32>) -> tensor<4x3x16xf32>
  %plain = stablehlo.concatenate %idx, %idx, dim = 2 : (tensor<4x3x1xi32>, tensor<4x3x1xi32>) -> tensor<4x3x2xi32>
  %2 = "stablehlo.gather"(%operand, %plain) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 16>}> : (tensor<4x8x16xf32>, tensor<4x3x2xi32>) -> tensor<4x3x16xf32>
  %3 = "stablehlo.gather"(%operand, %good) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 16>}> : (tensor<4x8x16xf32>, tensor<4x3x2xi32>) -> tensor<4x3x1x16xf32>
  return %0, %1, %2, %3 : tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<4x3x1x16xf32>
}
