// Round trip of every sdy op: pretty form, reparsed, and through the
// generic form.
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file %s | FileCheck %s
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file %s | mpmd-opt -allow-unregistered-dialect -split-input-file | FileCheck %s
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file -mlir-print-op-generic %s | mpmd-opt -allow-unregistered-dialect -split-input-file | FileCheck %s
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file -mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2, "d"=2]>

// CHECK-LABEL: func.func @sharding_ops
// GENERIC-LABEL: sym_name = "sharding_ops"
func.func @sharding_ops(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // CHECK-NEXT: %[[C:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> : tensor<16x32xf32>
  // GENERIC: "sdy.sharding_constraint"(%{{.*}}) <{sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}> : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> : tensor<16x32xf32>
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[C]] <@mesh, [{"a", ?}, {?}p1], replicated={"b"}> : tensor<16x32xf32>
  // GENERIC: "sdy.reshard"
  %1 = sdy.reshard %0 <@mesh, [{"a", ?}, {?}p1], replicated={"b"}> : tensor<16x32xf32>
  // CHECK-NEXT: %[[B:.*]] = sdy.propagation_barrier %[[R]] allowed_direction=BACKWARD : tensor<16x32xf32>
  // GENERIC: "sdy.propagation_barrier"
  %2 = sdy.propagation_barrier %1 allowed_direction=BACKWARD : tensor<16x32xf32>
  // CHECK-NEXT: %[[B2:.*]] = sdy.propagation_barrier %[[B]] allowed_direction=FORWARD : tensor<16x32xf32>
  %3 = sdy.propagation_barrier %2 allowed_direction=FORWARD : tensor<16x32xf32>
  // CHECK-NEXT: %[[B3:.*]] = sdy.propagation_barrier %[[B2]] allowed_direction=NONE : tensor<16x32xf32>
  %4 = sdy.propagation_barrier %3 allowed_direction=NONE : tensor<16x32xf32>
  // CHECK-NEXT: sdy.sharding_group %[[B3]] group_id=21 : tensor<16x32xf32>
  // GENERIC: "sdy.sharding_group"({{.*}}) <{group_id = 21 : i64}> : (tensor<16x32xf32>) -> ()
  sdy.sharding_group %4 group_id=21 : tensor<16x32xf32>
  // CHECK-NEXT: return %[[B3]]
  return %4 : tensor<16x32xf32>
}

// CHECK-LABEL: func.func @constant_and_edges
func.func @constant_and_edges() -> tensor<8xf32> {
  // CHECK-NEXT: %[[C:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
  // GENERIC: "sdy.constant"() <{value = dense<1.000000e+00> : tensor<8xf32>}> : () -> tensor<8xf32>
  %0 = sdy.constant dense<1.0> : tensor<8xf32>
  // CHECK-NEXT: %[[E:.*]] = sdy.data_flow_edge %[[C]] sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  // GENERIC: "sdy.data_flow_edge"({{.*}}) <{sharding = #sdy.sharding<@mesh, [{"a"}]>}>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  // CHECK-NEXT: %[[E2:.*]] = sdy.data_flow_edge %[[E]] : tensor<8xf32>
  %2 = sdy.data_flow_edge %1 : tensor<8xf32>
  // CHECK-NEXT: %[[F:.*]] = sdy.func_data_flow_edge %[[E2]] : tensor<8xf32>
  // GENERIC: "sdy.func_data_flow_edge"
  %3 = sdy.func_data_flow_edge %2 : tensor<8xf32>
  // CHECK-NEXT: %[[F2:.*]] = sdy.func_data_flow_edge %[[F]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : tensor<8xf32>
  %4 = sdy.func_data_flow_edge %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : tensor<8xf32>
  // CHECK-NEXT: return %[[F2]]
  return %4 : tensor<8xf32>
}

// -----

