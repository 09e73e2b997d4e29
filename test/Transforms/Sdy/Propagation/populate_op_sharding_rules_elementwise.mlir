// Ops whose rule maps every dimension of the result to the same dimension of
// every operand of the same rank (rank-0 operands map to no factor).
// RUN: mpmd-opt -sdy-populate-op-sharding-rules %s | FileCheck %s

// CHECK-LABEL: func.func @unary_binary(
// CHECK: stablehlo.add{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}>
// CHECK: stablehlo.exponential{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
// CHECK: stablehlo.compare{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}>
// CHECK: stablehlo.convert{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
// CHECK: stablehlo.shift_left{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}>
// CHECK: stablehlo.atan2{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}>
// CHECK: stablehlo.is_finite{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
// CHECK: stablehlo.reduce_precision{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
func.func @unary_binary(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %i: tensor<8x16xi32>) {
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  %1 = stablehlo.exponential %a : tensor<8x16xf32>
  %2 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
  %3 = stablehlo.convert %a : (tensor<8x16xf32>) -> tensor<8x16xbf16>
  %4 = stablehlo.shift_left %i, %i : tensor<8x16xi32>
  %5 = stablehlo.atan2 %a, %b : tensor<8x16xf32>
  %6 = stablehlo.is_finite %a : (tensor<8x16xf32>) -> tensor<8x16xi1>
  %7 = stablehlo.reduce_precision %a, format = e5m2 : tensor<8x16xf32>
  return
}

// CHECK-LABEL: func.func @empty_and_scalar(
// CHECK: stablehlo.multiply{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=0}>
// CHECK: stablehlo.negate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([])->([])>
func.func @empty_and_scalar(%a: tensor<8x0xf32>, %s: tensor<f32>) {
  %0 = stablehlo.multiply %a, %a : tensor<8x0xf32>
  %1 = stablehlo.negate %s : tensor<f32>
  return
}

// CHECK-LABEL: func.func @select_clamp(
// CHECK: stablehlo.select{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j], [i, j])->([i, j]) {i=4, j=8}>
// CHECK: stablehlo.select{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>
// CHECK: stablehlo.clamp{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j], [])->([i, j]) {i=4, j=8}>
// CHECK: stablehlo.clamp{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>
// CHECK: sdy.mesh
// CHECK-NOT: sharding_rule
func.func @select_clamp(%p: tensor<i1>, %pt: tensor<4x8xi1>, %a: tensor<4x8xf32>, %s: tensor<f32>) {
  %0 = stablehlo.select %p, %a, %a : tensor<i1>, tensor<4x8xf32>
  %1 = stablehlo.select %pt, %a, %a : tensor<4x8xi1>, tensor<4x8xf32>
  %2 = stablehlo.clamp %s, %a, %s : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %3 = stablehlo.clamp %a, %a, %a : tensor<4x8xf32>
  return
}

sdy.mesh @mesh = <["x"=2]>
// CHECK-LABEL: func.func @sharding_constraint(
// CHECK: sdy.sharding_constraint{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>
func.func @sharding_constraint(%a: tensor<8x16xf32>) {
  %0 = sdy.sharding_constraint %a <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  return
}

// Rules already on an op stay, custom or not.
// CHECK-LABEL: func.func @existing_rules(
// CHECK: stablehlo.add{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16} need_replication={j}>
// CHECK: stablehlo.negate{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16} blocked_propagation={i}, custom>
func.func @existing_rules(%a: tensor<8x16xf32>) {
  %0 = stablehlo.add %a, %a {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16} need_replication={j}>} : tensor<8x16xf32>
  %1 = stablehlo.negate %a {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16} blocked_propagation={i}, custom>} : tensor<8x16xf32>
  return
}
