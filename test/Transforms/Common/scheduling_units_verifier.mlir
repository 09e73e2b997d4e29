// RUN: mpmd-opt %s -mpmd-scheduling-units-verifier -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Two microbatches (counters 0 and 1), one forward and one backward unit each
// per mesh: no warning, and the IR is unchanged.
// CHECK-LABEL: func.func @complete
// CHECK-COUNT-8: mpmd.fragment<
func.func @complete(%arg0: !m1, %arg1: !m2) -> (!m1, !m1, !m2, !m2) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%1) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m2) -> !m2
  %5 = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m2) -> !m2
  %6 = mpmd.fragment<mesh="m2", origin=["g"(1)]> (%4) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m2) -> !m2
  %7 = mpmd.fragment<mesh="m2", origin=["g"(1)]> (%5) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m2) -> !m2
  return %2, %3, %6, %7 : !m1, !m1, !m2, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Counters from 1: two microbatches. On m1 microbatch 2 has two forward units
// (not merged) and no backward unit; m2 lacks the forward unit of microbatch
// 1. Fragments that are not scheduling units (no counter, mixed transpose
// counts) do not count.
// expected-warning @+3 {{mesh "m1" has 3 forward scheduling unit(s) but the program has 2 microbatch(es); several units for call_counter 2}}
// expected-warning @+2 {{mesh "m1" has 1 backward scheduling unit(s) but the program has 2 microbatch(es); no unit for call_counter 2}}
// expected-warning @+1 {{mesh "m2" has 1 forward scheduling unit(s) but the program has 2 microbatch(es); no unit for call_counter 1}}
func.func @incomplete(%arg0: !m1, %arg1: !m2) -> (!m1, !m1, !m1, !m2, !m2) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 2 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["h"]> (%1) {call_counter = 2 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%0) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%2) (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=["k", "k"(1)]> (%4) {call_counter = 2 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %6 = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) {call_counter = 2 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m2) -> !m2
  %7 = mpmd.fragment<mesh="m2", origin=["g"(1)]> (%6) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m2) -> !m2
  %8 = mpmd.fragment<mesh="m2", origin=["g"(1)]> (%6) {call_counter = 2 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m2) -> !m2
  return %3, %5, %2, %7, %8 : !m1, !m1, !m1, !m2, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A forward-only program is not asked for backward units.
// CHECK-LABEL: func.func @forward_only
func.func @forward_only(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  return %0, %1 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A mesh of the topology without any fragment lacks every unit.
// expected-warning @+2 {{mesh "m2" has 0 forward scheduling unit(s) but the program has 2 microbatch(es); no unit for call_counter 0, 1}}
// expected-warning @+1 {{mesh "m2" has 0 backward scheduling unit(s) but the program has 2 microbatch(es); no unit for call_counter 0, 1}}
func.func @idle_mesh(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%0) {call_counter = 0 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["f"(1)]> (%1) {call_counter = 1 : ui32} (%a: !t) { mpmd.return %a : !t } : (!m1) -> !m1
  return %2, %3 : !m1, !m1
}