sdy.mesh @meshA = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @manual_computation
func.func @manual_computation(%arg0: tensor<16x32xf32>, %arg1: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // CHECK-NEXT: %[[M:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@meshA, [{"a", ?}, {?}]>] out_shardings=[<@meshA, [{"a", ?}, {?}]>] manual_axes={"a"} (%[[X:.*]]: tensor<8x32xf32>) {
  // CHECK-NEXT:   %[[ADD:.*]] = arith.addf %[[X]], %[[X]] : tensor<8x32xf32>
  // CHECK-NEXT:   sdy.return %[[ADD]] : tensor<8x32xf32>
  // CHECK-NEXT: } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  // GENERIC: "sdy.manual_computation"(%{{.*}}) <{in_shardings = #sdy.sharding_per_value<[<@meshA, [{"a", ?}, {?}]>]>, manual_axes = #sdy<manual_axes{"a"}>, out_shardings = #sdy.sharding_per_value<[<@meshA, [{"a", ?}, {?}]>]>}> ({
  // GENERIC-NEXT: ^bb0(%{{.*}}: tensor<8x32xf32>):
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@meshA, [{"a", ?}, {?}]>] out_shardings=[<@meshA, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg2: tensor<8x32xf32>) {
    %1 = arith.addf %arg2, %arg2 : tensor<8x32xf32>
    sdy.return %1 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  // Two manual axes on one dim, a free axis after them, a replicated input
  // and two results.
  // CHECK: sdy.manual_computation(%[[M]], %arg1) in_shardings=[<@meshA, [{"a", "b"}, {}]>, <@meshA, [{}, {}]>] out_shardings=[<@meshA, [{"b", "a"}, {}]>, <@meshA, [{}, {"a"}], replicated={"b"}>] manual_axes={"a", "b"} (%{{.*}}: tensor<4x32xf32>, %{{.*}}: tensor<16x32xf32>) {
  // CHECK: } : (tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<32x64xf32>)
  %2:2 = sdy.manual_computation(%0, %arg1) in_shardings=[<@meshA, [{"a", "b"}, {}]>, <@meshA, [{}, {}]>] out_shardings=[<@meshA, [{"b", "a"}, {}]>, <@meshA, [{}, {"a"}], replicated={"b"}>] manual_axes={"a", "b"} (%arg2: tensor<4x32xf32>, %arg3: tensor<16x32xf32>) {
    %3 = "test.op"(%arg3) : (tensor<16x32xf32>) -> tensor<32x32xf32>
    sdy.return %arg2, %3 : tensor<4x32xf32>, tensor<32x32xf32>
  } : (tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<32x64xf32>)
  // A manual computation over no manual axes and with no operands.
  // CHECK: sdy.manual_computation() in_shardings=[] out_shardings=[<@meshA, [{"a"}]>] manual_axes={} () {
  %4 = sdy.manual_computation() in_shardings=[] out_shardings=[<@meshA, [{"a"}]>] manual_axes={} () {
    %5 = arith.constant dense<0.0> : tensor<8xf32>
    sdy.return %5 : tensor<8xf32>
  } : () -> tensor<8xf32>
  return %2#0 : tensor<16x32xf32>
}

// CHECK-LABEL: func.func @manual_computation_from_jax
func.func @manual_computation_from_jax(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@meshA, [{"a"}, {}]>}) -> (tensor<2x4xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@meshA, [{"a"}, {}]>}) {
  // CHECK: sdy.manual_computation(%arg0) in_shardings=[<@meshA, [{"a"}, {}]>] out_shardings=[<@meshA, [{"a"}, {}]>] manual_axes={"a"} (%{{.*}}: tensor<1x4xf32>) {
  // CHECK-NEXT: "test.collective_permute"
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@meshA, [{"a"}, {}]>] out_shardings=[<@meshA, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<1x4xf32>) {
    %1 = "test.collective_permute"(%arg1) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<1x4xf32>) -> tensor<1x4xf32>
    sdy.return %1 : tensor<1x4xf32>
  } : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @named_computation
