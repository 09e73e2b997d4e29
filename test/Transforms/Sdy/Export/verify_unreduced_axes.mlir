// -sdy-verify-unreduced-axes: no op may drop or invent unreduced axes.
// RUN: mpmd-opt -split-input-file -sdy-verify-unreduced-axes -verify-diagnostics %s | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Passing unreduced axes through, introducing sum-unreduced ones (a dot, a
// summing reduce), reducing them with a reshard or an all-reduce, and
// calls that agree with their callee are fine.
// CHECK-LABEL: func.func @valid(
func.func @valid(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}, %w: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"a"}>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"a"}>]>} : tensor<8x8xf32>
  %2 = func.call @keep(%1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"a"}>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = sdy.all_reduce {"a"} %2 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %4 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"a"}>]>} : tensor<8x8xf32>
  %5 = sdy.reshard %4 <@mesh, [{}, {}]> : tensor<8x8xf32>
  %6 = stablehlo.add %3, %5 : tensor<8x8xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %7 = stablehlo.reduce(%6 init: %c) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"b"}>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  return %6 : tensor<8x8xf32>
}

func.func private @keep(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"a"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"a"}>}) {
  return %x : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func private @callee(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"b"}>}) {
  return %x : tensor<8xf32>
}

func.func @invalid(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"a"}>}) -> tensor<8xf32> {
  // expected-error @+1 {{result 0 drops the unreduced axis "a" of an operand; reshard it explicitly first}}
  %0 = stablehlo.negate %x : tensor<8xf32>
  // expected-error @+1 {{operand 0 has unreduced axes {"a"} but argument 0 of @callee has {}}}
  %1 = func.call @callee(%x) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"b"}>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = sdy.reshard %x <@mesh, [{}]> : tensor<8xf32>
  // expected-error @+1 {{result 0 has unreduced axes {} but result 0 of @callee has {"b"}}}
  %3 = func.call @callee(%2) : (tensor<8xf32>) -> tensor<8xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{result 0 makes axis "b" unreduced, but only a reduce whose body is one stablehlo.add leaves partial (summed) results}}
  %4 = stablehlo.reduce(%2 init: %c) applies stablehlo.maximum across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [], unreduced={"b"}>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{the operand of sdy.all_reduce has no sharding to reduce its unreduced axes from}}
  %5 = sdy.all_reduce {"a"} %3 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
