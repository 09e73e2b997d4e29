// RUN: mpmd-opt %s -xla-sdy-stablehlo-import-shardings -xla-sdy-stablehlo-round-trip-shard-map-import -split-input-file -verify-diagnostics

module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @no_call(%arg0: tensor<8xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error @+1 {{@SPMDFullToShardShape is not part of a shard_map call}}
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @other_operand(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
    // expected-error @+1 {{a call of shard_map body @body takes operand 1 not made by @SPMDFullToShardShape}}
    %2 = call @body(%1, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<4xf32>) -> tensor<8xf32>
    return %4 : tensor<8xf32>
  }
  func.func private @body(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @no_global_sharding(%arg0: tensor<8xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
    // expected-error @+1 {{a call of shard_map body @body takes operand 0 whose @SPMDFullToShardShape does not read a @Sharding with the global sharding}}
    %1 = call @body(%0) : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @result_not_manual(%arg0: tensor<8xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
    // expected-error @+1 {{a call of shard_map body @body has result 0 not used once by a manual @Sharding}}
    %2 = call @body(%1) : (tensor<4xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
  func.func private @body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @wrong_local_type(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    // expected-error @+1 {{operand 0: the local type 'tensor<2xf32>' is not the global type 'tensor<8xf32>' under #sdy.sharding<@mesh, [{"axis_0"}]> with manual axes}}
    %2 = call @body(%1) : (tensor<2xf32>) -> tensor<2xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<2xf32>) -> tensor<2xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<2xf32>) -> tensor<8xf32>
    return %4 : tensor<8xf32>
  }
  func.func private @body(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    return %arg0 : tensor<2xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @different_manual_axes(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"} : (tensor<8x8xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x4xf32>
    // expected-error @+1 {{a call of shard_map body @body has operands with different manual axes}}
    %3 = call @body(%1, %2) : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %5 = stablehlo.custom_call @SPMDShardToFullShape(%4) {mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x4xf32>) -> tensor<8x8xf32>
    return %5 : tensor<8x8xf32>
  }
  func.func private @body(%arg0: tensor<8x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<8x4xf32> {
    return %arg0 : tensor<8x4xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @manual_after_free(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{devices=[1,1,2,2]<=[4] last_tile_dims={replicated, manual}}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
    // expected-error @+1 {{operand 0: dimension 0 of #sdy.sharding<@mesh, [{"axis_0", "axis_1"}, {}]> has manual axis "axis_1" after a free one}}
    %2 = call @body(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{devices=[1,1,2,2]<=[4] last_tile_dims={replicated, manual}}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<4x8xf32>) -> tensor<8x8xf32>
    return %4 : tensor<8x8xf32>
  }
  func.func private @body(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    return %arg0 : tensor<4x8xf32>
  }
}