func.func @named_computation(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  // CHECK-NEXT: %[[N:.*]] = sdy.named_computation<"foo">(%arg0) in_shardings=[<@meshA, [{"b"}, {}]>] out_shardings=[<@meshA, [{"a"}, {}]>] (%[[X:.*]]: tensor<8x2xi32>) {
  // CHECK-NEXT:   sdy.return %[[X]] : tensor<8x2xi32>
  // CHECK-NEXT: } : (tensor<8x2xi32>) -> tensor<8x2xi32>
  // GENERIC: "sdy.named_computation"(%{{.*}}) <{in_shardings = #sdy.sharding_per_value<[<@meshA, [{"b"}, {}]>]>, name = "foo", out_shardings = #sdy.sharding_per_value<[<@meshA, [{"a"}, {}]>]>}> ({
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@meshA, [{"b"}, {}]>] out_shardings=[<@meshA, [{"a"}, {}]>] (%arg1: tensor<8x2xi32>) {
    sdy.return %arg1 : tensor<8x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
  // CHECK-NEXT: sdy.named_computation<"no_shardings">(%[[N]]) (%{{.*}}: tensor<8x2xi32>) {
  %1 = sdy.named_computation<"no_shardings">(%0) (%arg1: tensor<8x2xi32>) {
    sdy.return %arg1 : tensor<8x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
  // CHECK: sdy.named_computation<"only_out">(%{{.*}}, %{{.*}}) out_shardings=[<@meshA, [{}, {"b"}]>] (%{{.*}}: tensor<8x2xi32>, %{{.*}}: tensor<8x2xi32>) {
  // CHECK: } : (tensor<8x2xi32>, tensor<8x2xi32>) -> tensor<8x2xi32>
  %2 = sdy.named_computation<"only_out">(%0, %1) out_shardings=[<@meshA, [{}, {"b"}]>] (%arg1: tensor<8x2xi32>, %arg2: tensor<8x2xi32>) {
    %3 = arith.addi %arg1, %arg2 : tensor<8x2xi32>
    sdy.return %3 : tensor<8x2xi32>
  } : (tensor<8x2xi32>, tensor<8x2xi32>) -> tensor<8x2xi32>
  // CHECK: sdy.named_computation<"only_in">(%{{.*}}) in_shardings=[<@meshA, [{"a"}, {?}]>] (%{{.*}}: tensor<8x2xi32>) {
  // CHECK-NEXT: sdy.return
  // CHECK-NEXT: } : (tensor<8x2xi32>) -> ()
  sdy.named_computation<"only_in">(%2) in_shardings=[<@meshA, [{"a"}, {?}]>] (%arg1: tensor<8x2xi32>) {
    sdy.return
  } : (tensor<8x2xi32>) -> ()
  return %2 : tensor<8x2xi32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2, "d"=2, "e"=2, "f"=2]>

// CHECK-LABEL: func.func @collectives
func.func @collectives(%arg0: tensor<16x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}, {"d"}]>}) -> tensor<16x32x8xf32> {
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"b"}, {"c"}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {}, {"d"}]> : tensor<16x32x8xf32>
  // GENERIC: "sdy.all_gather"(%{{.*}}) <{gathering_axes = #sdy<list_of_axis_ref_lists[{"b"}, {"c"}, {}]>, out_sharding = #sdy.sharding<@mesh, [{"a"}, {}, {"d"}]>}>
  %0 = sdy.all_gather [{"b"}, {"c"}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {}, {"d"}]> : tensor<16x32x8xf32>
  // CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{}, {"b", "c"}, {}] %[[G]] out_sharding=<@mesh, [{"a"}, {"b", "c"}, {"d"}]> : tensor<16x32x8xf32>
  // GENERIC: "sdy.all_slice"
  %1 = sdy.all_slice [{}, {"b", "c"}, {}] %0 out_sharding=<@mesh, [{"a"}, {"b", "c"}, {"d"}]> : tensor<16x32x8xf32>
  // CHECK-NEXT: %[[R:.*]] = sdy.all_reduce {"e", "f"} %[[S]] out_sharding=<@mesh, [{"a"}, {"b", "c"}, {"d"}]> : tensor<16x32x8xf32>
  // GENERIC: "sdy.all_reduce"({{.*}}) <{out_sharding = #sdy.sharding<@mesh, [{"a"}, {"b", "c"}, {"d"}]>, reduction_axes = #sdy<axis_ref_list{"e", "f"}>, reduction_kind = 0 : i32}>
  %2 = sdy.all_reduce {"e", "f"} %1 out_sharding=<@mesh, [{"a"}, {"b", "c"}, {"d"}]> : tensor<16x32x8xf32>
  // CHECK-NEXT: %[[RS:.*]] = sdy.reduce_scatter [{"e"}, {}, {"f"}] %[[R]] out_sharding=<@mesh, [{"a", "e"}, {"b", "c"}, {"d", "f"}]> : tensor<16x32x8xf32>
  // GENERIC: "sdy.reduce_scatter"
  %3 = sdy.reduce_scatter [{"e"}, {}, {"f"}] %2 out_sharding=<@mesh, [{"a", "e"}, {"b", "c"}, {"d", "f"}]> : tensor<16x32x8xf32>
  // CHECK-NEXT: %[[A:.*]] = sdy.all_to_all [{"e"}: 0->2] %[[RS]] out_sharding=<@mesh, [{"a"}, {"b", "c"}, {"d", "f", "e"}]> : tensor<16x32x8xf32>
  // GENERIC: "sdy.all_to_all"({{.*}}) <{out_sharding = #sdy.sharding<@mesh, [{"a"}, {"b", "c"}, {"d", "f", "e"}]>, params = #sdy<all_to_all_param_list[{"e"}: 0->2]>}>
  %4 = sdy.all_to_all [{"e"}: 0->2] %3 out_sharding=<@mesh, [{"a"}, {"b", "c"}, {"d", "f", "e"}]> : tensor<16x32x8xf32>
  // CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %[[A]] out_sharding=<@mesh, [{"b"}, {"c", "a"}, {"d", "e", "f"}]> : tensor<16x32x8xf32>
  // GENERIC: "sdy.collective_permute"
  %5 = sdy.collective_permute %4 out_sharding=<@mesh, [{"b"}, {"c", "a"}, {"d", "e", "f"}]> : tensor<16x32x8xf32>
  // CHECK-NEXT: return %[[P]]
  return %5 : tensor<16x32x8xf32>
}


