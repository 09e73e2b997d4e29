// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-populate-use-set -mpmd-infer-mesh-populate-src-set | FileCheck %s

// src_set = intersection of the inputs' src_sets. An unassign is on its
// mesh (with its origin) and on the destinations of transfers of the same
// mesh tensor; an unassign of an entry input may also go wherever it is
// used (`inferred_in`). Constants have no src_set (any mesh). An assign
// gets the src_set of its operand (next to its own mesh as use_set).

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: tensor<4xf32> {mpmd.src_set = #mpmd.meshes_with_origins<"m2"["inferred_in"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m2">}, %arg2: tensor<4xf32>)
// CHECK-NEXT:    %[[F:.*]] = mpmd.fragment
// CHECK:         mpmd.unassign {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2"["transfer"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">, origin = "f"} %[[F]]
// CHECK:         mpmd.unassign {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["user_in"], "m3"["inferred_in"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m3">, origin = "user_in"} %arg0
// CHECK:         stablehlo.constant {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">}
// CHECK-NEXT:    stablehlo.add %{{.*}}, %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2"["transfer"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">}
// CHECK-NEXT:    stablehlo.multiply %{{.*}}, %arg1 {mpmd.src_set = #mpmd.meshes_with_origins<"m2"["transfer", "inferred_in"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
// CHECK-NEXT:    stablehlo.abs %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["user_in"], "m3"["inferred_in"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m3">}
// CHECK-NEXT:    stablehlo.negate %arg2 :
// CHECK-NEXT:    mpmd.assign {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2"["transfer"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m1">}
// CHECK-NEXT:    mpmd.assign {mpmd.src_set = #mpmd.meshes_with_origins<"m2"["transfer", "inferred_in"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
// CHECK-NEXT:    mpmd.assign {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["user_in"], "m3"["inferred_in"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m3">}
func.func @main(%arg0: !m1, %arg1: !t, %arg2: !t) -> (!m1, !m2, !m3) attributes {topology = #topology} {
  %f = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %t = mpmd.transfer %f : (!m1) -> !m2
  %0 = mpmd.unassign {origin = "f"} %f : (!m1) -> !t
  %1 = mpmd.unassign {origin = "user_in"} %arg0 : (!m1) -> !t
  %c = stablehlo.constant dense<1.0> : !t
  %2 = stablehlo.add %0, %c : !t
  %3 = stablehlo.multiply %2, %arg1 : !t
  %4 = stablehlo.abs %1 : !t
  %5 = stablehlo.negate %arg2 : !t
  %6 = mpmd.assign %2 : (!t) -> !m1
  %7 = mpmd.assign %3 : (!t) -> !m2
  %8 = mpmd.assign %4 : (!t) -> !m3
  return %6, %7, %8 : !m1, !m2, !m3
}

// -----

// Possible reductions: an add over disjoint non-empty src_sets is annotated
// and gets the union; an add consuming it alone is annotated too (a chain);
// a divide over disjoint src_sets has an empty src_set; mpmd.broadcast can be
// anywhere (low-priority `broadcast_in`).

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @reductions
// CHECK:         %[[A:.*]] = stablehlo.add %0, %1 {mpmd.reduce = #mpmd.reduction<add>, mpmd.src_set = #mpmd.meshes_with_origins<"m1", "m2">}
// CHECK-NEXT:    stablehlo.add %[[A]], %0 {mpmd.reduce = #mpmd.reduction<add>, mpmd.src_set = #mpmd.meshes_with_origins<"m1", "m2">}
// CHECK-NEXT:    stablehlo.divide %0, %1 {mpmd.src_set = #mpmd.meshes_with_origins<>}
// CHECK-NEXT:    stablehlo.abs %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<>}
// CHECK-NEXT:    mpmd.broadcast {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["broadcast_in"], "m2"["broadcast_in"]>} %{{.*}}
func.func @reductions(%arg0: !m1, %arg1: !m2) -> (!t, !t, !t) attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m2) -> !t
  %2 = stablehlo.add %0, %1 : !t
  %3 = stablehlo.add %2, %0 : !t
  %4 = stablehlo.divide %0, %1 : !t
  %5 = stablehlo.abs %4 : !t
  %6 = mpmd.broadcast %5 : !t
  return %3, %5, %6 : !t, !t, !t
}

