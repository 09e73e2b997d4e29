// Errors of the sdy attributes: parsing, mesh verification and sharding
// verification against the mesh, for func arguments/results and ops.
// RUN: mpmd-opt -allow-unregistered-dialect -split-input-file -verify-diagnostics %s

sdy.mesh @mesh = <["x"=2, "y"=2]>
// expected-error @+1 {{argument 0 has an invalid sharding #sdy.sharding<@mesh, [{"z"}]>: unknown axis name: "z"}}
func.func @unknown_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// expected-error @+1 {{sharding doesn't match tensor rank: 2 != 1}}
func.func @rank_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{non-ranked type 'tensor<*xf32>' can only have an empty sharding}}
func.func @unranked(%arg0: tensor<*xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// expected-error @+1 {{axis "x" is used more than once}}
func.func @duplicate_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"x"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// expected-error @+1 {{axis "x" is used more than once}}
func.func @duplicate_axis_in_replicated(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], replicated={"x"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// expected-error @+1 {{axis "y" is used more than once}}
func.func @duplicate_axis_in_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"y"}, unreduced={"y"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{sub-axis of "x" needs pre-size >= 1 and size > 1}}
func.func @sub_axis_of_size_one(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)1}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{sub-axis "x":(2)3 does not divide axis size 8}}
func.func @sub_axis_not_dividing(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)3}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{overlapping sub-axes of "x"}}
func.func @overlapping_sub_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)4}, {"x":(2)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{axis "x" is used more than once}}
func.func @full_axis_and_sub_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"x":(2)2}]>}) {
  return
}

// -----

// expected-error @+1 {{argument 0 has a sharding on unknown mesh @nope}}
func.func @unknown_mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nope, [{"x"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{should have a sharding attribute of type TensorShardingAttr on argument 0}}
func.func @argument_sharding_kind(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{should have a sharding attribute of type TensorShardingAttr on result 0}}
func.func @result_sharding_kind(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = 1 : i32}) {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{result 0 has an invalid sharding #sdy.sharding<@mesh, [{"x"}, {}]>: sharding doesn't match tensor rank: 2 != 1}}
func.func @result_sharding_rank(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @sharding_per_value_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sharding doesn't match number of results: 2 != 1}}
  %0 = arith.addf %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @sharding_per_value_entry(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'arith.addf' op result 0 has an invalid sharding #sdy.sharding<@mesh, [{"y"}]>: unknown axis name: "y"}}
  %0 = arith.addf %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @sharding_per_value_unknown_mesh() {
  // expected-error @+1 {{'test.op' op result 0 has a sharding on unknown mesh @other}}
  %0 = "test.op"() {sdy.sharding = #sdy.sharding_per_value<[<@other, [{"x"}]>]>} : () -> tensor<8xf32>
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @op_sharding_kind(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{should have a sharding attribute of type TensorShardingPerValueAttr}}
  %0 = arith.addf %arg0, %arg0 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{dim 0 is empty and closed but has a priority}}
func.func @priority_on_closed_empty_dim(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}p1]>}) {
  return
}

// -----

// Mesh errors.

// expected-error @+1 {{duplicate axis name: "x"}}
sdy.mesh @mesh = <["x"=2, "x"=4]>

// -----

// expected-error @+1 {{axis "x" must have size at least 1, got 0}}
sdy.mesh @mesh = <["x"=0]>

// -----

// expected-error @+1 {{total product of axis sizes (2) must match the number of device ids (3)}}
sdy.mesh @mesh = <["x"=2], device_ids=[0, 1, 2]>

// -----

// expected-error @+1 {{device ids must be non-negative}}
sdy.mesh @mesh = <["x"=2], device_ids=[-1, 0]>

// -----

// expected-error @+1 {{device ids must be a permutation of 0..1}}
sdy.mesh @mesh = <["x"=2], device_ids=[1, 1]>

// -----

func.func @mesh_not_in_module() {
  "test.region"() ({
    // expected-error @+1 {{'sdy.mesh' op expects parent op 'builtin.module'}}
    sdy.mesh @mesh = <["x"=2]>
    "test.end"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Malformed syntax.

// expected-error @+1 {{expected '='}}
sdy.mesh @mesh = <["x"]>

// -----

// expected-error @+1 {{expected 'device_ids'}}
sdy.mesh @mesh = <["x"=2], devices=[0, 1]>

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{'?' must be the last element of a dimension sharding}}
func.func @open_marker_not_last(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?, "x"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{expected a priority of the form 'p<N>'}}
func.func @bad_priority(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}q1]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{expected 'replicated' or 'unreduced'}}
func.func @bad_keyword(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], replicate={"x"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{expected '['}}
func.func @missing_brackets(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, {"x"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{expected 'mesh'}}
func.func @mesh_name_not_a_symbol(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<"mesh", [{"x"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{expected string}}
func.func @unquoted_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{x}]>}) {
  return
}

// -----

// Declarations are checked against their signature too.
sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{'func.func' op argument 0 has an invalid sharding #sdy.sharding<@mesh, [{"x"}]>: sharding doesn't match tensor rank: 1 != 2}}
func.func private @declaration_arg(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{'func.func' op result 0 has an invalid sharding #sdy.sharding<@mesh, [{"y"}]>: unknown axis name: "y"}}
func.func private @declaration_result() -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>})

// -----

// On a maximal mesh, dimension shardings, if any, still match the rank.
sdy.mesh @maximal = <[], device_ids=[1]>
// expected-error @+1 {{sharding doesn't match tensor rank: 1 != 2}}
func.func @maximal_wrong_rank(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal, [{}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{sub-axis "x":(1)8 is the whole axis; write "x"}}
func.func @sub_axis_is_whole_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)8}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=8, "y"=2]>
// expected-error @+1 {{sub-axes "x":(1)2 and "x":(2)2 are contiguous and must be merged}}
func.func @sub_axes_not_merged(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "x":(2)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=8, "y"=2]>
// expected-error @+1 {{sub-axes "x":(2)2 and "x":(4)2 are contiguous and must be merged}}
func.func @replicated_sub_axes_not_merged(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"x":(2)2, "x":(4)2}>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{expected 'max' or 'min' before the unreduced axes (a sum has no keyword)}}
func.func @sum_keyword(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=sum{"x"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{expected 'max' or 'min' before the unreduced axes (a sum has no keyword)}}
func.func @unknown_kind(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=prod{"x"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error @+1 {{reduction kind 'max' needs unreduced axes}}
func.func @kind_without_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{}>}) {
  return
}
