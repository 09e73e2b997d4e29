// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-populate-use-set | FileCheck %s --implicit-check-not=mpmd.src_set

// use_set = union of the meshes of the assigns that transitively consume an
// op, with the assigns' origins. Broadcast is terminal. A callee's arguments
// and results get the union over its call sites; in the chain
// call(call(%0)) the callee result gets the use of the second call's
// operand. An assign is annotated with its own mesh and origin; calls are
// not annotated.

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

// -----

// Per call site (G7): the entry point is walked backward, and a call site's
// operand takes what the callee argument has from the call sites walked so
// far -- this one and those after it. The argument of @f reaches its result
// through the negate; the first call's result is used on m1, the second's
// on m2. So %x2 (second call) gets only m2, %x1 (first call) m2 and m1; the
// callee gets both, the second call's first (walk order).

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @call_sites_differ(
// CHECK-NEXT:    %[[U0:.*]] = mpmd.unassign {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">} %arg0
// CHECK-NEXT:    %[[X1:.*]] = stablehlo.abs %[[U0]] {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">}
// CHECK-NEXT:    %[[U1:.*]] = mpmd.unassign {mpmd.use_set = #mpmd.meshes_with_origins<"m2">} %arg1
// CHECK-NEXT:    %[[X2:.*]] = stablehlo.abs %[[U1]] {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
// CHECK-NEXT:    mpmd.call @f(%[[X1]])
// CHECK-NEXT:    mpmd.call @f(%[[X2]])
// CHECK-LABEL: func.func private @f(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">}) -> (tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">})
// CHECK-NEXT:    stablehlo.negate %arg0 {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">}
func.func @call_sites_differ(%arg0: !m1, %arg1: !m2) -> (!m1, !m2) attributes {topology = #topology} {
  %u0 = mpmd.unassign %arg0 : (!m1) -> !t
  %x1 = stablehlo.abs %u0 : !t
  %u1 = mpmd.unassign %arg1 : (!m2) -> !t
  %x2 = stablehlo.abs %u1 : !t
  %r1 = mpmd.call @f(%x1) : (!t) -> !t
  %r2 = mpmd.call @f(%x2) : (!t) -> !t
  %a1 = mpmd.assign %r1 : (!t) -> !m1
  %a2 = mpmd.assign %r2 : (!t) -> !m2
  return %a1, %a2 : !m1, !m2
}
func.func private @f(%a: !t) -> !t attributes {topology = #topology} {
  %b = stablehlo.negate %a : !t
  return %b : !t
}

// -----

// Three call sites, an argument per result plus an assign of its own in the
// callee (m3, which every site gets through argument 1). Walking back: the
// third call adds m3 to result 0, the second m2 to result 1, the first m1
// to result 0. Each site's operands get the arguments' sets of that moment:
// %x3 {m3}, %x2 {m2, m3}, %x1 all three. Order: a callee result lists the
// sites' uses in walk order (the third call's m3 before the first call's
// m1); argument 1 lists its uses in use-list order (the exponential, then
// the assign); an operand takes its callee argument's order.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// CHECK-LABEL: func.func @three_call_sites(
// CHECK-NEXT:    stablehlo.abs %arg0 {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m3", "m1">}
// CHECK-NEXT:    stablehlo.abs %arg1 {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m3">}
// CHECK-NEXT:    stablehlo.abs %arg2 {mpmd.use_set = #mpmd.meshes_with_origins<"m3">}
// CHECK-LABEL: func.func private @g(
// CHECK-SAME:    %arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m3", "m1">},
// CHECK-SAME:    %arg1: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m3">})
// CHECK-SAME:    -> (tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m3", "m1">},
// CHECK-SAME:        tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2">})
func.func @three_call_sites(%arg0: !t, %arg1: !t, %arg2: !t) -> (!m1, !m2, !m3) attributes {topology = #topology} {
  %x1 = stablehlo.abs %arg0 : !t
  %x2 = stablehlo.abs %arg1 : !t
  %x3 = stablehlo.abs %arg2 : !t
  %r1:2 = mpmd.call @g(%x1, %x1) : (!t, !t) -> (!t, !t)
  %r2:2 = mpmd.call @g(%x2, %x2) : (!t, !t) -> (!t, !t)
  %r3:2 = mpmd.call @g(%x3, %x3) : (!t, !t) -> (!t, !t)
  %a1 = mpmd.assign %r1#0 : (!t) -> !m1
  %a2 = mpmd.assign %r2#1 : (!t) -> !m2
  %a3 = mpmd.assign %r3#0 : (!t) -> !m3
  return %a1, %a2, %a3 : !m1, !m2, !m3
}
func.func private @g(%a: !t, %b: !t) -> (!t, !t) attributes {topology = #topology} {
  %n = stablehlo.negate %a : !t
  %c = mpmd.assign %b : (!t) -> !m3
  %e = stablehlo.exponential %b : !t
  return %n, %e : !t, !t
}

// -----

// A call chain (the first call's result 0 is the second call's operand 0)
// is iterated to a fixpoint: the entry point is walked again until nothing
// changes, and then every call site has every contribution. %x2, operand 1
// of the second call, gets m1 too, although only the first call's result 1
// is used there (one walk would give it m2 only).

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @chain(
// CHECK-SAME:    %arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">}
// CHECK-NEXT:    stablehlo.abs %arg1 {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">}
// CHECK-NEXT:    stablehlo.abs %arg2 {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">}
// CHECK-LABEL: func.func private @f(
// CHECK-SAME:    %arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">},
// CHECK-SAME:    %arg1: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">})
// CHECK-SAME:    -> (tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">},
// CHECK-SAME:        tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">})
func.func @chain(%arg0: !t, %arg1: !t, %arg2: !t) -> (!m1, !m2) attributes {topology = #topology} {
  %x1 = stablehlo.abs %arg1 : !t
  %x2 = stablehlo.abs %arg2 : !t
  %r1:2 = mpmd.call @f(%arg0, %x1) : (!t, !t) -> (!t, !t)
  %r2:2 = mpmd.call @f(%r1#0, %x2) : (!t, !t) -> (!t, !t)
  %a1 = mpmd.assign %r1#1 : (!t) -> !m1
  %a2 = mpmd.assign %r2#1 : (!t) -> !m2
  return %a1, %a2 : !m1, !m2
}
func.func private @f(%a: !t, %b: !t) -> (!t, !t) attributes {topology = #topology} {
  %n = stablehlo.negate %a : !t
  %s = stablehlo.add %a, %b : !t
  return %n, %s : !t, !t
}

// -----

// A result passed to a call of the same callee through an op is not a
// chain: one walk. The second call's operand (the negate) gets only m2;
// the first call's result is used where the second call's operand is, so
// the first call's operand gets m2 and m1.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @not_a_chain(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">})
// CHECK-NEXT:    mpmd.call
// CHECK-NEXT:    stablehlo.negate %0 {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
func.func @not_a_chain(%arg0: !t) -> (!m1, !m2) attributes {topology = #topology} {
  %r1 = mpmd.call @f(%arg0) : (!t) -> !t
  %n = stablehlo.negate %r1 : !t
  %r2 = mpmd.call @f(%n) : (!t) -> !t
  %a1 = mpmd.assign %r1 : (!t) -> !m1
  %a2 = mpmd.assign %r2 : (!t) -> !m2
  return %a1, %a2 : !m1, !m2
}
func.func private @f(%a: !t) -> !t attributes {topology = #topology} {
  %b = stablehlo.abs %a : !t
  return %b : !t
}

// -----

// Entry points sharing a callee are walked in module order: the call in
// @first sees only its own use (m1), the one in @second also what @first
// contributed.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @first(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m1">})
// CHECK-LABEL: func.func @second(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">})
// CHECK-LABEL: func.func private @f(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">})
func.func @first(%arg0: !t) -> !m1 attributes {topology = #topology} {
  %r = mpmd.call @f(%arg0) : (!t) -> !t
  %a = mpmd.assign %r : (!t) -> !m1
  return %a : !m1
}
func.func @second(%arg0: !t) -> !m2 attributes {topology = #topology} {
  %r = mpmd.call @f(%arg0) : (!t) -> !t
  %a = mpmd.assign %r : (!t) -> !m2
  return %a : !m2
}
func.func private @f(%a: !t) -> !t attributes {topology = #topology} {
  %n = stablehlo.negate %a : !t
  return %n : !t
}

// -----

// Call sites in a loop body: the body is walked again until nothing
// changes, as the next iteration uses what it computes. The second call's
// result is the next iteration's block argument, so the first call's result
// (m2) reaches the loop-carried value through the callee, and the loop
// result's use (m1) reaches the first call's operand: both get both.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @calls_in_a_loop(
// CHECK:         mpmd.for (%arg0) {arg_attrs = [{mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">}]
// CHECK-NEXT:      stablehlo.abs %arg1 {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">}
// CHECK:         stablehlo.abs %arg1 {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
func.func @calls_in_a_loop(%arg0: !t, %arg1: !t) -> (!m1, !m2) attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%x: !t, %i: tensor<ui32>) {
    %y = stablehlo.abs %arg1 : !t
    %r1 = mpmd.call @f(%y) : (!t) -> !t
    %r2 = mpmd.call @f(%x) : (!t) -> !t
    %a = mpmd.assign %r1 : (!t) -> !m2
    mpmd.return %r2 : !t
  } : !t
  %b = mpmd.assign %0 : (!t) -> !m1
  %y2 = stablehlo.abs %arg1 : !t
  %c = mpmd.assign %y2 : (!t) -> !m2
  return %b, %c : !m1, !m2
}
func.func private @f(%a: !t) -> !t attributes {topology = #topology} {
  %n = stablehlo.negate %a : !t
  return %n : !t
}

// -----

// A function nothing calls still has its own call sites walked (here in a
// loop, where a call outside the entry point may be): the call's operand
// gets the callee argument's use.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func private @uncalled(%arg0: tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m1">})
// CHECK:         stablehlo.abs %arg1 {mpmd.use_set = #mpmd.meshes_with_origins<"m1">}
func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}
func.func private @uncalled(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%x: !t, %i: tensor<ui32>) {
    %y = stablehlo.abs %x : !t
    %r = mpmd.call @f(%y) : (!t) -> !t
    mpmd.return %r : !t
  } : !t
  return %0 : !t
}
func.func private @f(%a: !t) -> !t attributes {topology = #topology} {
  %n = stablehlo.negate %a : !t
  %b = mpmd.assign %n : (!t) -> !m1
  return %n : !t
}
