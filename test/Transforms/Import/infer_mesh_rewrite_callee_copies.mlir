// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-rewrite-using-analysis | FileCheck %s

// Callee values needed on several meshes (G3). An argument whose assigns in
// the callee target m10, m1 and m2 keeps its position on the first mesh in
// mesh-name order (m1; m2 < m10 because the numeric suffixes are compared)
// and gets one copy per further mesh, appended after all arguments in that
// order; `mpmd.copies` on the original lists the copies' positions. Each
// copy reaches the assigns of its mesh through an unassign (finalize folds
// the pair). Results work the same way from their use_set: the copies come
// after all existing results. Call sites pass one assign per argument copy
// and connect every assign of a call result to the copy of its type.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m10 = !mpmd.mesh_tensor<"m10", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m10": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>)
// CHECK-NEXT:    %[[A0:.*]] = mpmd.assign %arg0 : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    %[[A1:.*]] = mpmd.assign %arg1 : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[A2:.*]] = mpmd.assign %arg0 : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[A3:.*]] = mpmd.assign %arg0 : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m10", tensor<4xf32>>
// CHECK-NEXT:    %[[C:.*]]:3 = mpmd.call @f(%[[A0]], %[[A1]], %[[A2]], %[[A3]]) {call_counter = 0 : ui32}
// CHECK-SAME:      -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>, !mpmd.mesh_tensor<"m10", tensor<4xf32>>)
// CHECK-NEXT:    return %[[C]]#2, %[[C]]#1, %[[C]]#0
// CHECK-NOT:     mpmd.copies
// CHECK-LABEL: func.func private @f(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>> {mpmd.copies = [2, 3]},
// CHECK-SAME:    %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>,
// CHECK-SAME:    %arg2: !mpmd.mesh_tensor<"m2", tensor<4xf32>>,
// CHECK-SAME:    %arg3: !mpmd.mesh_tensor<"m10", tensor<4xf32>>)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>> {mpmd.copies = [2], mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m10">},
// CHECK-SAME:        !mpmd.mesh_tensor<"m2", tensor<4xf32>> {mpmd.use_set = #mpmd.meshes_with_origins<"m2">},
// CHECK-SAME:        !mpmd.mesh_tensor<"m10", tensor<4xf32>>)
// CHECK-NEXT:    %[[U10:.*]] = mpmd.unassign %arg3
// CHECK-NEXT:    %[[U2:.*]] = mpmd.unassign %arg2
// CHECK-NEXT:    %[[B10:.*]] = mpmd.assign %[[U10]] : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m10", tensor<4xf32>>
// CHECK-NEXT:    %[[B2:.*]] = mpmd.assign %[[U2]] : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[F10:.*]] = mpmd.fragment<mesh="m10", origin=["f10"]> (%[[B10]])
// CHECK:         %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0)
// CHECK:         %[[F2:.*]] = mpmd.fragment<mesh="m2", origin=["f2"]> (%[[B2]], %arg1)
// CHECK:         %[[R1:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%{{.*}}) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]}
// CHECK-NEXT:      stablehlo.abs
// CHECK:         %[[R10:.*]] = mpmd.fragment<mesh="m10", origin=[]> (%{{.*}}) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]}
// CHECK-NEXT:      stablehlo.abs
// CHECK:         %[[V:.*]] = mpmd.unassign %[[F2]]
// CHECK-NEXT:    %[[W:.*]] = mpmd.assign %[[V]]
// CHECK-NEXT:    return %[[R1]], %[[W]], %[[R10]]
func.func @main(%arg0: !t, %arg1: !t) -> (!m10, !m2, !m1) attributes {topology = #topology} {
  %0:2 = mpmd.call @f(%arg0, %arg1) {call_counter = 0 : ui32} : (!t, !t) -> (!t, !t)
  %1 = mpmd.assign %0#0 : (!t) -> !m10
  %2 = mpmd.assign %0#1 : (!t) -> !m2
  %3 = mpmd.assign %0#0 : (!t) -> !m1
  return %1, %2, %3 : !m10, !m2, !m1
}
func.func private @f(%arg0: !t, %arg1: !t) -> (!t {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m10">}, !t {mpmd.use_set = #mpmd.meshes_with_origins<"m2">})
    attributes {topology = #topology} {
  %a = mpmd.assign %arg0 : (!t) -> !m10
  %b = mpmd.assign %arg0 : (!t) -> !m1
  %c = mpmd.assign %arg0 : (!t) -> !m2
  %d = mpmd.assign %arg1 : (!t) -> !m2
  %f10 = mpmd.fragment<mesh="m10", origin=["f10"]> (%a) (%x: !t) {
    mpmd.return %x : !t
  } : (!m10) -> !m10
  %f1 = mpmd.fragment<mesh="m1", origin=["f1"]> (%b) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %f2 = mpmd.fragment<mesh="m2", origin=["f2"]> (%c, %d) (%x: !t, %y: !t) {
    %s = stablehlo.add %x, %y : !t
    mpmd.return %s : !t
  } : (!m2, !m2) -> !m2
  %u = mpmd.unassign %f1 : (!m1) -> !t
  %e = stablehlo.abs %u : !t
  %v = mpmd.unassign %f2 : (!m2) -> !t
  return %e, %v : !t, !t
}

// -----

// A chain of calls: call 0's result is call 1's argument. Both are needed
// on m1 and m2, so call 0's result copy feeds call 1's argument copy of
// the same type directly, and the caller's own operand gets one assign per
// copy.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: tensor<4xf32>)
// CHECK-NEXT:    %[[A1:.*]] = mpmd.assign %arg0 : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    %[[A2:.*]] = mpmd.assign %arg0 : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[C0:.*]]:2 = mpmd.call @f(%[[A1]], %[[A2]]) {call_counter = 0 : ui32}
// CHECK-NEXT:    %[[C1:.*]]:2 = mpmd.call @f(%[[C0]]#0, %[[C0]]#1) {call_counter = 1 : ui32}
// CHECK-NEXT:    return %[[C1]]#1, %[[C1]]#0
// CHECK-LABEL: func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>> {mpmd.copies = [1]}, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>> {mpmd.copies = [1], mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">}, !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:    %[[U:.*]] = mpmd.unassign %arg1
// CHECK-NEXT:    %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK-NEXT:      stablehlo.add
// CHECK:         %[[B:.*]] = mpmd.assign %[[U]]
// CHECK-NEXT:    %[[F2:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%[[B]])
// CHECK-NEXT:      stablehlo.add
// CHECK:         return %[[F1]], %[[F2]]
func.func @main(%arg0: !t) -> (!m2, !m1) attributes {topology = #topology} {
  %0 = mpmd.call @f(%arg0) {call_counter = 0 : ui32} : (!t) -> !t
  %1 = mpmd.call @f(%0) {call_counter = 1 : ui32} : (!t) -> !t
  %2 = mpmd.assign %1 : (!t) -> !m2
  %3 = mpmd.assign %1 : (!t) -> !m1
  return %2, %3 : !m2, !m1
}
func.func private @f(%arg0: !t) -> (!t {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2">})
    attributes {topology = #topology} {
  %0 = stablehlo.add %arg0, %arg0 : !t
  return %0 : !t
}
