// Broadcasts, transposes, reshapes (dimensions split and merged into compound
// factors), reverse and bitcast_convert.
// RUN: mpmd-opt -sdy-populate-op-sharding-rules %s | FileCheck %s

// CHECK-LABEL: func.func @broadcast_in_dim(
// CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k])->([i, j, l]) {i=8, j=4, k=1, l=16}>
// CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k])->([i, j, k]) {i=1, j=2, k=64}>
// CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([])->([i, j]) {i=2, j=3}>
// CHECK: stablehlo.broadcast_in_dim{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, i])->([i, j]) {i=8, j=4}>
func.func @broadcast_in_dim(%a: tensor<8x1xf32>, %b: tensor<1x64xf32>, %s: tensor<f32>, %c: tensor<4x8xf32>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 2] : (tensor<8x1xf32>) -> tensor<8x4x16xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [0, 2] : (tensor<1x64xf32>) -> tensor<1x2x64xf32>
  %2 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %3 = stablehlo.broadcast_in_dim %c, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// CHECK-LABEL: func.func @transpose(
// CHECK: stablehlo.transpose{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, k, i])->([i, j, k]) {i=5, j=2, k=3}>
func.func @transpose(%a: tensor<2x3x5xf32>) {
  %0 = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<2x3x5xf32>) -> tensor<5x2x3xf32>
  return
}

// CHECK-LABEL: func.func @reshape_split_merge(
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=3, j=4}>
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=2, j=4}>
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([i, jk]) {i=3, j=2, k=10}>
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k, l])->([i, jk, l]) {i=2, j=4, k=4, l=5}>
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, jkl])->([i, j, k, l]) {i=2, j=3, k=4, l=5}>
func.func @reshape_split_merge(%a: tensor<12xf32>, %b: tensor<2x4xf32>, %c: tensor<6x10xf32>, %d: tensor<8x4x5xf32>, %e: tensor<2x60xf32>) {
  %0 = stablehlo.reshape %a : (tensor<12xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.reshape %b : (tensor<2x4xf32>) -> tensor<8xf32>
  %2 = stablehlo.reshape %c : (tensor<6x10xf32>) -> tensor<3x20xf32>
  %3 = stablehlo.reshape %d : (tensor<8x4x5xf32>) -> tensor<2x16x5xf32>
  %4 = stablehlo.reshape %e : (tensor<2x60xf32>) -> tensor<2x3x4x5xf32>
  return
}

// CHECK-LABEL: func.func @reshape_unaligned(
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([ij, ln])->([ik, mn]) {i=2, j=2, k=3, l=3, m=2, n=2}>
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, l])->([j, k]) {i=3, j=2, k=3, l=2}>
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l, n])->([ik, m]) {i=2, j=2, k=3, l=2, m=4, n=3}>
func.func @reshape_unaligned(%a: tensor<4x6xf32>, %b: tensor<3x2xf32>, %c: tensor<2x2x2x3xf32>) {
  %0 = stablehlo.reshape %a : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %1 = stablehlo.reshape %b : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.reshape %c : (tensor<2x2x2x3xf32>) -> tensor<6x4xf32>
  return
}

// CHECK-LABEL: func.func @reshape_size_one(
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([ik]) {i=2, j=1, k=3}>
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([])->([i, j]) {i=1, j=1}>
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, k]) {i=1, j=8, k=1}>
// CHECK: stablehlo.reshape{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j])->([i, j]) {i=1, j=8}>
func.func @reshape_size_one(%a: tensor<2x1x3xf32>, %b: tensor<f32>, %c: tensor<1x8xf32>, %d: tensor<8xf32>) {
  %0 = stablehlo.reshape %a : (tensor<2x1x3xf32>) -> tensor<6xf32>
  %1 = stablehlo.reshape %b : (tensor<f32>) -> tensor<1x1xf32>
  %2 = stablehlo.reshape %c : (tensor<1x8xf32>) -> tensor<8x1xf32>
  %3 = stablehlo.reshape %d : (tensor<8xf32>) -> tensor<1x8xf32>
  return
}

// CHECK-LABEL: func.func @reshape_empty(
// CHECK: stablehlo.reshape
// CHECK-NOT: sharding_rule
func.func @reshape_empty(%a: tensor<0x4xf32>) {
  %0 = stablehlo.reshape %a : (tensor<0x4xf32>) -> tensor<4x0xf32>
  return
}

// CHECK-LABEL: func.func @reverse(
// CHECK: stablehlo.reverse{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=8, k=2} permutation={i, k}>
func.func @reverse(%a: tensor<4x8x2xf32>) {
  %0 = stablehlo.reverse %a, dims = [0, 2] : tensor<4x8x2xf32>
  return
}

// CHECK-LABEL: func.func @bitcast_convert(
// CHECK: stablehlo.bitcast_convert{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j, k]) {i=4, j=8, k=4} need_replication={k}>
// CHECK: stablehlo.bitcast_convert{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j]) {i=4, j=8, k=4} need_replication={k}>
// CHECK: stablehlo.bitcast_convert{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
func.func @bitcast_convert(%a: tensor<4x8xf32>, %b: tensor<4x8x4xi8>, %c: tensor<4x8xi32>) {
  %0 = stablehlo.bitcast_convert %a : (tensor<4x8xf32>) -> tensor<4x8x4xi8>
  %1 = stablehlo.bitcast_convert %b : (tensor<4x8x4xi8>) -> tensor<4x8xf32>
  %2 = stablehlo.bitcast_convert %c : (tensor<4x8xi32>) -> tensor<4x8xf32>
  return
}
