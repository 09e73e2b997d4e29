// RUN: mpmd-opt %s -mpmd-populate-unreduced-out-sharding -split-input-file -verify-diagnostics | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>
!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2, "y"=2]>>>

// Result 0 returns a value constrained with unreduced axes: its existing
// out sharding keeps its dimensions and takes the axes. Result 1 (a
// constraint without unreduced axes) keeps its entry.
// CHECK-LABEL: func.func @existing_out_shardings
// CHECK: out_shardings=[<@mesh, [{"x"}, {}], unreduced={"y"}>, <@mesh, [{}, {"y"}]>]
func.func @existing_out_shardings(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"], out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>]> (%arg0) (%a: !t) {
    %1 = sdy.sharding_constraint %a <@mesh, [{"x"}, {?}], unreduced={"y"}> : !t
    %2 = sdy.sharding_constraint %a <@mesh, [{}, {"y"}]> : !t
    mpmd.return %1, %2 : !t, !t
  } : (!m1) -> (!m1, !m1)
  return %0#0, %0#1 : !m1, !m1
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2, "y"=2]>>>

// Without out_shardings: the constrained result takes the constraint, the
// other one a fully open sharding. A fragment without such constraints is
// left alone.
// CHECK-LABEL: func.func @no_out_shardings
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"], out_shardings=[<@mesh, [{?}, {?}]>, <@mesh, [{?}, {"x"}], unreduced={"y"}>]>
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (
func.func @no_out_shardings(%arg0: !m1) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %1 = sdy.sharding_constraint %a <@mesh, [{?}, {"x"}], unreduced={"y"}> : !t
    mpmd.return %a, %1 : !t, !t
  } : (!m1) -> (!m1, !m1)
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0#0, %0#1, %2 : !m1, !m1, !m1
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2, "y"=2]>>>

func.func @conflicting_unreduced_axes(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  // expected-error @+1 {{result 0 has out sharding #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}> but returns a value constrained to #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>: their unreduced axes differ}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"], out_shardings=[<@mesh, [{}, {}], unreduced={"x"}>]> (%arg0) (%a: !t) {
    %1 = sdy.sharding_constraint %a <@mesh, [{}, {}], unreduced={"y"}> : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  return %0 : !m1
}
