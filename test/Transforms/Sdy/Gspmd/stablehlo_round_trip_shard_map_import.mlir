// RUN: mpmd-opt %s -xla-sdy-stablehlo-import-shardings -xla-sdy-stablehlo-round-trip-shard-map-import -split-input-file | FileCheck %s

// A fully manual shard_map: every axis of the mesh is manual; the body is
// copied into the manual computation and the private callee goes.
// CHECK-LABEL: module @full_manual
// CHECK:       func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT:    %[[S:.*]] = stablehlo.custom_call @Sharding(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"axis_0"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    %[[M:.*]] = sdy.manual_computation(%[[S]]) in_shardings=[<@mesh, [{"axis_0"}, {}]>] out_shardings=[<@mesh, [{"axis_0"}, {}]>] manual_axes={"axis_0", "axis_1"} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:      %[[N:.*]] = stablehlo.negate %[[A]] : tensor<4x8xf32>
// CHECK-NEXT:      sdy.return %[[N]] : tensor<4x8xf32>
// CHECK-NEXT:    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    return %[[M]] : tensor<8x8xf32>
// CHECK-NEXT:  }
// CHECK-NOT:   shmap_body
module @full_manual attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
    %2 = call @shmap_body(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x8xf32>) -> tensor<8x8xf32>
    return %4 : tensor<8x8xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = stablehlo.negate %arg0 {mhlo.sharding = "{manual}"} : tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}

// -----

// Partially manual (last_tile_dims={manual}): only the manual subgroup's
// axis is manual; local types divide by it alone. Two operands, two
// results, and a body called again elsewhere stays.
// CHECK-LABEL: module @partial_manual
// CHECK:       %[[S0:.*]] = stablehlo.custom_call @Sharding(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"axis_0"}, {"axis_1"}]>]>}
// CHECK-NEXT:  %[[S1:.*]] = stablehlo.custom_call @Sharding(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"axis_1"}]>]>}
// CHECK-NEXT:  %[[M:.*]]:2 = sdy.manual_computation(%[[S0]], %[[S1]]) in_shardings=[<@mesh, [{"axis_0"}, {"axis_1"}]>, <@mesh, [{}, {"axis_1"}]>] out_shardings=[<@mesh, [{}, {"axis_1"}]>, <@mesh, [{"axis_0"}, {"axis_1"}]>] manual_axes={"axis_1"} (%[[A:.*]]: tensor<8x4xf32>, %[[B:.*]]: tensor<8x4xf32>) {
// CHECK-NEXT:    %[[ADD:.*]] = stablehlo.add %[[A]], %[[B]] : tensor<8x4xf32>
// CHECK-NEXT:    sdy.return %[[ADD]], %[[A]] : tensor<8x4xf32>, tensor<8x4xf32>
// CHECK-NEXT:  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT:  %[[U:.*]]:2 = call @body(%arg2, %arg2)
// CHECK-NEXT:  return %[[M]]#0, %[[M]]#1, %[[U]]#0
// CHECK:       func.func private @body
module @partial_manual attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x4xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x4xf32>) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"} : (tensor<8x8xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"} : (tensor<8x8xf32>) -> tensor<8x4xf32>
    %4:2 = call @body(%1, %3) : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
    %5 = stablehlo.custom_call @Sharding(%4#0) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<8x4xf32>) -> tensor<8x8xf32>
    %7 = stablehlo.custom_call @Sharding(%4#1) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x4xf32>) -> tensor<8x8xf32>
    %9:2 = call @body(%arg2, %arg2) : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
    return %6, %8, %9#0 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x4xf32>
  }
  func.func private @body(%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x4xf32>
    return %0, %arg0 : tensor<8x4xf32>, tensor<8x4xf32>
  }
}
