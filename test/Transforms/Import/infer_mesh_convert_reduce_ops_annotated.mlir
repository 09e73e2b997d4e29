// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-convert-reduce-ops='infer-cross-mesh-reductions=true' | FileCheck %s

// The convert pass on ops that come annotated (`mpmd.reduce`) with the input,
// without the analyses before it.

// A concat-reduce pair whose combiner takes its arguments in reverse order:
// each concatenated value is reshaped to the reduce's result type, keeping
// the reduce's discardable attributes (but not the annotation), and the
// reshapes feed one valid mpmd.reduce<add>; the concatenate, the reduce and
// the init constant go.
// CHECK-LABEL: func.func @annotated_concat_reduce
// CHECK:         %[[X:.*]] = mpmd.unassign
// CHECK-NEXT:    %[[Y:.*]] = mpmd.unassign
// CHECK-NEXT:    %[[A:.*]] = stablehlo.reshape %[[X]] {mhlo.frontend_attributes = {tag = "sum"}} : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.reshape %[[Y]] {mhlo.frontend_attributes = {tag = "sum"}} : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = mpmd.reduce<add> %[[A]], %[[B]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    mpmd.assign %[[R]]
// CHECK-NEXT:    return

!t = tensor<1x4xf32>
!r = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @annotated_concat_reduce(%arg0: !mpmd.mesh_tensor<"m1", !t>, %arg1: !mpmd.mesh_tensor<"m2", !t>) -> !mpmd.mesh_tensor<"m2", !r> attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!mpmd.mesh_tensor<"m1", !t>) -> !t
  %1 = mpmd.unassign %arg1 : (!mpmd.mesh_tensor<"m2", !t>) -> !t
  %2 = stablehlo.concatenate %0, %1, dim = 0 : (!t, !t) -> tensor<2x4xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %3 = stablehlo.reduce(%2 init: %c) across dimensions = [0] {mhlo.frontend_attributes = {tag = "sum"}, mpmd.reduce = #mpmd.reduction<add>} : (tensor<2x4xf32>, tensor<f32>) -> !r
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.add %b, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  %4 = mpmd.assign %3 : (!r) -> !mpmd.mesh_tensor<"m2", !r>
  return %4 : !mpmd.mesh_tensor<"m2", !r>
}

// -----

// An annotated op that computes no reduction (a subtract; a reduce whose
// concatenated values have size 2) is left alone, without its annotation.
// CHECK-LABEL: func.func @annotated_non_reductions
// CHECK:         stablehlo.subtract %{{.*}}, %{{.*}} : tensor<2x4xf32>
// CHECK-NEXT:    stablehlo.concatenate
// CHECK-NEXT:    stablehlo.constant
// CHECK-NEXT:    stablehlo.reduce
// CHECK-NOT:     mpmd.reduce

!t = tensor<2x4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @annotated_non_reductions(%arg0: !mpmd.mesh_tensor<"m1", !t>, %arg1: !mpmd.mesh_tensor<"m2", !t>) -> (!t, tensor<4xf32>) attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!mpmd.mesh_tensor<"m1", !t>) -> !t
  %1 = mpmd.unassign %arg1 : (!mpmd.mesh_tensor<"m2", !t>) -> !t
  %2 = stablehlo.subtract %0, %1 {mpmd.reduce = #mpmd.reduction<add>} : !t
  %3 = stablehlo.concatenate %0, %1, dim = 0 : (!t, !t) -> tensor<4x4xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %4 = stablehlo.reduce(%3 init: %c) applies stablehlo.add across dimensions = [0] {mpmd.reduce = #mpmd.reduction<add>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %2, %4 : !t, tensor<4xf32>
}
