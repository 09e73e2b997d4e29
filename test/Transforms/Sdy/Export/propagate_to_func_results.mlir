// -sdy-propagate-to-func-results: the results of every function but main
// take the shardings of the values they return.
// RUN: mpmd-opt -split-input-file -sdy-propagate-to-func-results %s | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

// A returned value without a sharding removes the result's; other result
// attributes stay.
// CHECK-LABEL: func.func private @callee(
// CHECK-SAME: -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}, tensor<8xf32> {other.attr}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})
func.func private @callee(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32>, tensor<8xf32> {other.attr, sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, tensor<8xf32>) {
  %0 = stablehlo.negate %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
  %1 = stablehlo.abs %x : tensor<8xf32>
  return %0, %1, %x : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// Main keeps its result shardings.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})
func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0:3 = func.call @callee(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %0#0 : tensor<8xf32>
}
