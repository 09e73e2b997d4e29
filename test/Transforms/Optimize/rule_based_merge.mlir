// RUN: mpmd-opt %s -verify-diagnostics -mpmd-rule-based-merge='rules=FragmentMergeRule(sources=[FragmentInfo(origins=["f"],call_counter=0,mesh_name="m1"),FragmentInfo(origins=["g"],call_counter=0,mesh_name="m1")],target=FragmentInfo(origins=["f","g"],call_counter=0,mesh_name="m1")),FragmentMergeRule(sources=[FragmentInfo(origins=["i"],mesh_name="m1"),FragmentInfo(origins=["j"],mesh_name="m1"),FragmentInfo(origins=["k"(1)],split_type=kDropTransferred,mesh_name="m1")],target=FragmentInfo(origins=["i","j","k"(1)],stage=1,split_type=kKeepTransferred,mesh_name="m1")),FragmentMergeRule(sources=[FragmentInfo(origins=["s1"],mesh_name="m2"),FragmentInfo(origins=["s2"],mesh_name="m2")],target=FragmentInfo(origins=["s"],mesh_name="m2"))' | FileCheck %s

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// * f and g merge into one fragment labelled ["f", "g"], call counter 0, right
//   after f; f's result stays a result since the transfer uses it.
// * i, j and k merge into one labelled ["i", "j", "k"(1)], stage 1, split
//   keep; it needs the transfer from m2, so the sort moves it after that, and
//   l (untouched, no rule) after it.
// * Only s1 of the third rule exists: a warning, nothing merged.
// CHECK-LABEL: func.func @merge
// CHECK-NEXT: %[[FG:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f", "g"]> (%arg0) {call_counter = 0 : ui32} (%[[A:.*]]: tensor<4xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.multiply %[[X]], %[[X]]
// CHECK-NEXT:   mpmd.return %[[X]], %[[Y]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[T1:.*]] = mpmd.transfer %[[FG]]#0
// CHECK-NEXT: %[[S1:.*]] = mpmd.fragment<mesh="m2", origin=["s1"]> (%[[T1]])
// CHECK:      %[[T2:.*]] = mpmd.transfer %[[S1]]
// CHECK-NEXT: %[[IJK:.*]]:2 = mpmd.fragment<mesh="m1", origin=["i", "j", "k"(1)], stage=1> (%arg0, %[[T2]]) {split_keep_transferred} (%[[B:.*]]: tensor<4xf32>, %[[C:.*]]: tensor<4xf32>) {
// CHECK-NEXT:   %[[I:.*]] = stablehlo.negate %[[B]]
// CHECK-NEXT:   %[[J:.*]] = stablehlo.abs %[[I]]
// CHECK-NEXT:   %[[K:.*]] = stablehlo.add %[[J]], %[[C]]
// CHECK-NEXT:   mpmd.return %[[I]], %[[K]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[L:.*]] = mpmd.fragment<mesh="m1", origin=["l"]> (%[[IJK]]#0)
// CHECK:      return %[[FG]]#1, %[[IJK]]#1, %[[L]]
func.func @merge(%arg0: !m1) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %10 = stablehlo.add %a, %a : !t
    mpmd.return %10 : !t
  } : (!m1) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  // expected-warning @+1 {{only this fragment matches the sources of merge rule FragmentMergeRule(sources=[FragmentInfo(origins=["s1"],mesh_name="m2"),FragmentInfo(origins=["s2"],mesh_name="m2")],target=FragmentInfo(origins=["s"],mesh_name="m2")); nothing is merged}}
  %2 = mpmd.fragment<mesh="m2", origin=["s1"]> (%1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %3 = mpmd.transfer %2 : (!m2) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) {call_counter = 0 : ui32} (%a: !t) {
    %10 = stablehlo.multiply %a, %a : !t
    mpmd.return %10 : !t
  } : (!m1) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=["i"]> (%arg0) (%a: !t) {
    %10 = stablehlo.negate %a : !t
    mpmd.return %10 : !t
  } : (!m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=["l"]> (%5) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %7 = mpmd.fragment<mesh="m1", origin=["j"]> (%5) (%a: !t) {
    %10 = stablehlo.abs %a : !t
    mpmd.return %10 : !t
  } : (!m1) -> !m1
  %8 = mpmd.fragment<mesh="m1", origin=["k"(1)]> (%7, %3) {split_drop_transferred} (%a: !t, %b: !t) {
    %10 = stablehlo.add %a, %b : !t
    mpmd.return %10 : !t
  } : (!m1, !m1) -> !m1
  return %4, %8, %6 : !m1, !m1, !m1
}

// The sources are merged pair by pair in order: f, with one operand and one
// result used once by g, is a trivial producer, so the merge keeps g's
// operand order with f's operand in the place of f's result.
// CHECK-LABEL: func.func @trivial_source_keeps_operand_order
// CHECK-NEXT: %[[FG:.*]] = mpmd.fragment<mesh="m1", origin=["f", "g"]> (%arg1, %arg0, %arg2) {call_counter = 0 : ui32} (%[[B:.*]]: tensor<4xf32>, %[[A:.*]]: tensor<4xf32>, %[[C:.*]]: tensor<4xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.multiply %[[B]], %[[X]]
// CHECK-NEXT:   %[[Z:.*]] = stablehlo.subtract %[[Y]], %[[C]]
// CHECK-NEXT:   mpmd.return %[[Z]]
func.func @trivial_source_keeps_operand_order(%arg0: !m1, %arg1: !m1, %arg2: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %10 = stablehlo.add %a, %a : !t
    mpmd.return %10 : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg1, %0, %arg2) {call_counter = 0 : ui32} (%b: !t, %a: !t, %c: !t) {
    %10 = stablehlo.multiply %b, %a : !t
    %11 = stablehlo.subtract %10, %c : !t
    mpmd.return %11 : !t
  } : (!m1, !m1, !m1) -> !m1
  return %1 : !m1
}
