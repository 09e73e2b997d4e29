// -sdy-sink-data-flow-edges: the edges' shardings become the data-flow op's
// `sdy.sharding` (results without one fully open) and the edges go away.
// RUN: mpmd-opt -split-input-file -sdy-sink-data-flow-edges %s | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>
// The edge of %w#0 has no sharding and the token none at all: both are
// fully open on the mesh of the edge that has one.
// CHECK-LABEL: func.func @while_partly_sharded(
// CHECK:      %[[W:.*]]:3 = stablehlo.while
// CHECK-SAME:   attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>, <@mesh, []>, <@mesh, [{"y", ?}]>]>}
// CHECK:        stablehlo.add %[[IB:.*]], %[[IB]] : tensor<4xf32>
// CHECK:      %[[S:.*]] = stablehlo.add %[[W]]#2, %[[W]]#2
// CHECK-NEXT: return %[[W]]#0, %[[W]]#1
// CHECK-NOT:  sdy.data_flow_edge
func.func @while_partly_sharded(%a: tensor<8x4xf32>, %b: tensor<4xf32>, %t: !stablehlo.token) -> (tensor<8x4xf32>, !stablehlo.token) {
  %w:3 = stablehlo.while(%ia = %a, %it = %t, %ib = %b) : tensor<8x4xf32>, !stablehlo.token, tensor<4xf32>
    cond {
      %true = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %true : tensor<i1>
    } do {
      %n = stablehlo.add %ib, %ib : tensor<4xf32>
      stablehlo.return %ia, %it, %n : tensor<8x4xf32>, !stablehlo.token, tensor<4xf32>
    }
  %e0 = sdy.data_flow_edge %w#0 : tensor<8x4xf32>
  %e2 = sdy.data_flow_edge %w#2 sharding=<@mesh, [{"y", ?}]> : tensor<4xf32>
  %s = stablehlo.add %e2, %e2 : tensor<4xf32>
  return %e0, %w#1 : tensor<8x4xf32>, !stablehlo.token
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// Edges without a sharding leave the op's sharding as it was; the edges
// still go.
// CHECK-LABEL: func.func @unsharded_edges(
// CHECK-NEXT:  %[[B:.*]] = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
// CHECK-NEXT:  %[[C:.*]] = "stablehlo.case"(%arg1)
// CHECK-NEXT:    stablehlo.return %[[B]]
// CHECK:       }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
// CHECK-NEXT:  return %[[C]]
func.func @unsharded_edges(%a: tensor<8xf32>, %p: tensor<i32>) -> tensor<8xf32> {
  %b = stablehlo.optimization_barrier %a : tensor<8xf32>
  %eb = sdy.data_flow_edge %b : tensor<8xf32>
  %c = "stablehlo.case"(%p) ({
    stablehlo.return %eb : tensor<8xf32>
  }, {
    stablehlo.return %a : tensor<8xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<i32>) -> tensor<8xf32>
  %ec = sdy.data_flow_edge %c : tensor<8xf32>
  return %ec : tensor<8xf32>
}
