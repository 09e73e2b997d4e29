// RUN: mpmd-opt %s -split-input-file -canonicalize | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_x = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
!m1_y = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{}, {"x"}]>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

module {
  sdy.mesh @mesh = <["x"=2]>

  // CHECK-LABEL: func.func @identity_transfer_folds
  // CHECK-NEXT: return %arg0
  func.func @identity_transfer_folds(%arg0: !m1) -> !m1 attributes {topology = #topology} {
    %0 = mpmd.transfer %arg0 : (!m1) -> !m1
    return %0 : !m1
  }

  // CHECK-LABEL: func.func @intra_mesh_chain_collapses
  // CHECK-NEXT: %[[T:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{}, {"x"}]>>
  // CHECK-NEXT: return %[[T]]
  func.func @intra_mesh_chain_collapses(%arg0: !m1) -> !m1_y attributes {topology = #topology} {
    %0 = mpmd.transfer %arg0 : (!m1) -> !m1_x
    %1 = mpmd.transfer %0 : (!m1_x) -> !m1_y
    return %1 : !m1_y
  }

  // The intermediate has another user: it stays, and the second transfer is
  // now from the source.
  // CHECK-LABEL: func.func @intra_mesh_chain_with_other_use
  // CHECK-NEXT: %[[A:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
  // CHECK-NEXT: %[[B:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{}, {"x"}]>>
  // CHECK-NEXT: return %[[A]], %[[B]]
  func.func @intra_mesh_chain_with_other_use(%arg0: !m1) -> (!m1_x, !m1_y) attributes {topology = #topology} {
    %0 = mpmd.transfer %arg0 : (!m1) -> !m1_x
    %1 = mpmd.transfer %0 : (!m1_x) -> !m1_y
    return %0, %1 : !m1_x, !m1_y
  }

  // Back to the source type: the chain disappears entirely.
  // CHECK-LABEL: func.func @intra_mesh_round_trip
  // CHECK-NEXT: return %arg0
  func.func @intra_mesh_round_trip(%arg0: !m1) -> !m1 attributes {topology = #topology} {
    %0 = mpmd.transfer %arg0 : (!m1) -> !m1_x
    %1 = mpmd.transfer %0 : (!m1_x) -> !m1
    return %1 : !m1
  }

  // CHECK-LABEL: func.func @inter_mesh_of_intra_mesh_is_kept
  // CHECK-NEXT: %[[A:.*]] = mpmd.transfer %arg0 : {{.*}} -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
  // CHECK-NEXT: %[[B:.*]] = mpmd.transfer %[[A]] : {{.*}} -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
  // CHECK-NEXT: return %[[B]]
  func.func @inter_mesh_of_intra_mesh_is_kept(%arg0: !m1) -> !m2 attributes {topology = #topology} {
    %0 = mpmd.transfer %arg0 : (!m1) -> !m1_x
    %1 = mpmd.transfer %0 : (!m1_x) -> !m2
    return %1 : !m2
  }

  // A memory-kind change is not intra-mesh.
  // CHECK-LABEL: func.func @memory_kind_chain_is_kept
  // CHECK-COUNT-2: mpmd.transfer
  func.func @memory_kind_chain_is_kept(%arg0: !m1) -> !m1_x attributes {topology = #topology} {
    %0 = mpmd.transfer %arg0 : (!m1) -> !mpmd.mesh_tensor<"m1", !t, memory_kind="pinned_host">
    %1 = mpmd.transfer %0 : (!mpmd.mesh_tensor<"m1", !t, memory_kind="pinned_host">) -> !m1_x
    return %1 : !m1_x
  }

  // CHECK-LABEL: func.func @fragment_pass_through_results
  // CHECK: %[[F:.*]]:3 = mpmd.fragment
  // Result 0 returns %arg0's block argument with the same type: forwarded.
  // Result 1 computes a value: kept. Result 2 passes %arg1 through but
  // changes its sharding: kept.
  // CHECK: return %arg0, %[[F]]#1, %[[F]]#2
  func.func @fragment_pass_through_results(%arg0: !m1, %arg1: !m1) -> (!m1, !m1, !m1_x) attributes {topology = #topology} {
    %0:3 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !t, %b: !t) {
      %c = arith.constant dense<1.0> : !t
      mpmd.return %a, %c, %b : !t, !t, !t
    } : (!m1, !m1) -> (!m1, !m1, !m1_x)
    return %0#0, %0#1, %0#2 : !m1, !m1, !m1_x
  }
}

// -----

!t = tensor<4x8xf32>

// CHECK-LABEL: func.func @broadcast_of_broadcast
// CHECK-NEXT: %[[B:.*]] = mpmd.broadcast %arg0
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_broadcast(%arg0: !t) -> !t {
  %0 = mpmd.broadcast %arg0 : !t
  %1 = mpmd.broadcast %0 : !t
  return %1 : !t
}

// CHECK-LABEL: func.func @none_reduce_of_reduce
// CHECK-NEXT: %[[R:.*]] = mpmd.reduce<max> %arg0, %arg1
// CHECK-NEXT: return %[[R]]
func.func @none_reduce_of_reduce(%arg0: !t, %arg1: !t) -> !t {
  %0 = mpmd.reduce<max> %arg0, %arg1 : (!t, !t) -> !t
  %1 = mpmd.reduce<none> %0 : (!t) -> !t
  return %1 : !t
}

// CHECK-LABEL: func.func @nested_reduce_flattens
// CHECK-NEXT: %[[R:.*]] = mpmd.reduce<add> %arg0, %arg1, %arg2 :
// CHECK-NEXT: return %[[R]]
func.func @nested_reduce_flattens(%arg0: !t, %arg1: !t, %arg2: !t) -> !t {
  %0 = mpmd.reduce<add> %arg0, %arg1 : (!t, !t) -> !t
  %1 = mpmd.reduce<add> %0, %arg2 : (!t, !t) -> !t
  return %1 : !t
}

// Different reductions do not mix.
// CHECK-LABEL: func.func @different_reductions_stay
// CHECK-NEXT: mpmd.reduce<add> %arg0, %arg1
// CHECK-NEXT: mpmd.reduce<max>
func.func @different_reductions_stay(%arg0: !t, %arg1: !t, %arg2: !t) -> !t {
  %0 = mpmd.reduce<add> %arg0, %arg1 : (!t, !t) -> !t
  %1 = mpmd.reduce<max> %0, %arg2 : (!t, !t) -> !t
  return %1 : !t
}
