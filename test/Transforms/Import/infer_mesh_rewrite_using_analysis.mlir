// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-rewrite-using-analysis='max-clones=3' | FileCheck %s

// Input as left by leaf assignment: every meshless op is consumed by
// assigns. With max-clones=3, an op used by a fragment and by the return is
// wrapped in its own inferred fragment; an op used by three fragments is
// cloned into each of them.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[W:.*]] = mpmd.assign %arg0
// CHECK-NEXT:    %[[ABS:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[W]]) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]}
// CHECK-NEXT:      stablehlo.abs
// CHECK:         %[[A:.*]] = mpmd.fragment<mesh="m1", origin=["a"]> (%[[ABS]]
// CHECK-NEXT:      stablehlo.negate
// CHECK:         mpmd.fragment<mesh="m1", origin=["b"]>
// CHECK-NEXT:      stablehlo.negate
// CHECK:         mpmd.fragment<mesh="m1", origin=["c"]>
// CHECK-NEXT:      stablehlo.negate
// CHECK:         return %[[ABS]], %[[A]]
func.func @main(%arg0: !t) -> (!m1, !m1, !m1, !m1) attributes {topology = #topology} {
  %0 = stablehlo.abs %arg0 : !t
  %1 = mpmd.assign %0 : (!t) -> !m1
  %2 = stablehlo.negate %0 : !t
  %3 = mpmd.assign %2 : (!t) -> !m1
  %a = mpmd.fragment<mesh="m1", origin=["a"]> (%1, %3) (%x: !t, %y: !t) {
    %s = stablehlo.add %x, %y : !t
    mpmd.return %s : !t
  } : (!m1, !m1) -> !m1
  %b = mpmd.fragment<mesh="m1", origin=["b"]> (%3) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %c = mpmd.fragment<mesh="m1", origin=["c"]> (%3) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  return %1, %a, %b, %c : !m1, !m1, !m1, !m1
}

// -----

// The analysis sets describe meshless ops: an op moved into a fragment
// (inlined into its only consumer, or wrapped) loses them, as upstream's
// rewrite leaves none there. The unassign the op reads keeps its own.
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @moved_ops_lose_analysis_sets
// CHECK:       %[[U:.*]] = mpmd.unassign {mpmd.src_set = #mpmd.meshes_with_origins<"m1">, mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">}
// CHECK:       mpmd.fragment<mesh="m1", origin=[]>
// CHECK-NEXT:    stablehlo.abs %{{[a-z0-9]+}} : tensor<4xf32>
// CHECK:       mpmd.fragment<mesh="m2", origin=[]>
// CHECK-NEXT:    stablehlo.abs %{{[a-z0-9]+}} : tensor<4xf32>
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]>
// CHECK-NEXT:    stablehlo.negate %{{[a-z0-9]+}} : tensor<4xf32>
func.func @moved_ops_lose_analysis_sets(%arg0: !m1) -> (!m1, !m2) attributes {topology = #topology} {
  %0 = mpmd.unassign {mpmd.src_set = #mpmd.meshes_with_origins<"m1">, mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">} %arg0 : (!m1) -> !t
  %1 = stablehlo.abs %0 {mpmd.src_set = #mpmd.meshes_with_origins<"m1">, mpmd.use_set = #mpmd.meshes_with_origins<"m2", "m1">} : !t
  %2 = mpmd.assign %1 : (!t) -> !m2
  %3 = stablehlo.negate %1 {mpmd.src_set = #mpmd.meshes_with_origins<"m1">, mpmd.use_set = #mpmd.meshes_with_origins<"m1">} : !t
  %4 = mpmd.assign %3 : (!t) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=["g"]> (%4) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  return %5, %2 : !m1, !m2
}

// -----

// A same-mesh assign(unassign) pair is left for finalize to fold (as
// upstream), not folded by the rewrite.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @same_mesh_pair_kept
// CHECK:         %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK:         %[[U:.*]] = mpmd.unassign %[[F]]
// CHECK-NEXT:    %[[A:.*]] = mpmd.assign %[[U]]
// CHECK-NEXT:    mpmd.fragment<mesh="m1", origin=["g"]> (%[[A]])
func.func @same_mesh_pair_kept(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%y: !t) {
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %1 = mpmd.unassign %0 : (!m1) -> !t
  %2 = mpmd.assign %1 : (!t) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["g"]> (%2) (%y: !t) {
    mpmd.return %y : !t
  } : (!m1) -> !m1
  return %3 : !m1
}
