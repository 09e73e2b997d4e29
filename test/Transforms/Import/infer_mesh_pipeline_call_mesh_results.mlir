// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-introduce-transfers -mpmd-infer-mesh-pipeline | FileCheck %s

// Callees that take local (unassigned) tensors but return a value already on
// a mesh. Such a call result keeps its mesh type through the rewrite, so
// every user of it -- the return, a fragment, an unassign, another call --
// takes the rewritten call's result as it is. (The rewrite used to put an
// unassign between the result and each such user, which left a local tensor
// where a mesh tensor was required: invalid IR.)

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The input of introduce_transfers.mlir where every call passes an unassign
// of an m1 value as argument 0 to a callee that assigns it to m2:
// introduce-transfers leaves the argument unassigned and puts the transfer
// into the callee; mesh inference then types every argument and keeps the
// m2 results returned by @main as they are.
// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, %arg2: !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>)
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %arg1 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:    %[[C0:.*]] = mpmd.call @f(%arg0, %[[T]], %arg0) {call_counter = 0 : ui32} : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:    %[[C1:.*]] = mpmd.call @f(%arg1, %arg2, %arg0) {call_counter = 1 : ui32}
// CHECK-NEXT:    return %[[C0]], %[[C1]] : !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-LABEL: func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, %arg1: !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, %arg2: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:    %[[X:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:    %[[F:.*]] = mpmd.fragment<mesh="m2", origin=["g"]> (%[[X]], %arg1)
// CHECK:         return %[[F]] : !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
func.func @main(%arg0: !m1, %arg1: !m1, %arg2: !t) -> (!m2, !m2) attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m1) -> !t
  %2 = mpmd.call @f(%0, %1, %0) {call_counter = 0 : ui32} : (!t, !t, !t) -> !m2
  %3 = mpmd.call @f(%1, %arg2, %0) {call_counter = 1 : ui32} : (!t, !t, !t) -> !m2
  return %2, %3 : !m2, !m2
}
func.func private @f(%arg0: !t, %arg1: !t, %arg2: !t) -> !m2 attributes {topology = #topology} {
  %0 = mpmd.assign {origin = "g"} %arg0 : (!t) -> !m2
  %1 = mpmd.assign {origin = "g"} %arg1 : (!t) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["g"]> (%0, %1) (%x: !t, %y: !t) {
    mpmd.return %x : !t
  } : (!m2, !m2) -> !m2
  return %2 : !m2
}

// -----

// The m2 result of the first call is used by a fragment, by the return and,
// through an unassign, by the second call; the result of a second call site
// (whose argument is a local entry input) feeds the same fragment.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[C0:.*]] = mpmd.call @f(%[[T]]) {call_counter = 0 : ui32} : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[C1:.*]] = mpmd.call @f(%arg1) {call_counter = 1 : ui32}
// CHECK-NEXT:    %[[C2:.*]] = mpmd.call @f(%[[C0]]) {call_counter = 2 : ui32}
// CHECK-NEXT:    %[[G:.*]] = mpmd.fragment<mesh="m2", origin=["h"]> (%[[C0]], %[[C1]], %[[C2]])
// CHECK:         return %[[G]], %[[C0]] : !mpmd.mesh_tensor<"m2", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-LABEL: func.func private @f(%arg0: !mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
func.func @main(%arg0: !m1, %arg1: !t) -> (!m2, !m2) attributes {topology = #topology} {
  %u = mpmd.unassign %arg0 : (!m1) -> !t
  %c = mpmd.call @f(%u) {call_counter = 0 : ui32} : (!t) -> !m2
  %d = mpmd.call @f(%arg1) {call_counter = 1 : ui32} : (!t) -> !m2
  %cu = mpmd.unassign %c : (!m2) -> !t
  %e = mpmd.call @f(%cu) {call_counter = 2 : ui32} : (!t) -> !m2
  %g = mpmd.fragment<mesh="m2", origin=["h"]> (%c, %d, %e) (%x: !t, %y: !t, %z: !t) {
    mpmd.return %x : !t
  } : (!m2, !m2, !m2) -> !m2
  return %g, %c : !m2, !m2
}
func.func private @f(%x: !t) -> !m2 attributes {topology = #topology} {
  %a = mpmd.assign %x : (!t) -> !m2
  %f = mpmd.fragment<mesh="m2", origin=["g"]> (%a) (%y: !t) {
    mpmd.return %y : !t
  } : (!m2) -> !m2
  return %f : !m2
}

// -----

