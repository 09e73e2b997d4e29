// RUN: mpmd-opt %s -mpmd-validate-no-param-transfers -verify-diagnostics
// RUN: not mpmd-opt %s -mpmd-validate-no-param-transfers='fail-on-param-transfers=true' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: mpmd-opt %s -mpmd-validate-no-param-transfers='param-pattern=activations' 2>&1 | FileCheck %s --check-prefix=OTHER

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
!m1host = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, memory_kind="pinned_host">
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The default pattern matches transformer parameters by their argument
// location; other transfers are fine.
// ERR: error: transfer of a parameter
// ERR-NOT: error: transfer of a parameter
// OTHER: warning: transfer of a parameter: the operand's location loc("activations") matches "activations"
// OTHER-NOT: warning: transfer of a parameter
func.func @main(%arg0: !m1 loc("params['transformer']['layer0']['w']"), %arg1: !m1 loc("activations")) -> (!m2, !m2) attributes {topology = #topology} {
  // expected-warning @+1 {{transfer of a parameter: the operand's location loc("params['transformer']['layer0']['w']") matches "params['transformer"; parameters are expected to stay on their mesh}}
  %0 = mpmd.transfer %arg0 : (!m1) -> !m2
  %1 = mpmd.transfer %arg1 : (!m1) -> !m2
  // Within one mesh (to host memory and back) a parameter is not reported.
  %2 = mpmd.transfer %arg0 : (!m1) -> !m1host
  %3 = mpmd.transfer %2 : (!m1host) -> !m1
  return %0, %1 : !m2, !m2
}
