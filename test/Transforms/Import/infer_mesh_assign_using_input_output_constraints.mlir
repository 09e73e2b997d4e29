// RUN: mpmd-opt %s -verify-diagnostics -mpmd-infer-mesh-populate-use-set -mpmd-infer-mesh-populate-src-set -mpmd-infer-mesh-assign-using-input-output-constraints='constraints=0:0,1:1 verbose-logging=true' | FileCheck %s
// RUN: mpmd-opt %s -mpmd-import-pipeline='constraints=0:0,1:1' | FileCheck %s --check-prefix=PIPE
// RUN: not mpmd-opt %s -mpmd-infer-mesh-assign-using-input-output-constraints='constraints=0:5' 2>&1 | FileCheck %s --check-prefix=RANGE

// Input 0 and output 0 must be on one mesh: input 0 is used on m2 and output
// 0 comes from m2, so both go to m2 (the input is retyped and unassigned with
// origin io_constraint_in; the output is assigned with io_constraint_out).
// Input 1 and output 1 have no mesh in common yet: left alone, with a remark.
// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m2", tensor<4xf32>> {{.*}}, %arg1: tensor<4xf32>) -> (!mpmd.mesh_tensor<"m2", tensor<4xf32>>, tensor<4xf32>)
// CHECK-NEXT:    %[[IN:.*]] = mpmd.unassign {mpmd.src_set = #mpmd.meshes_with_origins<"m2"["io_constraint_in", "inferred_in"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m2">, origin = "io_constraint_in"} %arg0
// CHECK-NEXT:    mpmd.assign {mpmd.src_set = #mpmd.meshes_with_origins<"m2"["inferred_in"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m2">} %[[IN]] : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK:         %[[SUM:.*]] = stablehlo.add
// CHECK-NEXT:    %[[NEG:.*]] = stablehlo.negate %arg1
// CHECK-NEXT:    %[[OUT:.*]] = mpmd.assign {origin = "io_constraint_out"} %[[SUM]] : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    return %[[OUT]], %[[NEG]]

// Through the whole import, each constrained pair ends on one mesh (input 1
// and output 1 on the first mesh, as nothing else pins them).
// PIPE-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m2", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> (!mpmd.mesh_tensor<"m2", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>)

// RANGE: error: input/output constraint 0:5 is out of range

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// expected-remark @+2 {{input 0 and output 0 assigned to mesh "m2"}}
// expected-remark @+1 {{no common mesh for input 1 and output 1}}
func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  %0 = mpmd.assign %arg0 : (!t) -> !m2
  %f = mpmd.fragment<mesh="m2", origin=["f"]> (%0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %1 = mpmd.unassign %f : (!m2) -> !t
  %2 = stablehlo.add %1, %1 : !t
  %3 = stablehlo.negate %arg1 : !t
  return %2, %3 : !t, !t
}
