// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-populate-use-set | FileCheck %s --implicit-check-not=mpmd.src_set

// use_set = union of the meshes of the assigns that transitively consume an
// op, with the assigns' origins. Broadcast is terminal. Callee arguments and
// results are edges shared by all call sites: the chain call(call(%0))
// gives the callee result the use of the second call's operand. An assign
// is annotated with its own mesh and origin; calls are not annotated.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
// The add's users in use-list order (last user first): the call (m2), the
// negate (m2, adding origin "g"), the abs (m1["f"]).
// CHECK-LABEL: func.func @main(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2"["g"], "m1"["f"]>}, %arg1: tensor<4xf32>)
// CHECK-NEXT:    stablehlo.add %arg0, %arg0 {mpmd.use_set = #mpmd.meshes_with_origins<"m2"["g"], "m1"["f"]>}
// CHECK-NEXT:    stablehlo.abs %0 {mpmd.use_set = #mpmd.meshes_with_origins<"m1"["f"]>}
// CHECK-NEXT:    stablehlo.negate %0 {mpmd.use_set = #mpmd.meshes_with_origins<"m2"["g"]>}
// CHECK-NEXT:    mpmd.assign {mpmd.use_set = #mpmd.meshes_with_origins<"m1"["f"]>, origin = "f"} %1
// CHECK-NEXT:    mpmd.assign {mpmd.use_set = #mpmd.meshes_with_origins<"m2"["g"]>, origin = "g"} %2
// CHECK-NEXT:    mpmd.broadcast {mpmd.use_set = #mpmd.meshes_with_origins<"m1">} %arg1
// CHECK-NEXT:    stablehlo.exponential %5 {mpmd.use_set = #mpmd.meshes_with_origins<"m1">}
// CHECK-NEXT:    mpmd.assign {mpmd.use_set = #mpmd.meshes_with_origins<"m1">} %6
// CHECK-NEXT:    mpmd.call @f(%0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    mpmd.call @f(%8) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func private @f(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}) -> (tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2">})
// CHECK-NEXT:    stablehlo.abs %arg0 {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
// CHECK-NEXT:    mpmd.assign {mpmd.use_set = #mpmd.meshes_with_origins<"m2">} %0
// CHECK:         mpmd.unassign {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
func.func @main(%arg0: !t, %arg1: !t) -> (!m1, !m2, !t) attributes {topology = #topology} {
  %0 = stablehlo.add %arg0, %arg0 : !t
  %1 = stablehlo.abs %0 : !t
  %2 = stablehlo.negate %0 : !t
  %3 = mpmd.assign {origin = "f"} %1 : (!t) -> !m1
  %4 = mpmd.assign {origin = "g"} %2 : (!t) -> !m2
  %5 = mpmd.broadcast %arg1 : !t
  %6 = stablehlo.exponential %5 : !t
  %7 = mpmd.assign %6 : (!t) -> !m1
  %8 = mpmd.call @f(%0) : (!t) -> !t
  %9 = mpmd.call @f(%8) : (!t) -> !t
  return %3, %4, %9 : !m1, !m2, !t
}
func.func private @f(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = stablehlo.abs %arg0 : !t
  %1 = mpmd.assign %0 : (!t) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["h"]> (%1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %3 = mpmd.unassign %2 : (!m2) -> !t
  return %3 : !t
}

// -----

// A loop (G5): the use_set of a loop-carried value -- where its block
// argument and its result are used -- is kept per value in the loop's
// arg_attrs, not on the loop. It flows to the loop operand and to the value
// returned to the next iteration. The abs is used (last user first) by the
// return, where the result is used (m2), and on m1.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @loop(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">})
// CHECK:         mpmd.for (%arg0) {arg_attrs = [{mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">}], iterations = 2 : ui32, unroll_factor = 2 : ui32}
// CHECK-NEXT:      stablehlo.abs %arg1 {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">}
func.func @loop(%arg0: !t) -> !m2 attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%x: !t, %i: tensor<ui32>) {
    %1 = stablehlo.abs %x : !t
    %2 = mpmd.assign %1 : (!t) -> !m1
    mpmd.return %1 : !t
  } : !t
  %3 = mpmd.assign %0 : (!t) -> !m2
  return %3 : !m2
}

// -----

// Sets print in insertion order, not in mesh order. A value's use_set is
// the union of what its users contribute in use-list order -- for parsed
// input, the last user first -- and each mesh keeps its origins in the order
// they were added. The abs is used by (last first) the negate (m3["e"]),
// then the assigns to m1["d"], m2["b"], m3["c"] and m1["a"].

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// CHECK-LABEL: func.func @order(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m3"["e", "c"], "m1"["d", "a"], "m2"["b"]>})
// CHECK-NEXT:    stablehlo.abs %arg0 {mpmd.use_set = #mpmd.meshes_with_origins<"m3"["e", "c"], "m1"["d", "a"], "m2"["b"]>}
// CHECK:         stablehlo.negate %0 {mpmd.use_set = #mpmd.meshes_with_origins<"m3"["e"]>}
func.func @order(%arg0: !t) -> (!m1, !m3, !m2, !m1, !m3) attributes {topology = #topology} {
  %0 = stablehlo.abs %arg0 : !t
  %1 = mpmd.assign {origin = "a"} %0 : (!t) -> !m1
  %2 = mpmd.assign {origin = "c"} %0 : (!t) -> !m3
  %3 = mpmd.assign {origin = "b"} %0 : (!t) -> !m2
  %4 = mpmd.assign {origin = "d"} %0 : (!t) -> !m1
  %5 = stablehlo.negate %0 : !t
  %6 = mpmd.assign {origin = "e"} %5 : (!t) -> !m3
  return %1, %2, %3, %4, %6 : !m1, !m3, !m2, !m1, !m3
}

// -----

// A loop-carried value is one value: where the loop result is used flows to
// the block argument and to the loop operand even when the body returns a
// value computed from something else (here the result 0 comes from the
// block argument 1), not only to the value the body returns.

!t = tensor<4xf32>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @loop_result_used_after_the_loop(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}, %arg1: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2">})
// CHECK:         mpmd.for (%arg0, %arg1) {arg_attrs = [{mpmd.use_set = #mpmd.meshes_with_origins<"m2">}, {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}], iterations = 2 : ui32}
func.func @loop_result_used_after_the_loop(%arg0: !t, %arg1: !t) -> !m2 attributes {topology = #topology} {
  %0:2 = mpmd.for (%arg0, %arg1) {iterations = 2 : ui32} (%x: !t, %y: !t, %index: tensor<ui32>) {
    %n = stablehlo.negate %y : !t
    mpmd.return %n, %y : !t, !t
  } : !t, !t
  %r = mpmd.assign %0#0 : (!t) -> !m2
  return %r : !m2
}
