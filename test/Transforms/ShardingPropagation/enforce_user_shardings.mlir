// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-enforce-user-shardings | FileCheck %s

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

// -----

// A returned value's other fragment users take it with the user's sharding
// too, also when a transfer produces it. Sub-axes are cut off, each cut
// dimension closed, with one warning per kind.
sdy.mesh @mesh = <["x"=4, "y"=4]>
!t = tensor<8x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=4, "y"=4]>>>

// CHECK-LABEL: func.func @consumers_and_sub_axes
// CHECK:       %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"], in_shardings=[<@mesh, [{"y"}, {}]>], out_shardings=[<@mesh, [{}, {"y"}]>]> (%arg0)
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"], in_shardings=[<@mesh, [{}, {"y"}]>]> (%[[F]])
// CHECK:       %[[T:.*]] = mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK:       mpmd.fragment<mesh="m1", origin=["h"], in_shardings=[<@mesh, [{"x"}, {}]>]> (%[[T]])
// expected-warning @+2 {{user shardings of inputs with sub-axes are cut before the first sub-axis of each dimension, which is closed}}
// expected-warning @+1 {{user shardings of outputs with sub-axes are cut before the first sub-axis of each dimension, which is closed}}
func.func @consumers_and_sub_axes(%arg0: !m1 {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(1)2, ?}, {}]>})
    -> (!m1 {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, !m1 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y":(1)2}]>}, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.transfer %arg0 : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["h"]> (%2) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0, %2, %1, %3 : !m1, !m1, !m1, !m1
}