// Collectives whose operand sharding is unknown, or comes from an op's
// sdy.sharding, a sharding_constraint or a manual computation.
// CHECK-LABEL: func.func @collective_operand_shardings
func.func @collective_operand_shardings(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{}, {"b"}]>
  %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  %1 = arith.negf %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b"}, {}]>]>} : tensor<8x8xf32>
  // CHECK: sdy.all_gather [{"b"}, {}] %{{.*}} out_sharding=<@mesh, [{"a"}, {}]>
  %2 = sdy.all_gather [{"b"}, {}] %1 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"a"}, {"c"}]> : tensor<8x8xf32>
  // CHECK: sdy.all_to_all [{"c"}: 1->0] %{{.*}} out_sharding=<@mesh, [{"a", "c"}, {}]>
  %4 = sdy.all_to_all [{"c"}: 1->0] %3 out_sharding=<@mesh, [{"a", "c"}, {}]> : tensor<8x8xf32>
  %5 = sdy.reshard %4 <@mesh, [{"d"}, {}]> : tensor<8x8xf32>
  // CHECK: sdy.collective_permute %{{.*}} out_sharding=<@mesh, [{"e"}, {}]>
  %6 = sdy.collective_permute %5 out_sharding=<@mesh, [{"e"}, {}]> : tensor<8x8xf32>
  return %6 : tensor<8x8xf32>
}

// -----

