// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=Circular -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=M1
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=Circular -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=M2
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=CircularWithReversedBackward -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=REV1
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=circularwithreversedbackward -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=REV2

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Four stages on two meshes (stage s on mesh s mod 2), two microbatches, in
// program order. Each prefix checks the order on one mesh.
//
// Circular: forwards by (phase = microbatch / 2, stage, microbatch), then
// backwards by phase, descending stage, microbatch.
// M1-LABEL: func.func @circular
// M1: mpmd.fragment<mesh="m1", origin=["layer0"], stage=0> {{.*}} {call_counter = 0 : ui32}
// M1: mpmd.fragment<mesh="m1", origin=["layer0"], stage=0> {{.*}} {call_counter = 1 : ui32}
// M1: mpmd.fragment<mesh="m1", origin=["layer2"], stage=2> {{.*}} {call_counter = 0 : ui32}
// M1: mpmd.fragment<mesh="m1", origin=["layer2"], stage=2> {{.*}} {call_counter = 1 : ui32}
// M1: mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> {{.*}} {call_counter = 0 : ui32}
// M1: mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> {{.*}} {call_counter = 1 : ui32}
// M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)], stage=0> {{.*}} {call_counter = 0 : ui32}
// M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)], stage=0> {{.*}} {call_counter = 1 : ui32}
// M2-LABEL: func.func @circular
// M2: mpmd.fragment<mesh="m2", origin=["layer1"], stage=1> {{.*}} {call_counter = 0 : ui32}
// M2: mpmd.fragment<mesh="m2", origin=["layer1"], stage=1> {{.*}} {call_counter = 1 : ui32}
// M2: mpmd.fragment<mesh="m2", origin=["layer3"], stage=3> {{.*}} {call_counter = 0 : ui32}
// M2: mpmd.fragment<mesh="m2", origin=["layer3"], stage=3> {{.*}} {call_counter = 1 : ui32}
// M2: mpmd.fragment<mesh="m2", origin=["layer3"(1)], stage=3> {{.*}} {call_counter = 0 : ui32}
// M2: mpmd.fragment<mesh="m2", origin=["layer3"(1)], stage=3> {{.*}} {call_counter = 1 : ui32}
// M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)], stage=1> {{.*}} {call_counter = 0 : ui32}
// M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)], stage=1> {{.*}} {call_counter = 1 : ui32}
// With the reversed backward, backwards by descending (phase, stage,
// microbatch).
// REV1-LABEL: func.func @circular
// REV1: mpmd.fragment<mesh="m1", origin=["layer0"], stage=0> {{.*}} {call_counter = 0 : ui32}
// REV1: mpmd.fragment<mesh="m1", origin=["layer0"], stage=0> {{.*}} {call_counter = 1 : ui32}
// REV1: mpmd.fragment<mesh="m1", origin=["layer2"], stage=2> {{.*}} {call_counter = 0 : ui32}
// REV1: mpmd.fragment<mesh="m1", origin=["layer2"], stage=2> {{.*}} {call_counter = 1 : ui32}
// REV1: mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> {{.*}} {call_counter = 1 : ui32}
// REV1: mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> {{.*}} {call_counter = 0 : ui32}
// REV1: mpmd.fragment<mesh="m1", origin=["layer0"(1)], stage=0> {{.*}} {call_counter = 1 : ui32}
// REV1: mpmd.fragment<mesh="m1", origin=["layer0"(1)], stage=0> {{.*}} {call_counter = 0 : ui32}
// REV2-LABEL: func.func @circular
// REV2: mpmd.fragment<mesh="m2", origin=["layer1"], stage=1> {{.*}} {call_counter = 0 : ui32}
// REV2: mpmd.fragment<mesh="m2", origin=["layer1"], stage=1> {{.*}} {call_counter = 1 : ui32}
// REV2: mpmd.fragment<mesh="m2", origin=["layer3"], stage=3> {{.*}} {call_counter = 0 : ui32}
// REV2: mpmd.fragment<mesh="m2", origin=["layer3"], stage=3> {{.*}} {call_counter = 1 : ui32}
// REV2: mpmd.fragment<mesh="m2", origin=["layer3"(1)], stage=3> {{.*}} {call_counter = 1 : ui32}
// REV2: mpmd.fragment<mesh="m2", origin=["layer3"(1)], stage=3> {{.*}} {call_counter = 0 : ui32}
// REV2: mpmd.fragment<mesh="m2", origin=["layer1"(1)], stage=1> {{.*}} {call_counter = 1 : ui32}
// REV2: mpmd.fragment<mesh="m2", origin=["layer1"(1)], stage=1> {{.*}} {call_counter = 0 : ui32}
func.func @circular(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %f0_0 = mpmd.fragment<mesh="m1", origin=["layer0"], stage=0> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %t1_0 = mpmd.transfer %f0_0 : (!m1) -> !m2
  %f1_0 = mpmd.fragment<mesh="m2", origin=["layer1"], stage=1> (%t1_0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %t2_0 = mpmd.transfer %f1_0 : (!m2) -> !m1
  %f2_0 = mpmd.fragment<mesh="m1", origin=["layer2"], stage=2> (%t2_0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %t3_0 = mpmd.transfer %f2_0 : (!m1) -> !m2
  %f3_0 = mpmd.fragment<mesh="m2", origin=["layer3"], stage=3> (%t3_0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %b3_0 = mpmd.fragment<mesh="m2", origin=["layer3"(1)], stage=3> (%f3_0, %f3_0) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m2, !m2) -> !m2
  %tb2_0 = mpmd.transfer %b3_0 : (!m2) -> !m1
  %b2_0 = mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> (%tb2_0, %f2_0) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1) -> !m1
  %tb1_0 = mpmd.transfer %b2_0 : (!m1) -> !m2
  %b1_0 = mpmd.fragment<mesh="m2", origin=["layer1"(1)], stage=1> (%tb1_0, %f1_0) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m2, !m2) -> !m2
  %tb0_0 = mpmd.transfer %b1_0 : (!m2) -> !m1
  %b0_0 = mpmd.fragment<mesh="m1", origin=["layer0"(1)], stage=0> (%tb0_0, %f0_0) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1) -> !m1
  %f0_1 = mpmd.fragment<mesh="m1", origin=["layer0"], stage=0> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %t1_1 = mpmd.transfer %f0_1 : (!m1) -> !m2
  %f1_1 = mpmd.fragment<mesh="m2", origin=["layer1"], stage=1> (%t1_1) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %t2_1 = mpmd.transfer %f1_1 : (!m2) -> !m1
  %f2_1 = mpmd.fragment<mesh="m1", origin=["layer2"], stage=2> (%t2_1) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %t3_1 = mpmd.transfer %f2_1 : (!m1) -> !m2
  %f3_1 = mpmd.fragment<mesh="m2", origin=["layer3"], stage=3> (%t3_1) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %b3_1 = mpmd.fragment<mesh="m2", origin=["layer3"(1)], stage=3> (%f3_1, %f3_1) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m2, !m2) -> !m2
  %tb2_1 = mpmd.transfer %b3_1 : (!m2) -> !m1
  %b2_1 = mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> (%tb2_1, %f2_1) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1) -> !m1
  %tb1_1 = mpmd.transfer %b2_1 : (!m1) -> !m2
  %b1_1 = mpmd.fragment<mesh="m2", origin=["layer1"(1)], stage=1> (%tb1_1, %f1_1) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m2, !m2) -> !m2
  %tb0_1 = mpmd.transfer %b1_1 : (!m2) -> !m1
  %b0_1 = mpmd.fragment<mesh="m1", origin=["layer0"(1)], stage=0> (%tb0_1, %f0_1) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1) -> !m1
  return %b0_0, %b0_1 : !m1, !m1
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Without stages, Circular cannot order units: a warning, and the units
// keep their order.
// M1-LABEL: func.func @no_stages
// M1-NEXT: origin=["f"(1)]> (%arg0) {call_counter = 0 : ui32}
// M1: origin=["f"]> (%arg0) {call_counter = 0 : ui32}
func.func @no_stages(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  // expected-warning @+1 {{2 unit(s) without a stage, this one first, are not ordered}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0, %1 : !m1, !m1
}
