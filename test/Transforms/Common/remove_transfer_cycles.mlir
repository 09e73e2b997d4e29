// RUN: mpmd-opt %s -mpmd-remove-transfer-cycles -split-input-file | FileCheck %s

!m0 = !mpmd.mesh_tensor<"m0", tensor<4x8xf32>>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m0": <["x"=2]>>, <"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// x0 -> m1 -> m2 -> m0 -> m1: the value back on m0 is x0 and the value back
// on m1 is the first transfer's result; only the first two transfers stay.
// CHECK-LABEL: func.func @device_cycle
// CHECK-NEXT: %[[T1:.*]] = mpmd.transfer %arg0 : {{.*}} -> !mpmd.mesh_tensor<"m1"
// CHECK-NEXT: %[[T2:.*]] = mpmd.transfer %[[T1]] : {{.*}} -> !mpmd.mesh_tensor<"m2"
// CHECK-NEXT: return %[[T1]], %arg0, %[[T2]]
func.func @device_cycle(%arg0: !m0) -> (!m1, !m0, !m2) attributes {topology = #topology} {
  %1 = mpmd.transfer %arg0 : (!m0) -> !m1
  %2 = mpmd.transfer %1 : (!m1) -> !m2
  %3 = mpmd.transfer %2 : (!m2) -> !m0
  %4 = mpmd.transfer %3 : (!m0) -> !m1
  return %4, %3, %2 : !m1, !m0, !m2
}

// -----

!t = tensor<4x8xf32>
!m0 = !mpmd.mesh_tensor<"m0", tensor<4x8xf32>>
!m0_host = !mpmd.mesh_tensor<"m0", tensor<4x8xf32>, memory_kind="pinned_host">
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_x = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
#topology = #mpmd.topology<<"m0": <["x"=2]>>, <"m1": <["x"=2]>>>

// Cycles through host memory are kept (deliberate offloading). Types differing
// by sharding are different values. A fragment result is a chain root too.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT: %[[H:.*]] = mpmd.transfer %arg0 : {{.*}} -> !mpmd.mesh_tensor<"m0", tensor<4x8xf32>, memory_kind="pinned_host">
// CHECK-NEXT: %[[D:.*]] = mpmd.transfer %[[H]]
// CHECK-NEXT: %[[A:.*]] = mpmd.transfer %arg0 : {{.*}} -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT: %[[B:.*]] = mpmd.transfer %[[A]] : {{.*}} -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment
// CHECK:      %[[G:.*]] = mpmd.transfer %[[F]]
// CHECK-NEXT: return %[[D]], %[[B]], %[[F]]
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @kept(%arg0: !m0) -> (!m0, !m1_x, !m0) attributes {topology = #topology} {
    %0 = mpmd.transfer %arg0 : (!m0) -> !m0_host
    %1 = mpmd.transfer %0 : (!m0_host) -> !m0
    %2 = mpmd.transfer %arg0 : (!m0) -> !m1
    %3 = mpmd.transfer %2 : (!m1) -> !m1_x
    %4 = mpmd.fragment<mesh="m0", origin=["f"]> (%1) (%a: !t) {
      mpmd.return %a : !t
    } : (!m0) -> !m0
    %5 = mpmd.transfer %4 : (!m0) -> !m1
    %6 = mpmd.transfer %5 : (!m1) -> !m0
    return %1, %3, %6 : !m0, !m1_x, !m0
  }
}
