// RUN: mpmd-opt %s -mpmd-map-named-ops-to-mpmd-ops='assignment=f1@m1,f2@m2/3,host@m1#pinned_host,n1@m1,n2@m2/7,off@m2#pinned_host' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not mpmd-opt %s -split-input-file -mpmd-map-named-ops-to-mpmd-ops='assignment=f1@m1,f1@m2' 2>&1 | FileCheck %s --check-prefix=DUPLICATE
// RUN: not mpmd-opt %s -split-input-file -mpmd-map-named-ops-to-mpmd-ops='assignment=f1@m1/x' 2>&1 | FileCheck %s --check-prefix=BAD-STAGE

// DUPLICATE: for the --assignment option: 'f1' is assigned more than once
// BAD-STAGE: for the --assignment option: 'f1@m1/x': the stage 'x' is not an integer

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A named computation becomes assigns of its distinct operands, a fragment
// with its origin (transpose count kept) and stage, and unassigns of its
// results, all with the computation's name as origin.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[A0:.*]] = mpmd.assign {origin = "f1"} %arg0 : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[A1:.*]] = mpmd.assign {origin = "f1"} %arg1 : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f1"]> (%[[A0]], %[[A1]]) {call_counter = 3 : ui32} (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:    %[[S:.*]] = stablehlo.add %[[X]], %[[Y]]
// CHECK-NEXT:    %[[P:.*]] = stablehlo.multiply %[[X]], %[[X]]
// CHECK-NEXT:    mpmd.return %[[S]], %[[P]]
// CHECK-NEXT:  } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>)
// CHECK-NEXT:  %[[U0:.*]] = mpmd.unassign {origin = "f1"} %[[F]]#0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[U1:.*]] = mpmd.unassign {origin = "f1"} %[[F]]#1
// CHECK-NEXT:  %[[B:.*]] = mpmd.assign {origin = "f2"} %[[U0]] : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:  %[[G:.*]] = mpmd.fragment<mesh="m2", origin=["f2"(1)], stage=3> (%[[B]]) (%[[Z:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.add %[[Z]], %[[Z]]
// CHECK-NEXT:    mpmd.return %[[Q]]
// CHECK:       %[[V:.*]] = mpmd.unassign {origin = "f2"} %[[G]]
// CHECK-NEXT:  return %[[V]], %[[U1]]
func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  %0:2 = mpmd.named_computation<"f1"> (%arg0, %arg1, %arg0) {call_counter = 3 : ui32} (%x: !t, %y: !t, %x2: !t) {
    %1 = stablehlo.add %x, %y : !t
    %2 = stablehlo.multiply %x, %x2 : !t
    mpmd.return %1, %2 : !t, !t
  } : (!t, !t, !t) -> (!t, !t)
  %3 = mpmd.named_computation<"f2"(1)> (%0#0, %0#0) (%z: !t, %z2: !t) {
    %4 = stablehlo.add %z, %z2 : !t
    mpmd.return %4 : !t
  } : (!t, !t) -> !t
  return %3, %0#1 : !t, !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Named tensors: an assigned one becomes unassign(assign(x)) with the
// memory kind of its assignment and no stage; an unassigned one (and a
// chain of them) is erased.
// CHECK-LABEL: func.func @named_tensors
// CHECK-NEXT:  %[[A:.*]] = mpmd.assign {origin = "n1"} %arg0 : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[U:.*]] = mpmd.unassign {origin = "n1"} %[[A]]
// CHECK-NEXT:  %[[B:.*]] = mpmd.assign {origin = "n2"} %[[U]] : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:  %[[V:.*]] = mpmd.unassign {origin = "n2"} %[[B]]
// CHECK-NEXT:  %[[C:.*]] = mpmd.assign {origin = "off"} %[[V]] : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>, memory_kind="pinned_host">
// CHECK-NEXT:  %[[W:.*]] = mpmd.unassign {origin = "off"} %[[C]]
// CHECK-NEXT:  %[[N:.*]] = stablehlo.negate %arg1
// CHECK-NEXT:  return %[[W]], %[[N]]
func.func @named_tensors(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  %0 = mpmd.named_tensor %arg0 name="n1" : !t
  %1 = mpmd.named_tensor %0 name="n2" : !t
  %2 = mpmd.named_tensor %1 name="off" : !t
  %3 = mpmd.named_tensor %arg1 name="x" : !t
  %4 = mpmd.named_tensor %3 name="y" : !t
  %5 = stablehlo.negate %4 : !t
  return %2, %5 : !t, !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A memory kind on a computation's mesh is ignored with a warning.
// Computations in an mpmd.for body are mapped too; functions without a
// topology are skipped.
// CHECK-LABEL: func.func @host_and_loop
// CHECK:       mpmd.fragment<mesh="m1", origin=["host"]>
// CHECK:       } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK:       mpmd.for
// CHECK:         mpmd.assign {origin = "f1"}
// CHECK:         mpmd.fragment<mesh="m1", origin=["f1"]>
// CHECK:         mpmd.unassign {origin = "f1"}
// CHECK-LABEL: func.func @not_mpmd
// CHECK:       mpmd.named_computation<"unknown">
func.func @host_and_loop(%arg0: !t) -> !t attributes {topology = #topology} {
  // expected-warning @+1 {{memory kind "pinned_host" in the assignment of NamedComputation 'host' is ignored: only inputs, outputs and named tensors can be assigned a memory kind}}
  %0 = mpmd.named_computation<"host"> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!t) -> !t
  %1 = mpmd.for (%0) {iterations = 2 : ui32} (%y: !t, %index: tensor<ui32>) {
    %2 = mpmd.named_computation<"f1"> (%y) (%z: !t) {
      mpmd.return %z : !t
    } : (!t) -> !t
    mpmd.return %2 : !t
  } : !t
  return %1 : !t
}
func.func @not_mpmd(%arg0: !t) -> !t {
  %0 = mpmd.named_computation<"unknown"> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @unassigned(%arg0: !t) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{Top-level NamedComputation 'unknown' is not assigned to a mesh in the user-defined mesh assignment}}
  %0 = mpmd.named_computation<"unknown"> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @mesh_not_in_topology(%arg0: !t) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{NamedComputation 'f2' is assigned to mesh "m2", which is not in the topology}}
  %0 = mpmd.named_computation<"f2"> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @tensor_mesh_not_in_topology(%arg0: !t) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{NamedTensor 'n2' is assigned to mesh "m2", which is not in the topology}}
  %0 = mpmd.named_tensor %arg0 name="n2" : !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @in_a_region(%arg0: !t, %pred: tensor<i1>) -> !t attributes {topology = #topology} {
  %0 = "stablehlo.if"(%pred) ({
    // expected-error @+1 {{NamedComputation 'f1' must be at the top level of a function or of an mpmd.for body to be assigned to a mesh}}
    %1 = mpmd.named_computation<"f1"> (%arg0) (%x: !t) {
      mpmd.return %x : !t
    } : (!t) -> !t
    stablehlo.return %1 : !t
  }, {
    stablehlo.return %arg0 : !t
  }) : (tensor<i1>) -> !t
  return %0 : !t
}
