// Data-flow edges of `sdy.manual_computation` (sdy-notes 2.2, 3.8): every
// block argument owns an edge at the top of the body holding its in_sharding
// as the body sees it (without the manual axes), every result one after the
// op holding its out_sharding (with them). Propagation meets the operands in
// the global view and the returned values in the body's view, so only the
// free axes change; sinking puts the manual axes back in front.
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges %s | FileCheck %s --check-prefix=ADD
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges -sdy-aggressive-propagate -sdy-sink-data-flow-edges %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-propagation-pipeline %s | FileCheck %s --check-prefix=PIPELINE

sdy.mesh @mesh = <["a"=2, "b"=2]>
// ADD-LABEL: func.func @free_axis_in_and_out(
// ADD: sdy.manual_computation(%arg0)
// ADD-NEXT: %[[E:.*]] = sdy.data_flow_edge %arg1 sharding=<@mesh, [{?}, {?}]> : tensor<4x8xf32>
// ADD-NEXT: stablehlo.multiply %[[E]], %[[E]]
// ADD: %[[R:.*]] = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", ?}, {?}]> : tensor<8x8xf32>
// ADD-NEXT: stablehlo.negate %[[R]]

// "b" of the operand's second dimension is a free axis: it enters the body
// (the multiply sees it without "a") and leaves through the result.
// CHECK-LABEL: func.func @free_axis_in_and_out(
// CHECK: sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {"b", ?}]>] out_shardings=[<@mesh, [{"a", ?}, {"b", ?}]>] manual_axes={"a"}
// CHECK-NEXT: stablehlo.multiply %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>}
// CHECK: stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}
// CHECK-NOT: sdy.data_flow_edge
// PIPELINE-LABEL: func.func @free_axis_in_and_out(
// PIPELINE-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>})
// PIPELINE: in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {"b"}]>] manual_axes={"a"}
// PIPELINE-NEXT: stablehlo.multiply %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
func.func @free_axis_in_and_out(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.negate %0 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
// A sharding made inside the body (on the free axis "b", first dimension
// after the manual "a") reaches the operand and the users outside, behind
// the manual axis; the closed dimension of the in_sharding stays as it is.
// CHECK-LABEL: func.func @free_axis_from_the_body(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {?}]>}
// CHECK: sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "b", ?}, {}]>] out_shardings=[<@mesh, [{"a", "b", ?}, {?}]>] manual_axes={"a"}
// CHECK-NEXT: stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>}
// CHECK-NEXT: sdy.sharding_constraint
// CHECK: stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b", ?}, {?}]>]>}
func.func @free_axis_from_the_body(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", ?}, {}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.abs %arg1 : tensor<4x8xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"b"}, {?}]> : tensor<4x8xf32>
    sdy.return %2 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.negate %0 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
// The operand is sharded on the manual axis in another dimension: "a" is
// already the manual computation's (first dimension), so it does not enter
// the second one, and the body sees no sharding.
// CHECK-LABEL: func.func @manual_axis_elsewhere(
// CHECK: sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>]
// CHECK-NEXT: stablehlo.abs %arg1 :
func.func @manual_axis_elsewhere(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.abs %arg1 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
// Nested manual computations: each level strips its own manual axis, so
// "b" (free outside, manual inside) reaches the outer body and the free
// "c" the innermost one.
// PIPELINE-LABEL: func.func @nested(
// PIPELINE: in_shardings=[<@mesh, [{"a", "b"}, {"c"}]>] out_shardings=[<@mesh, [{"a", "b"}, {"c"}]>] manual_axes={"a"}
// PIPELINE-NEXT: in_shardings=[<@mesh, [{"b"}, {"c"}]>] out_shardings=[<@mesh, [{"b"}, {"c"}]>] manual_axes={"b"}
// PIPELINE-NEXT: stablehlo.abs %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"c"}]>]>}
// PIPELINE: stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {"c"}]>]>}
func.func @nested(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%l: tensor<4x8xf32>) {
    %1 = sdy.manual_computation(%l) in_shardings=[<@mesh, [{"b", ?}, {?}]>] out_shardings=[<@mesh, [{"b", ?}, {?}]>] manual_axes={"b"} (%m: tensor<2x8xf32>) {
      %2 = stablehlo.abs %m : tensor<2x8xf32>
      sdy.return %2 : tensor<2x8xf32>
    } : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = stablehlo.negate %1 : tensor<4x8xf32>
    sdy.return %3 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
