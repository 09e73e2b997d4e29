// RUN: mpmd-opt %s -split-input-file | FileCheck %s
// RUN: mpmd-opt %s -split-input-file | mpmd-opt -split-input-file | FileCheck %s

// Every form of !mpmd.mesh_tensor: sharding comes before memory_kind.
module {
  sdy.mesh @mesh = <["x"=3, "y"=4]>
  // CHECK-LABEL: func.func @mesh_tensors
  // CHECK-SAME: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
  // CHECK-SAME: !mpmd.mesh_tensor<"m1", tensor<12x16xf32>, sharding=<@mesh, [{?}, {"y"}]>>
  // CHECK-SAME: !mpmd.mesh_tensor<"m1", tensor<12x16xf32>, memory_kind="device">
  // CHECK-SAME: !mpmd.mesh_tensor<"m1", tensor<12x16xf32>, sharding=<@mesh, [{"x", ?}p1, {"y"}]>, memory_kind="pinned_host">
  // CHECK-SAME: !mpmd.mesh_tensor<"m2", tensor<f32>>
  // CHECK-SAME: !mpmd.mesh_tensor<"m2", tensor<12xbf16>, sharding=<@mesh, [{"x", "y"}]>>
  func.func @mesh_tensors(
      %a: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>,
      %b: !mpmd.mesh_tensor<"m1", tensor<12x16xf32>, sharding=<@mesh, [{?}, {"y"}]>>,
      %c: !mpmd.mesh_tensor<"m1", tensor<12x16xf32>, memory_kind="device">,
      %d: !mpmd.mesh_tensor<"m1", tensor<12x16xf32>, sharding=<@mesh, [{"x", ?}p1, {"y"}]>, memory_kind="pinned_host">,
      %e: !mpmd.mesh_tensor<"m2", tensor<f32>>,
      %f: !mpmd.mesh_tensor<"m2", tensor<12xbf16>, sharding=<@mesh, [{"x", "y"}]>>)
      attributes {topology = #mpmd.topology<<"m1": <["x"=3, "y"=4]>>, <"m2": <["x"=3, "y"=4]>>>} {
    return
  }
}

// -----

// Attributes in their standalone forms.
// CHECK-LABEL: func.func @attrs
// CHECK-SAME: a.named_mesh = #mpmd.named_mesh<"m1" : <["x"=2]>>
// CHECK-SAME: b.user_origin = #mpmd.user_origin<"layer"(1)>
// CHECK-SAME: c.user_origin = #mpmd.user_origin<"layer">
// CHECK-SAME: d.origin = #mpmd.origin<"user_in">
// CHECK-SAME: e.mesh_with_origins = #mpmd.mesh_with_origins<"m3"["o1", "o2"]>
// CHECK-SAME: f.mesh_with_origins = #mpmd.mesh_with_origins<"*">
// CHECK-SAME: g.reduction = #mpmd.reduction<add>
// CHECK-SAME: mpmd.src_set = #mpmd.meshes_with_origins<>
// CHECK-SAME: mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2"["transfer"]>
// CHECK-SAME: topology = #mpmd.topology<<"m1" : <["x"=2, "y"=4]>>, <"m2" : <["z"=3]>>, <"m3/cpu" : <[]>>>
func.func @attrs() attributes {
    topology = #mpmd.topology<<"m1": <["x"=2, "y"=4]>>, <"m2" : <["z"=3]>>, <"m3/cpu": <[]>>>,
    a.named_mesh = #mpmd.named_mesh<"m1": <["x"=2]>>,
    b.user_origin = #mpmd.user_origin<"layer"(1)>,
    c.user_origin = #mpmd.user_origin<"layer"(0)>,
    d.origin = #mpmd.origin<"user_in">,
    e.mesh_with_origins = #mpmd.mesh_with_origins<"m3"["o1","o2"]>,
    f.mesh_with_origins = #mpmd.mesh_with_origins<"*">,
    g.reduction = #mpmd.reduction<add>,
    mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2"["transfer"]>,
    mpmd.src_set = #mpmd.meshes_with_origins<>} {
  return
}

// -----

// The older bracket-less mesh form of the RFC parses and prints in the
// canonical form.
// CHECK-LABEL: func.func @legacy_mesh
// CHECK-SAME: mesh_shape = #sdy.mesh<["x"=2]>
// CHECK-SAME: topology = #mpmd.topology<<"m1" : <["x"=2]>>, <"m2" : <["x"=2, "y"=2]>>>
func.func @legacy_mesh() attributes {
    topology = #mpmd.topology<<"m1": <"x"=2>>, <"m2": <"x"=2, "y"=2>>>,
    mesh_shape = #sdy.mesh<"x"=2>} {
  return
}
