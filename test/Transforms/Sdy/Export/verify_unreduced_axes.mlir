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
  // expected-error @+1 {{result 0 makes axis "b" sum-unreduced, but this op leaves max partial results}}
  %4 = stablehlo.reduce(%2 init: %c) applies stablehlo.maximum across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [], unreduced={"b"}>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{the operand of sdy.all_reduce has no sharding to reduce its unreduced axes from}}
  %5 = sdy.all_reduce {"a"} %3 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Reduction kinds: a max or min reduce leaves partial values of its kind,
// which pass through other ops and are all-reduced with the same kind.
// CHECK-LABEL: func.func @valid_kinds(
func.func @valid_kinds(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}, %i: tensor<8xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) -> tensor<8xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"a"}>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"a"}>]>} : tensor<8xf32>
  %2 = sdy.all_reduce max {"a"} %1 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  %3 = stablehlo.reduce(%x init: %c) applies stablehlo.minimum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=min{"a"}>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %false = stablehlo.constant dense<false> : tensor<i1>
  %4 = stablehlo.reduce(%i init: %false) applies stablehlo.or across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [], unreduced=max{"b"}>]>} : (tensor<8xi1>, tensor<i1>) -> tensor<i1>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @invalid_kinds(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}) -> tensor<8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{result 0 makes axis "a" unreduced, but the body of this reduce is not one add, maximum or minimum of its arguments}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.multiply across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"a"}>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"a"}>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  // expected-error @+1 {{result 0 turns the max-unreduced axis "a" of an operand into a sum-unreduced one}}
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"a"}>]>} : tensor<8xf32>
  // expected-error @+1 {{result 0 makes axis "b" min-unreduced, but this op leaves sum partial results}}
  %3 = stablehlo.negate %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [], unreduced=min{"b"}>]>} : tensor<f32>
  return %2 : tensor<8xf32>
}
