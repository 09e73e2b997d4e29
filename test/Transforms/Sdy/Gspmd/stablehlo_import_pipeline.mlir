// RUN: mpmd-opt %s -xla-sdy-stablehlo-import-pipeline | FileCheck %s --check-prefix=IMPORT
// RUN: mpmd-opt %s -xla-sdy-stablehlo-import-pipeline -sdy-propagation-pipeline | FileCheck %s

// A GSPMD-mode module as older JAX writes it: shardings on @main's
// arguments and result, a constraint with an unconstrained dimension, and a
// shard_map. The import gives the Shardy form; propagation then runs on it
// as on a module JAX wrote with Shardy.
// IMPORT:      sdy.mesh @mesh = <["axis_0"=2, "axis_1"=2]>
// IMPORT:      func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"axis_1"}]>}) -> (tensor<8x32xf32> {jax.result_info = ""}) {
// IMPORT-NEXT:   %[[D:.*]] = stablehlo.dot_general %arg0, %arg1
// IMPORT-NEXT:   %[[C:.*]] = sdy.sharding_constraint %[[D]] <@mesh, [{"axis_0"}, {?}]> : tensor<8x32xf32>
// IMPORT-NEXT:   %[[M:.*]] = sdy.manual_computation(%[[C]]) in_shardings=[<@mesh, [{"axis_0"}, {}]>] out_shardings=[<@mesh, [{"axis_0"}, {}]>] manual_axes={"axis_0", "axis_1"} (%[[A:.*]]: tensor<4x32xf32>) {
// IMPORT-NEXT:     stablehlo.negate %[[A]] : tensor<4x32xf32>
// IMPORT:        stablehlo.tanh %[[M]] : tensor<8x32xf32>
// IMPORT-NOT:  custom_call
// IMPORT-NOT:  shmap_body

// After propagation the dot is sharded by both arguments, the constraint's
// open dimension takes "axis_1" and becomes a reshard, and the result of
// @main follows the manual computation's out sharding.
// CHECK:      func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"axis_1"}]>})
// CHECK-SAME:   -> (tensor<8x32xf32> {jax.result_info = "", sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {}]>})
// CHECK-NEXT:   %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"axis_0"}, {"axis_1"}]>]>}
// CHECK-NEXT:   %[[R:.*]] = sdy.reshard %[[D]] <@mesh, [{"axis_0"}, {"axis_1"}]> : tensor<8x32xf32>
// CHECK-NEXT:   %[[M:.*]] = sdy.manual_computation(%[[R]]) in_shardings=[<@mesh, [{"axis_0"}, {}]>] out_shardings=[<@mesh, [{"axis_0"}, {}]>] manual_axes={"axis_0", "axis_1"}
// CHECK:        stablehlo.tanh %[[M]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"axis_0"}, {}]>]>} : tensor<8x32xf32>
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"},
                         %arg1: tensor<16x32xf32> {mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"})
      -> (tensor<8x32xf32> {jax.result_info = ""}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %2 = stablehlo.custom_call @SPMDFullToShardShape(%1) {mhlo.sharding = "{manual}"} : (tensor<8x32xf32>) -> tensor<4x32xf32>
    %3 = call @shmap_body(%2) : (tensor<4x32xf32>) -> tensor<4x32xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {mhlo.sharding = "{manual}"} : (tensor<4x32xf32>) -> tensor<4x32xf32>
    %5 = stablehlo.custom_call @SPMDShardToFullShape(%4) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x32xf32>) -> tensor<8x32xf32>
    %6 = stablehlo.tanh %5 : tensor<8x32xf32>
    return %6 : tensor<8x32xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x32xf32>) -> tensor<4x32xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4x32xf32>
    return %0 : tensor<4x32xf32>
  }
}
