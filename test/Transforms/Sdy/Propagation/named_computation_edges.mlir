// Data-flow edges of `sdy.named_computation`: every block argument owns an
// edge (source: the operand) at the top of the body, every result one
// (source: the returned value) after the op; propagation crosses the
// computation as if it were inlined and sinking sets its in/out shardings.
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges %s | FileCheck %s --check-prefix=ADD
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges -sdy-aggressive-propagate -sdy-sink-data-flow-edges %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-propagation-pipeline %s | FileCheck %s --check-prefix=PIPELINE

sdy.mesh @mesh = <["a"=2, "b"=2]>
// ADD-LABEL: func.func @named(
// ADD: sdy.named_computation<"foo">(%arg0, %arg0)
// ADD-NEXT: %[[E1:.*]] = sdy.data_flow_edge %arg1 sharding=<@mesh, [{?}, {"b", ?}]> : tensor<8x8xf32>
// ADD-NEXT: %[[E2:.*]] = sdy.data_flow_edge %arg2 sharding=<@mesh, [{?}, {?}]> : tensor<8x8xf32>
// ADD-NEXT: stablehlo.negate %[[E1]]
// ADD-NEXT: stablehlo.abs %[[E2]]
// ADD: sdy.data_flow_edge %0#0 sharding=<@mesh, [{?}, {"b"}]> : tensor<8x8xf32>
// ADD-NEXT: sdy.data_flow_edge %0#1 sharding=<@mesh, [{?}, {?}]> : tensor<8x8xf32>

// "a" enters through the operands, "b" through the in_sharding of the first
// argument and the out_sharding of the first result; the closed out_sharding
// dimension stays closed.
// CHECK-LABEL: func.func @named(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b", ?}]>}
// CHECK: sdy.named_computation<"foo">(%arg0, %arg0)
// CHECK-SAME: in_shardings=[<@mesh, [{"a", ?}, {"b", ?}]>, <@mesh, [{"a", ?}, {"b", ?}]>]
// CHECK-SAME: out_shardings=[<@mesh, [{"a", ?}, {"b"}]>, <@mesh, [{"a", ?}, {"b", ?}]>]
// CHECK-NEXT: stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}
// CHECK-NOT: sdy.data_flow_edge
// The pipeline exports named computations as calls of private functions.
// PIPELINE-LABEL: func.func @named(
// PIPELINE-NEXT: call @foo(%arg0, %arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>, <@mesh, [{"a"}, {"b"}]>]>}
// PIPELINE-LABEL: func.func private @foo(
// PIPELINE-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>})
// PIPELINE-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>})
// PIPELINE-NEXT: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>}
func.func @named(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = sdy.named_computation<"foo">(%x, %x) in_shardings=[<@mesh, [{?}, {"b", ?}]>, <@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{?}, {"b"}]>, <@mesh, [{?}, {?}]>] (%arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<8x8xf32>
    %2 = stablehlo.abs %arg2 : tensor<8x8xf32>
    sdy.return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A named computation without shardings gets them only where an edge got
// one.
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @backward(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}
// CHECK: sdy.named_computation<"bar">(%arg0) in_shardings=[<@mesh, [{"a", ?}]>] out_shardings=[<@mesh, [{"a", ?}]>]
func.func @backward(%x: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  %0 = sdy.named_computation<"bar">(%x) (%arg1: tensor<8xf32>) {
    %1 = stablehlo.exponential %arg1 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
