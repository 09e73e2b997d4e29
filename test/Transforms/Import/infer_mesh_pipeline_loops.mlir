// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-infer-mesh-pipeline | FileCheck %s

// mpmd.for through mesh inference without unrolling (G5). JAX's rolled
// fori_loop: the body calls a function with the loop-carried values and the
// index. Each loop-carried value gets one mesh type, shared by the loop
// operand, the body argument and the result: the weights stay on m1, the
// accumulator (added to a value transferred to m2) on m2. The index stays
// tensor<ui32> and is assigned onto the mesh of the callee argument.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:    %[[L:.*]]:2 = mpmd.for (%arg0, %arg1) {iterations = 3 : ui32}
// CHECK-SAME:      (%[[W:.*]]: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %[[ACC:.*]]: !mpmd.mesh_tensor<"m2", tensor<4xf32>>, %index: tensor<ui32>)
// CHECK-NEXT:      %[[I:.*]] = mpmd.assign %index : (tensor<ui32>) -> !mpmd.mesh_tensor<"m1", tensor<ui32>>
// CHECK-NEXT:      %[[C:.*]]:2 = mpmd.call @body(%[[W]], %[[ACC]], %[[I]])
// CHECK-NEXT:      mpmd.return %[[C]]#0, %[[C]]#1 : !mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    } : !mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    return %[[L]]#0, %[[L]]#1
// CHECK-LABEL: func.func private @body(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>, %arg2: !mpmd.mesh_tensor<"m1", tensor<ui32>>)
// CHECK-NEXT:    %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["stage1"]> (%arg0)
// CHECK:         %[[T:.*]] = mpmd.transfer %[[F]]
// CHECK-NEXT:    %[[S:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%[[T]], %arg1) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]}
// CHECK-NEXT:      stablehlo.add
// CHECK:         return %arg0, %[[S]]
// CHECK-NOT:     arg_attrs
func.func @main(%arg0: !t, %arg1: !t) -> (!t, !m2) attributes {topology = #topology} {
  %0:2 = mpmd.for (%arg0, %arg1) {iterations = 3 : ui32} (%w: !t, %acc: !t, %index: tensor<ui32>) {
    %1:2 = mpmd.call @body(%w, %acc, %index) : (!t, !t, tensor<ui32>) -> (!t, !t)
    mpmd.return %1#0, %1#1 : !t, !t
  } : !t, !t
  %r = mpmd.assign %0#1 : (!t) -> !m2
  return %0#0, %r : !t, !m2
}
func.func private @body(%w: !t, %acc: !t, %i: tensor<ui32>) -> (!t, !t) attributes {topology = #topology} {
  %a = mpmd.assign %w : (!t) -> !m1
  %f = mpmd.fragment<mesh="m1", origin=["stage1"]> (%a) (%x: !t) {
    %m = stablehlo.multiply %x, %x : !t
    mpmd.return %m : !t
  } : (!m1) -> !m1
  %t = mpmd.transfer %f : (!m1) -> !m2
  %u = mpmd.unassign %t : (!m2) -> !t
  %s = stablehlo.add %u, %acc : !t
  return %w, %s : !t, !t
}

// -----

// Meshless ops in the loop body are placed like in a function body: the
// ops computing the next value join one inferred fragment on the value's
// mesh, which takes the index through an assign.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    %[[L:.*]] = mpmd.for (%arg0) {iterations = 2 : ui32} (%[[X:.*]]: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %index: tensor<ui32>)
// CHECK-NEXT:      %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%[[X]])
// CHECK:           %[[I:.*]] = mpmd.assign %index : (tensor<ui32>) -> !mpmd.mesh_tensor<"m1", tensor<ui32>>
// CHECK-NEXT:      %[[N:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[F]], %[[I]]) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]}
// CHECK-NEXT:        stablehlo.convert
// CHECK-NEXT:        stablehlo.broadcast_in_dim
// CHECK-NEXT:        stablehlo.add
// CHECK:           mpmd.return %[[N]] : !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    } : !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    return %[[L]]
func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32} (%x: !t, %index: tensor<ui32>) {
    %a = mpmd.assign %x : (!t) -> !m1
    %f = mpmd.fragment<mesh="m1", origin=["f"]> (%a) (%y: !t) {
      mpmd.return %y : !t
    } : (!m1) -> !m1
    %u = mpmd.unassign %f : (!m1) -> !t
    %c = stablehlo.convert %index : (tensor<ui32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> !t
    %n = stablehlo.add %u, %b : !t
    mpmd.return %n : !t
  } : !t
  return %0 : !t
}

