// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=ZeroBubbleH1 | FileCheck %s --check-prefix=H1-M1
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=ZeroBubbleH1 | FileCheck %s --check-prefix=H1-M2
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=ZeroBubbleH2ZeroTxLatency | FileCheck %s --check-prefix=H2-M1
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=ZeroBubbleH2ZeroTxLatency | FileCheck %s --check-prefix=H2-M2

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Two meshes, three microbatches, backward fragments split into the part
// computing the transferred gradient (keep) and the weight gradient (drop),
// in program order. Each prefix checks the order on one mesh.
//
// ZB-H1, first mesh: one extra warm-up forward as in 1F1B; each weight
// gradient right after its backward.
// H1-M1-LABEL: func.func @zero_bubble
// H1-M1: mpmd.fragment<mesh="m1", origin=["layer0"]> {{.*}} {call_counter = 0 : ui32}
// H1-M1: mpmd.fragment<mesh="m1", origin=["layer0"]> {{.*}} {call_counter = 1 : ui32}
// H1-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 0 : ui32, split_keep_transferred}
// H1-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 0 : ui32, split_drop_transferred}
// H1-M1: mpmd.fragment<mesh="m1", origin=["layer0"]> {{.*}} {call_counter = 2 : ui32}
// H1-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 1 : ui32, split_keep_transferred}
// H1-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 1 : ui32, split_drop_transferred}
// H1-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 2 : ui32, split_keep_transferred}
// H1-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 2 : ui32, split_drop_transferred}
// ZB-H1, last mesh: weight gradients delayed by one backward (mesh index 1).
// H1-M2-LABEL: func.func @zero_bubble
// H1-M2: mpmd.fragment<mesh="m2", origin=["layer1"]> {{.*}} {call_counter = 0 : ui32}
// H1-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 0 : ui32, split_keep_transferred}
// H1-M2: mpmd.fragment<mesh="m2", origin=["layer1"]> {{.*}} {call_counter = 1 : ui32}
// H1-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 1 : ui32, split_keep_transferred}
// H1-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 0 : ui32, split_drop_transferred}
// H1-M2: mpmd.fragment<mesh="m2", origin=["layer1"]> {{.*}} {call_counter = 2 : ui32}
// H1-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 2 : ui32, split_keep_transferred}
// H1-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 1 : ui32, split_drop_transferred}
// H1-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 2 : ui32, split_drop_transferred}
// ZB-H2 with no transfer latency, first mesh: 2N - 1 = 3 warm-up forwards.
// H2-M1-LABEL: func.func @zero_bubble
// H2-M1: mpmd.fragment<mesh="m1", origin=["layer0"]> {{.*}} {call_counter = 0 : ui32}
// H2-M1: mpmd.fragment<mesh="m1", origin=["layer0"]> {{.*}} {call_counter = 1 : ui32}
// H2-M1: mpmd.fragment<mesh="m1", origin=["layer0"]> {{.*}} {call_counter = 2 : ui32}
// H2-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 0 : ui32, split_keep_transferred}
// H2-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 0 : ui32, split_drop_transferred}
// H2-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 1 : ui32, split_keep_transferred}
// H2-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 1 : ui32, split_drop_transferred}
// H2-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 2 : ui32, split_keep_transferred}
// H2-M1: mpmd.fragment<mesh="m1", origin=["layer0"(1)]> {{.*}} {call_counter = 2 : ui32, split_drop_transferred}
// ZB-H2, last mesh: one warm-up forward, weight gradients after the
// backward 2 microbatches later (here: all at the end).
// H2-M2-LABEL: func.func @zero_bubble
// H2-M2: mpmd.fragment<mesh="m2", origin=["layer1"]> {{.*}} {call_counter = 0 : ui32}
// H2-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 0 : ui32, split_keep_transferred}
// H2-M2: mpmd.fragment<mesh="m2", origin=["layer1"]> {{.*}} {call_counter = 1 : ui32}
// H2-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 1 : ui32, split_keep_transferred}
// H2-M2: mpmd.fragment<mesh="m2", origin=["layer1"]> {{.*}} {call_counter = 2 : ui32}
// H2-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 2 : ui32, split_keep_transferred}
// H2-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 0 : ui32, split_drop_transferred}
// H2-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 1 : ui32, split_drop_transferred}
// H2-M2: mpmd.fragment<mesh="m2", origin=["layer1"(1)]> {{.*}} {call_counter = 2 : ui32, split_drop_transferred}
func.func @zero_bubble(%arg0: !m1) -> (!m2, !m1, !m1, !m2, !m1, !m1, !m2, !m1, !m1) attributes {topology = #topology} {
  %f0_0 = mpmd.fragment<mesh="m1", origin=["layer0"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %t1_0 = mpmd.transfer %f0_0 : (!m1) -> !m2
  %f1_0 = mpmd.fragment<mesh="m2", origin=["layer1"]> (%t1_0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %b1_0:2 = mpmd.fragment<mesh="m2", origin=["layer1"(1)]> (%f1_0, %f1_0) {call_counter = 0 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    mpmd.return %a, %b : !t, !t
  } : (!m2, !m2) -> (!m2, !m2)
  %w1_0 = mpmd.fragment<mesh="m2", origin=["layer1"(1)]> (%b1_0#1) {call_counter = 0 : ui32, split_drop_transferred} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %tb0_0 = mpmd.transfer %b1_0#0 : (!m2) -> !m1
  %b0_0:2 = mpmd.fragment<mesh="m1", origin=["layer0"(1)]> (%tb0_0, %f0_0) {call_counter = 0 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    mpmd.return %a, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %w0_0 = mpmd.fragment<mesh="m1", origin=["layer0"(1)]> (%b0_0#1) {call_counter = 0 : ui32, split_drop_transferred} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %f0_1 = mpmd.fragment<mesh="m1", origin=["layer0"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %t1_1 = mpmd.transfer %f0_1 : (!m1) -> !m2
  %f1_1 = mpmd.fragment<mesh="m2", origin=["layer1"]> (%t1_1) {call_counter = 1 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %b1_1:2 = mpmd.fragment<mesh="m2", origin=["layer1"(1)]> (%f1_1, %f1_1) {call_counter = 1 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    mpmd.return %a, %b : !t, !t
  } : (!m2, !m2) -> (!m2, !m2)
  %w1_1 = mpmd.fragment<mesh="m2", origin=["layer1"(1)]> (%b1_1#1) {call_counter = 1 : ui32, split_drop_transferred} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %tb0_1 = mpmd.transfer %b1_1#0 : (!m2) -> !m1
  %b0_1:2 = mpmd.fragment<mesh="m1", origin=["layer0"(1)]> (%tb0_1, %f0_1) {call_counter = 1 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    mpmd.return %a, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %w0_1 = mpmd.fragment<mesh="m1", origin=["layer0"(1)]> (%b0_1#1) {call_counter = 1 : ui32, split_drop_transferred} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %f0_2 = mpmd.fragment<mesh="m1", origin=["layer0"]> (%arg0) {call_counter = 2 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %t1_2 = mpmd.transfer %f0_2 : (!m1) -> !m2
  %f1_2 = mpmd.fragment<mesh="m2", origin=["layer1"]> (%t1_2) {call_counter = 2 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %b1_2:2 = mpmd.fragment<mesh="m2", origin=["layer1"(1)]> (%f1_2, %f1_2) {call_counter = 2 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    mpmd.return %a, %b : !t, !t
  } : (!m2, !m2) -> (!m2, !m2)
  %w1_2 = mpmd.fragment<mesh="m2", origin=["layer1"(1)]> (%b1_2#1) {call_counter = 2 : ui32, split_drop_transferred} (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %tb0_2 = mpmd.transfer %b1_2#0 : (!m2) -> !m1
  %b0_2:2 = mpmd.fragment<mesh="m1", origin=["layer0"(1)]> (%tb0_2, %f0_2) {call_counter = 2 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    mpmd.return %a, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %w0_2 = mpmd.fragment<mesh="m1", origin=["layer0"(1)]> (%b0_2#1) {call_counter = 2 : ui32, split_drop_transferred} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %w1_0, %w0_0, %b0_0#0, %w1_1, %w0_1, %b0_1#0, %w1_2, %w0_2, %b0_2#0 : !m2, !m1, !m1, !m2, !m1, !m1, !m2, !m1, !m1
}
