// RUN: mpmd-opt %s -mpmd-validate-no-inferred-fragments='fail-on-inferred-fragments=true' -split-input-file -verify-diagnostics
// RUN: not mpmd-opt %s -mpmd-validate-no-inferred-fragments='fail-on-inferred-fragments=false' -split-input-file 2>&1 | FileCheck %s --check-prefix=WARN

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// User fragments are fine; inferred fragments from passes whose fragments
// may remain only warn, whatever the option.
// WARN: warning: inferred fragment created by uniquify was not merged
// WARN: warning: inferred fragment created by extract_reshards, introduce_transfers was not merged
func.func @main(%arg0: !m1) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  // expected-warning @+1 {{inferred fragment created by uniquify was not merged into a user fragment; it will be compiled as a program of its own}}
  %1 = mpmd.fragment<mesh="m1", origin=[]> (%0) {mpmd.inferred_by = ["uniquify"]} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  // expected-warning @+1 {{inferred fragment created by extract_reshards, introduce_transfers was not merged}}
  %2 = mpmd.fragment<mesh="m1", origin=[]> (%0) {mpmd.inferred_by = ["extract_reshards", "introduce_transfers"]} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0, %1, %2 : !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Any other creator is an error, or a warning with the option off.
// WARN: warning: inferred fragment created by uniquify, split_something was not merged
func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  // expected-error @+1 {{inferred fragment created by uniquify, split_something was not merged into a user fragment}}
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {mpmd.inferred_by = ["uniquify", "split_something"]} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// No record of the creator: always an internal error.
// WARN: error: inferred fragment without mpmd.inferred_by: this is an internal error
func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  // expected-error @+1 {{inferred fragment without mpmd.inferred_by: this is an internal error}}
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0 : !m1
}
