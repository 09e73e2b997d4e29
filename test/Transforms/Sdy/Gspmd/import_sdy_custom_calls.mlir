// RUN: mpmd-opt %s -xla-sdy-stablehlo-import-shardings -xla-sdy-import-sdy-custom-calls | FileCheck %s

// @Sharding becomes a sharding constraint; JAX's unspecified_dims open
// dimensions; a manual or unknown @Sharding is its operand.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[C0:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"axis_0"}, {"axis_1"}]> : tensor<8x8xf32>
// CHECK-NEXT:    %[[C1:.*]] = sdy.sharding_constraint %[[C0]] <@mesh, [{"axis_0"}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT:    %[[C2:.*]] = sdy.sharding_constraint %[[C1]] <@mesh, [{?}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT:    %[[C3:.*]] = sdy.sharding_constraint %[[C2]] <@maximal_mesh_0, []> : tensor<8x8xf32>
// CHECK-NEXT:    return %[[C3]] : tensor<8x8xf32>
module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{unknown}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {backend_config = "unspecified_dims=[0, 1]", mhlo.sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{maximal device=0}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %5 : tensor<8x8xf32>
  }
}
