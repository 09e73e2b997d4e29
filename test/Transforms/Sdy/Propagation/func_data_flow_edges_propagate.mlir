// Propagation through `sdy.func_data_flow_edge`s: an argument edge is an
// identity with the matching operand of every call, a call-result edge one
// with the callee's returned value.
// RUN: mpmd-opt -split-input-file -sdy-add-func-data-flow-edges -sdy-aggressive-propagate -sdy-sink-func-data-flow-edges %s | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Forward: both calls' operands reach the argument ("a" from one, "b" from
// the other, on different dimensions), the body, the returned value, and
// through it every call result and what uses them.
// CHECK-LABEL: func.func private @callee(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}
// CHECK-NEXT: %[[N:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}
// CHECK-NEXT: return %[[N]]
func.func private @callee(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[C0:.*]] = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}
// CHECK-NEXT: %[[C1:.*]] = call @callee(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}
// CHECK-NEXT: stablehlo.add %[[C0]], %[[C1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}
func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
                %y: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = func.call @callee(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = func.call @callee(%y) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

// Backward: main's result sharding reaches the call result, the callee's
// returned value and argument, and the call's operand.
sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func.func private @twice(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}
// CHECK-SAME: -> tensor<8xf32>
func.func private @twice(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %x, %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}
// CHECK-NEXT: %[[C:.*]] = call @twice(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>}
func.func @main(%x: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  %0 = func.call @twice(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
