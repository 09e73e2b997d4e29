// RUN: mpmd-opt %s -mpmd-pipeline-scheduler -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=1F1B
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=GPIPE -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=GPIPE
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=gpipebut1f1bforlastmesh -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=MIXED
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=none -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=NONE
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler='must-happen-before=GPipe remove-control-dependencies=false' -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=KEEP
// RUN: not mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=2F2B -split-input-file 2>&1 | FileCheck %s --check-prefix=BADNAME

// BADNAME: unknown pipeline schedule '2F2B'; expected one of (any case): none, 1F1B, GPipe, Circular, CircularWithReversedBackward, GPipeBut1F1BForLastMesh, ZeroBubbleH1, ZeroBubbleH2ZeroTxLatency, ZeroBubbleH2HalfTxLatency, ZeroBubbleH2FullTxLatency, ParallelPipelinesWithWrapAround

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Three microbatches on two meshes, in program order (microbatch by
// microbatch), as the import pipeline leaves them.
//
// With 1F1B, mesh m1 (index 0 of 2) runs one more forward before its first
// backward, F0 F1 B0 F2 B1 B2; the last mesh alternates, F0 B0 F1 B1 F2 B2.
// 1F1B-LABEL: func.func @three_microbatches
// 1F1B: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 0 : ui32}
// 1F1B: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 0 : ui32}
// 1F1B: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 0 : ui32}
// 1F1B: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 1 : ui32}
// 1F1B: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 1 : ui32}
// 1F1B: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 1 : ui32}
// 1F1B: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 0 : ui32}
// 1F1B: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 2 : ui32}
// 1F1B: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 2 : ui32}
// 1F1B: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 2 : ui32}
// 1F1B: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 1 : ui32}
// 1F1B: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 2 : ui32}
// With GPipe, all forwards, then all backwards, on each mesh.
// GPIPE-LABEL: func.func @three_microbatches
// GPIPE: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 0 : ui32}
// GPIPE: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 0 : ui32}
// GPIPE: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 1 : ui32}
// GPIPE: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 1 : ui32}
// GPIPE: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 2 : ui32}
// GPIPE: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 2 : ui32}
// GPIPE: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 0 : ui32}
// GPIPE: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 0 : ui32}
// GPIPE: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 1 : ui32}
// GPIPE: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 1 : ui32}
// GPIPE: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 2 : ui32}
// GPIPE: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 2 : ui32}
// With GPipeBut1F1BForLastMesh, GPipe on m1, 1F1B on m2.
// MIXED-LABEL: func.func @three_microbatches
// MIXED: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 0 : ui32}
// MIXED: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 0 : ui32}
// MIXED: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 0 : ui32}
// MIXED: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 1 : ui32}
// MIXED: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 1 : ui32}
// MIXED: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 1 : ui32}
// MIXED: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 2 : ui32}
// MIXED: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 2 : ui32}
// MIXED: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 2 : ui32}
// MIXED: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 0 : ui32}
// MIXED: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 1 : ui32}
// MIXED: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 2 : ui32}
// With none, nothing moves.
// NONE-LABEL: func.func @three_microbatches
// NONE: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 0 : ui32}
// NONE: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 0 : ui32}
// NONE: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 0 : ui32}
// NONE: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 0 : ui32}
// NONE: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 1 : ui32}
// NONE: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 1 : ui32}
// NONE: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 1 : ui32}
// NONE: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 1 : ui32}
// NONE: mpmd.fragment<mesh="m1", origin=["layer1"]> {{.*}} {call_counter = 2 : ui32}
// NONE: mpmd.fragment<mesh="m2", origin=["layer2"]> {{.*}} {call_counter = 2 : ui32}
// NONE: mpmd.fragment<mesh="m2", origin=["layer2"(1)]> {{.*}} {call_counter = 2 : ui32}
// NONE: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> {{.*}} {call_counter = 2 : ui32}
func.func @three_microbatches(%arg0: !m1) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %v1 = mpmd.fragment<mesh="m1", origin=["layer1"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %v2 = mpmd.transfer %v1 : (!m1) -> !m2
  %v3 = mpmd.fragment<mesh="m2", origin=["layer2"]> (%v2) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %v4 = mpmd.fragment<mesh="m2", origin=["layer2"(1)]> (%v3, %v3) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m2, !m2) -> !m2
  %v5 = mpmd.transfer %v4 : (!m2) -> !m1
  %v6 = mpmd.fragment<mesh="m1", origin=["layer1"(1)]> (%v5, %v1) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1) -> !m1
  %v7 = mpmd.fragment<mesh="m1", origin=["layer1"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %v8 = mpmd.transfer %v7 : (!m1) -> !m2
  %v9 = mpmd.fragment<mesh="m2", origin=["layer2"]> (%v8) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %v10 = mpmd.fragment<mesh="m2", origin=["layer2"(1)]> (%v9, %v9) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m2, !m2) -> !m2
  %v11 = mpmd.transfer %v10 : (!m2) -> !m1
  %v12 = mpmd.fragment<mesh="m1", origin=["layer1"(1)]> (%v11, %v7) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1) -> !m1
  %v13 = mpmd.fragment<mesh="m1", origin=["layer1"]> (%arg0) {call_counter = 2 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %v14 = mpmd.transfer %v13 : (!m1) -> !m2
  %v15 = mpmd.fragment<mesh="m2", origin=["layer2"]> (%v14) {call_counter = 2 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %v16 = mpmd.fragment<mesh="m2", origin=["layer2"(1)]> (%v15, %v15) {call_counter = 2 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m2, !m2) -> !m2
  %v17 = mpmd.transfer %v16 : (!m2) -> !m1
  %v18 = mpmd.fragment<mesh="m1", origin=["layer1"(1)]> (%v17, %v13) {call_counter = 2 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1) -> !m1
  return %v6, %v12, %v18 : !m1, !m1, !m1
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// With remove-control-dependencies=false, consecutive units of each mesh are
// chained by control dependencies (result 0 of the previous unit as an extra
// operand) unless already data dependent; by default none remain.
// KEEP-LABEL: func.func @two_microbatches
// KEEP-NEXT: %[[F0:.*]] = mpmd.fragment<mesh="m1", origin=["layer1"]> (%arg0) {call_counter = 0 : ui32} (%{{.*}}: tensor<4xf32>)
// KEEP: %[[T0:.*]] = mpmd.transfer %[[F0]]
// KEEP: %[[G0:.*]] = mpmd.fragment<mesh="m2", origin=["layer2"]> (%[[T0]]) {call_counter = 0 : ui32} (%{{.*}}: tensor<4xf32>)
// KEEP: %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=["layer1"]> (%arg0, %[[F0]]) {call_counter = 1 : ui32, mpmd.control_operand_start_idx = 1 : i64} (%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>)
// KEEP: %[[T1:.*]] = mpmd.transfer %[[F1]]
// KEEP: %[[G1:.*]] = mpmd.fragment<mesh="m2", origin=["layer2"]> (%[[T1]], %[[G0]]) {call_counter = 1 : ui32, mpmd.control_operand_start_idx = 1 : i64}
// KEEP: %[[GB0:.*]] = mpmd.fragment<mesh="m2", origin=["layer2"(1)]> (%[[G0]], %[[G0]], %[[G1]]) {call_counter = 0 : ui32, mpmd.control_operand_start_idx = 2 : i64}
// KEEP: %[[TB0:.*]] = mpmd.transfer %[[GB0]]
// KEEP: %[[FB0:.*]] = mpmd.fragment<mesh="m1", origin=["layer1"(1)]> (%[[TB0]], %[[F0]], %[[F1]]) {call_counter = 0 : ui32, mpmd.control_operand_start_idx = 2 : i64}
// KEEP: %[[GB1:.*]] = mpmd.fragment<mesh="m2", origin=["layer2"(1)]> (%[[G1]], %[[G1]], %[[GB0]]) {call_counter = 1 : ui32, mpmd.control_operand_start_idx = 2 : i64}
// KEEP: %[[TB1:.*]] = mpmd.transfer %[[GB1]]
// KEEP: mpmd.fragment<mesh="m1", origin=["layer1"(1)]> (%[[TB1]], %[[F1]], %[[FB0]]) {call_counter = 1 : ui32, mpmd.control_operand_start_idx = 2 : i64}
// 1F1B-LABEL: func.func @two_microbatches
// 1F1B-NOT: control_operand_start_idx
func.func @two_microbatches(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %v1 = mpmd.fragment<mesh="m1", origin=["layer1"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %v2 = mpmd.transfer %v1 : (!m1) -> !m2
  %v3 = mpmd.fragment<mesh="m2", origin=["layer2"]> (%v2) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %v4 = mpmd.fragment<mesh="m2", origin=["layer2"(1)]> (%v3, %v3) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m2, !m2) -> !m2
  %v5 = mpmd.transfer %v4 : (!m2) -> !m1
  %v6 = mpmd.fragment<mesh="m1", origin=["layer1"(1)]> (%v5, %v1) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1) -> !m1
  %v7 = mpmd.fragment<mesh="m1", origin=["layer1"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %v8 = mpmd.transfer %v7 : (!m1) -> !m2
  %v9 = mpmd.fragment<mesh="m2", origin=["layer2"]> (%v8) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %v10 = mpmd.fragment<mesh="m2", origin=["layer2"(1)]> (%v9, %v9) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m2, !m2) -> !m2
  %v11 = mpmd.transfer %v10 : (!m2) -> !m1
  %v12 = mpmd.fragment<mesh="m1", origin=["layer1"(1)]> (%v11, %v7) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1) -> !m1
  return %v6, %v12 : !m1, !m1
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!cpu = !mpmd.mesh_tensor<"host/cpu", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"host/cpu": <["x"=1]>>>

// The data flow wins over the schedule: microbatch 1 feeds microbatch 0, so
// it stays first.
// 1F1B-LABEL: func.func @data_flow_wins
// 1F1B-NEXT: origin=["f"]> (%arg0) {call_counter = 1 : ui32}
// 1F1B: origin=["f"]> (%{{.*}}) {call_counter = 0 : ui32}
// GPIPE-LABEL: func.func @data_flow_wins
// GPIPE-NEXT: origin=["f"]> (%arg0) {call_counter = 1 : ui32}
// GPIPE: origin=["f"]> (%{{.*}}) {call_counter = 0 : ui32}
func.func @data_flow_wins(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %1 : !m1
}

// Units on a `/cpu` mesh, and fragments that are not scheduling units (no
// call_counter, or mixed transpose counts), are not ordered by any schedule.
// 1F1B-LABEL: func.func @not_scheduling_units
// 1F1B-NEXT: origin=["h"(1)]> (%arg1) {call_counter = 0 : ui32}
// 1F1B: origin=["h"]> (%arg1) {call_counter = 1 : ui32}
// 1F1B: origin=["g"(1)]> (%arg0) (
// 1F1B: origin=["g"]> (%arg0) (
// 1F1B: origin=["k", "k"(1)]> (%arg0) {call_counter = 1 : ui32}
// 1F1B: origin=["k"]> (%arg0) {call_counter = 0 : ui32}
// GPIPE-LABEL: func.func @not_scheduling_units
// GPIPE-NEXT: origin=["h"(1)]> (%arg1) {call_counter = 0 : ui32}
// GPIPE: origin=["h"]> (%arg1) {call_counter = 1 : ui32}
// GPIPE: origin=["g"(1)]> (%arg0) (
// GPIPE: origin=["g"]> (%arg0) (
// GPIPE: origin=["k", "k"(1)]> (%arg0) {call_counter = 1 : ui32}
// GPIPE: origin=["k"]> (%arg0) {call_counter = 0 : ui32}
func.func @not_scheduling_units(%arg0: !m1, %arg1: !cpu) -> (!cpu, !cpu, !m1, !m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="host/cpu", origin=["h"(1)]> (%arg1) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!cpu) -> !cpu
  %1 = mpmd.fragment<mesh="host/cpu", origin=["h"]> (%arg1) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!cpu) -> !cpu
  %2 = mpmd.fragment<mesh="m1", origin=["g"(1)]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["k", "k"(1)]> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=["k"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0, %1, %2, %3, %4, %5 : !cpu, !cpu, !m1, !m1, !m1, !m1
}
