// RUN: mpmd-opt %s -mpmd-move-transfers-to-producer -split-input-file | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
!m3 = !mpmd.mesh_tensor<"m3", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// Transfers of a fragment result move right after the fragment, in their
// order; a transfer of a transfer result follows that transfer (here after
// the other transfer of the fragment); a transfer of a block argument moves to
// the top of the body.
// CHECK-LABEL: func.func @move_to_producer
// CHECK-NEXT: %[[ARG:.*]] = mpmd.transfer %arg1 : (!mpmd.mesh_tensor<"m2"
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK:      }
// CHECK-NEXT: %[[T1:.*]] = mpmd.transfer %[[F]] : {{.*}} -> !mpmd.mesh_tensor<"m2"
// CHECK-NEXT: %[[T2:.*]] = mpmd.transfer %[[F]] : {{.*}} -> !mpmd.mesh_tensor<"m3"
// CHECK-NEXT: %[[T3:.*]] = mpmd.transfer %[[T1]] : {{.*}} -> !mpmd.mesh_tensor<"m3"
// CHECK-NEXT: %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%[[F]])
// CHECK:      }
// CHECK-NEXT: return %[[T1]], %[[T2]], %[[T3]], %[[G]], %[[ARG]]
func.func @move_to_producer(%arg0: !m1, %arg1: !m2) -> (!m2, !m3, !m3, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: !t) {
    %5 = stablehlo.add %a, %a : !t
    mpmd.return %5 : !t
  } : (!m1) -> !m1
  %2 = mpmd.transfer %0 : (!m1) -> !m2
  %3 = mpmd.transfer %2 : (!m2) -> !m3
  %4 = mpmd.transfer %0 : (!m1) -> !m3
  %6 = mpmd.transfer %arg1 : (!m2) -> !m1
  return %2, %4, %3, %1, %6 : !m2, !m3, !m3, !m1, !m1
}
