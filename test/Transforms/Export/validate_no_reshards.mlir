// RUN: mpmd-opt %s -mpmd-validate-no-reshards -verify-diagnostics
// RUN: not mpmd-opt %s -mpmd-validate-no-reshards='fail-on-reshard-only-fragments=true' 2>&1 | FileCheck %s --check-prefix=ERR

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_x = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A call of a function that only returns its arguments is reported (once
// per call); calls of functions that compute are not.
// ERR: :[[@LINE+6]]:8: error: reshard-only fragment: @p1_reshard.main only returns its arguments
// ERR-NOT: error: reshard-only
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: !m1) -> !m1_x attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m1", origin=["f"]> @p0_f.main(%arg0) : (!m1) -> !m1
  // expected-warning @+1 {{reshard-only fragment: @p1_reshard.main only returns its arguments, so the call only changes their sharding}}
  %1 = mpmd.fragment_call<mesh="m1", origin=[]> @p1_reshard.main(%0) : (!m1) -> !m1_x
  return %1 : !m1_x
}
func.func @p0_f.main(%arg0: !t) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %0 = stablehlo.abs %arg0 : !t
  return %0 : !t
}
func.func @p1_reshard.main(%arg0: !t) -> (!t {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  return %arg0 : !t
}
