// -sdy-propagate-sharding-from-func-to-call: calls without shardings take
// their callee's result shardings.
// RUN: mpmd-opt -sdy-propagate-sharding-from-func-to-call %s | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

func.func private @callee(%x: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, tensor<4x2xf32>) {
  %0 = stablehlo.constant dense<0.0> : tensor<4x2xf32>
  return %x, %0 : tensor<8xf32>, tensor<4x2xf32>
}

func.func private @unsharded(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// CHECK-LABEL: func.func @main(
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // A result the callee leaves unsharded is fully open.
  // CHECK: call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{?}, {?}]>]>}
  %0:2 = func.call @callee(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<4x2xf32>)
  // A call with shardings keeps them.
  // CHECK: call @callee(%0#0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}, {}]>]>}
  %1:2 = func.call @callee(%0#0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}, {}]>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<4x2xf32>)
  // A callee without shardings gives nothing.
  // CHECK: call @unsharded(%1#0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = func.call @unsharded(%1#0) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
