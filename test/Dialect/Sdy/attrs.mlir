// Round trip of every sdy attribute form, printed and generic.
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file %s | FileCheck %s
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file %s | mpmd-opt -allow-unregistered-dialect -split-input-file | FileCheck %s
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file -mlir-print-op-generic %s | mpmd-opt -allow-unregistered-dialect -split-input-file | FileCheck %s

// CHECK-LABEL: sdy.mesh @mesh = <["data"=4, "model"=2]>
// CHECK-NEXT: sdy.mesh @permuted = <["a"=2, "b"=1], device_ids=[1, 0]>
// CHECK-NEXT: sdy.mesh @iota = <["a"=2, "b"=2]>
// CHECK-NEXT: sdy.mesh @empty_mesh = <[]>
// CHECK-NEXT: sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
// CHECK-NEXT: sdy.mesh @legacy = <["x"=2, "y"=4]>
// CHECK-NEXT: sdy.mesh @with_dict = <["data"=1, "model"=1]> {stablehlo.mesh = {axes = [{name = "data", size = 1 : i64}, {name = "model", size = 1 : i64}]}}
sdy.mesh @mesh = <["data"=4, "model"=2]>
sdy.mesh @permuted = <["a"=2, "b"=1], device_ids=[1, 0]>
// Explicit iota device ids are the default and are not printed.
sdy.mesh @iota = <["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>
sdy.mesh @empty_mesh = <[]>
sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
// The bracket-less form of older texts.
sdy.mesh @legacy = <"x"=2, "y"=4>
sdy.mesh @with_dict = <["data"=1, "model"=1]> {stablehlo.mesh = {axes = [{name = "data", size = 1 : i64}, {name = "model", size = 1 : i64}]}}

// -----

sdy.mesh @mesh = <["x"=8, "y"=2, "z"=2]>

// CHECK-LABEL: func.func @dim_shardings
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
// CHECK-SAME: %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p0, {"z", ?}p2]>}
// CHECK-SAME: %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}p1, {"y", "z"}]>}
// CHECK-SAME: %arg4: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
func.func @dim_shardings(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p0, {"z", ?}p2]>},
    %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}p1, {"y", "z"}]>},
    %arg4: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @replicated_and_unreduced
// CHECK-SAME: #sdy.sharding<@mesh, [{"x"}, {}], replicated={"y"}>
// CHECK-SAME: #sdy.sharding<@mesh, [{}, {?}], unreduced={"z"}>
// CHECK-SAME: #sdy.sharding<@mesh, [{"x"}, {}], replicated={"y"}, unreduced={"z"}>
func.func @replicated_and_unreduced(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], replicated={"y"}>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}], unreduced={"z"}>},
    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], replicated={"y"}, unreduced={"z"}>}) {
  return
}

// A sum (the default) has no keyword; max and min precede the axes.
// CHECK-LABEL: func.func @unreduced_reduction_kinds
// CHECK-SAME: #sdy.sharding<@mesh, [{}, {}], unreduced={"z"}>
// CHECK-SAME: #sdy.sharding<@mesh, [{"x"}, {}], unreduced=max{"y", "z"}>
// CHECK-SAME: #sdy.sharding<@mesh, [{}, {}], replicated={"x"}, unreduced=min{"z"}>
// CHECK-SAME: #sdy.sharding<@mesh, [{}, {}]>
func.func @unreduced_reduction_kinds(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"z"}>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced=max{"y", "z"}>},
    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"x"}, unreduced=min{"z"}>},
    %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={}>}) {
  return
}

// CHECK-LABEL: func.func @sub_axes
// CHECK-SAME: #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)4}]>
// CHECK-SAME: #sdy.sharding<@mesh, [{"y", "x":(2)2}, {}], replicated={"x":(1)2}>
func.func @sub_axes(
    %arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)4}]>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(2)2}, {}], replicated={"x":(1)2}>}) {
  return
}

// CHECK-LABEL: func.func @inlined_mesh
// CHECK-SAME: #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>
// CHECK-SAME: #sdy.sharding<mesh<["a"=2], device_ids=[1, 0]>, [{?}]>
func.func @inlined_mesh(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>},
    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2], device_ids=[1, 0]>, [{?}]>}) {
  return
}

// CHECK-LABEL: func.func @sharding_per_value
func.func @sharding_per_value(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>]>}
  %0 = arith.addf %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>]>} : tensor<8x8xf32>
  // CHECK: {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, <@mesh, []>]>}
  %1:2 = "test.op"() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, <@mesh, []>]>} : () -> (tensor<4xf32>, tensor<f32>)
  // CHECK: {sdy.sharding = #sdy.sharding_per_value<[]>}
  "test.op"() {sdy.sharding = #sdy.sharding_per_value<[]>} : () -> ()
  return %0 : tensor<8x8xf32>
}

// -----

// The helper attributes used inside op syntax also round-trip on their own
// (their body does not start with '<', so they print in the #sdy<...> form).
// CHECK-LABEL: func.func @helper_attrs
// CHECK-SAME: a = #sdy.mesh_axis<"x"=4>
// CHECK-SAME: b = #sdy.axis_ref<"x":(2)2>
// CHECK-SAME: c = #sdy<axis_ref_list{"x", "y"}>
// CHECK-SAME: d = #sdy<list_of_axis_ref_lists[{"x"}, {}]>
// CHECK-SAME: e = #sdy<manual_axes{"x"}>
// CHECK-SAME: f = #sdy<dimension_sharding{"x", ?}p1>
// CHECK-SAME: g = #sdy<all_to_all_param_list[{"x"}: 0->1, {"y"}: 2->3]>
// CHECK-SAME: h = #sdy<sub_axis_info(1)2>
// CHECK-SAME: i = #sdy.mesh<["x"=4]>
func.func @helper_attrs() attributes {
    a = #sdy.mesh_axis<"x"=4>, b = #sdy.axis_ref<"x":(2)2>,
    c = #sdy<axis_ref_list{"x", "y"}>, d = #sdy<list_of_axis_ref_lists[{"x"}, {}]>,
    e = #sdy<manual_axes{"x"}>, f = #sdy<dimension_sharding{"x", ?}p1>,
    g = #sdy<all_to_all_param_list[{"x"}: 0->1, {"y"}: 2->3]>,
    h = #sdy<sub_axis_info(1)2>, i = #sdy.mesh<["x"=4]>} {
  return
}

// -----

// A sharding on a maximal mesh may leave out the dimension shardings,
// whatever the rank of the value.
sdy.mesh @maximal = <[], device_ids=[1]>

// CHECK-LABEL: func.func @maximal_without_dims
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}
// CHECK-SAME: %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, [{}]>}
func.func @maximal_without_dims(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>},
    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, [{}]>}) {
  return
}
