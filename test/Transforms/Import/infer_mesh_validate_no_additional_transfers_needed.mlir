// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-infer-mesh-validate-no-additional-transfers-needed
// RUN: not mpmd-opt %s -split-input-file -mpmd-infer-mesh-validate-no-additional-transfers-needed='error-limit=1' 2>&1 | FileCheck %s --check-prefix=LIMIT

// Hand-written sets: an op is valid when its use_set is contained in its
// src_set. An absent src_set means any mesh; an empty one is left to
// -mpmd-infer-mesh-validate-src-set-not-empty.

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// With error-limit=1 only the first error of each split is reported.
// LIMIT: error: Mesh assignment is not possible for op as it is used in {"m2"["layer2"], "m3"}
// LIMIT-NOT: error: Mesh assignment is not possible for op
// LIMIT: error: Mesh assignment is not possible for arg 1
func.func @main(%arg0: !t) -> (!t, !t, !t, !t) attributes {topology = #topology} {
  %0 = stablehlo.abs %arg0 {mpmd.use_set = #mpmd.meshes_with_origins<"m1">, mpmd.src_set = #mpmd.meshes_with_origins<"m1", "m2">} : !t
  %1 = stablehlo.abs %arg0 {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m3">} : !t
  %2 = stablehlo.abs %arg0 {mpmd.use_set = #mpmd.meshes_with_origins<"m3">, mpmd.src_set = #mpmd.meshes_with_origins<>} : !t
  // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m2"["layer2"], "m3"} but it can only be placed on {"m1"["layer1"], "m2"} without introducing a transfer. Add an explicit transfer to fix this, or set `mpmd_infer_transfers=True`.}}
  %3 = stablehlo.negate %arg0 {mpmd.use_set = #mpmd.meshes_with_origins<"m2"["layer2"], "m3">, mpmd.src_set = #mpmd.meshes_with_origins<"m1"["layer1"], "m2">} : !t
  // expected-error @+1 {{it is used in {"m2"} but it can only be placed on {"m1"}}}
  %4 = stablehlo.exponential %3 {mpmd.use_set = #mpmd.meshes_with_origins<"m2">, mpmd.src_set = #mpmd.meshes_with_origins<"m1">} : !t
  return %0, %1, %2, %4 : !t, !t, !t, !t
}

// -----

// A callee argument is copied onto every mesh it is used on (G3): it is
// valid when its callers' operands can be on all of them.

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  %0:2 = mpmd.call @f(%arg0, %arg1) : (!t, !t) -> (!t, !t)
  return %0#0, %0#1 : !t, !t
}
// expected-error @+2 {{Mesh assignment is not possible for arg 1 of mpmd.call "f" as it is used in {"m1", "m2"} but its caller operands can only be on {"m1"}. Add an explicit transfer to fix this}}
func.func private @f(%arg0: !t {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">},
                     %arg1: !t {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">, mpmd.src_set = #mpmd.meshes_with_origins<"m1">})
    -> (!t, !t) attributes {topology = #topology} {
  return %arg0, %arg1 : !t, !t
}

// -----

// A chain of calls: call 0's result 0 is call 1's argument 0. The result is
// needed on {m1, m2} but the argument only on {m1}: the result's copy on m2
// would have no argument to go to. One error on the callee per (result,
// argument) pair, however many chains pass it; a chain whose sets agree
// (result 1 to argument 1) is valid.

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// LIMIT: error: Mesh assignment is not possible for mpmd.call "f" as it passes result 0 (used in {"m1", "m2"}) to arg 0 (used in {"m1"})
func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  %0:2 = mpmd.call @f(%arg0, %arg1) : (!t, !t) -> (!t, !t)
  %1:2 = mpmd.call @f(%0#0, %0#1) : (!t, !t) -> (!t, !t)
  %2:2 = mpmd.call @f(%1#0, %1#1) : (!t, !t) -> (!t, !t)
  return %2#0, %2#1 : !t, !t
}
// expected-error @+1 {{Mesh assignment is not possible for mpmd.call "f" as it passes result 0 (used in {"m1", "m2"}) to arg 0 (used in {"m1"}) but they have mismatching mesh assignments}}
func.func private @f(%arg0: !t {mpmd.use_set = #mpmd.meshes_with_origins<"m1">},
                     %arg1: !t {mpmd.use_set = #mpmd.meshes_with_origins<"m2">})
    -> (!t {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">},
        !t {mpmd.use_set = #mpmd.meshes_with_origins<"m2"["x"]>})
    attributes {topology = #topology} {
  return %arg0, %arg1 : !t, !t
}

// -----

// Assigns are checked like meshless ops: the mesh an assign puts its operand
// on (its use_set) must be one the operand can be on (its src_set). An assign
// without a src_set (any mesh) is valid.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// LIMIT: error: Mesh assignment is not possible for op as it is used in {"m2"["g"]} but it can only be placed on {"m1"["f"]}
func.func @main(%arg0: !t) -> (!m1, !m2, !m2) attributes {topology = #topology} {
  %0 = mpmd.assign {mpmd.use_set = #mpmd.meshes_with_origins<"m1"["f"]>, mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2">} %arg0 : (!t) -> !m1
  // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m2"["g"]} but it can only be placed on {"m1"["f"]} without introducing a transfer}}
  %1 = mpmd.assign {mpmd.use_set = #mpmd.meshes_with_origins<"m2"["g"]>, mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"]>} %arg0 : (!t) -> !m2
  %2 = mpmd.assign {mpmd.use_set = #mpmd.meshes_with_origins<"m2">} %arg0 : (!t) -> !m2
  return %0, %1, %2 : !m1, !m2, !m2
}
