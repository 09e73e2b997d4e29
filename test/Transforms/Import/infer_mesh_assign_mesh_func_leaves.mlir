// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-infer-mesh-assign-mesh-func-leaves | FileCheck %s
// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-assign-mesh-func-leaves='infer-transfers=true' | FileCheck %s --check-prefix=XFER

// Outputs go to a mesh of their src_set, preferring their use_set, then
// meshes that are not only `broadcast_in`, then the first; unused inputs go
// to the first mesh; unused ops get an `inferred_unused` assign; operands of
// mpmd.broadcast become assign/unassign leaves (origin "broadcast"). The
// use_sets of meshless ops are dropped: they are recomputed next.

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: tensor<4xf32>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m3", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK:         stablehlo.abs %arg0 {mpmd.src_set = #mpmd.meshes_with_origins<"m2", "m3">}
// CHECK:         %[[U:.*]] = stablehlo.negate
// CHECK-NEXT:    mpmd.assign {origin = "inferred_unused"} %[[U]] : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK:         %[[LA:.*]] = mpmd.assign {origin = "broadcast"} %{{.*}} : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[LU:.*]] = mpmd.unassign %[[LA]]
// CHECK-NEXT:    mpmd.broadcast {{.*}}%[[LU]] :
// CHECK:         mpmd.assign {origin = "inferred_out"} %{{.*}} : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m3", tensor<4xf32>>
// CHECK-NEXT:    mpmd.assign {origin = "inferred_out"} %{{.*}} : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    mpmd.assign {origin = "inferred_out"} %{{.*}} : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    mpmd.assign {origin = "inferred_out"} %{{.*}} : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t, !t, !t) attributes {topology = #topology} {
  %0 = stablehlo.abs %arg0 {mpmd.use_set = #mpmd.meshes_with_origins<"m3">, mpmd.src_set = #mpmd.meshes_with_origins<"m2", "m3">} : !t
  %1 = stablehlo.sine %arg0 {mpmd.src_set = #mpmd.meshes_with_origins<"m2", "m3">} : !t
  %2 = stablehlo.negate %arg0 {mpmd.src_set = #mpmd.meshes_with_origins<"m2", "m3">} : !t
  %3 = stablehlo.cosine %arg0 {mpmd.src_set = #mpmd.meshes_with_origins<"m1"["broadcast_in"], "m2"["broadcast_in"], "m2"["x"]>} : !t
  %4 = mpmd.broadcast {mpmd.use_set = #mpmd.meshes_with_origins<"m2">} %1 : !t
  %5 = stablehlo.constant dense<1.0> : !t
  return %0, %3, %4, %5 : !t, !t, !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// With infer-transfers an output that can be nowhere goes to the first mesh.
// XFER-LABEL: func.func @nowhere
// XFER:         mpmd.assign {origin = "inferred_out"} %{{.*}} : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
func.func @nowhere(%arg0: !t) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{Func output 0 has no mesh to be assigned to.}}
  %0 = stablehlo.abs %arg0 {mpmd.src_set = #mpmd.meshes_with_origins<>} : !t
  return %0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Callees: only an argument nobody uses (%a, onto a mesh of its src_set)
// and a result no caller uses (result 1, onto the first mesh) get a use_set
// of their own; %b is used, if only by a dead op, which gets the
// inferred_unused assign instead.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME:    (%arg0: tensor<4xf32> {mpmd.src_set = #mpmd.meshes_with_origins<"m2">, mpmd.use_set = #mpmd.meshes_with_origins<"m2"["inferred_unused_callee_in"]>},
// CHECK-SAME:     %arg1: tensor<4xf32>, %arg2: tensor<4xf32>)
// CHECK-SAME:    -> (tensor<4xf32>, tensor<4xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m1"["inferred_unused_callee_out"]>})
// CHECK:         mpmd.assign {origin = "inferred_unused"}
func.func @main(%arg0: !t, %arg1: !t, %arg2: !t) -> !t attributes {topology = #topology} {
  %0:2 = mpmd.call @callee(%arg0, %arg1, %arg2) : (!t, !t, !t) -> (!t, !t)
  return %0#0 : !t
}
func.func private @callee(%a: !t {mpmd.src_set = #mpmd.meshes_with_origins<"m2">}, %b: !t, %c: !t) -> (!t, !t) attributes {topology = #topology} {
  %1 = stablehlo.negate %b : !t
  return %c, %c : !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.call @unplaceable(%arg0, %arg0) : (!t, !t) -> !t
  return %0 : !t
}
// expected-error @+1 {{Unused argument 0 of unplaceable has no mesh to be assigned to}}
func.func private @unplaceable(%a: !t {mpmd.src_set = #mpmd.meshes_with_origins<>}, %b: !t) -> !t attributes {topology = #topology} {
  return %b : !t
}
