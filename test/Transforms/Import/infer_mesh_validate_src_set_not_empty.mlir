// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-infer-mesh-validate-src-set-not-empty
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-infer-mesh-validate-src-set-not-empty='error-limit=-1'
// RUN: not mpmd-opt %s -split-input-file -mpmd-infer-mesh-validate-src-set-not-empty='error-limit=1' 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not mpmd-opt %s -split-input-file -mpmd-infer-mesh-validate-src-set-not-empty='error-limit=0' 2>&1 | FileCheck %s --check-prefix=ZERO

// Hand-written src_sets. Only the ops where the conflict arises are
// reported (the abs of an empty divide is not), each on its own location.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// With error-limit=1 only one error of each split is reported: the conflict
// that comes last in the program, as upstream reports conflicts latest first.
// LIMIT: :27:8: error: Mesh assignment is not possible for op as its operands are on conflicting meshes
// LIMIT-NOT: error: Mesh assignment is not possible for op
// LIMIT: error: Mesh assignment is not possible for arg 0
// ZERO: error: error-limit must be -1 (no limit) or positive, got 0
func.func @main(%arg0: !m1, %arg1: !m2) -> (!t, !t) attributes {topology = #topology} {
  %0 = mpmd.unassign {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["user_in"]>} %arg0 : (!m1) -> !t
  %1 = mpmd.unassign {mpmd.src_set = #mpmd.meshes_with_origins<"m2"["user_in"]>} %arg1 : (!m2) -> !t
  // expected-error @+1 {{Mesh assignment is not possible for op as its operands are on conflicting meshes}}
  %2 = stablehlo.divide %0, %1 {mpmd.src_set = #mpmd.meshes_with_origins<>} : !t
  %3 = stablehlo.abs %2 {mpmd.src_set = #mpmd.meshes_with_origins<>} : !t
  // expected-error @+1 {{Mesh assignment is not possible for op as its operands are on conflicting meshes}}
  %4 = stablehlo.subtract %1, %0 {mpmd.src_set = #mpmd.meshes_with_origins<>} : !t
  return %3, %4 : !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.call @f(%arg0) : (!t) -> !t
  return %0 : !t
}
// expected-error @+1 {{Mesh assignment is not possible for arg 0 of mpmd.call "f" as its caller operands are on conflicting meshes}}
func.func private @f(%arg0: !t {mpmd.src_set = #mpmd.meshes_with_origins<>}) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}
