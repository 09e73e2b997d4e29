// -sdy-add-data-flow-edges: an edge after every statically shaped result of
// while, case and optimization_barrier, carrying the result's sharding;
// every other use goes through the edge.
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges %s | FileCheck %s
// Sinking the edges gives the input back.
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges -sdy-sink-data-flow-edges %s | FileCheck %s --check-prefix=ROUNDTRIP

sdy.mesh @mesh = <["x"=2, "y"=2]>
// A token result owns no edge; edges follow the op in result order and
// take the op's shardings; the block arguments stay as they are.
// CHECK-LABEL: func.func @while_with_token(
func.func @while_with_token(%a: tensor<8x4xf32>, %b: tensor<4xf32>, %t: !stablehlo.token) -> (tensor<8x4xf32>, !stablehlo.token) {
  // CHECK:      %[[W:.*]]:3 = stablehlo.while(%[[IA:.*]] = %arg0, %[[IT:.*]] = %arg2, %[[IB:.*]] = %arg1)
  // CHECK:        stablehlo.compare {{.*}}%[[IB]]
  // CHECK:        %[[N:.*]] = stablehlo.negate %[[IA]]
  // CHECK-NEXT:   stablehlo.return %[[N]], %[[IT]], %[[IB]]
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[E0:.*]] = sdy.data_flow_edge %[[W]]#0 sharding=<@mesh, [{"x"}, {?}]> : tensor<8x4xf32>
  // CHECK-NEXT: %[[E2:.*]] = sdy.data_flow_edge %[[W]]#2 sharding=<@mesh, [{?}]> : tensor<4xf32>
  // CHECK-NEXT: %[[S:.*]] = stablehlo.add %[[E2]], %[[E2]]
  // CHECK-NEXT: return %[[E0]], %[[W]]#1
  // ROUNDTRIP-LABEL: func.func @while_with_token(
  // ROUNDTRIP:      %[[W:.*]]:3 = stablehlo.while
  // ROUNDTRIP-SAME:   attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>, <@mesh, []>, <@mesh, [{?}]>]>}
  // ROUNDTRIP:      stablehlo.add %[[W]]#2, %[[W]]#2
  // ROUNDTRIP-NEXT: return %[[W]]#0, %[[W]]#1
  %w:3 = stablehlo.while(%ia = %a, %it = %t, %ib = %b) : tensor<8x4xf32>, !stablehlo.token, tensor<4xf32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>, <@mesh, []>, <@mesh, [{?}]>]>}
    cond {
      %c = stablehlo.compare LT, %ib, %ib : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
      %s = stablehlo.slice %c [0:1] : (tensor<4xi1>) -> tensor<1xi1>
      %p = stablehlo.reshape %s : (tensor<1xi1>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.negate %ia : tensor<8x4xf32>
      stablehlo.return %n, %it, %ib : tensor<8x4xf32>, !stablehlo.token, tensor<4xf32>
    }
  %s = stablehlo.add %w#2, %w#2 : tensor<4xf32>
  return %w#0, %w#1 : tensor<8x4xf32>, !stablehlo.token
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// Nested data-flow ops get edges too; a result without uses still gets
// one.
// CHECK-LABEL: func.func @nested_barrier_and_case(
func.func @nested_barrier_and_case(%a: tensor<8xf32>, %p: tensor<i32>) -> tensor<8xf32> {
  // CHECK:      %[[C:.*]] = "stablehlo.case"
  // CHECK:        %[[B:.*]]:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, <@mesh, [{?}]>]>} %arg0, %arg0
  // CHECK-NEXT:   %[[E0:.*]] = sdy.data_flow_edge %[[B]]#0 sharding=<@mesh, [{"y"}]>
  // CHECK-NEXT:   %[[E1:.*]] = sdy.data_flow_edge %[[B]]#1 sharding=<@mesh, [{?}]>
  // CHECK-NEXT:   stablehlo.return %[[E0]]
  // CHECK:        stablehlo.return %arg0
  // CHECK:      }) : (tensor<i32>) -> tensor<8xf32>
  // CHECK-NEXT: %[[E:.*]] = sdy.data_flow_edge %[[C]] : tensor<8xf32>
  // CHECK-NEXT: return %[[E]]
  // ROUNDTRIP-LABEL: func.func @nested_barrier_and_case(
  // ROUNDTRIP:      %[[C:.*]] = "stablehlo.case"
  // ROUNDTRIP-NEXT:   %[[B:.*]]:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, <@mesh, [{?}]>]>} %arg0, %arg0
  // ROUNDTRIP-NEXT:   stablehlo.return %[[B]]#0
  // ROUNDTRIP:      }) : (tensor<i32>) -> tensor<8xf32>
  // ROUNDTRIP-NEXT: return %[[C]]
  %c = "stablehlo.case"(%p) ({
    %b:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, <@mesh, [{?}]>]>} %a, %a : tensor<8xf32>, tensor<8xf32>
    stablehlo.return %b#0 : tensor<8xf32>
  }, {
    stablehlo.return %a : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

// `stablehlo.if` has no data-flow edges (as upstream).
// CHECK-LABEL: func.func @if_has_no_edges(
// ROUNDTRIP-LABEL: func.func @if_has_no_edges(
// CHECK-NOT: sdy.data_flow_edge
// CHECK: return
func.func @if_has_no_edges(%p: tensor<i1>, %a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<8xf32>
  }, {
    stablehlo.return %a : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
