// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-populate-use-set -mpmd-infer-mesh-populate-src-set -mpmd-infer-mesh-convert-reduce-ops | FileCheck %s
// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-populate-use-set -mpmd-infer-mesh-populate-src-set -mpmd-infer-mesh-convert-reduce-ops='infer-cross-mesh-reductions=true' | FileCheck %s --check-prefix=CROSS

// A chain of adds over results of three meshes: with cross-mesh reductions
// it becomes one flattened mpmd.reduce<add> with the union src_set; without,
// the annotations go and the src_sets are the (empty) intersections, for the
// validation to report.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[A:.*]] = stablehlo.add %{{.*}}, %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<>, mpmd.use_set = #mpmd.meshes_with_origins<"m1">}
// CHECK-NEXT:    stablehlo.add %[[A]], %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<>, mpmd.use_set = #mpmd.meshes_with_origins<"m1">}
// CHECK-NOT:     mpmd.reduce
// CROSS-LABEL: func.func @chain
// CROSS:         %[[X:.*]] = mpmd.unassign {{.*}}origin = "f"
// CROSS-NEXT:    %[[Y:.*]] = mpmd.unassign {{.*}}origin = "g"
// CROSS-NEXT:    %[[Z:.*]] = mpmd.unassign {{.*}}origin = "h"
// CROSS-NEXT:    %[[R:.*]] = mpmd.reduce<add> {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2"["g"], "m3"["h"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m1">} %[[X]], %[[Y]], %[[Z]] : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CROSS-NEXT:    mpmd.assign {{.*}} %[[R]]
// CROSS-NOT:     stablehlo.add

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

func.func @chain(%arg0: !m1, %arg1: !m2, %arg2: !m3) -> !m1 attributes {topology = #topology} {
  %a = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %b = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %c = mpmd.fragment<mesh="m3", origin=["h"]> (%arg2) (%x: !t) {
    mpmd.return %x : !t
  } : (!m3) -> !m3
  %0 = mpmd.unassign {origin = "f"} %a : (!m1) -> !t
  %1 = mpmd.unassign {origin = "g"} %b : (!m2) -> !t
  %2 = mpmd.unassign {origin = "h"} %c : (!m3) -> !t
  %3 = stablehlo.add %0, %1 : !t
  %4 = stablehlo.add %3, %2 : !t
  %5 = mpmd.assign %4 : (!t) -> !m1
  return %5 : !m1
}

// -----

// A maximum consumed by a user mpmd.reduce<none> is a reduction in both
// modes; the reduce<none> stays (it is where the result crosses meshes). An
// add that is not so consumed is a reduction only with cross-mesh reductions.
// CHECK-LABEL: func.func @user_reduce
// CHECK:         %[[X:.*]] = mpmd.unassign {{.*}}origin = "f"
// CHECK-NEXT:    %[[Y:.*]] = mpmd.unassign {{.*}}origin = "g"
// CHECK-NEXT:    %[[M:.*]] = mpmd.reduce<max> {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2"["g"]>} %[[X]], %[[Y]]
// CHECK-NEXT:    %[[N:.*]] = mpmd.reduce<none> {{.*}} %[[M]]
// CHECK-NEXT:    %[[S:.*]] = stablehlo.add %[[X]], %[[Y]] {mpmd.src_set = #mpmd.meshes_with_origins<>
// CHECK-NEXT:    mpmd.assign {{.*}} %[[N]]
// CHECK-NEXT:    mpmd.assign {{.*}} %[[S]]
// CROSS-LABEL: func.func @user_reduce
// CROSS:         %[[M:.*]] = mpmd.reduce<max> {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2"["g"]>}
// CROSS-NEXT:    mpmd.reduce<none> {{.*}} %[[M]]
// CROSS-NEXT:    mpmd.reduce<add> {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2"["g"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m2">}

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @user_reduce(%arg0: !m1, %arg1: !m2) -> (!m1, !m2) attributes {topology = #topology} {
  %a = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %b = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %0 = mpmd.unassign {origin = "f"} %a : (!m1) -> !t
  %1 = mpmd.unassign {origin = "g"} %b : (!m2) -> !t
  %2 = stablehlo.maximum %0, %1 : !t
  %3 = mpmd.reduce<none> %2 : (!t) -> !t
  %4 = stablehlo.add %0, %1 : !t
  %5 = mpmd.assign %3 : (!t) -> !m1
  %6 = mpmd.assign %4 : (!t) -> !m2
  return %5, %6 : !m1, !m2
}

