// Ops that cut, pad or paste tensors: a dimension whose size changes is a
// permutation factor (slice, pad; blocked in conservative mode), must be
// replicated (dynamic_slice, dynamic_update_slice with run-time indices) or,
// for concatenate, depends on what is concatenated.
// RUN: mpmd-opt -sdy-populate-op-sharding-rules %s | FileCheck %s
// RUN: mpmd-opt -sdy-populate-op-sharding-rules=conservative-propagation %s | FileCheck %s --check-prefix=CONSERVATIVE

// CHECK-LABEL: func.func @slice(
// CONSERVATIVE-LABEL: func.func @slice(
// CONSERVATIVE: permutation={j, k} blocked_propagation={j, k}>
// CHECK: stablehlo.slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=8, j=16, k=4} permutation={j, k}>
func.func @slice(%a: tensor<8x16x4xf32>) {
  %0 = stablehlo.slice %a [0:8, 2:10, 0:4:2] : (tensor<8x16x4xf32>) -> tensor<8x8x2xf32>
  return
}

// CHECK-LABEL: func.func @pad(
// CONSERVATIVE-LABEL: func.func @pad(
// CONSERVATIVE: permutation={j} blocked_propagation={j}>
// CHECK: stablehlo.pad{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=16} permutation={j}>
func.func @pad(%a: tensor<8x16xf32>, %v: tensor<f32>) {
  %0 = stablehlo.pad %a, %v, low = [0, 1], high = [0, 2], interior = [0, 0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x19xf32>
  return
}

// CHECK-LABEL: func.func @dynamic_slice(
// CHECK: stablehlo.dynamic_slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [], [], [])->([i, j, k]) {i=8, j=16, k=4} need_replication={j, k} blocked_propagation={j, k}>
func.func @dynamic_slice(%a: tensor<8x16x4xf32>, %i: tensor<i32>) {
  %0 = stablehlo.dynamic_slice %a, %i, %i, %i, sizes = [8, 2, 1] : (tensor<8x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x2x1xf32>
  return
}

// CHECK-LABEL: func.func @dynamic_update_slice(
// CHECK: stablehlo.dynamic_update_slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k], [], [])->([i, j]) {i=8, j=16, k=4} need_replication={k}>
func.func @dynamic_update_slice(%a: tensor<8x16xf32>, %u: tensor<8x4xf32>, %i: tensor<i32>) {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<8x16xf32>, tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return
}

// Constant start indices: every shard knows where the update lands.
// CHECK-LABEL: func.func @dynamic_update_slice_constant_indices(
// CHECK: stablehlo.constant
// CHECK-NOT: sharding_rule
// CHECK: sdy.constant
// CHECK-NOT: sharding_rule
// CHECK: stablehlo.dynamic_update_slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k], [], [])->([i, j]) {i=8, j=16, k=4}>
func.func @dynamic_update_slice_constant_indices(%a: tensor<8x16xf32>, %u: tensor<8x4xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %d = sdy.constant dense<4> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %a, %u, %c, %d : (tensor<8x16xf32>, tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return
}

// CHECK-LABEL: func.func @concatenate(
// Conservative: the concatenated dimension gets no common factor.
// CONSERVATIVE-LABEL: func.func @concatenate(
// CONSERVATIVE: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k])->([i, l]) {i=4, j=1, k=1, l=1}>
// CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=10} need_replication={j}>
func.func @concatenate(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) {
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  return
}

// Concatenations of slices move data only within a halo.
// CHECK-LABEL: func.func @concatenate_slices(
// CONSERVATIVE-LABEL: func.func @concatenate_slices(
// CONSERVATIVE: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k])->([i, l]) {i=4, j=1, k=1, l=1}>
// CHECK: stablehlo.slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j}>
// CHECK: stablehlo.slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j}>
// CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=4} permutation={j}>
// CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=12} permutation={j}>
func.func @concatenate_slices(%a: tensor<4x8xf32>) {
  %s0 = stablehlo.slice %a [0:4, 0:2] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %s1 = stablehlo.slice %a [0:4, 6:8] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %0 = stablehlo.concatenate %s0, %s1, dim = 1 : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  %1 = stablehlo.concatenate %s1, %a, %s0, dim = 1 : (tensor<4x2xf32>, tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x12xf32>
  return
}

// CHECK-LABEL: func.func @concatenate_slices_of_another_value(
// CHECK: stablehlo.slice{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j}>
// CHECK: stablehlo.concatenate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=10} need_replication={j}>
func.func @concatenate_slices_of_another_value(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  %s0 = stablehlo.slice %a [0:4, 0:2] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %0 = stablehlo.concatenate %s0, %b, dim = 1 : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>
  return
}
