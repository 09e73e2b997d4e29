// RUN: mpmd-opt %s -mpmd-verify-stage-merging -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Fragments of one stage that differ in call counter, transpose count, split
// type, remat flag, stage or mesh may coexist, and so may fragments without a
// stage; the IR is unchanged.
// CHECK-LABEL: func.func @distinct
// CHECK-COUNT-8: mpmd.fragment<
func.func @distinct(%arg0: !m1) -> (!m1, !m1, !m1, !m1, !m1, !m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"], stage=0> (%arg0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"], stage=0> (%arg0) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"(1)], stage=0> (%arg0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["f"(1)], stage=0> (%arg0) {call_counter = 0 : ui32, split_drop_transferred} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["f"], stage=0> (%arg0) {call_counter = 0 : ui32, remat} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=["f"], stage=1> (%arg0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %7 = mpmd.fragment<mesh="m1", origin=["h"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  return %0, %1, %2, %3, %4, %5, %6, %7 : !m1, !m1, !m1, !m1, !m1, !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Two forward fragments of stage 0 for microbatch 0 (different names do not
// matter); a fragment without counter conflicts with any other of its key;
// the transpose counts of mixed fragments form the key.
func.func @unmerged(%arg0: !m1) -> (!m1, !m1, !m1, !m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"], stage=0> (%arg0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  // expected-error-re @+1 {{fragment of stage 0 on mesh "m1" was not merged with an earlier fragment of the same stage, transpose count 0 and call_counter 0 (same split type and remat flag); the earlier fragment is at loc({{.*}}:34:{{[0-9]+}})}}
  %1 = mpmd.fragment<mesh="m1", origin=["g"], stage=0> (%arg0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["b"(1)], stage=0> (%arg0) {call_counter = 7 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  // expected-error-re @+1 {{fragment of stage 0 on mesh "m1" was not merged with an earlier fragment of the same stage, transpose count 1 (same split type and remat flag); the earlier fragment is at loc({{.*}}:37:{{[0-9]+}})}}
  %3 = mpmd.fragment<mesh="m1", origin=["c"(1)], stage=0> (%arg0) (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["k", "k"(1)], stage=0> (%arg0) {call_counter = 4 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  // expected-error-re @+1 {{fragment of stage 0 on mesh "m1" was not merged with an earlier fragment of the same stage, transpose counts 0, 1 and call_counter 4 (same split type and remat flag); the earlier fragment is at loc({{.*}}:40:{{[0-9]+}})}}
  %5 = mpmd.fragment<mesh="m1", origin=["l"(1), "l"], stage=0> (%arg0) {call_counter = 4 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  return %0, %1, %2, %3, %4, %5 : !m1, !m1, !m1, !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Call counters are user integers: UINT32_MAX (the empty key of an integer
// hash map) is a call counter like any other.
func.func @max_call_counter(%arg0: !m1) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"], stage=0> (%arg0) {call_counter = 4294967295 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"], stage=0> (%arg0) {call_counter = 4294967294 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  // expected-error-re @+1 {{fragment of stage 0 on mesh "m1" was not merged with an earlier fragment of the same stage, transpose count 0 and call_counter 4294967295{{.*}}; the earlier fragment is at loc({{.*}}:55:{{[0-9]+}})}}
  %2 = mpmd.fragment<mesh="m1", origin=["f"], stage=0> (%arg0) {call_counter = 4294967295 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  return %0, %1, %2 : !m1, !m1, !m1
}
