// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=ParallelPipelinesWithWrapAround -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4xf32>
!m0 = !mpmd.mesh_tensor<"m0", tensor<4xf32>>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m0": <["x"=2]>>, <"m1": <["x"=2]>>>

// Mesh number p (from the digits of its name) runs microbatch p first, then
// the smaller ones in descending order, then the larger ones in descending
// order: m0 runs 0, 2, 1; m1 runs 1, 0, 2 (the block interleaves the two
// meshes in the order of in-order sweeps, as MLIR's topological sort does).
// CHECK-LABEL: func.func @wrap_around
// CHECK-NEXT: mpmd.fragment<mesh="m0", origin=["f"]> (%arg0) {call_counter = 0 : ui32}
// CHECK: mpmd.fragment<mesh="m0", origin=["f"]> (%arg0) {call_counter = 2 : ui32}
// CHECK: mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) {call_counter = 1 : ui32}
// CHECK: mpmd.fragment<mesh="m0", origin=["f"]> (%arg0) {call_counter = 1 : ui32}
// CHECK: mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) {call_counter = 0 : ui32}
// CHECK: mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) {call_counter = 2 : ui32}
func.func @wrap_around(%arg0: !m0, %arg1: !m1) -> (!m0, !m0, !m0, !m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m0", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m0) -> !m0
  %1 = mpmd.fragment<mesh="m0", origin=["f"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m0) -> !m0
  %2 = mpmd.fragment<mesh="m0", origin=["f"]> (%arg0) {call_counter = 2 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m0) -> !m0
  %3 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1) {call_counter = 2 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0, %1, %2, %3, %4, %5 : !m0, !m0, !m0, !m1, !m1, !m1
}

// -----

!t = tensor<4xf32>
!m0 = !mpmd.mesh_tensor<"m0", tensor<4xf32>>
!tpu = !mpmd.mesh_tensor<"tpu", tensor<4xf32>>
#topology = #mpmd.topology<<"m0": <["x"=2]>>, <"tpu": <["x"=2]>>>

// Backward units, and units on a mesh without a number, are not ordered.
// CHECK-LABEL: func.func @forward_only
// CHECK-NEXT: origin=["f"(1)]> (%arg0) {call_counter = 1 : ui32}
// CHECK: origin=["f"(1)]> (%arg0) {call_counter = 0 : ui32}
// CHECK: origin=["g"]> (%arg1) {call_counter = 0 : ui32}
// CHECK: origin=["g"]> (%arg1) {call_counter = 1 : ui32}
func.func @forward_only(%arg0: !m0, %arg1: !tpu) -> (!m0, !m0, !tpu, !tpu) attributes {topology = #topology} {
  // expected-warning @+1 {{the ParallelPipelinesWithWrapAround schedule orders forward units on meshes whose name holds a number: 4 backward unit(s) or unit(s) on other meshes, this one first, are not ordered}}
  %0 = mpmd.fragment<mesh="m0", origin=["f"(1)]> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m0) -> !m0
  %1 = mpmd.fragment<mesh="m0", origin=["f"(1)]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m0) -> !m0
  %2 = mpmd.fragment<mesh="tpu", origin=["g"]> (%arg1) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!tpu) -> !tpu
  %3 = mpmd.fragment<mesh="tpu", origin=["g"]> (%arg1) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!tpu) -> !tpu
  return %0, %1, %2, %3 : !m0, !m0, !tpu, !tpu
}
