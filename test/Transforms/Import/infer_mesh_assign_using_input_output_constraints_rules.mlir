// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-populate-use-set -mpmd-infer-mesh-populate-src-set -mpmd-infer-mesh-assign-using-input-output-constraints='constraints=0:0' | FileCheck %s

// How the mesh of a constrained input/output pair is chosen.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// An input without a use_set takes the output's use_set (m2) over the
// output's src_set (m1).
// CHECK-LABEL: func.func @unused_input_output_use_set(%arg0: !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK:         mpmd.assign {origin = "io_constraint_out"} %{{.*}} : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
func.func @unused_input_output_use_set(%arg0: !t, %arg1: !m1) -> (!t, !m2) attributes {topology = #topology} {
  %0 = mpmd.unassign %arg1 : (!m1) -> !t
  %1 = stablehlo.add %0, %0 : !t
  %2 = mpmd.assign %1 : (!t) -> !m2
  return %1, %2 : !t, !m2
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Neither has a use_set: the output's src_set decides (m2).
// CHECK-LABEL: func.func @unused_input_output_src_set(%arg0: !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK:         mpmd.assign {origin = "io_constraint_out"} %{{.*}} : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
func.func @unused_input_output_src_set(%arg0: !t, %arg1: !m2) -> !t attributes {topology = #topology} {
  %0 = mpmd.unassign %arg1 : (!m2) -> !t
  %1 = stablehlo.add %0, %0 : !t
  return %1 : !t
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// An input already on m1 with an output that can only be computed on m2:
// the output is left for a later transfer.
// CHECK-LABEL: func.func @input_on_another_mesh(
// CHECK-NOT:     io_constraint
// CHECK:         return
func.func @input_on_another_mesh(%arg0: !m1, %arg1: !m2) -> !t attributes {topology = #topology} {
  %0 = mpmd.unassign %arg1 : (!m2) -> !t
  %1 = stablehlo.add %0, %0 : !t
  return %1 : !t
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// An input already on m1 and an output computable anywhere: the output goes
// to m1.
// CHECK-LABEL: func.func @input_on_a_mesh(
// CHECK:         mpmd.assign {origin = "io_constraint_out"} %{{.*}} : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
func.func @input_on_a_mesh(%arg0: !m1) -> !t attributes {topology = #topology} {
  %0 = stablehlo.constant dense<1.0> : !t
  return %0 : !t
}
