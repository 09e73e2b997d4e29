// -sdy-op-priority-propagate: pass-through ops first, broadcasts forward
// last (worked example E5).
// RUN: mpmd-opt -split-input-file -sdy-op-priority-propagate %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-op-priority-propagate=run-op-priority-propagation=false %s | FileCheck %s --check-prefix=ONCE

// Stage 0 moves "b" through the add before stage 4 moves "a" forward
// through the broadcast, so both end up on the add.
sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @broadcast_last(
// CHECK-SAME: %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b"}]>}
// CHECK-SAME: -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>})
func.func @broadcast_last(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>},
                          %y: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b"}]>}) -> tensor<8x16xf32> {
  // CHECK: stablehlo.broadcast_in_dim {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>
  %0 = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.add %0, %y : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// A dot and an element-wise op compete for the same axis: the element-wise
// op (stage 0) decides before the dot (stage 2), so %y's "a" on dim 1 wins
// over %w's "a" on the dot's lhs dim 0. Without op priorities the dot,
// visited first, takes "a" for dim 0.
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @elementwise_first(
// ONCE-LABEL: func.func @elementwise_first(
func.func @elementwise_first(%w: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
                             %v: tensor<8x8xf32>,
                             %y: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> tensor<8x8xf32> {
  // CHECK: stablehlo.dot_general {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>
  // ONCE: stablehlo.dot_general {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>
  %0 = stablehlo.dot_general %w, %v, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %y : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
