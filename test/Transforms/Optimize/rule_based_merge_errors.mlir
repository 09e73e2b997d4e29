// RUN: mpmd-opt %s -verify-diagnostics -mpmd-rule-based-merge='rules=FragmentMergeRule(sources=[FragmentInfo(origins=["a"],mesh_name="m1"),FragmentInfo(origins=["c"],mesh_name="m1")],target=FragmentInfo(origins=["a","c"],mesh_name="m1"))'
// RUN: not mpmd-opt %s -mpmd-rule-based-merge='rules=FragmentMergeRule(sources=[FragmentInfo(origins=["a"],mesh_name="m1"),FragmentInfo(origins=["c"],mesh_name="m1")],target=FragmentInfo(origins=["a","c"],mesh_name="m1")),FragmentMergeRule(sources=[FragmentInfo(origins=["c"],mesh_name="m1"),FragmentInfo(origins=["d"],mesh_name="m1")],target=FragmentInfo(origins=["c","d"],mesh_name="m1"))' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not mpmd-opt %s -mpmd-rule-based-merge='rules=FragmentMergeRule(sources=[FragmentInfo(origins=["a"],mesh_name="m1"),FragmentInfo(origins=["b"],mesh_name="m2")],target=FragmentInfo(origins=["a","b"],mesh_name="m1"))' 2>&1 | FileCheck %s --check-prefix=MESHES
// RUN: not mpmd-opt %s -mpmd-rule-based-merge='rules=FragmentMergeRule(sources=[FragmentInfo(origins=["a"],mesh_name="m1"),FragmentInfo(origins=["c"],mesh_name="m1")],target=FragmentInfo(origins=["a","c"],mesh_name="m2"))' 2>&1 | FileCheck %s --check-prefix=TARGET

// TWICE: error: fragment FragmentInfo(origins=["c"],mesh_name="m1") is a source of more than one merge rule: FragmentMergeRule(sources=[FragmentInfo(origins=["a"],mesh_name="m1"),FragmentInfo(origins=["c"],mesh_name="m1")],target=FragmentInfo(origins=["a","c"],mesh_name="m1")) and FragmentMergeRule(sources=[FragmentInfo(origins=["c"],mesh_name="m1"),FragmentInfo(origins=["d"],mesh_name="m1")],target=FragmentInfo(origins=["c","d"],mesh_name="m1"))
// MESHES: error: the sources of merge rule FragmentMergeRule(sources=[FragmentInfo(origins=["a"],mesh_name="m1"),FragmentInfo(origins=["b"],mesh_name="m2")],target=FragmentInfo(origins=["a","b"],mesh_name="m1")) are on different meshes
// TARGET: error: the target of merge rule {{.*}} is on mesh "m2" but its sources are on "m1"

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Merging a and c would need b's result, and b needs a's: a cycle.
// expected-error @+1 {{Cycle detected after merging fragments by rules: a merged fragment depends on an op that depends on it (an op between two of its sources uses the first and feeds the second)}}
func.func @cycle(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["b"]> (%1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %3 = mpmd.transfer %2 : (!m2) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["c"]> (%3) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %4 : !m1
}
