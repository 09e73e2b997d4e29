// RUN: mpmd-opt %s -mpmd-validate-no-backward-deps -split-input-file -verify-diagnostics
// RUN: not mpmd-opt %s -mpmd-validate-no-backward-deps='fail-on-backward-deps=true' -split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Forward-only program: m1 -> m2 and m2 -> m2 are fine, m2 -> m1 (through a
// transfer) is a backward dependency.
// ERR: error: Detected backward dependency in a forward-only program: this fragment on mesh "m1" uses a value computed on mesh "m2"
// ERR-SAME: (computed at loc({{.*}}validate_no_backward_deps.mlir":17:8))
// ERR-NOT: note: computed
func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m1", origin=["f"]> @f1(%arg0) : (!m1) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  %2 = mpmd.fragment_call<mesh="m2", origin=["g"]> @f2(%1) : (!m2) -> !m2
  %3 = mpmd.fragment_call<mesh="m2", origin=["h"]> @f2(%2) : (!m2) -> !m2
  %4 = mpmd.transfer %3 : (!m2) -> !m1
  %5 = mpmd.transfer %2 : (!m2) -> !m1
  // expected-warning @+1 {{Detected backward dependency in a forward-only program: this fragment on mesh "m1" uses a value computed on mesh "m2", which comes later in the topology}}
  %6 = mpmd.fragment_call<mesh="m1", origin=["k"]> @f1(%5) : (!m1) -> !m1
  return %6 : !m1
}
func.func @f1(%arg0: !t) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  return %arg0 : !t
}
func.func @f2(%arg0: !t) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  return %arg0 : !t
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// With a backward origin the program is not forward-only: nothing to check,
// unless backward dependencies are forbidden: then the backward fragment
// itself is the error, at the function.
// ERR: :[[@LINE+1]]:1: error: the program has backward (transposed) fragment calls, and fail-on-backward-deps forbids any dependency on a later mesh
func.func @main(%arg0: !m2) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m2", origin=["f"]> @f2(%arg0) : (!m2) -> !m2
  %1 = mpmd.transfer %0 : (!m2) -> !m1
  %2 = mpmd.fragment_call<mesh="m1", origin=["f"(1)]> @f1(%1) : (!m1) -> !m1
  return %2 : !m1
}
func.func @f1(%arg0: !t) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  return %arg0 : !t
}
func.func @f2(%arg0: !t) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  return %arg0 : !t
}
