// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-infer-mesh-finalize | FileCheck %s

// Entry inputs take the mesh of their assigns (the first mesh when several;
// the others get a transfer); assign(unassign(x)) on one mesh is x; a
// cross-mesh one of an entry input becomes a transfer even without
// infer-transfers. Transfers of inputs go just before their first user (here
// the return, in the order they were made), as upstream places them.
// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:    %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1)
// CHECK:         } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    %[[T0:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[T1:.*]] = mpmd.transfer %arg1 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    return %[[F]], %[[T0]], %[[T1]]
// CHECK-NOT:     mpmd.assign
// CHECK-NOT:     mpmd.unassign
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !t, %arg1: !m1) -> (!m1, !m2, !m2) attributes {topology = #topology} {
  %0 = mpmd.assign %arg0 : (!t) -> !m1
  %1 = mpmd.assign %arg0 : (!t) -> !m2
  %f = mpmd.fragment<mesh="m1", origin=["f"]> (%0, %arg1) (%x: !t, %y: !t) {
    %s = stablehlo.add %x, %y : !t
    mpmd.return %s : !t
  } : (!m1, !m1) -> !m1
  %2 = mpmd.unassign %f : (!m1) -> !t
  %3 = mpmd.assign %2 : (!t) -> !m1
  %4 = mpmd.unassign %arg1 : (!m1) -> !t
  %5 = mpmd.assign %4 : (!t) -> !m2
  return %3, %1, %5 : !m1, !m2, !m2
}

// -----

// A cross-mesh reduction: one local reduce fragment per source mesh with
// several operands, transfers, and the final reduce on the destination.
// CHECK-LABEL: func.func @reduce
// CHECK-NEXT:    %[[L:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0, %arg2) {mpmd.inferred_by = ["infer_mesh_convert_reduce_ops"]}
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %[[L]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[R:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%[[T]], %arg1) {mpmd.inferred_by = ["infer_mesh_convert_reduce_ops"]}
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @reduce(%arg0: !m1, %arg1: !m2, %arg2: !m1) -> !m2 attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m2) -> !t
  %2 = mpmd.unassign %arg2 : (!m1) -> !t
  %3 = mpmd.reduce<add> %0, %1, %2 : (!t, !t, !t) -> !t
  %4 = mpmd.assign %3 : (!t) -> !m2
  return %4 : !m2
}

// -----

// Two destinations: one partial per source mesh (m2's single value is its
// own partial), then per destination, in the order of the reduce's assign
// users (use-list order: the last assign first), the transfers of the
// partials that are elsewhere and the final reduce; the partial already on a
// destination is used there directly.
// CHECK-LABEL: func.func @reduce_two_destinations
// CHECK-NEXT:    %[[L:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0, %arg2) {mpmd.inferred_by = ["infer_mesh_convert_reduce_ops"]}
// CHECK-NEXT:      stablehlo.maximum
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T1:.*]] = mpmd.transfer %[[L]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m3", tensor<4xf32>>
// CHECK-NEXT:    %[[T2:.*]] = mpmd.transfer %arg1 : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m3", tensor<4xf32>>
// CHECK-NEXT:    %[[R3:.*]] = mpmd.fragment<mesh="m3", origin=[]> (%[[T1]], %[[T2]]) {mpmd.inferred_by = ["infer_mesh_convert_reduce_ops"]}
// CHECK-NEXT:      stablehlo.maximum
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T3:.*]] = mpmd.transfer %arg1 : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    %[[R1:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[L]], %[[T3]]) {mpmd.inferred_by = ["infer_mesh_convert_reduce_ops"]}
// CHECK-NEXT:      stablehlo.maximum
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R1]], %[[R3]]

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

func.func @reduce_two_destinations(%arg0: !m1, %arg1: !m2, %arg2: !m1) -> (!m1, !m3) attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m2) -> !t
  %2 = mpmd.unassign %arg2 : (!m1) -> !t
  %3 = mpmd.reduce<max> %0, %1, %2 : (!t, !t, !t) -> !t
  %4 = mpmd.assign %3 : (!t) -> !m1
  %5 = mpmd.assign %3 : (!t) -> !m3
  return %4, %5 : !m1, !m3
}

