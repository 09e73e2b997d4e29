// Gather and scatter: offset, batch, collapsed (inserted) and index vector
// dimensions, in slice dimension order.
// RUN: mpmd-opt -sdy-populate-op-sharding-rules %s | FileCheck %s

// An embedding lookup: the table's vocabulary dimension is collapsed.
// CHECK-LABEL: func.func @gather_embedding(
// CHECK: stablehlo.gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([l, k], [i, j, m])->([i, j, k]) {i=2, j=4, k=32, l=64, m=1} reduction={l} need_replication={m}>
func.func @gather_embedding(%table: tensor<64x32xf32>, %ids: tensor<2x4x1xi32>) {
  %0 = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<2x4x1xi32>) -> tensor<2x4x32xf32>
  return
}

// Offset dimensions of every kind: sliced (4 of 8), whole, size 1.
// CHECK-LABEL: func.func @gather_offsets(
// CHECK: stablehlo.gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([o, k, l, m], [i, j, p])->([i, j, k, l, n]) {i=2, j=3, k=8, l=16, m=4, n=1, o=64, p=1} reduction={m, o} need_replication={k, n, p} blocked_propagation={k}>
func.func @gather_offsets(%a: tensor<64x8x16x4xf32>, %ids: tensor<2x3x1xi32>) {
  %0 = "stablehlo.gather"(%a, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3, 4], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 4, 16, 1>}> : (tensor<64x8x16x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4x16x1xf32>
  return
}

// CHECK-LABEL: func.func @gather_batching(
// CHECK: stablehlo.gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [i, j, l])->([i, j]) {i=8, j=2, k=4, l=1} reduction={k} need_replication={l}>
func.func @gather_batching(%a: tensor<8x4xf32>, %ids: tensor<8x2x1xi32>) {
  %0 = "stablehlo.gather"(%a, %ids) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<8x4xf32>, tensor<8x2x1xi32>) -> tensor<8x2xf32>
  return
}

// The index vector dimension comes first: batch dimensions of the indices
// after it are shifted by one.
// CHECK-LABEL: func.func @gather_leading_index_vector_dim(
// CHECK: stablehlo.gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [l, i])->([i, j]) {i=5, j=8, k=16, l=1} reduction={k} need_replication={l}>
func.func @gather_leading_index_vector_dim(%a: tensor<16x8xf32>, %ids: tensor<1x5xi32>) {
  %0 = "stablehlo.gather"(%a, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<1x5xi32>) -> tensor<5x8xf32>
  return
}

// Updates combined by addition: partial scatters per shard add up.
// CHECK-LABEL: func.func @scatter_add(
// CHECK: stablehlo.scatter
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([l, k], [i, j, m], [i, j, k])->([l, k]) {i=2, j=4, k=32, l=64, m=1} reduction={i, j} need_replication={m}>
func.func @scatter_add(%a: tensor<64x32xf32>, %ids: tensor<2x4x1xi32>, %u: tensor<2x4x32xf32>) {
  %0 = "stablehlo.scatter"(%a, %ids, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %y, %x : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<64x32xf32>, tensor<2x4x1xi32>, tensor<2x4x32xf32>) -> tensor<64x32xf32>
  return
}

// Updates that replace the old value: implicit batch dimensions must stay whole.
// CHECK-LABEL: func.func @scatter_replace(
// CHECK: stablehlo.scatter
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([m, k], [i, j, n], [i, j, l])->([m, k]) {i=2, j=4, k=32, l=8, m=64, n=1} need_replication={i, j, k, l, n}>
func.func @scatter_replace(%a: tensor<64x32xf32>, %ids: tensor<2x4x1xi32>, %u: tensor<2x4x8xf32>) {
  %0 = "stablehlo.scatter"(%a, %ids, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) : (tensor<64x32xf32>, tensor<2x4x1xi32>, tensor<2x4x8xf32>) -> tensor<64x32xf32>
  return
}

// Two inputs updated by different ops: no reduction.
// CHECK-LABEL: func.func @scatter_two_inputs(
// CHECK: stablehlo.scatter
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([j], [j], [i, k], [i], [i])->([j], [j]) {i=4, j=16, k=1} need_replication={i, k}>
func.func @scatter_two_inputs(%a: tensor<16xf32>, %b: tensor<16xi32>, %ids: tensor<4x1xi32>, %u: tensor<4xf32>, %v: tensor<4xi32>) {
  %0:2 = "stablehlo.scatter"(%a, %b, %ids, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %xi: tensor<i32>, %y: tensor<f32>, %yi: tensor<i32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    %m = stablehlo.maximum %xi, %yi : tensor<i32>
    stablehlo.return %s, %m : tensor<f32>, tensor<i32>
  }) : (tensor<16xf32>, tensor<16xi32>, tensor<4x1xi32>, tensor<4xf32>, tensor<4xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  return
}

// CHECK-LABEL: func.func @scatter_batching(
// CHECK: stablehlo.scatter
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [i, j, l], [i, j])->([i, k]) {i=8, j=2, k=4, l=1} reduction={j} need_replication={l}>
func.func @scatter_batching(%a: tensor<8x4xf32>, %ids: tensor<8x2x1xi32>, %u: tensor<8x2xf32>) {
  %0 = "stablehlo.scatter"(%a, %ids, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.multiply %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<8x2x1xi32>, tensor<8x2xf32>) -> tensor<8x4xf32>
  return
}
