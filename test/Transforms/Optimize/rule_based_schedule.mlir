// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-rule-based-schedule='rules=FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["f"],call_counter=0,mesh_name="m1")->FragmentInfo(origins=["g"],mesh_name="m1")]),FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["q"],mesh_name="m1")->FragmentInfo(origins=["p"],mesh_name="m1")]),FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["p"],mesh_name="m1")->FragmentInfo(origins=["q"],mesh_name="m1")]),FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["h"],mesh_name="m1")->FragmentInfo(origins=["missing"],mesh_name="m1")->FragmentInfo(origins=["f"],call_counter=0,mesh_name="m1")]),FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["k"],mesh_name="m2")->FragmentInfo(origins=["g"],mesh_name="m1")])' 2>%t.log | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-rule-based-schedule='remove-control-dependencies=false rules=FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["f"],call_counter=0,mesh_name="m1")->FragmentInfo(origins=["g"],mesh_name="m1")]),FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["q"],mesh_name="m1")->FragmentInfo(origins=["p"],mesh_name="m1")]),FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["p"],mesh_name="m1")->FragmentInfo(origins=["q"],mesh_name="m1")]),FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["h"],mesh_name="m1")->FragmentInfo(origins=["missing"],mesh_name="m1")->FragmentInfo(origins=["f"],call_counter=0,mesh_name="m1")]),FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["k"],mesh_name="m2")->FragmentInfo(origins=["g"],mesh_name="m1")])' | FileCheck %s --check-prefix=KEEP
// RUN: not mpmd-opt %s -split-input-file -mpmd-rule-based-schedule='rules=FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["f"])])' 2>&1 | FileCheck %s --check-prefix=PARSE

// PARSE: for the --rules option: a schedule rule needs at least two fragments at position 40 (near 'FragmentInfo(origins=["f...') in 'FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["f"])])'

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Rules, in order:
// * f(cc 0) -> g: f moves before g;
// * q -> p: q depends on p (through x on m2), a warning prints the path;
// * p -> q: already ordered by the data flow, nothing to do;
// * h -> missing -> f: "missing" is skipped with a warning, h -> f holds;
// * k -> g: different meshes, a warning.
// CHECK-LABEL: func.func @rules
// CHECK-NEXT: %[[P:.*]] = mpmd.fragment<mesh="m1", origin=["p"]> (%arg0) (
// CHECK: mpmd.transfer %[[P]]
// CHECK: mpmd.fragment<mesh="m2", origin=["x"]>
// CHECK: mpmd.transfer
// CHECK: mpmd.fragment<mesh="m1", origin=["q"]>
// CHECK: mpmd.fragment<mesh="m1", origin=["h"]> (%arg0) (
// CHECK: mpmd.fragment<mesh="m2", origin=["k"]> (%arg1) (
// CHECK: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (
// CHECK: mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (
// CHECK-NOT: control_operand
// KEEP-LABEL: func.func @rules
// KEEP: %[[H:.*]] = mpmd.fragment<mesh="m1", origin=["h"]> (%arg0) (
// KEEP: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %[[H]]) {call_counter = 0 : ui32, mpmd.control_operand_start_idx = 1 : i64}
// KEEP: mpmd.fragment<mesh="m1", origin=["g"]> (%arg0, %[[F]]) {mpmd.control_operand_start_idx = 1 : i64}
// A missing fragment and a pair the data flow orders the other way are
// logged on stderr, not diagnosed (upstream logs them too).
// LOG-DAG: mpmd-rule-based-schedule: fragment FragmentInfo(origins=["missing"],mesh_name="m1") of schedule rule FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["h"],mesh_name="m1")->FragmentInfo(origins=["missing"],mesh_name="m1")->FragmentInfo(origins=["f"],call_counter=0,mesh_name="m1")]) is not in the function; the rule skips it
func.func @rules(%arg0: !m1, %arg1: !m2) -> (!m1, !m1, !m1, !m1, !m2) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["p"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["x"]> (%1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %3 = mpmd.transfer %2 : (!m2) -> !m1
  // LOG-DAG: mpmd-rule-based-schedule: schedule rule asks for FragmentInfo(origins=["q"],mesh_name="m1") to run before FragmentInfo(origins=["p"],mesh_name="m1"), but it depends on it: FragmentInfo(origins=["p"],mesh_name="m1") -> mpmd.transfer -> FragmentInfo(origins=["x"],mesh_name="m2") -> mpmd.transfer -> FragmentInfo(origins=["q"],mesh_name="m1"); the rule is ignored for this pair
  %4 = mpmd.fragment<mesh="m1", origin=["q"]> (%3) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  // expected-warning @+1 {{schedule rule pair FragmentInfo(origins=["k"],mesh_name="m2") -> FragmentInfo(origins=["g"],mesh_name="m1") is not on one mesh (and block), so it is not ordered}}
  %5 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %7 = mpmd.fragment<mesh="m1", origin=["h"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %8 = mpmd.fragment<mesh="m2", origin=["k"]> (%arg1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  return %4, %5, %6, %7, %8 : !m1, !m1, !m1, !m1, !m2
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Two fragments with the same info cannot be told apart by rules.
func.func @duplicate_info(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  // expected-note @+1 {{the other fragment}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  // expected-error @+1 {{Fragment info FragmentInfo(origins=["f"],call_counter=0,mesh_name="m1") already exists: the program has multiple `named_computation` with the same name (and counters), which schedule rules cannot tell apart}}
  %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0, %1 : !m1, !m1
}