// -----

// What inference could not place is reported, once per leftover op: a
// meshless input and output, a cross-mesh use without a transfer (an error at
// the unassign and one at the assign), a meshless op.
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// expected-error @+2 {{mesh inference left function input 0 without a mesh}}
// expected-error @+1 {{mesh inference left function output 0 without a mesh}}
func.func @errors(%arg0: !t, %arg1: !m1) -> (!t, !m2) attributes {topology = #topology} {
  %f = mpmd.fragment<mesh="m1", origin=["f"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  // expected-error @+1 {{mesh inference could not remove this unassign}}
  %0 = mpmd.unassign %f : (!m1) -> !t
  // expected-error @+1 {{Mesh assignment is not possible: the value on mesh "m1" is needed on mesh "m2" and no transfer exists. Add an explicit transfer to fix this, or set `mpmd_infer_transfers=True`.}}
  %1 = mpmd.assign %0 : (!t) -> !m2
  // expected-error @+1 {{mesh inference could not assign this op to a mesh}}
  %2 = stablehlo.abs %arg0 : !t
  return %2, %1 : !t, !m2
}

// -----

// Assigns of an entry input that disagree on the memory kind (G6): one with
// pinned_host, one without. The input has a single memory kind and mesh
// inference does not make up a transfer between kinds: an error on the
// function.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m1_host = !mpmd.mesh_tensor<"m1", !t, memory_kind="pinned_host">
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// expected-error @+1 {{input 0 is assigned to meshes with different memory kinds (none and pinned_host); mesh inference does not transfer between memory kinds}}
func.func @main(%arg0: !t) -> (!m1_host, !m1) attributes {topology = #topology} {
  %0 = mpmd.assign %arg0 : (!t) -> !m1_host
  %1 = mpmd.assign %arg0 : (!t) -> !m1
  return %0, %1 : !m1_host, !m1
}

// -----

// "device" and no memory kind are two different kinds too.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m1_device = !mpmd.mesh_tensor<"m1", !t, memory_kind="device">
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// expected-error @+1 {{input 0 is assigned to meshes with different memory kinds (device and none)}}
func.func @main(%arg0: !t) -> (!m1, !m1_device) attributes {topology = #topology} {
  %0 = mpmd.assign %arg0 : (!t) -> !m1
  %1 = mpmd.assign %arg0 : (!t) -> !m1_device
  return %0, %1 : !m1, !m1_device
}

// -----

// A chain of transfers from an input (m1 -> m2 -> m3): each link goes just
// before its first user -- the m2 link before the m2 fragment, the m3 link
// after it, before the m3 fragment.
// CHECK-LABEL: func.func @chain_from_input
// CHECK-NEXT:    %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0)
// CHECK:         %[[T2:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[F2:.*]] = mpmd.fragment<mesh="m2", origin=["b"]> (%[[T2]])
// CHECK:         %[[T3:.*]] = mpmd.transfer %[[T2]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m3", tensor<4xf32>>
// CHECK-NEXT:    %[[F3:.*]] = mpmd.fragment<mesh="m3", origin=["c"]> (%[[T3]])
// CHECK:         return %[[F1]], %[[F2]], %[[F3]]
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

func.func @chain_from_input(%arg0: !m1) -> (!m1, !m2, !m3) attributes {topology = #topology} {
  %f1 = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %u = mpmd.unassign %arg0 : (!m1) -> !t
  %a2 = mpmd.assign %u : (!t) -> !m2
  %f2 = mpmd.fragment<mesh="m2", origin=["b"]> (%a2) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %a3 = mpmd.assign %u : (!t) -> !m3
  %f3 = mpmd.fragment<mesh="m3", origin=["c"]> (%a3) (%x: !t) {
    mpmd.return %x : !t
  } : (!m3) -> !m3
  return %f1, %f2, %f3 : !m1, !m2, !m3
}
