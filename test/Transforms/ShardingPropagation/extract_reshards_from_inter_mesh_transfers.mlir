// RUN: mpmd-opt %s -mpmd-extract-reshards-from-inter-mesh-transfers -split-input-file | FileCheck %s
// RUN: mpmd-opt %s -mpmd-sharding-propagation-pipeline -split-input-file | FileCheck %s --check-prefix=PIPELINE

sdy.mesh @mesh = <["x"=2, "y"=2]>
!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2, "y"=2]>>, <"m2": <["x"=2, "y"=2]>>>

// Equal shard sizes ({"x"} -> {"y"} on dimension 0 and 1): the shards cross
// as they are and an identity fragment on m2 reshards them. A transfer
// whose shardings agree (open and closed alike) is left alone.
// CHECK-LABEL: func.func @reshard_at_consumer
// CHECK-SAME:  -> (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>, sharding=<@mesh, [{}, {"y"}]>>, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>)
// CHECK-NEXT: %[[T:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
// CHECK-NEXT: %[[R:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%[[T]]) {mpmd.inferred_by = ["extract_reshards"]} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   mpmd.return %[[A]]
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>, sharding=<@mesh, [{}, {"y"}]>>
// CHECK-NEXT: %[[S:.*]] = mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>} %arg1
// CHECK-NEXT: return %[[R]], %[[S]]
func.func @reshard_at_consumer(%arg0: !m1 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: !m1)
    -> (!m2, !m2) attributes {topology = #topology} {
  %0 = mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} %arg0 : (!m1) -> !m2
  %1 = mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>} %arg1 : (!m1) -> !m2
  return %0, %1 : !m2, !m2
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2, "y"=2]>>, <"m2": <["x"=2, "y"=2]>>>

// A replicated fragment result sent to a fragment that wants it sharded
// over both axes: the source shard is larger, so m1 reshards first and the
// smaller shards cross.
// CHECK-LABEL: func.func @reshard_at_producer
// CHECK:      %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK:      %[[R:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[F]]) {mpmd.inferred_by = ["extract_reshards"]}
// CHECK:      } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x", "y"}, {}]>>
// CHECK-NEXT: %[[T:.*]] = mpmd.transfer %[[R]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x", "y"}, {}]>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>, sharding=<@mesh, [{"x", "y"}, {}]>>
// CHECK-NEXT: mpmd.fragment<mesh="m2", origin=["g"]> (%[[T]])
func.func @reshard_at_producer(%arg0: !m1) -> !m2 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} %0 : (!m1) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["g"]> (%1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  return %2 : !m2
}

// -----

sdy.mesh @mesh = <["x"=2]>
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Within one mesh the transfer is the reshard: it becomes the fragment. In
// the pipeline, propagation first spreads the transfer's sharding back to
// the input (a transfer within one mesh is pointwise): nothing is left to
// reshard.
// CHECK-LABEL: func.func @intra_mesh
// CHECK-NEXT: %[[R:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {mpmd.inferred_by = ["extract_reshards"]}
// CHECK:      } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>
// CHECK-NEXT: return %[[R]]
// PIPELINE-LABEL: func.func @intra_mesh(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>)
// PIPELINE-NEXT: %[[T:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>
// PIPELINE-NEXT: return %[[T]]
func.func @intra_mesh(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} %arg0 : (!m1) -> !m1
  return %0 : !m1
}

// -----

sdy.mesh @mesh = <["x"=2]>
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=4]>>>

// Meshes of different shapes: shard sizes do not compare; the transfer
// keeps its reshard.
// CHECK-LABEL: func.func @heterogeneous
// CHECK-NEXT: mpmd.transfer {sdy.sharding
// CHECK-NOT:  mpmd.fragment
func.func @heterogeneous(%arg0: !m1) -> !m2 attributes {topology = #topology} {
  %0 = mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} %arg0 : (!m1) -> !m2
  return %0 : !m2
}