// -----

// Calls: callee argument = intersection over the call sites; call result =
// callee result. A chain feeding the m2 result back into an argument that
// the first call gets from m1 leaves the argument nowhere.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main
// CHECK-LABEL: func.func private @f(%arg0: tensor<4xf32> {mpmd.src_set = #mpmd.meshes_with_origins<>, mpmd.use_set = #mpmd.meshes_with_origins<"m1">}) -> (tensor<4xf32> {mpmd.src_set = #mpmd.meshes_with_origins<"m2">, mpmd.use_set = #mpmd.meshes_with_origins<"m1">})
// CHECK-LABEL: func.func private @g(%arg0: tensor<4xf32> {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["inferred_in"]>}) -> (tensor<4xf32> {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["inferred_in"]>})
func.func @main(%arg0: !m1) -> (!t, !t) attributes {topology = #topology} {
  %u = mpmd.unassign %arg0 : (!m1) -> !t
  %0 = mpmd.call @f(%u) : (!t) -> !t
  %1 = mpmd.call @f(%0) : (!t) -> !t
  %2 = mpmd.call @g(%u) : (!t) -> !t
  %3 = mpmd.call @g(%2) : (!t) -> !t
  return %1, %3 : !t, !t
}
func.func private @f(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.assign %arg0 : (!t) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  %2 = mpmd.unassign %1 : (!m2) -> !t
  return %2 : !t
}
func.func private @g(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = stablehlo.abs %arg0 : !t
  return %0 : !t
}

// -----

// Reduction annotation (G4): an operand already marked with the same kind
// marks the op even when its src_sets meet and the marked operand has other
// users; a constant operand (no src_set) neither blocks the marking nor
// narrows the union; another kind over meeting src_sets is not a reduction.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @reduction_marking
// CHECK:         %[[C:.*]] = stablehlo.constant
// CHECK-NEXT:    %[[A:.*]] = stablehlo.maximum %0, %1 {mpmd.reduce = #mpmd.reduction<max>, mpmd.src_set = #mpmd.meshes_with_origins<"m1", "m2">}
// CHECK-NEXT:    %[[B:.*]] = stablehlo.maximum %[[A]], %0 {mpmd.reduce = #mpmd.reduction<max>, mpmd.src_set = #mpmd.meshes_with_origins<"m1", "m2">}
// CHECK-NEXT:    stablehlo.maximum %[[B]], %[[C]] {mpmd.reduce = #mpmd.reduction<max>, mpmd.src_set = #mpmd.meshes_with_origins<"m1", "m2">}
// CHECK-NEXT:    stablehlo.minimum %[[A]], %0 {mpmd.src_set = #mpmd.meshes_with_origins<"m1">}
func.func @reduction_marking(%arg0: !m1, %arg1: !m2) -> (!t, !t, !t) attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m2) -> !t
  %c = stablehlo.constant dense<0.0> : !t
  %2 = stablehlo.maximum %0, %1 : !t
  %3 = stablehlo.maximum %2, %0 : !t
  %4 = stablehlo.maximum %3, %c : !t
  %5 = stablehlo.minimum %2, %0 : !t
  return %2, %4, %5 : !t, !t, !t
}

// -----

// An empty operand src_set blocks the marking: the op keeps the (empty)
// intersection.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @empty_operand_blocks
// CHECK:         %[[D:.*]] = stablehlo.divide %0, %1 {mpmd.src_set = #mpmd.meshes_with_origins<>}
// CHECK-NEXT:    stablehlo.add %[[D]], %0 {mpmd.src_set = #mpmd.meshes_with_origins<>}
func.func @empty_operand_blocks(%arg0: !m1, %arg1: !m2) -> !t attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m2) -> !t
  %2 = stablehlo.divide %0, %1 : !t
  %3 = stablehlo.add %2, %0 : !t
  return %3 : !t
}

// -----