// -----

// A reduce over the concatenated dimension of size-1 slices, with the
// identity as init, reduces the slices: with cross-mesh reductions it becomes
// a reshape of each slice to the result type, with the reduce's use_set, and
// an mpmd.reduce (the concatenate and the init constant go); without, the
// concatenate is where the meshes conflict.
// CHECK-LABEL: func.func @concat_reduce
// CHECK:         stablehlo.concatenate {{.*}}mpmd.src_set = #mpmd.meshes_with_origins<>
// CHECK:         stablehlo.reduce
// CHECK-NOT:     mpmd.reduce
// CROSS-LABEL: func.func @concat_reduce
// CROSS:         %[[A:.*]] = stablehlo.reshape %{{.*}} : (tensor<4xf32>) -> tensor<1x4xf32>
// CROSS-NEXT:    %[[B:.*]] = stablehlo.reshape %{{.*}} : (tensor<4xf32>) -> tensor<1x4xf32>
// CROSS-NEXT:    %[[RA:.*]] = stablehlo.reshape %[[A]] {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m2">} : (tensor<1x4xf32>) -> tensor<4xf32>
// CROSS-NEXT:    %[[RB:.*]] = stablehlo.reshape %[[B]] {mpmd.src_set = #mpmd.meshes_with_origins<"m2"["g"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m2">} : (tensor<1x4xf32>) -> tensor<4xf32>
// CROSS-NEXT:    %[[R:.*]] = mpmd.reduce<add> {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2"["g"]>, mpmd.use_set = #mpmd.meshes_with_origins<"m2">} %[[RA]], %[[RB]]
// CROSS-NEXT:    mpmd.assign {{.*}} %[[R]]
// CROSS-NOT:     stablehlo.concatenate
// CROSS-NOT:     stablehlo.constant
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @concat_reduce(%arg0: !m1, %arg1: !m2) -> !m2 attributes {topology = #topology} {
  %a = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %b = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %0 = mpmd.unassign {origin = "f"} %a : (!m1) -> !t
  %1 = mpmd.unassign {origin = "g"} %b : (!m2) -> !t
  %2 = stablehlo.reshape %0 : (tensor<4xf32>) -> tensor<1x4xf32>
  %3 = stablehlo.reshape %1 : (tensor<4xf32>) -> tensor<1x4xf32>
  %4 = stablehlo.concatenate %2, %3, dim = 0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %5 = stablehlo.reduce(%4 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
  %6 = mpmd.assign %5 : (!t) -> !m2
  return %6 : !m2
}

// -----

// Not a reduction of the slices: the init is not the identity of the body.
// CROSS-LABEL: func.func @concat_reduce_with_init
// CROSS:         stablehlo.concatenate
// CROSS:         stablehlo.reduce
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @concat_reduce_with_init(%arg0: !m1, %arg1: !m2) -> !m2 attributes {topology = #topology} {
  %a = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %b = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %0 = mpmd.unassign {origin = "f"} %a : (!m1) -> !t
  %1 = mpmd.unassign {origin = "g"} %b : (!m2) -> !t
  %2 = stablehlo.reshape %0 : (tensor<4xf32>) -> tensor<1x4xf32>
  %3 = stablehlo.reshape %1 : (tensor<4xf32>) -> tensor<1x4xf32>
  %4 = stablehlo.concatenate %2, %3, dim = 0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %5 = stablehlo.reduce(%4 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
  %6 = mpmd.assign %5 : (!t) -> !m2
  return %6 : !m2
}

// -----

// Without cross-mesh reductions, a user reduce<none> converts the reduction
// it reads through unary ops (the negate), and the producers of its operands
// of the same kind (the add on m1), which flatten into it; a producer of
// another kind (the multiply) stays. The negate and the reduce<none> stay.
// CHECK-LABEL: func.func @none_through_unary
// CHECK:         %[[X:.*]] = mpmd.unassign {{.*}}origin = "f"
// CHECK-NEXT:    %[[Y:.*]] = mpmd.unassign {{.*}}origin = "g"
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %[[X]], %[[X]] {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"]>}
// CHECK-NEXT:    %[[R:.*]] = mpmd.reduce<add> {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2"["g"]>} %[[M]], %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[R]]
// CHECK-NEXT:    %[[U:.*]] = mpmd.reduce<none> {{.*}} %[[N]]
// CHECK-NEXT:    mpmd.assign {{.*}} %[[U]]
// CHECK-NEXT:    return

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @none_through_unary(%arg0: !m1, %arg1: !m2) -> !m1 attributes {topology = #topology} {
  %a = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %b = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %0 = mpmd.unassign {origin = "f"} %a : (!m1) -> !t
  %1 = mpmd.unassign {origin = "g"} %b : (!m2) -> !t
  %2 = stablehlo.multiply %0, %0 : !t
  %3 = stablehlo.add %2, %0 : !t
  %4 = stablehlo.add %3, %1 : !t
  %5 = stablehlo.negate %4 : !t
  %6 = mpmd.reduce<none> %5 : (!t) -> !t
  %7 = mpmd.assign %6 : (!t) -> !m1
  return %7 : !m1
}

// -----

// Flattening replaces an operand produced by a reduce of the same kind by
// that reduce's operands even when the inner reduce has other users; it then
// stays for them.
// CROSS-LABEL: func.func @flatten_shared_inner
// CROSS:         %[[X:.*]] = mpmd.unassign {{.*}}origin = "f"
// CROSS-NEXT:    %[[Y:.*]] = mpmd.unassign {{.*}}origin = "g"
// CROSS-NEXT:    %[[Z:.*]] = mpmd.unassign {{.*}}origin = "h"
// CROSS-NEXT:    %[[I:.*]] = mpmd.reduce<add> {{.*}} %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CROSS-NEXT:    %[[O:.*]] = mpmd.reduce<add> {{.*}} %[[X]], %[[Y]], %[[Z]] : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CROSS-NEXT:    mpmd.assign {{.*}} %[[O]]
// CROSS-NEXT:    mpmd.assign {{.*}} %[[I]]

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

func.func @flatten_shared_inner(%arg0: !m1, %arg1: !m2, %arg2: !m3) -> (!m1, !m2) attributes {topology = #topology} {
  %a = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %b = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %c = mpmd.fragment<mesh="m3", origin=["h"]> (%arg2) (%x: !t) {
    mpmd.return %x : !t
  } : (!m3) -> !m3
  %0 = mpmd.unassign {origin = "f"} %a : (!m1) -> !t
  %1 = mpmd.unassign {origin = "g"} %b : (!m2) -> !t
  %2 = mpmd.unassign {origin = "h"} %c : (!m3) -> !t
  %3 = stablehlo.add %0, %1 : !t
  %4 = stablehlo.add %3, %2 : !t
  %5 = mpmd.assign %4 : (!t) -> !m1
  %6 = mpmd.assign %3 : (!t) -> !m2
  return %5, %6 : !m1, !m2
}

// -----

// A concat-reduce pair feeding a user reduce<none> is converted without
// cross-mesh reductions too; the combiner's arguments may come in either
// order.
// CHECK-LABEL: func.func @none_concat_reduce
// CHECK:         %[[A:.*]] = stablehlo.reshape %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"]>} : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.reshape %{{.*}} {mpmd.src_set = #mpmd.meshes_with_origins<"m2"["g"]>} : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = mpmd.reduce<max> {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["f"], "m2"["g"]>} %[[A]], %[[B]]
// CHECK-NEXT:    %[[N:.*]] = mpmd.reduce<none> {{.*}} %[[R]]
// CHECK-NEXT:    mpmd.assign {{.*}} %[[N]]
// CHECK-NOT:     stablehlo.concatenate

!t = tensor<1x4xf32>
!r = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @none_concat_reduce(%arg0: !m1, %arg1: !m2) -> !mpmd.mesh_tensor<"m2", !r> attributes {topology = #topology} {
  %a = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %b = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %0 = mpmd.unassign {origin = "f"} %a : (!m1) -> !t
  %1 = mpmd.unassign {origin = "g"} %b : (!m2) -> !t
  %2 = stablehlo.concatenate %0, %1, dim = 0 : (!t, !t) -> tensor<2x4xf32>
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %3 = stablehlo.reduce(%2 init: %c) across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> !r
   reducer(%p: tensor<f32>, %q: tensor<f32>) {
    %m = stablehlo.maximum %q, %p : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }
  %4 = mpmd.reduce<none> %3 : (!r) -> !r
  %5 = mpmd.assign %4 : (!r) -> !mpmd.mesh_tensor<"m2", !r>
  return %5 : !mpmd.mesh_tensor<"m2", !r>
}
