// RUN: mpmd-opt -sdy-resolve-permutation-factors=enable-halo-exchange=false -split-input-file %s | FileCheck %s
// RUN: mpmd-opt -sdy-resolve-permutation-factors="enable-halo-exchange=false replica-count=1 partition-count=4" -split-input-file %s | FileCheck %s

// A sharded permutation factor moves data between devices: the op runs
// with that dimension replicated, between reshards.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @slice_with_offset
func.func @slice_with_offset(%a: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x4xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<16x4xf32>
  // CHECK-NEXT: %[[S:.*]] = stablehlo.slice %[[A]] [2:10, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[S]] <@mesh, [{"x"}, {"y"}]> : tensor<8x4xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = stablehlo.slice %a [2:10, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// A slice from 0 with stride 1 that keeps the shard size needs no data
// from other devices.
// CHECK-LABEL: func.func @slice_communication_free
func.func @slice_communication_free(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<15xf32> {
  // CHECK-NEXT: %[[S:.*]] = stablehlo.slice %arg0 [0:15]
  // CHECK-NEXT: return %[[S]]
  %0 = stablehlo.slice %a [0:15] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<16xf32>) -> tensor<15xf32>
  return %0 : tensor<15xf32>
}

// Padding at the high end that stays within each device's shard.
// CHECK-LABEL: func.func @pad_communication_free
func.func @pad_communication_free(%a: tensor<15xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %z: tensor<f32>) -> tensor<16xf32> {
  // CHECK-NEXT: %[[P:.*]] = stablehlo.pad %arg0, %arg1, low = [0], high = [1], interior = [0]
  // CHECK-NEXT: return %[[P]]
  %0 = stablehlo.pad %a, %z, low = [0], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<15xf32>, tensor<f32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// Low padding shifts the data across the shard boundary.
// CHECK-LABEL: func.func @pad_shifts
func.func @pad_shifts(%a: tensor<15xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %z: tensor<f32>) -> tensor<16xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{}]> : tensor<15xf32>
  // CHECK-NEXT: %[[P:.*]] = stablehlo.pad %[[A]], %arg1, low = [1], high = [0], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[P]] <@mesh, [{"x"}]> : tensor<16xf32>
  %0 = stablehlo.pad %a, %z, low = [1], high = [0], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<15xf32>, tensor<f32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// Low padding that keeps every output shard within its input shard still
// pads each device differently (device 0 at the front, device 1 at the
// back), which a local pad cannot express: replicated.
// CHECK-LABEL: func.func @pad_low_within_shards
func.func @pad_low_within_shards(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %z: tensor<f32>) -> tensor<10xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[P:.*]] = stablehlo.pad %[[A]], %arg1, low = [1], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[P]] <@mesh, [{"x"}]> : tensor<10xf32>
  %0 = stablehlo.pad %a, %z, low = [1], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

// Interior padding is never communication-free.
// CHECK-LABEL: func.func @pad_interior
func.func @pad_interior(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %z: tensor<f32>) -> tensor<15xf32> {
  // CHECK-NEXT: sdy.reshard %arg0 <@mesh, [{}]>
  %0 = stablehlo.pad %a, %z, low = [0], high = [0], interior = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<15xf32>
  return %0 : tensor<15xf32>
}

// CHECK-LABEL: func.func @reverse
func.func @reverse(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[V:.*]] = stablehlo.reverse %[[A]], dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[V]] <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  %0 = stablehlo.reverse %a, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Ops without permutation factors, or with the factor unsharded, stay.
// CHECK-LABEL: func.func @nothing_to_resolve
func.func @nothing_to_resolve(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: stablehlo.add
  // CHECK-NEXT: stablehlo.reverse
  // CHECK-NEXT: return
  %0 = stablehlo.add %a, %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.reverse %0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// Reshapes: a split or merged group sharded non-divisibly (here "x"
// overflows factor i of size 6) is replicated; divisible ones stay.
sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func @reshape_non_divisible
func.func @reshape_non_divisible(%a: tensor<6x4xf32>) -> tensor<24xf32> {
  // CHECK-NEXT: %[[S:.*]] = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[S]] <@mesh, [{"x"}]> : tensor<24xf32>
  %0 = stablehlo.reshape %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<6x4xf32>) -> tensor<24xf32>
  return %0 : tensor<24xf32>
}

// CHECK-LABEL: func.func @reshape_divisible
func.func @reshape_divisible(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<2x4xf32> {
  // CHECK-NEXT: %[[S:.*]] = stablehlo.reshape %arg0
  // CHECK-NEXT: return %[[S]]
  %0 = stablehlo.reshape %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {"x":(2)2}]>]>} : (tensor<8xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
