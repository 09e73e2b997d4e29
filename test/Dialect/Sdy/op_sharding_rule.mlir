// Round trip of #sdy.op_sharding_rule (and the dim/tensor mappings it is
// made of), printed and generic.
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file %s | FileCheck %s
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file %s | mpmd-opt -allow-unregistered-dialect -split-input-file | FileCheck %s
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file -mlir-print-op-generic %s | mpmd-opt -allow-unregistered-dialect -split-input-file | FileCheck %s

// Tensors are separated by ", " when printed, whatever the input spacing.
// CHECK-LABEL: func.func @matmul
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>
func.func @matmul(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %0 = "test.matmul"(%a, %b) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k],[k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Every factor kind, blocked propagation and a custom rule, in the printed
// order whatever the input order; compound dimensions list factors major
// to minor.
// CHECK-LABEL: func.func @kinds
// CHECK: #sdy.op_sharding_rule<([i, jk], [k])->([ij]) {i=4, j=2, k=8} reduction={k} need_replication={j} blocked_propagation={j}, custom>
// CHECK: #sdy.op_sharding_rule<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={j} need_replication={i, l} permutation={k} blocked_propagation={i, k}>
func.func @kinds(%a: tensor<4x16xf32>, %b: tensor<8xf32>, %c: tensor<2x3x5x7xf32>) {
  %0 = "test.op"(%a, %b) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk], [k])->([ij]) {i=4, j=2, k=8} reduction={k} need_replication={j} blocked_propagation={j}, custom>} : (tensor<4x16xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "test.op"(%c) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} blocked_propagation={i, k} permutation={k} need_replication={i, l} reduction={j}>} : (tensor<2x3x5x7xf32>) -> tensor<2x5x7xf32>
  return
}

// -----

// Rank-0 tensors map to `[]`; a rule without factors prints no size list
// (an empty one is accepted).
// CHECK-LABEL: func.func @scalars
// CHECK: #sdy.op_sharding_rule<([], [])->([])>
// CHECK: #sdy.op_sharding_rule<([])->([])>
// CHECK: #sdy.op_sharding_rule<([])->([]), custom>
// CHECK: #sdy.op_sharding_rule<()->([i]) {i=4}>
func.func @scalars(%a: tensor<f32>) {
  %0 = "test.add"(%a, %a) {sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = "test.neg"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([])->([]) {}>} : (tensor<f32>) -> tensor<f32>
  %2 = "test.neg"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([])->([]), custom>} : (tensor<f32>) -> tensor<f32>
  %3 = "test.iota"() {sdy.sharding_rule = #sdy.op_sharding_rule<()->([i]) {i=4}>} : () -> tensor<4xf32>
  return
}

// -----

// Factors past `z` are `z_1`, `z_2`, ...; a compound dimension concatenates
// them like letters.
// CHECK-LABEL: func.func @many_factors
// CHECK: #sdy.op_sharding_rule<([i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, zz_1], [z_2])->([zz_1]) {i=1, j=1, k=1, l=1, m=1, n=1, o=1, p=1, q=1, r=1, s=1, t=1, u=1, v=1, w=1, x=1, y=1, z=2, z_1=3, z_2=5} need_replication={z_1} blocked_propagation={z_2}>
func.func @many_factors(%a: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x6xf32>, %b: tensor<5xf32>) {
  %0 = "test.op"(%a, %b) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, zz_1], [z_2])->([zz_1]) {i=1, j=1, k=1, l=1, m=1, n=1, o=1, p=1, q=1, r=1, s=1, t=1, u=1, v=1, w=1, x=1, y=1, z=2, z_1=3, z_2=5} need_replication={z_1} blocked_propagation={z_2}>} : (tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x6xf32>, tensor<5xf32>) -> tensor<6xf32>
  return
}

// -----

// A single factor may differ from its dimension's size (slices, padding,
// windows); a factor may have size 0.
// CHECK-LABEL: func.func @sizes
// CHECK: #sdy.op_sharding_rule<([i])->([i]) {i=8} permutation={i}>
// CHECK: #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=0}>
func.func @sizes(%a: tensor<8xf32>, %b: tensor<8x0xf32>) {
  %0 = "test.slice"(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8} permutation={i}>} : (tensor<8xf32>) -> tensor<4xf32>
  %1 = "test.neg"(%b) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=0}>} : (tensor<8x0xf32>) -> tensor<8x0xf32>
  return
}

// -----

// The mappings on their own.
// CHECK-LABEL: func.func @mappings
// CHECK-SAME: test.dim = #sdy.dim_mapping<kz_1>
// CHECK-SAME: test.empty_dim = #sdy.dim_mapping<*>
// CHECK-SAME: test.scalar = #sdy.tensor_mapping<[]>
// CHECK-SAME: test.tensor = #sdy.tensor_mapping<[i, jk]>
func.func @mappings() attributes {test.dim = #sdy.dim_mapping<kz_1>, test.empty_dim = #sdy.dim_mapping<*>, test.tensor = #sdy.tensor_mapping<[i, jk]>, test.scalar = #sdy.tensor_mapping<[]>} {
  return
}
