// RUN: mpmd-opt %s -mpmd-lower-to-fragment-calls='verbose-logging=true' -split-input-file -verify-diagnostics 2>&1 >/dev/null | FileCheck %s --check-prefix=LOG

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// verbose-logging logs each outlined function on stderr; it is not a
// diagnostic (-verify-diagnostics sees none here).
// LOG: mpmd-lower-to-fragment-calls: outlined 2 fragment(s) on mesh "m1" into @p0_f.main
// LOG-NOT: outlined
func.func @main(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"]> (%0) (%a: !t) {
    %3 = stablehlo.abs %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  return %0, %2 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A fragment_call cannot live in a loop body.
func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 1 : ui32} (%x: !m1, %index: tensor<ui32>) {
    // expected-error @+1 {{cannot be lowered to a fragment call inside mpmd.for; unroll the loop first}}
    %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%x) (%a: !t) {
      mpmd.return %a : !t
    } : (!m1) -> !m1
    mpmd.return %1 : !m1
  } : !m1
  return %0 : !m1
}

// -----

// A mesh tensor's sharding must name an sdy.mesh: it becomes an sdy.sharding
// of the callee, which would not verify otherwise.
!t = tensor<4x8xf32>
!m1_x = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {?}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @main(%arg0: !m1_x) -> !m1_x attributes {topology = #topology} {
  // expected-error @+1 {{cannot be lowered to a fragment call: the sharding of operand 0 names mesh @mesh, which no sdy.mesh of the module defines}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1_x) -> !m1_x
  return %0 : !m1_x
}
