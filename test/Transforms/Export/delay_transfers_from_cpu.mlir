// RUN: mpmd-opt %s -mpmd-delay-transfers-from-cpu | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_host = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, memory_kind="pinned_host">
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m/cpu": <["c"=1]>>>

// Transfers out of a CPU mesh or host memory move right before their first
// user (visited last to first, so chains move as a whole); a transfer out
// of device memory stays.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[D:.*]] = mpmd.transfer %arg2 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>)
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK-NEXT:   mpmd.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[D2:.*]] = mpmd.transfer %[[D]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>, memory_kind="pinned_host">)
// CHECK-NEXT: %[[H:.*]] = mpmd.transfer %arg1
// CHECK-NEXT: %[[C:.*]] = mpmd.transfer %arg0
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["g"]> (%[[C]], %[[H]], %[[D2]])
func.func @main(%arg0: !cpu, %arg1: !m1_host, %arg2: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.transfer %arg0 : (!cpu) -> !m1
  %1 = mpmd.transfer %arg1 : (!m1_host) -> !m1
  %2 = mpmd.transfer %arg2 : (!m1) -> !m1_host
  %3 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg2) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %4 = mpmd.transfer %2 : (!m1_host) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=["g"]> (%0, %1, %4) (%a: !t, %b: !t, %c: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1, !m1) -> !m1
  return %3, %5 : !m1, !m1
}
