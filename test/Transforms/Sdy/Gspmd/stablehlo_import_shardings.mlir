// RUN: mpmd-opt %s -xla-sdy-stablehlo-import-shardings -split-input-file | FileCheck %s

// Iota tile assignments share one mesh whose axes refine every sharding's
// boundaries: [4,2] and [2,4] over 8 devices need axes 2x2x2.
// CHECK-LABEL: module @iota_forms
// CHECK-NEXT:  sdy.mesh @mesh = <["axis_0"=2, "axis_1"=2, "axis_2"=2]>
// CHECK-NOT:   sdy.mesh
// CHECK:       func.func @main(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_0", "axis_1"}, {"axis_2"}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {"axis_1", "axis_2"}]>}
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_2"}, {"axis_0", "axis_1"}]>}
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_2"}, {"axis_0"}]>})
module @iota_forms attributes {mhlo.num_partitions = 8 : i32} {
  func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}"},
                  %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"},
                  %arg2: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"})
      -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2,2]<=[2,2,2]T(2,0,1) last_tile_dim_replicate}"}) {
    // CHECK-NEXT: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}
    %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{replicated}"} : tensor<8x8xf32>
    // CHECK-NEXT: stablehlo.add %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"axis_1"}, {}]>]>}
    %1 = stablehlo.add %0, %arg2 {mhlo.sharding = "{devices=[2,1,4]<=[2,4]T(1,0) last_tile_dims={replicated}}"} : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}

// -----

// Explicit device lists: iota order, and iota transposed, share the iota
// mesh; any other order gets a mesh with its device ids. Maximal shardings
// get a single-device mesh; unknown ones no sharding; metadata is ignored.
// CHECK-LABEL: module @explicit_forms
// CHECK-NEXT:  sdy.mesh @mesh = <["axis_0"=2, "axis_1"=2]>
// CHECK-NEXT:  sdy.mesh @mesh_0 = <["axis_0"=2, "axis_1"=2], device_ids=[3, 1, 0, 2]>
// CHECK-NEXT:  sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
// CHECK:       func.func @main(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_1"}, {"axis_0"}]>}
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"axis_0"}, {"axis_1"}]>}
// CHECK-SAME:    %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_1, []>}
// CHECK-SAME:    %arg4: tensor<8xf32>,
// CHECK-SAME:    %arg5: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}
// CHECK-NOT:   mhlo.sharding
module @explicit_forms attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}"},
                  %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]0,2,1,3}"},
                  %arg2: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]3,1,0,2}"},
                  %arg3: tensor<8xf32> {mhlo.sharding = "{maximal device=1}"},
                  %arg4: tensor<8xf32> {mhlo.sharding = "{unknown}"},
                  %arg5: tensor<8xf32> {mhlo.sharding = "{replicated metadata={op_name=\"jit(f)/x\" source_file=\"f.py\" source_line=3}}"}) {
    return
  }
}

// -----

// Tuple shardings give one sharding per result; a result without one is
// fully open on the mesh of the others. shard_as/shard_like put values
// into sharding groups.
// CHECK-LABEL: module @tuples_and_groups
// CHECK:       func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {}]>}
// CHECK-NEXT:    sdy.sharding_group %arg0 group_id=4 : tensor<8x8xf32>
// CHECK-NEXT:    %[[C:.*]]:3 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{?}, {?}]>, <@mesh, [{}, {"axis_0"}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[C]]#0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"axis_0"}, {}]>]>}
// CHECK-NEXT:    sdy.sharding_group %[[N]] group_id=4 : tensor<8x8xf32>
// CHECK-NEXT:    sdy.sharding_group %[[N]] group_id=5 : tensor<8x8xf32>
// CHECK-NEXT:    return
module @tuples_and_groups attributes {mhlo.num_partitions = 2 : i32} {
  func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2] shard_as 4}"})
      -> (tensor<8x8xf32> {mhlo.sharding = "{replicated shard_like 5}"}) {
    %0:3 = stablehlo.custom_call @foo(%arg0) {mhlo.sharding = "{{replicated}, {unknown}, {devices=[1,2]<=[2]}}"} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
    %1 = stablehlo.negate %0#0 {mhlo.sharding = "{devices=[2,1]<=[2] shard_as 4}"} : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}

// -----

// Manual shardings: fully manual ones give no sharding; partially manual
// ones keep their free axes. On the custom calls of the shard_map pattern
// the manual axes are recorded for the shard_map import.
// CHECK-LABEL: module @manual
// CHECK-NEXT:  sdy.mesh @mesh = <["axis_0"=2, "axis_1"=2]>
// CHECK:       %[[S:.*]] = stablehlo.custom_call @Sharding(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"axis_0"}, {"axis_1"}]>]>}
// CHECK-NEXT:  stablehlo.custom_call @SPMDFullToShardShape(%[[S]]) {xla.sdy.manual_axes = #sdy<manual_axes{"axis_0", "axis_1"}>}
// CHECK:       stablehlo.custom_call @SPMDFullToShardShape(%[[S]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"axis_0"}>}
// CHECK:       stablehlo.negate %{{.*}} : tensor<4x4xf32>
module @manual attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%arg0: tensor<8x8xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x4xf32>
    %2 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
    %3 = stablehlo.negate %1 {mhlo.sharding = "{manual}"} : tensor<4x4xf32>
    return %3 : tensor<4x4xf32>
  }
}
