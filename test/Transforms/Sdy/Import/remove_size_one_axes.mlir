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

// -----

// Collectives stop moving size-one axes with the shardings around them; an
// all-to-all that moved only size-one axes is the identity and goes.
sdy.mesh @mesh = <["x"=2, "y"=1]>

// CHECK-LABEL: func.func @collectives(
// CHECK-SAME: %arg0: tensor<4x4x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>}
func.func @collectives(%arg0: tensor<4x4x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>})
    -> tensor<4x4x4x4xf32> {
  // CHECK-NEXT: %[[A2A:.*]] = sdy.all_to_all [{"x"}: 0->2] %arg0 out_sharding=<@mesh, [{}, {}, {"x"}, {}]>
  %0 = sdy.all_to_all [{"x"}: 0->2, {"y"}: 1->3] %arg0 out_sharding=<@mesh, [{}, {}, {"x"}, {"y"}]> : tensor<4x4x4x4xf32>
  // CHECK-NEXT: %[[GATHER:.*]] = sdy.all_gather [{}, {}, {"x"}, {}] %[[A2A]] out_sharding=<@mesh, [{}, {}, {}, {}]>
  %1 = sdy.all_gather [{}, {}, {"x"}, {"y"}] %0 out_sharding=<@mesh, [{}, {}, {}, {}]> : tensor<4x4x4x4xf32>
  // CHECK-NEXT: %[[REDUCE:.*]] = sdy.all_reduce {} %[[GATHER]] out_sharding=<@mesh, [{}, {}, {}, {}]>
  %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{}, {}, {}, {}]> : tensor<4x4x4x4xf32>
  // CHECK-NEXT: %[[SLICE:.*]] = sdy.all_slice [{}, {}, {}, {}] %[[REDUCE]] out_sharding=<@mesh, [{}, {}, {}, {}]>
  // CHECK-NEXT: return %[[SLICE]]
  %3 = sdy.all_slice [{"y"}, {}, {}, {}] %2 out_sharding=<@mesh, [{"y"}, {}, {}, {}]> : tensor<4x4x4x4xf32>
  %4 = sdy.all_to_all [{"y"}: 0->1] %3 out_sharding=<@mesh, [{}, {"y"}, {}, {}]> : tensor<4x4x4x4xf32>
  return %4 : tensor<4x4x4x4xf32>
}
