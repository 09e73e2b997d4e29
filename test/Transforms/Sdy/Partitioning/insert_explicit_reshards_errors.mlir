// RUN: mpmd-opt -sdy-insert-explicit-reshards -split-input-file -verify-diagnostics %s

sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// expected-error @+1 {{argument 0 of @maximal_argument is on the single-device mesh @maximal_mesh_0; only ops may run on one device, function inputs and outputs must be on a mesh with axes}}
func.func @maximal_argument(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// expected-error @+1 {{result 1 of @maximal_result is on the single-device mesh @maximal_mesh_0}}
func.func @maximal_result(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) {
  return %a, %a : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>

func.func @two_devices(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op has results on different single devices (@maximal_mesh_0 and @maximal_mesh_1); an op runs on at most one device}}
  %0:2 = stablehlo.custom_call @sdy_testonly(%a) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>, <@maximal_mesh_1, []>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @results_unreduced_differently(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op result 1 has other unreduced axes than result 0; the partitioner needs every result of an op to be unreduced alike}}
  %0:2 = stablehlo.custom_call @sdy_testonly(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>, <@mesh, [{}]>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @unreduced_into_op_without_results(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) {
  // expected-error @+1 {{'stablehlo.custom_call' op has no result to carry the unreduced axes of operand 0 (sharding #sdy.sharding<@mesh, [{}], unreduced={"x"}>); all-reduce it first}}
  stablehlo.custom_call @sdy_testonly(%a) : (tensor<8xf32>) -> ()
  return
}
