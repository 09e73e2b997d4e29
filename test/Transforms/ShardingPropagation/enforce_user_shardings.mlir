// RUN: mpmd-opt %s -split-input-file -mpmd-enforce-user-shardings | FileCheck %s

// An input's user sharding becomes the in_shardings entry of the fragments
// reading it (other entries fully open); an output's becomes the out_shardings
// entry of the fragment producing it, or the sdy.sharding of the transfer.
sdy.mesh @mesh = <["x"=2, "y"=2]>
!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2, "y"=2]>>, <"m2": <["x"=2, "y"=2]>>>

// CHECK-LABEL: func.func @main
// CHECK:       mpmd.fragment<mesh="m1", origin=["f"], in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{?}, {?}]>], out_shardings=[<@mesh, [{}, {"y"}]>]> (%arg0, %arg1)
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"], in_shardings=[<@mesh, [{"x"}, {}]>]> (%arg0)
// CHECK:       mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>]>}
func.func @main(%arg0: !m1 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: !m1)
    -> (!m1 {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, !m2 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !t, %b: !t) {
    %s = stablehlo.add %a, %b : !t
    mpmd.return %s : !t
  } : (!m1, !m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.transfer %1 : (!m1) -> !m2
  return %0, %2, %1 : !m1, !m2, !m1
}

// -----

// Functions that are not entry points are left alone.
sdy.mesh @mesh = <["x"=2]>
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// CHECK-LABEL: func.func private @callee
// CHECK-NOT:   in_shardings
func.func private @callee(%arg0: !m1 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0 : !m1
}
