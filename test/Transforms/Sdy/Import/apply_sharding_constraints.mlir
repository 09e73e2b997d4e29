// -sdy-apply-sharding-constraints: a closed constraint gives its sharding
// to an unsharded input nothing else claims.
// RUN: mpmd-opt -split-input-file -sdy-apply-sharding-constraints %s | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @applied(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}
func.func @applied(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
  // CHECK-NEXT: sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]>
  // CHECK-NEXT: sdy.sharding_constraint %[[N]] <@mesh, [{}, {"b"}]>
  %0 = stablehlo.negate %x : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %x <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  %3 = stablehlo.add %1, %2 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

// Not applied: an open constraint, an input that has a sharding, two
// constraints that disagree.
sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @not_applied(
// CHECK-SAME: %arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}, %arg2: tensor<8x8xf32>)
func.func @not_applied(%x: tensor<8x8xf32>, %y: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}, %z: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %x <@mesh, [{"a", ?}, {}]> : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %y <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %z <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %z <@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  %4 = stablehlo.add %0, %1 : tensor<8x8xf32>
  %5 = stablehlo.add %2, %3 : tensor<8x8xf32>
  %6 = stablehlo.add %4, %5 : tensor<8x8xf32>
  return %6 : tensor<8x8xf32>
}

// -----

// The in_shardings of a manual computation bind like constraints.
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @manual_operand(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}
func.func @manual_operand(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A data-flow edge keeps its sharding: the constraint moves right after it
// and every use of the edge reads the constraint.
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @edge_target(
func.func @edge_target(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %arg0
  // CHECK-NEXT: %[[E:.*]] = sdy.data_flow_edge %[[B]] : tensor<8xf32>
  // CHECK-NEXT: %[[C:.*]] = sdy.sharding_constraint %[[E]] <@mesh, [{"a"}]>
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[C]]
  // CHECK-NEXT: return %[[N]], %[[C]]
  %0 = stablehlo.optimization_barrier %x : tensor<8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  %2 = stablehlo.negate %1 : tensor<8xf32>
  %3 = sdy.sharding_constraint %1 <@mesh, [{"a"}]> : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A chain of single-use constraints on an unsharded value: later uses of
// the value in its block (not returns) read the end of the chain.
sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @chain(
func.func @chain(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %arg0
  // CHECK-NEXT: %[[C0:.*]] = sdy.sharding_constraint %[[N]] <@mesh, [{"a", ?}, {?}]>
  // CHECK-NEXT: %[[C1:.*]] = sdy.sharding_constraint %[[C0]] <@mesh, [{?}, {"b", ?}]>
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %[[C1]], %[[C1]]
  // CHECK-NEXT: return %[[A]], %[[N]]
  %0 = stablehlo.negate %x : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}, {?}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {"b", ?}]> : tensor<8x8xf32>
  %3 = stablehlo.add %0, %0 : tensor<8x8xf32>
  return %3, %0 : tensor<8x8xf32>, tensor<8x8xf32>
}
