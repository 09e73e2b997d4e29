// -sdy-add-data-flow-edges and -sdy-sink-data-flow-edges on MPMD ops, which
// take part through ShardableDataFlowOpInterface: a fragment's block
// arguments own edges at the start of its body (carrying in_shardings), its
// results edges after it (carrying out_shardings); an mpmd.for's results own
// edges after it (carrying its sdy.sharding).
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges -sdy-sink-data-flow-edges %s | FileCheck %s --check-prefix=ROUNDTRIP
// Propagation between add and sink fills in the edges that had no sharding.
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges -sdy-basic-propagate -sdy-sink-data-flow-edges %s | FileCheck %s --check-prefix=PROPAGATE

sdy.mesh @mesh = <["x"=2]>
!t = tensor<4x2xf32>
!m = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// CHECK-LABEL: func.func @fragment(
// CHECK-NEXT:  %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"], in_shardings=[<@mesh, [{"x"}, {?}]>, <@mesh, [{?}, {?}]>]> (%arg0, %arg1) (%[[A:.*]]: tensor<4x2xf32>, %[[B:.*]]: tensor<4x2xf32>) {
// CHECK-NEXT:    %[[EA:.*]] = sdy.data_flow_edge %[[A]] sharding=<@mesh, [{"x"}, {?}]> : tensor<4x2xf32>
// CHECK-NEXT:    %[[EB:.*]] = sdy.data_flow_edge %[[B]] sharding=<@mesh, [{?}, {?}]> : tensor<4x2xf32>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.add %[[EA]], %[[EB]]
// CHECK-NEXT:    mpmd.return %[[S]]
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[E:.*]] = sdy.data_flow_edge %[[F]] : !mpmd.mesh_tensor<"m1", tensor<4x2xf32>>
// CHECK-NEXT:  return %[[E]]
// ROUNDTRIP-LABEL: func.func @fragment(
// ROUNDTRIP-NEXT:  %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"], in_shardings=[<@mesh, [{"x"}, {?}]>, <@mesh, [{?}, {?}]>]> (%arg0, %arg1) (%[[A:.*]]: tensor<4x2xf32>, %[[B:.*]]: tensor<4x2xf32>) {
// ROUNDTRIP-NEXT:    stablehlo.add %[[A]], %[[B]]
// ROUNDTRIP-NOT:   sdy.data_flow_edge
// ROUNDTRIP:       return %[[F]]
// PROPAGATE-LABEL: func.func @fragment(
// PROPAGATE-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4x2xf32>> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
// PROPAGATE-SAME:    %arg1: !mpmd.mesh_tensor<"m1", tensor<4x2xf32>> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
// PROPAGATE-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4x2xf32>> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>})
// PROPAGATE-NEXT:  mpmd.fragment<mesh="m1", origin=["f"], in_shardings=[<@mesh, [{"x"}, {?}]>, <@mesh, [{"x", ?}, {?}]>], out_shardings=[<@mesh, [{"x", ?}, {?}]>]>
func.func @fragment(%arg0: !m, %arg1: !m) -> !m attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"], in_shardings=[<@mesh, [{"x"}, {?}]>, <@mesh, [{?}, {?}]>]> (%arg0, %arg1) (%a: !t, %b: !t) {
    %s = stablehlo.add %a, %b : !t
    mpmd.return %s : !t
  } : (!m, !m) -> !m
  return %0 : !m
}

// -----

sdy.mesh @mesh = <["x"=2]>
!t = tensor<4x2xf32>
!m = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// The loop's edge stands for its result and its block argument; the index
// argument owns none.
// CHECK-LABEL: func.func @loop(
// CHECK:       %[[L:.*]] = mpmd.for (%arg0)
// CHECK:       } : !mpmd.mesh_tensor<"m1", tensor<4x2xf32>>
// CHECK-NEXT:  %[[E:.*]] = sdy.data_flow_edge %[[L]] sharding=<@mesh, [{?}, {"x"}]> : !mpmd.mesh_tensor<"m1", tensor<4x2xf32>>
// CHECK-NEXT:  return %[[E]]
// ROUNDTRIP-LABEL: func.func @loop(
// ROUNDTRIP-NEXT:  mpmd.for (%arg0) {iterations = 2 : ui32, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x"}]>]>}
// ROUNDTRIP-NOT:   sdy.data_flow_edge
// PROPAGATE-LABEL: func.func @loop(
// PROPAGATE-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4x2xf32>> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", ?}]>}
// PROPAGATE:         mpmd.fragment<mesh="m1", origin=["body"], in_shardings=[<@mesh, [{?}, {"x", ?}]>], out_shardings=[<@mesh, [{?}, {"x", ?}]>]>
func.func @loop(%arg0: !m) -> !m attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x"}]>]>} (%x: !m, %index: tensor<ui32>) {
    %1 = mpmd.fragment<mesh="m1", origin=["body"]> (%x) (%a: !t) {
      %n = stablehlo.negate %a : !t
      mpmd.return %n : !t
    } : (!m) -> !m
    mpmd.return %1 : !m
  } : !m
  return %0 : !m
}