// -----

// A loop-carried value lives on one mesh: used on m1 in the body and on m2
// after the loop, it needs a transfer. (The input could be on both meshes:
// the result's use flows back to it, so only the loop is in error.)

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !t) -> !m2 attributes {topology = #topology} {
  // expected-error @+1 {{Mesh assignment is not possible for loop-carried value 0 of mpmd.for as it is used in {"m1", "m2"} but a loop-carried value lives on a single mesh. Add an explicit transfer to fix this}}
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32} (%x: !t, %index: tensor<ui32>) {
    %a = mpmd.assign %x : (!t) -> !m1
    %f = mpmd.fragment<mesh="m1", origin=["f"]> (%a) (%y: !t) {
      mpmd.return %y : !t
    } : (!m1) -> !m1
    %u = mpmd.unassign %f : (!m1) -> !t
    mpmd.return %u : !t
  } : !t
  %r = mpmd.assign %0 : (!t) -> !m2
  return %r : !m2
}

// -----

// A loop-carried value can only be where its operand can: here the operand
// is computed on m1 and the body needs the value on m2.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !m1) -> !m2 attributes {topology = #topology} {
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (%y: !t) {
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %u = mpmd.unassign %g : (!m1) -> !t
  // expected-error @+1 {{Mesh assignment is not possible for loop-carried value 0 of mpmd.for as it is used in {"m2"} but its operand can only be on {"m1"}}}
  %0 = mpmd.for (%u) {iterations = 2 : ui32} (%x: !t, %index: tensor<ui32>) {
    // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m2"} but it can only be placed on {"m1"} without introducing a transfer}}
    %a = mpmd.assign %x : (!t) -> !m2
    %f = mpmd.fragment<mesh="m2", origin=["f"]> (%a) (%y: !t) {
      mpmd.return %y : !t
    } : (!m2) -> !m2
    %v = mpmd.unassign %f : (!m2) -> !t
    mpmd.return %v : !t
  } : !t
  // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m2"} but it can only be placed on {"m1"} without introducing a transfer}}
  %r = mpmd.assign %0 : (!t) -> !m2
  return %r : !m2
}

// -----

// An entry input used on m1 and, through a loop whose body does not use it,
// on m2 after the loop: the loop result's use reaches the input, so the
// input can be transferred to m2 for the loop (before, its src_set missed
// m2 and the loop was an error).

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:    %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0)
// CHECK:         %[[T:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[L:.*]] = mpmd.for (%[[T]]) {iterations = 2 : ui32} (%{{.*}}: !mpmd.mesh_tensor<"m2", tensor<4xf32>>, %index: tensor<ui32>)
// CHECK:         } : !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    return %[[F]], %[[L]]
func.func @main(%arg0: !t) -> (!m1, !m2) attributes {topology = #topology} {
  %a = mpmd.assign %arg0 : (!t) -> !m1
  %f = mpmd.fragment<mesh="m1", origin=["f"]> (%a) (%y: !t) {
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32} (%x: !t, %index: tensor<ui32>) {
    %c = stablehlo.constant dense<1.0> : !t
    mpmd.return %c : !t
  } : !t
  %r = mpmd.assign %0 : (!t) -> !m2
  return %f, %r : !m1, !m2
}