// A loop-carried value (G5) can be where its operand can: the body argument
// and the loop result take the operand's src_set ({m1}), kept with the
// use_set in the loop's arg_attrs. What the body returns (computed from a
// value on m2) does not narrow it; an op after the loop reads the result's.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @loop
// CHECK:         mpmd.for (%{{.*}}) {arg_attrs = [{mpmd.src_set = #mpmd.meshes_with_origins<"m1">, mpmd.use_set = #mpmd.meshes_with_origins<"m1">}], iterations = 2 : ui32}
// CHECK-NEXT:      stablehlo.abs %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<"m1">, mpmd.use_set = #mpmd.meshes_with_origins<"m1">}
// CHECK-NEXT:      mpmd.assign
// CHECK-NEXT:      mpmd.unassign
// CHECK-NEXT:      stablehlo.negate %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<"m2">, mpmd.use_set = #mpmd.meshes_with_origins<"m1">}
// CHECK:         stablehlo.exponential %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<"m1">, mpmd.use_set = #mpmd.meshes_with_origins<"m1">}
func.func @loop(%arg0: !m1, %arg1: !m2) -> !m1 attributes {topology = #topology} {
  %f1 = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0) (%y: !t) {
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %f2 = mpmd.fragment<mesh="m2", origin=["f2"]> (%arg1) (%y: !t) {
    mpmd.return %y : !t
  } : (!m2) -> !m2
  %u = mpmd.unassign %f1 : (!m1) -> !t
  %0 = mpmd.for (%u) {iterations = 2 : ui32} (%x: !t, %i: tensor<ui32>) {
    %1 = stablehlo.abs %x : !t
    %2 = mpmd.assign %1 : (!t) -> !m1
    %3 = mpmd.unassign %f2 : (!m2) -> !t
    %4 = stablehlo.negate %3 : !t
    mpmd.return %4 : !t
  } : !t
  %5 = stablehlo.exponential %0 : !t
  %6 = mpmd.assign %5 : (!t) -> !m1
  return %6 : !m1
}

// -----

// Sets print in insertion order, not in mesh order. An unassign's src_set
// is its own mesh, then the destinations of the transfers of its operand in
// use-list order (for parsed input, the last transfer first); an
// intersection keeps the order of its first operand and lists that
// operand's origins first; a broadcast can be on every mesh in the order
// the topology declares them.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m3": <["x"=2]>>, <"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @order
// CHECK:         mpmd.unassign {mpmd.src_set = #mpmd.meshes_with_origins<"m2"["g"], "m3"["transfer"], "m1"["transfer"]>, {{.*}}origin = "g"} %[[F2:.*]] :
// CHECK:         mpmd.unassign {mpmd.src_set = #mpmd.meshes_with_origins<"m3"["h"], "m2"["transfer"]>, {{.*}}origin = "h"} %[[F3:.*]] :
// CHECK-NEXT:    stablehlo.add %{{.*}}, %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<"m2"["g", "transfer"], "m3"["transfer", "h"]>
// CHECK-NEXT:    stablehlo.subtract %{{.*}}, %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<"m3"["h", "transfer"], "m2"["transfer", "g"]>
// CHECK-NEXT:    mpmd.broadcast {mpmd.src_set = #mpmd.meshes_with_origins<"m3"["broadcast_in"], "m1"["broadcast_in"], "m2"["broadcast_in"]>
func.func @order(%arg0: !m2, %arg1: !m3) -> (!m2, !m3, !m1) attributes {topology = #topology} {
  %f2 = mpmd.fragment<mesh="m2", origin=["g"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %f3 = mpmd.fragment<mesh="m3", origin=["h"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m3) -> !m3
  %t1 = mpmd.transfer %f2 : (!m2) -> !m1
  %t3 = mpmd.transfer %f2 : (!m2) -> !m3
  %t2 = mpmd.transfer %f3 : (!m3) -> !m2
  %u2 = mpmd.unassign {origin = "g"} %f2 : (!m2) -> !t
  %u3 = mpmd.unassign {origin = "h"} %f3 : (!m3) -> !t
  %0 = stablehlo.add %u2, %u3 : !t
  %1 = stablehlo.subtract %u3, %u2 : !t
  %2 = mpmd.broadcast %0 : !t
  %a0 = mpmd.assign %0 : (!t) -> !m2
  %a1 = mpmd.assign %1 : (!t) -> !m3
  %a2 = mpmd.assign %2 : (!t) -> !m1
  return %a0, %a1, %a2 : !m2, !m3, !m1
}