// A callee with a mesh result and a local result: the mesh result is
// unused at the call site (it stays a result of the call), the local one
// is needed on m1 and m2 (one copy per mesh) and, with the unassigned mesh
// result, by a meshless add on m2.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %arg0
// CHECK-NEXT:    %[[C:.*]]:3 = mpmd.call @f(%arg0, %[[T]]) : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> (!mpmd.mesh_tensor<"m2", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:    %[[D:.*]]:3 = mpmd.call @f(%arg0, %[[T]])
// CHECK-NEXT:    %[[S:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%[[C]]#0, %[[C]]#2)
// CHECK-NEXT:      stablehlo.add
// CHECK:         return %[[C]]#1, %[[C]]#2, %[[S]]
// CHECK-LABEL: func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>> {mpmd.copies = [1]}, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> (!mpmd.mesh_tensor<"m2", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>> {mpmd.copies = [2]}, !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
func.func @main(%arg0: !m1) -> (!m1, !m2, !m2) attributes {topology = #topology} {
  %u = mpmd.unassign %arg0 : (!m1) -> !t
  %c:2 = mpmd.call @f(%u) : (!t) -> (!m2, !t)
  %unused:2 = mpmd.call @f(%u) : (!t) -> (!m2, !t)
  %cu = mpmd.unassign %c#0 : (!m2) -> !t
  %a1 = mpmd.assign %c#1 : (!t) -> !m1
  %a2 = mpmd.assign %c#1 : (!t) -> !m2
  %s = stablehlo.add %cu, %c#1 : !t
  %a3 = mpmd.assign %s : (!t) -> !m2
  return %a1, %a2, %a3 : !m1, !m2, !m2
}
func.func private @f(%x: !t) -> (!m2, !t) attributes {topology = #topology} {
  %a = mpmd.assign %x : (!t) -> !m2
  %f = mpmd.fragment<mesh="m2", origin=["g"]> (%a) (%y: !t) {
    mpmd.return %y : !t
  } : (!m2) -> !m2
  %s = stablehlo.multiply %x, %x : !t
  return %f, %s : !m2, !t
}

// -----

// The same call in the body of an mpmd.for: the loop-carried value takes
// the mesh of the callee's result.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK-NEXT:    %[[L:.*]] = mpmd.for (%arg0) {iterations = 2 : ui32} (%[[X:.*]]: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %index: tensor<ui32>)
// CHECK-NEXT:      %[[C:.*]] = mpmd.call @f(%[[X]]) : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:      mpmd.return %[[C]] : !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    } : !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    return %[[L]]
func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %u = mpmd.unassign %arg0 : (!m1) -> !t
  %0 = mpmd.for (%u) {iterations = 2 : ui32} (%x: !t, %index: tensor<ui32>) {
    %c = mpmd.call @f(%x) : (!t) -> !m1
    %cu = mpmd.unassign %c : (!m1) -> !t
    mpmd.return %cu : !t
  } : !t
  %r = mpmd.assign %0 : (!t) -> !m1
  return %r : !m1
}
func.func private @f(%x: !t) -> !m1 attributes {topology = #topology} {
  %a = mpmd.assign %x : (!t) -> !m1
  %f = mpmd.fragment<mesh="m1", origin=["g"]> (%a) (%y: !t) {
    mpmd.return %y : !t
  } : (!m1) -> !m1
  return %f : !m1
}

// -----

// The unassigned m2 result is needed on m1 by a meshless op: an error at
// that op and at its assign to m1, as for any value computed on one mesh and
// used on another.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !m1) -> (!m1, !m2) attributes {topology = #topology} {
  %u = mpmd.unassign %arg0 : (!m1) -> !t
  %c = mpmd.call @f(%u) : (!t) -> !m2
  %cu = mpmd.unassign %c : (!m2) -> !t
  // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m1"} but it can only be placed on {"m2"}}}
  %s = stablehlo.multiply %cu, %cu : !t
  // expected-error @+1 {{Mesh assignment is not possible for op as it is used in {"m1"} but it can only be placed on {"m2"}}}
  %a1 = mpmd.assign %s : (!t) -> !m1
  %a2 = mpmd.assign %cu : (!t) -> !m2
  return %a1, %a2 : !m1, !m2
}
func.func private @f(%x: !t) -> !m2 attributes {topology = #topology} {
  %a = mpmd.assign %x : (!t) -> !m2
  %f = mpmd.fragment<mesh="m2", origin=["g"]> (%a) (%y: !t) {
    mpmd.return %y : !t
  } : (!m2) -> !m2
  return %f : !m2
}
