// -sdy-sink-func-data-flow-edges: the edge's sharding goes to the function
// argument or call result under it, and the edge goes.
// RUN: mpmd-opt -split-input-file -sdy-sink-func-data-flow-edges %s | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An argument takes its edge's sharding; one whose edge has none becomes
// fully open; one without either stays without.
// CHECK-LABEL: func.func private @callee(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}
// CHECK-SAME: %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}
// CHECK-SAME: %arg2: tensor<8xf32>)
// CHECK-NEXT: return %arg0, %arg1, %arg2
// CHECK-NOT: sdy.func_data_flow_edge
func.func private @callee(%x: tensor<8xf32>, %y: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}, %z: tensor<8xf32>) -> (tensor<8xf32>, tensor<8x4xf32>, tensor<8xf32>) {
  %0 = sdy.func_data_flow_edge %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
  %1 = sdy.func_data_flow_edge %y : tensor<8x4xf32>
  %2 = sdy.func_data_flow_edge %z : tensor<8xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8x4xf32>, tensor<8xf32>
}

// Call results: one attribute for all; results without an edge sharding are
// fully open on the mesh.
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[C:.*]]:3 = call @callee(%arg0, %arg1, %arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"b", ?}, {?}]>, <@mesh, [{?}]>]>}
// CHECK-NEXT: return %[[C]]#0, %[[C]]#1, %[[C]]#2
func.func @main(%x: tensor<8xf32>, %y: tensor<8x4xf32>) -> (tensor<8xf32>, tensor<8x4xf32>, tensor<8xf32>) {
  %0:3 = func.call @callee(%x, %y, %x) : (tensor<8xf32>, tensor<8x4xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8x4xf32>, tensor<8xf32>)
  %1 = sdy.func_data_flow_edge %0#0 : tensor<8xf32>
  %2 = sdy.func_data_flow_edge %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>} : tensor<8x4xf32>
  return %1, %2, %0#2 : tensor<8xf32>, tensor<8x4xf32>, tensor<8xf32>
}
