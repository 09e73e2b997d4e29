// -sdy-remove-sub-axes-in-input-output-shardings: open dimensions of the
// main function's shardings end before their first sub-axis.
// RUN: mpmd-opt -sdy-remove-sub-axes-in-input-output-shardings %s | FileCheck %s

sdy.mesh @mesh = <["a"=4, "b"=2]>
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {"a":(2)2}]>}
// CHECK-SAME: -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}p1]>})
func.func @main(%x: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a":(1)2, ?}, {"a":(2)2}]>})
    -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(2)2, "b", ?}p1]>}) {
  // CHECK: sdy.sharding_constraint %arg0 <@mesh, [{"b", "a":(1)2, ?}, {?}]>
  %0 = sdy.sharding_constraint %x <@mesh, [{"b", "a":(1)2, ?}, {?}]> : tensor<16x16xf32>
  %1 = stablehlo.slice %0 [0:1, 0:16] : (tensor<16x16xf32>) -> tensor<1x16xf32>
  %2 = stablehlo.reshape %1 : (tensor<1x16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}
