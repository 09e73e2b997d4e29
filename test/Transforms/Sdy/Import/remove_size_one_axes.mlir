// -sdy-remove-size-one-axes: axes of size 1 leave every sharding.
// RUN: mpmd-opt -split-input-file -sdy-remove-size-one-axes %s | FileCheck %s

sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1]>
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}p2, {"b"}]>})
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}p1]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p2, {"b"}]>}) {
  // CHECK: sdy.sharding_constraint %arg0 <@mesh, [{?}p2, {"b"}]> :
  %0 = sdy.sharding_constraint %a <@mesh, [{"a", ?}p2, {"b"}], unreduced={"c"}> : tensor<8x8xf32>
  // CHECK: sdy.manual_computation(%0) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"a", "b"}
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a", "b"}, {}]>] out_shardings=[<@mesh, [{"b", "a"}, {}]>] manual_axes={"a", "b"} (%arg1: tensor<4x8xf32>) {
    sdy.return %arg1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// Without size-1 axes nothing changes.
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @no_size_one(
// CHECK-SAME: #sdy.sharding<@mesh, [{"a"}p1]>
func.func @no_size_one(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p1]>}) {
  return
}
