// Contractions and reductions: contracting and reduced dimensions are
// reduction factors; windows are permutation factors.
// RUN: mpmd-opt -sdy-populate-op-sharding-rules %s | FileCheck %s
// RUN: mpmd-opt -sdy-populate-op-sharding-rules=conservative-propagation %s | FileCheck %s --check-prefix=CONSERVATIVE

// CHECK-LABEL: func.func @dot_general(
// CHECK: stablehlo.dot_general{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=4, k=16} reduction={k}>
// CHECK: stablehlo.dot_general{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, l, k])->([i, j, k]) {i=4, j=8, k=16, l=32} reduction={l}>
// CHECK: stablehlo.dot_general{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, m, l], [l, i, m, k])->([i, j, k]) {i=2, j=8, k=7, l=5, m=3} reduction={l, m}>
func.func @dot_general(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<4x8x32xf32>, %d: tensor<4x32x16xf32>, %e: tensor<2x8x3x5xf32>, %f: tensor<5x2x3x7xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
  %2 = stablehlo.dot_general %e, %f, batching_dims = [0] x [1], contracting_dims = [3, 2] x [0, 2] : (tensor<2x8x3x5xf32>, tensor<5x2x3x7xf32>) -> tensor<2x8x7xf32>
  return
}

// CHECK-LABEL: func.func @dot(
// CHECK: stablehlo.dot{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=4, k=16} reduction={k}>
// CHECK: stablehlo.dot{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j])->([i]) {i=8, j=16} reduction={j}>
// CHECK: stablehlo.dot{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j], [j, i])->([i]) {i=16, j=8} reduction={j}>
// CHECK: stablehlo.dot{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([]) {i=16} reduction={i}>
func.func @dot(%m: tensor<8x16xf32>, %n: tensor<16x4xf32>, %v: tensor<16xf32>, %w: tensor<8xf32>) {
  %0 = stablehlo.dot %m, %n : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.dot %m, %v : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8xf32>
  %2 = stablehlo.dot %w, %m : (tensor<8xf32>, tensor<8x16xf32>) -> tensor<16xf32>
  %3 = stablehlo.dot %v, %v : (tensor<16xf32>, tensor<16xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @reduce(
// CHECK: stablehlo.reduce{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i]) {i=8, j=16} reduction={j}>
// CHECK: stablehlo.reduce{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k], [], [])->([j], [j]) {i=2, j=64, k=13} reduction={i, k}>
func.func @reduce(%a: tensor<8x16xf32>, %b: tensor<2x64x13xf32>, %i: tensor<2x64x13xi32>, %z: tensor<f32>, %zi: tensor<i32>) {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1:2 = stablehlo.reduce(%b init: %z), (%i init: %zi) across dimensions = [0, 2] : (tensor<2x64x13xf32>, tensor<2x64x13xi32>, tensor<f32>, tensor<i32>) -> (tensor<64xf32>, tensor<64xi32>)
    reducer(%x: tensor<f32>, %y: tensor<f32>) (%xi: tensor<i32>, %yi: tensor<i32>) {
      %s = stablehlo.add %x, %y : tensor<f32>
      %si = stablehlo.add %xi, %yi : tensor<i32>
      stablehlo.return %s, %si : tensor<f32>, tensor<i32>
    }
  return
}

// CHECK-LABEL: func.func @reduce_window(
// CONSERVATIVE-LABEL: func.func @reduce_window(
// CONSERVATIVE: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([i, j, k]) {i=4, j=16, k=4} permutation={j, k} blocked_propagation={j, k}>
// CHECK: stablehlo.reduce_window
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([i, j, k]) {i=4, j=16, k=4} permutation={j, k}>
func.func @reduce_window(%a: tensor<4x16x8xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[0, 0], [1, 1], [0, 0]]> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 3, 2>, window_strides = array<i64: 1, 1, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x16x8xf32>, tensor<f32>) -> tensor<4x16x4xf32>
  return
}

// CHECK-LABEL: func.func @select_and_scatter(
// CONSERVATIVE-LABEL: func.func @select_and_scatter(
// CONSERVATIVE: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [i, j], [])->([i, k]) {i=4, j=8, k=16} need_replication={j} permutation={k} blocked_propagation={j, k}>
// CHECK: stablehlo.select_and_scatter
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [i, j], [])->([i, k]) {i=4, j=8, k=16} need_replication={j} permutation={k}>
func.func @select_and_scatter(%a: tensor<4x16xf32>, %s: tensor<4x8xf32>, %z: tensor<f32>) {
  %0 = "stablehlo.select_and_scatter"(%a, %s, %z) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %ge = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %sum = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) : (tensor<4x16xf32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x16xf32>
  return
}
