// RUN: mpmd-opt -sdy-resolve-single-device-sharding -split-input-file -verify-diagnostics %s
// RUN: not mpmd-opt -sdy-resolve-single-device-sharding="replica-count=2 partition-count=2" -split-input-file %s 2>&1 | FileCheck %s --check-prefix=BOTH

// BOTH: error: 'func.func' op -sdy-resolve-single-device-sharding takes replica-count (2) or partition-count (2) above 1, not both

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>

func.func @two_devices(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.custom_call' op has results on single devices 0 and 1; an op runs on at most one device}}
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>, <@maximal_mesh_1, []>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

func.func @sharded_other_result(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.custom_call' op runs on device 0 but result #1 has sharding #sdy.sharding<@mesh, [{"x"}]>; the other results of a single-device op must be replicated}}
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>, <@mesh, [{"x"}]>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