// Mesh symbols resolve through the regions of unregistered ops.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @inside_unregistered_op
// CHECK: sdy.sharding_constraint %{{.*}} <@mesh, [{"x"}]>
func.func @inside_unregistered_op(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "unregistered.op"(%arg0) ({
  ^bb0(%a: tensor<8xf32>):
    %1 = sdy.sharding_constraint %a <@mesh, [{"x"}]> : tensor<8xf32>
    "unregistered.yield"(%1) : (tensor<8xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// Turning replicated and sharding axes into unreduced ones; sub-axes
// joining an unreduced axis merge with it.
// CHECK-LABEL: func.func @to_unreduced
func.func @to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b":(2)2}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[R:.*]] = sdy.replicated_to_unreduced {"b":(1)2} %arg0 out_sharding=<@mesh, [{"a", "b":(2)2}, {}], unreduced={"b":(1)2}> : tensor<8x8xf32>
  // GENERIC: "sdy.replicated_to_unreduced"(%{{.*}}) <{axes = #sdy<axis_ref_list{"b":(1)2}>, out_sharding = #sdy.sharding<@mesh, [{"a", "b":(2)2}, {}], unreduced={"b":(1)2}>}>
  %0 = sdy.replicated_to_unreduced {"b":(1)2} %arg0 out_sharding=<@mesh, [{"a", "b":(2)2}, {}], unreduced={"b":(1)2}> : tensor<8x8xf32>
  // CHECK-NEXT: %[[S:.*]] = sdy.sharded_to_unreduced [{"b":(2)2}, {}] %[[R]] out_sharding=<@mesh, [{"a"}, {}], unreduced={"b"}> : tensor<8x8xf32>
  // GENERIC: "sdy.sharded_to_unreduced"(%{{.*}}) <{axes = #sdy<list_of_axis_ref_lists[{"b":(2)2}, {}]>, out_sharding = #sdy.sharding<@mesh, [{"a"}, {}], unreduced={"b"}>}>
  %1 = sdy.sharded_to_unreduced [{"b":(2)2}, {}] %0 out_sharding=<@mesh, [{"a"}, {}], unreduced={"b"}> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// Sub-axes: gathering or slicing part of an axis, and permuting onto a mesh
// with another device order.
sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @reversed = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

// CHECK-LABEL: func.func @sub_axis_collectives
func.func @sub_axis_collectives(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: sdy.all_gather [{"x":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"x":(1)2}, {}]>
  %0 = sdy.all_gather [{"x":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"x":(1)2}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT: sdy.all_slice [{"x":(2)2}, {}] %{{.*}} out_sharding=<@mesh, [{"x"}, {}]>
  %1 = sdy.all_slice [{"x":(2)2}, {}] %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT: sdy.all_to_all [{"x":(2)2}: 0->1] %{{.*}} out_sharding=<@mesh, [{"x":(1)2}, {"x":(2)2}]>
  %2 = sdy.all_to_all [{"x":(2)2}: 0->1] %1 out_sharding=<@mesh, [{"x":(1)2}, {"x":(2)2}]> : tensor<8x8xf32>
  // CHECK-NEXT: sdy.collective_permute %{{.*}} out_sharding=<@reversed, [{"x":(2)2}, {"x":(1)2}]>
  %3 = sdy.collective_permute %2 out_sharding=<@reversed, [{"x":(2)2}, {"x":(1)2}]> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The reduction kind of an all-reduce: none printed for a sum, `max` /
// `min` before the axes, matching the operand's unreduced axes.
// CHECK-LABEL: func.func @all_reduce_kinds
func.func @all_reduce_kinds(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}], unreduced=max{"b"}>},
                            %arg1: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=min{"a", "b"}>})
    -> (tensor<8x8xf32>, tensor<8x8xi32>) {
  // CHECK-NEXT: sdy.all_reduce max {"b"} %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  // GENERIC: "sdy.all_reduce"(%{{.*}}) <{out_sharding = #sdy.sharding<@mesh, [{"a"}, {}]>, reduction_axes = #sdy<axis_ref_list{"b"}>, reduction_kind = 1 : i32}>
  %0 = sdy.all_reduce max {"b"} %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT: sdy.all_reduce min {"b"} %arg1 out_sharding=<@mesh, [{}, {}], unreduced=min{"a"}> : tensor<8x8xi32>
  %1 = sdy.all_reduce min {"b"} %arg1 out_sharding=<@mesh, [{}, {}], unreduced=min{"a"}> : tensor<8x8xi32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xi32>
}
