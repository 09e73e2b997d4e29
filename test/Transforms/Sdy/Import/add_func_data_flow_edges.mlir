// -sdy-add-func-data-flow-edges: an edge on every statically shaped
// argument of a function other than main and on every call result.
// RUN: mpmd-opt -split-input-file -sdy-add-func-data-flow-edges %s | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func.func private @callee(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg1: tensor<4xf32>, %arg2: !stablehlo.token
// CHECK-NEXT: %[[E0:.*]] = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
// CHECK-NEXT: %[[E1:.*]] = sdy.func_data_flow_edge %arg1 : tensor<4xf32>
// CHECK-NEXT: return %[[E0]], %[[E1]], %arg2
func.func private @callee(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %y: tensor<4xf32>, %t: !stablehlo.token) -> (tensor<8xf32>, tensor<4xf32>, !stablehlo.token) {
  return %x, %y, %t : tensor<8xf32>, tensor<4xf32>, !stablehlo.token
}

// Main's arguments have no edge; call results do, with the call's sharding.
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[C:.*]]:3 = call @callee(%arg0, %arg1, %arg2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"a"}]>, <@mesh, []>]>}
// CHECK-NEXT: %[[R0:.*]] = sdy.func_data_flow_edge %[[C]]#0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>]>} : tensor<8xf32>
// CHECK-NEXT: %[[R1:.*]] = sdy.func_data_flow_edge %[[C]]#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<4xf32>
// CHECK-NEXT: stablehlo.add %[[R0]], %[[R0]]
// CHECK-NEXT: return %{{.*}}, %[[R1]], %[[C]]#2
func.func @main(%x: tensor<8xf32>, %y: tensor<4xf32>, %t: !stablehlo.token) -> (tensor<8xf32>, tensor<4xf32>, !stablehlo.token) {
  %0:3 = func.call @callee(%x, %y, %t) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"a"}]>, <@mesh, []>]>} : (tensor<8xf32>, tensor<4xf32>, !stablehlo.token) -> (tensor<8xf32>, tensor<4xf32>, !stablehlo.token)
  %1 = stablehlo.add %0#0, %0#0 : tensor<8xf32>
  return %1, %0#1, %0#2 : tensor<8xf32>, tensor<4xf32>, !stablehlo.token
}
