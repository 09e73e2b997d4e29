// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-infer-mesh-pipeline
// RUN: not mpmd-opt %s -split-input-file -mpmd-infer-mesh-pipeline='infer-cross-mesh-reductions=true' 2>&1 | FileCheck %s --check-prefix=RED

// Without infer flags, a divide of an m1 value and an m2 value is an error
// on the divide; nothing downstream is reported.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// RED: error: Mesh assignment is not possible for op as its operands are on conflicting meshes
// RED-NEXT: input 0 (mpmd.unassign) can be on {"m1"["user_in"]}
// RED-NEXT: input 1 (mpmd.unassign) can be on {"m2"["user_in"]}
// RED-NEXT: stablehlo.divide
func.func @main(%arg0: !m1, %arg1: !m2) -> !t attributes {topology = #topology} {
  %0 = mpmd.unassign {origin = "user_in"} %arg0 : (!m1) -> !t
  %1 = mpmd.unassign {origin = "user_in"} %arg1 : (!m2) -> !t
  // expected-error @+1 {{Mesh assignment is not possible for op as its operands are on conflicting meshes. Add an explicit mpmd.transfer, or set `mpmd_infer_transfers=True`}}
  %2 = stablehlo.divide %0, %1 : !t
  %3 = stablehlo.abs %2 : !t
  return %3 : !t
}

// -----

// The same holds for an add (a possible reduction) when cross-mesh reduction
// inference is off; with it, the add becomes a reduction.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// RED-LABEL: func.func @main
// RED:         mpmd.transfer %arg1
// RED:         mpmd.fragment<mesh="m1", origin=[]>
// RED-NEXT:      stablehlo.add
func.func @main(%arg0: !m1, %arg1: !m2) -> !t attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m2) -> !t
  // expected-error @+1 {{Mesh assignment is not possible for op as its operands are on conflicting meshes}}
  %2 = stablehlo.add %0, %1 : !t
  return %2 : !t
}

// -----

// The same holds for a divide whose result goes through mpmd.broadcast.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !m1, %arg1: !m2) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m2) -> !t
  // expected-error @+1 {{Mesh assignment is not possible for op as its operands are on conflicting meshes}}
  %2 = stablehlo.divide %0, %1 : !t
  %3 = mpmd.broadcast %2 : !t
  %4 = mpmd.assign %3 : (!t) -> !m1
  return %4 : !m1
}

// -----

// A value computed on m1 and needed on m2 needs a transfer: an error at the
// op and, as assigns are checked like meshless ops, at the assign to m2.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !m1) -> !m2 attributes {topology = #topology} {
  %f = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %0 = mpmd.unassign %f : (!m1) -> !t
  // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m2"} but it can only be placed on {"m1"} without introducing a transfer. Add an explicit transfer to fix this}}
  %1 = stablehlo.abs %0 : !t
  // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m2"} but it can only be placed on {"m1"} without introducing a transfer}}
  %2 = mpmd.assign %1 : (!t) -> !m2
  return %2 : !m2
}

// -----

// A chain of calls whose callee takes its argument on m1 but returns it on
// m2: the callee argument would need both meshes.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.call @f(%arg0) : (!t) -> !t
  %1 = mpmd.call @f(%0) : (!t) -> !t
  return %1 : !t
}
// expected-error @+1 {{Mesh assignment is not possible for arg 0 of mpmd.call "f" as its caller operands are on conflicting meshes}}
func.func private @f(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.assign %arg0 : (!t) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %2 = mpmd.transfer %1 : (!m1) -> !m2
  %3 = mpmd.unassign %2 : (!m2) -> !t
  return %3 : !t
}

// -----

// An assign of an unassigned m1 fragment result onto m2 (no transfer of it
// exists): the assign's own mesh is not where its operand can be, an error
// at the assign.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !m1) -> !m2 attributes {topology = #topology} {
  %f = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %0 = mpmd.unassign {origin = "f"} %f : (!m1) -> !t
  // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m2"["g"]} but it can only be placed on {"m1"["f"]} without introducing a transfer}}
  %1 = mpmd.assign {origin = "g"} %0 : (!t) -> !m2
  return %1 : !m2
}

// -----

// Use sets propagate per call site (G7): the second call's operand is
// needed only where the second call's result is (m2), so the input on m2
// is not offered to m1. The callee argument, needed on m1 and m2 (one
// copy each, G3), then cannot be provided by its callers: an error at the
// argument. The negate and the first result's assign, which can only be
// where the argument is, follow.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !m1, %arg1: !m2) -> (!m1, !m2) attributes {topology = #topology} {
  %u0 = mpmd.unassign %arg0 : (!m1) -> !t
  %x1 = stablehlo.abs %u0 : !t
  %u1 = mpmd.unassign %arg1 : (!m2) -> !t
  %x2 = stablehlo.abs %u1 : !t
  %r1 = mpmd.call @f(%x1) : (!t) -> !t
  %r2 = mpmd.call @f(%x2) : (!t) -> !t
  // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m1"} but it can only be placed on {"m2"["inferred_in"]} without introducing a transfer}}
  %a1 = mpmd.assign %r1 : (!t) -> !m1
  %a2 = mpmd.assign %r2 : (!t) -> !m2
  return %a1, %a2 : !m1, !m2
}
// expected-error @+1 {{Mesh assignment is not possible for arg 0 of mpmd.call "f" as it is used in {"m1", "m2"} but its caller operands can only be on {"m2"["inferred_in"]}}}
func.func private @f(%a: !t) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m1", "m2"} but it can only be placed on {"m2"["inferred_in"]} without introducing a transfer}}
  %b = stablehlo.negate %a : !t
  return %b : !t
}
