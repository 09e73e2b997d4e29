// One case per verifier error of the sdy ops.
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file -verify-diagnostics %s

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @sharding_constraint_unknown_axis(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op result has an invalid sharding #sdy.sharding<@mesh, [{"z"}, {}]>: unknown axis name: "z"}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"z"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @sharding_constraint_unknown_mesh(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op result has a sharding on unknown mesh @mesh}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @sharding_constraint_type_mismatch(%arg0: tensor<8x8xf32>) -> tensor<8x8xf16> {
  // expected-error @+1 {{'sdy.sharding_constraint' op requires the same type for all operands and results}}
  %0 = "sdy.sharding_constraint"(%arg0) <{sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @reshard_rank(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.reshard' op result has an invalid sharding #sdy.sharding<@mesh, [{"a"}]>: sharding doesn't match tensor rank: 1 != 2}}
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @data_flow_edge_duplicate_axis(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.data_flow_edge' op result has an invalid sharding #sdy.sharding<@mesh, [{"a"}, {"a"}]>: axis "a" is used more than once}}
  %0 = sdy.data_flow_edge %arg0 sharding=<@mesh, [{"a"}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @propagation_barrier_both(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.propagation_barrier' op allowed_direction must be FORWARD, BACKWARD or NONE, not BOTH}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @propagation_barrier_bad_keyword(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'allowed_direction' [NONE, FORWARD, BACKWARD, BOTH]}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=SIDEWAYS : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @sharding_group_negative_id(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{'sdy.sharding_group' op group_id must be non-negative, got -1}}
  sdy.sharding_group %arg0 group_id=-1 : tensor<8xf32>
  return
}

// -----

func.func @constant_type_mismatch() -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.constant' op failed to verify that all of {value, output} have same type}}
  %0 = "sdy.constant"() <{value = dense<1.0> : tensor<8xf32>}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// manual_computation

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_axis_twice(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op manual axis "a" is listed more than once}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a", "a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_in_shardings_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op has 2 in_shardings but 1 operands}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>, <@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_out_shardings_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op has 0 out_shardings but 1 results}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_invalid_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand 0 has an invalid sharding #sdy.sharding<@mesh, [{"a"}, {}]>: sharding doesn't match tensor rank: 2 != 1}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_axis_not_in_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op manual axis "z" is not an axis of the mesh of operand 0}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"z"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_axis_after_free_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand 0: manual axis "a" comes after free axis "b" in dim 0 (manual axes must come first)}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b", "a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_axes_do_not_divide(%arg0: tensor<8xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op result 0: dim 0 of size 6 is not divisible by the size 4 of its manual axes}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a", "b"}]>] manual_axes={"a", "b"} (%arg1: tensor<4xf32>) {
    %1 = "test.op"(%arg1) : (tensor<4xf32>) -> tensor<1xf32>
    sdy.return %1 : tensor<1xf32>
  } : (tensor<8xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_body_argument_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op body has 2 arguments, expected 1}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>, %arg2: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_body_has_global_type(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op body argument 0 has type 'tensor<8xf32>', expected 'tensor<4xf32>'}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_return_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op body returns 2 values, expected 1}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1, %arg1 : tensor<4xf32>, tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_return_type(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op body returns value 0 of type 'tensor<8xf32>', expected 'tensor<2xf32>'}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a", "b"}]>] manual_axes={"a", "b"} (%arg1: tensor<4xf32>) {
    %1 = "test.op"(%arg1) : (tensor<4xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_wrong_terminator(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{'sdy.manual_computation' op body must end with sdy.return}}
  sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    "test.terminator"() : () -> ()
  } : (tensor<8xf32>) -> ()
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_isolated_from_above(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    // expected-error @+1 {{using value defined outside the region}}
    %1 = "test.op"(%arg0) : (tensor<8xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// named_computation

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @named_in_shardings_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op has 2 in_shardings but 1 operands}}
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"a"}]>, <@mesh, [{"a"}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @named_out_shardings_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op has 0 out_shardings but 1 results}}
  %0 = sdy.named_computation<"foo">(%arg0) out_shardings=[] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @named_invalid_out_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op result 0 has an invalid sharding #sdy.sharding<@mesh, [{"c"}]>: unknown axis name: "c"}}
  %0 = sdy.named_computation<"foo">(%arg0) out_shardings=[<@mesh, [{"c"}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @named_body_argument_type(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op body argument 0 has type 'tensor<4xf32>', expected 'tensor<8xf32>'}}
  %0 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<4xf32>) {
    %1 = "test.op"(%arg1) : (tensor<4xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @named_return_type(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op body returns value 0 of type 'tensor<8xi32>', expected 'tensor<8xf32>'}}
  %0 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<8xf32>) {
    %1 = "test.op"(%arg1) : (tensor<8xf32>) -> tensor<8xi32>
    sdy.return %1 : tensor<8xi32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Collectives: shared checks.

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @collective_invalid_out_sharding(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op result has an invalid sharding #sdy.sharding<@mesh, [{"a"}]>: sharding doesn't match tensor rank: 1 != 2}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @other = <["a"=4]>
func.func @collective_different_meshes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@other, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op operand sharding and out_sharding must be on meshes with the same axes (only the device order may change)}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @reversed = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
func.func @all_gather_to_other_device_order(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op operand sharding and out_sharding must be on the same mesh}}
  %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@reversed, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @all_gather_sub_axis_not_a_suffix(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op gathering axes {"a":(1)2} of dim 0 are not a suffix of the operand's dim sharding {"a"}}}
  %0 = sdy.all_gather [{"a":(1)2}, {}] %arg0 out_sharding=<@mesh, [{"a":(2)2}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_gather_through_barrier(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8x8xf32>
  // expected-error @+1 {{'sdy.all_gather' op gathering axes {"a"} of dim 0 are not a suffix of the operand's dim sharding {"a", "b"}}}
  %1 = sdy.all_gather [{"a"}, {}] %0 out_sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @collective_type_change(%arg0: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op requires the same type for all operands and results}}
  %0 = "sdy.all_gather"(%arg0) <{gathering_axes = #sdy<list_of_axis_ref_lists[{}, {}]>, out_sharding = #sdy.sharding<@mesh, [{}, {}]>}> : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// all_gather

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_gather_list_count(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op expected 2 gathering axes lists (one per dimension), got 1}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_gather_unknown_axis(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op gathering axes are invalid: unknown axis name: "q"}}
  %0 = sdy.all_gather [{"q"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_gather_axis_still_sharding(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op gathered axis "a" still shards dim 1 of out_sharding}}
  %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_gather_not_a_suffix(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op gathering axes {"a"} of dim 0 are not a suffix of the operand's dim sharding {"a", "b"}}}
  %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_gather_wrong_out_sharding(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op out_sharding dim 0 is {}, but gathering the operand sharding gives {"a"}}}
  %0 = sdy.all_gather [{"b"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// all_slice and reduce_scatter

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_slice_list_count(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op expected 2 slicing axes lists (one per dimension), got 3}}
  %0 = sdy.all_slice [{"a"}, {}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_slice_duplicate_axis(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op slicing axes are invalid: axis "a" is used more than once}}
  %0 = sdy.all_slice [{"a"}, {"a"}] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_slice_out_sharding_without_axes(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op out_sharding dim 1 {"a"} does not end with the slicing axes {"b"}}}
  %0 = sdy.all_slice [{}, {"b"}] %arg0 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_slice_wrong_out_sharding(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op out_sharding dim 0 is {}, but appending the slicing axes to the operand sharding gives {"a"}}}
  %0 = sdy.all_slice [{}, {"b"}] %arg0 out_sharding=<@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @reduce_scatter_wrong_out_sharding(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op out_sharding dim 0 is {"b", "a"}, but appending the reduce-scatter axes to the operand sharding gives {"a", "b"}}}
  %0 = sdy.reduce_scatter [{"b"}, {}] %arg0 out_sharding=<@mesh, [{"b", "a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// all_reduce

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_unknown_axis(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axes are invalid: unknown axis name: "c"}}
  %0 = sdy.all_reduce {"c"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_axis_shards_result(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "a" overlaps "a" of dim 0 of out_sharding}}
  %0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @all_reduce_sub_axis_overlaps_dim(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "a":(2)2 overlaps "a" of dim 1 of out_sharding}}
  %0 = sdy.all_reduce {"a":(2)2} %arg0 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_unsorted(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axes {"b", "a"} are not sorted in mesh order}}
  %0 = sdy.all_reduce {"b", "a"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_of_replicated_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"b"}>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "b" overlaps "b" of the replicated axes of the operand sharding}}
  %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_result_still_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"a"}>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "a" overlaps "a" of the unreduced axes of out_sharding}}
  %0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"a"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_changes_dims(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op out_sharding dim 0 is {}, but all_reduce (which keeps the operand sharding) gives {"a"}}}
  %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// all_to_all

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_no_params(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op expected at least one all-to-all param}}
  %0 = sdy.all_to_all [] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_dim_out_of_range(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op all-to-all dims 0->2 are out of range for rank 2}}
  %0 = sdy.all_to_all [{"a"}: 0->2] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_same_dims(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op all-to-all source and target dim are both 1}}
  %0 = sdy.all_to_all [{"a"}: 1->1] %arg0 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_no_axes(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op all-to-all param 0->1 moves no axes}}
  %0 = sdy.all_to_all [{}: 0->1] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_source_twice(%arg0: tensor<8x8x8xf32>) -> tensor<8x8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op dim 0 appears in more than one param}}
  %0 = sdy.all_to_all [{"a"}: 0->1, {"b"}: 0->2] %arg0 out_sharding=<@mesh, [{}, {"a"}, {"b"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_source_and_target(%arg0: tensor<8x8x8xf32>) -> tensor<8x8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op dim 1 appears in more than one param}}
  %0 = sdy.all_to_all [{"a"}: 0->1, {"b"}: 1->2] %arg0 out_sharding=<@mesh, [{}, {"a"}, {"b"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_duplicate_axis(%arg0: tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op result has an invalid sharding #sdy.sharding<@mesh, [{}, {}, {"a"}, {"a"}]>: axis "a" is used more than once}}
  %0 = sdy.all_to_all [{"a"}: 0->2, {"a"}: 1->3] %arg0 out_sharding=<@mesh, [{}, {}, {"a"}, {"a"}]> : tensor<8x8x8x8xf32>
  return %0 : tensor<8x8x8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_target_twice(%arg0: tensor<8x8x8xf32>) -> tensor<8x8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op dim 2 appears in more than one param}}
  %0 = sdy.all_to_all [{"a"}: 0->2, {"b"}: 1->2] %arg0 out_sharding=<@mesh, [{}, {}, {"a", "b"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_unsorted(%arg0: tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op params must be sorted by source dim, but 0 follows 1}}
  %0 = sdy.all_to_all [{"b"}: 1->3, {"a"}: 0->2] %arg0 out_sharding=<@mesh, [{}, {}, {"a"}, {"b"}]> : tensor<8x8x8x8xf32>
  return %0 : tensor<8x8x8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @all_to_all_sub_axis_not_a_suffix(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op axes {"a":(1)2} moved from dim 0 are not a suffix of the operand's dim sharding {"a"}}}
  %0 = sdy.all_to_all [{"a":(1)2}: 0->1] %arg0 out_sharding=<@mesh, [{"a":(2)2}, {"a":(1)2}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_target_without_axes(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op out_sharding dim 1 {"b"} does not end with the axes moved to it {"a"}}}
  %0 = sdy.all_to_all [{"a"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_not_a_suffix(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op axes {"a"} moved from dim 0 are not a suffix of the operand's dim sharding {"a", "b"}}}
  %0 = sdy.all_to_all [{"a"}: 0->1] %arg0 out_sharding=<@mesh, [{"b"}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_to_all_wrong_out_sharding(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op out_sharding dim 0 is {}, but moving the axes of the operand sharding gives {"a"}}}
  %0 = sdy.all_to_all [{"b"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// collective_permute

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @collective_permute_shard_count(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op dim 0 has 2 shards in the operand sharding but 4 in out_sharding}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Syntax errors.

sdy.mesh @mesh = <["a"=2]>
func.func @missing_out_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected 'out_sharding'}}
  %0 = sdy.collective_permute %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @manual_missing_manual_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected 'manual_axes'}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// replicated_to_unreduced / sharded_to_unreduced

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @replicated_to_unreduced_sharded_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op axis "a" shards dim 0 of the operand, so it is not replicated}}
  %0 = sdy.replicated_to_unreduced {"a"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"a"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @replicated_to_unreduced_already_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"b"}>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op axis "b" is already unreduced in the operand}}
  %0 = sdy.replicated_to_unreduced {"b"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"b"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @replicated_to_unreduced_missing_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op axis "b" is missing from the unreduced axes of out_sharding}}
  %0 = sdy.replicated_to_unreduced {"b"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"a"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @replicated_to_unreduced_extra_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op out_sharding has unreduced axes {"a", "b"}, expected those of the operand plus {"b"}}}
  %0 = sdy.replicated_to_unreduced {"b"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"a", "b"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @replicated_to_unreduced_changes_dims(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op out_sharding dim 0 is {}, but replicated_to_unreduced (which keeps the operand's dimensions) gives {"a"}}}
  %0 = sdy.replicated_to_unreduced {"b"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"b"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @sharded_to_unreduced_rank(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.sharded_to_unreduced' op expected 2 axes lists (one per dimension), got 1}}
  %0 = sdy.sharded_to_unreduced [{"a"}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"a"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @sharded_to_unreduced_not_suffix(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.sharded_to_unreduced' op axes {"a"} of dim 0 are not a suffix of the operand's dim sharding {"a", "b"}}}
  %0 = sdy.sharded_to_unreduced [{"a"}, {}] %arg0 out_sharding=<@mesh, [{"b"}, {}], unreduced={"a"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @sharded_to_unreduced_keeps_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.sharded_to_unreduced' op out_sharding dim 0 is {"b"}, but removing the axes from the operand sharding gives {"a"}}}
  %0 = sdy.sharded_to_unreduced [{"b"}, {}] %arg0 out_sharding=<@mesh, [{"b"}, {}], unreduced={"a"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @sharded_to_unreduced_not_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.sharded_to_unreduced' op axis "b" is missing from the unreduced axes of out_sharding}}
  %0 = sdy.sharded_to_unreduced [{"b"}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_kind_mismatch(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=max{"a"}>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduces with sum but the operand's unreduced axes {"a"} hold max partial values}}
  %0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_kind_mismatch_sum_operand(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"a"}>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduces with min but the operand's unreduced axes {"a"} hold sum partial values}}
  %0 = sdy.all_reduce min {"a"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_reduce_out_kind_mismatch(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduces with max but out_sharding keeps sum unreduced axes {"b"}}}
  %0 = sdy.all_reduce max {"a"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"b"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @all_reduce_sum_keyword(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{expected 'max', 'min' or the reduction axes (a sum has no keyword)}}
  %0 = sdy.all_reduce sum {"a"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @reduce_scatter_of_max(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=max{"a"}>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op sums, but the operand's unreduced axes {"a"} hold max partial values}}
  %0 = sdy.reduce_scatter [{"a"}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @replicated_to_max_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op makes partial sums, but out_sharding's unreduced axes {"a"} are max}}
  %0 = sdy.replicated_to_unreduced {"a"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced=max{"a"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @sharded_to_unreduced_of_min(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}], unreduced=min{"b"}>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.sharded_to_unreduced' op makes partial sums, but the operand's unreduced axes {"b"} are min}}
  %0 = sdy.sharded_to_unreduced [{"a"}, {}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced=min{"a", "b"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
