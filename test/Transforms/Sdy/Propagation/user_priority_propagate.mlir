// -sdy-user-priority-propagate: lower priorities decide first; a held-back
// dimension cannot be overwritten and its axes cannot be taken meanwhile.
// RUN: mpmd-opt -split-input-file -sdy-user-priority-propagate %s | FileCheck %s

// Worked example E4: p0 gives "a" to dim 0 of %s; when p1 is restored,
// "a" is taken on %s, so dim 1 stays unsharded there. Priorities are gone
// from the output.
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @lower_priority_wins(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a"}]>}
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
func.func @lower_priority_wins(%u: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0, {?}]>},
                               %v: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a"}p1]>}) -> tensor<8x8xf32> {
  // CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
  %s = stablehlo.add %u, %v : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// -----

// The same annotations with the priorities swapped: now dim 1 wins.
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @swapped(
// CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>}
func.func @swapped(%u: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p3, {?}]>},
                   %v: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a"}p1]>}) -> tensor<8x8xf32> {
  %s = stablehlo.add %u, %v : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// -----

// Priorities of one sharding restore dimension by dimension; a sharding
// constraint's priorities count too.
sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @per_dimension(
func.func @per_dimension(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}
  // CHECK: sdy.sharding_constraint {{.*}} <@mesh, [{"a", ?}, {"b", ?}]>
  %0 = stablehlo.negate %x : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}p2, {"b", ?}p1]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
