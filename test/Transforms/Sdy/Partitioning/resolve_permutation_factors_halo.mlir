// RUN: mpmd-opt -sdy-resolve-permutation-factors -split-input-file %s | FileCheck %s
// RUN: mpmd-opt -sdy-resolve-permutation-factors=replica-count=4 -split-input-file %s | FileCheck %s --check-prefix=REPLICA

// Halo exchange: a pad or slice whose output shards read their
// neighbours' input shards fetches just those elements with
// collective_permutes inside a manual computation. The numbers are checked
// by resolve_permutation_factors_halo_exec.mlir.
sdy.mesh @four = <["x"=4]>

// 16 elements padded by one at each end, over 4 devices: output shards of
// ceil(18/4) = 5 elements. Device k needs up to 2 elements of device k+1
// (device 3 none: it runs past the result), so every device sends its
// first 2 to its left neighbour; positions outside the input are masked
// with the padding value; the window is padded so that device k's output
// starts at offset k.
// CHECK-LABEL: func.func @pad_right_halo
// REPLICA-LABEL: func.func @pad_right_halo
func.func @pad_right_halo(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}, %z: tensor<f32>) -> tensor<18xf32> {
  // CHECK-NEXT: %[[M:.*]] = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@four, [{"x"}]>, <@four, []>] out_shardings=[<@four, [{"x"}]>] manual_axes={"x"} (%[[X:.*]]: tensor<4xf32>, %[[V:.*]]: tensor<f32>) {
  // CHECK-NEXT:   %[[P:.*]] = stablehlo.partition_id : tensor<ui32>
  // CHECK-NEXT:   %[[ID:.*]] = stablehlo.convert %[[P]] : (tensor<ui32>) -> tensor<i64>
  // CHECK-NEXT:   %[[HEAD:.*]] = stablehlo.slice %[[X]] [0:2]
  // CHECK-NEXT:   %[[RIGHT:.*]] = "stablehlo.collective_permute"(%[[HEAD]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2]]> : tensor<3x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK-NEXT:   %[[W:.*]] = stablehlo.concatenate %[[X]], %[[RIGHT]], dim = 0 : (tensor<4xf32>, tensor<2xf32>) -> tensor<6xf32>
  // CHECK-NEXT:   %[[IOTA:.*]] = stablehlo.iota dim = 0 : tensor<6xi64>
  // CHECK-NEXT:   %[[FOUR:.*]] = stablehlo.constant dense<4>
  // CHECK-NEXT:   %[[FIRST:.*]] = stablehlo.multiply %[[ID]], %[[FOUR]]
  // CHECK:        %[[IN:.*]] = stablehlo.and
  // CHECK-NEXT:   %[[FILL:.*]] = stablehlo.broadcast_in_dim %[[V]], dims = []
  // CHECK-NEXT:   %[[MASKED:.*]] = stablehlo.select %[[IN]], %[[W]], %[[FILL]]
  // CHECK-NEXT:   %[[PADDED:.*]] = stablehlo.pad %[[MASKED]], %[[V]], low = [1], high = [1], interior = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<8xf32>
  // CHECK-NEXT:   %[[OUT:.*]] = stablehlo.dynamic_slice %[[PADDED]], %[[ID]], sizes = [5]
  // CHECK-NEXT:   sdy.return %[[OUT]] : tensor<5xf32>
  // CHECK-NEXT: } : (tensor<16xf32>, tensor<f32>) -> tensor<20xf32>
  // CHECK-NEXT: %[[R:.*]] = stablehlo.slice %[[M]] [0:18] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<20xf32>) -> tensor<18xf32>
  // CHECK-NEXT: return %[[R]]
  // REPLICA: stablehlo.replica_id
  // REPLICA-NOT: stablehlo.partition_id
  // REPLICA: "stablehlo.collective_permute"(%{{.*}}) <{source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2]]>
  %0 = stablehlo.pad %a, %z, low = [1], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<18xf32>
  return %0 : tensor<18xf32>
}

// -----

sdy.mesh @four = <["x"=4]>

// New channels count on after the largest one in the module (7 here).
// CHECK-LABEL: func.func @existing_channel
func.func @existing_channel(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}, %z: tensor<f32>) -> tensor<18xf32> {
  // CHECK: "stablehlo.collective_permute"(%{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>
  %0 = "stablehlo.collective_permute"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = stablehlo.pad %0, %z, low = [1], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<18xf32>
  return %1 : tensor<18xf32>
}

// -----

sdy.mesh @four = <["x"=4]>

// A strided slice over a non-divisible input (15 over 4: shards of 4,
// padded at the high end first). Output shard k (2 elements) reads
// elements 4k + 2 and 4k + 4: the first element of the next shard is its
// halo. The window [own 4 | next 1] is cut at constant offset 2, strided.
// CHECK-LABEL: func.func @strided_slice
func.func @strided_slice(%a: tensor<15xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> tensor<7xf32> {
  // CHECK-NEXT: %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[IN:.*]] = stablehlo.pad %arg0, %[[ZERO]], low = [0], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<15xf32>, tensor<f32>) -> tensor<16xf32>
  // CHECK-NEXT: %[[M:.*]] = sdy.manual_computation(%[[IN]])
  // CHECK:        %[[HEAD:.*]] = stablehlo.slice %{{.*}} [0:1]
  // CHECK-NEXT:   %[[NEXT:.*]] = "stablehlo.collective_permute"(%[[HEAD]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2]]> : tensor<3x2xi64>}> : (tensor<1xf32>) -> tensor<1xf32>
  // CHECK-NEXT:   %[[W:.*]] = stablehlo.concatenate %{{.*}}, %[[NEXT]], dim = 0 : (tensor<4xf32>, tensor<1xf32>) -> tensor<5xf32>
  // CHECK-NEXT:   %[[TWO:.*]] = stablehlo.constant dense<2> : tensor<i64>
  // CHECK-NEXT:   %[[CUT:.*]] = stablehlo.dynamic_slice %[[W]], %[[TWO]], sizes = [3]
  // CHECK-NEXT:   %[[S:.*]] = stablehlo.slice %[[CUT]] [0:3:2] : (tensor<3xf32>) -> tensor<2xf32>
  // CHECK-NEXT:   sdy.return %[[S]]
  // CHECK-NEXT: } : (tensor<16xf32>) -> tensor<8xf32>
  // CHECK-NEXT: stablehlo.slice %[[M]] [0:7]
  %0 = stablehlo.slice %a [2:15:2] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<15xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

sdy.mesh @four = <["x"=4]>

// Reverse over divisible shards: one permute swaps mirror devices, then
// each reverses locally.
// CHECK-LABEL: func.func @reverse
func.func @reverse(%a: tensor<16x2xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}, {}]>}) -> tensor<16x2xf32> {
  // CHECK-NEXT: %[[M:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@four, [{"x"}, {}]>] out_shardings=[<@four, [{"x"}, {}]>] manual_axes={"x"} (%[[X:.*]]: tensor<4x2xf32>) {
  // CHECK-NEXT:   stablehlo.partition_id
  // CHECK-NEXT:   stablehlo.convert
  // CHECK-NEXT:   %[[P:.*]] = "stablehlo.collective_permute"(%[[X]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}3, 0], [2, 1], [1, 2], [0, 3]]> : tensor<4x2xi64>}>
  // CHECK-NEXT:   %[[R:.*]] = stablehlo.reverse %[[P]], dims = [0, 1] : tensor<4x2xf32>
  // CHECK-NEXT:   sdy.return %[[R]]
  // CHECK-NEXT: } : (tensor<16x2xf32>) -> tensor<16x2xf32>
  // CHECK-NEXT: return %[[M]]
  %0 = stablehlo.reverse %a, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}, {}]>]>} : tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// -----

sdy.mesh @four = <["x"=4]>

// A non-divisible reverse (14 over 4 shards of 4) first shifts the 2
// padding elements of the last shard to the front: a halo of 2 from the
// left neighbour, cut at a constant offset.
// CHECK-LABEL: func.func @reverse_non_divisible
func.func @reverse_non_divisible(%a: tensor<14xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> tensor<14xf32> {
  // CHECK:      %[[TAIL:.*]] = stablehlo.slice %{{.*}} [2:4]
  // CHECK-NEXT: %[[LEFT:.*]] = "stablehlo.collective_permute"(%[[TAIL]]) {{.*}} source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3]]>
  // CHECK-NEXT: %[[W:.*]] = stablehlo.concatenate %[[LEFT]], %{{.*}}, dim = 0
  // CHECK-NEXT: %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i64>
  // CHECK-NEXT: %[[S:.*]] = stablehlo.dynamic_slice %[[W]], %[[ZERO]], sizes = [4]
  // CHECK-NEXT: %[[P:.*]] = "stablehlo.collective_permute"(%[[S]]) {{.*}} source_target_pairs = dense<{{\[\[}}3, 0], [2, 1], [1, 2], [0, 3]]>
  // CHECK-NEXT: stablehlo.reverse %[[P]], dims = [0]
  %0 = stablehlo.reverse %a, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : tensor<14xf32>
  return %0 : tensor<14xf32>
}

// -----

// Explicit device ids: the shard index of each device comes from a table
// indexed by its id, and the permute pairs name device ids.
sdy.mesh @shuffled = <["x"=4], device_ids=[2, 0, 3, 1]>

// CHECK-LABEL: func.func @slice_table
func.func @slice_table(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@shuffled, [{"x"}]>}) -> tensor<8xf32> {
  // Shard k (device ids 2, 0, 3, 1) reads elements 2k+2, 2k+3: one hop
  // from the left; its window starts at element 4k - 4, so it reads at
  // 2k+2 - (4k-4) = 6 - 2k.
  // CHECK:      "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}2, 0], [0, 3], [3, 1]]> : tensor<3x2xi64>}>
  // CHECK-NEXT: %[[W:.*]] = stablehlo.concatenate
  // CHECK-NEXT: %[[TABLE:.*]] = stablehlo.constant dense<[4, 0, 6, 2]> : tensor<4xi64>
  // CHECK-NEXT: %[[ENTRY:.*]] = stablehlo.dynamic_slice %[[TABLE]]
  // CHECK-NEXT: %[[OFFSET:.*]] = stablehlo.reshape %[[ENTRY]]
  // CHECK-NEXT: stablehlo.dynamic_slice %[[W]], %[[OFFSET]], sizes = [2]
  %0 = stablehlo.slice %a [2:10] {sdy.sharding = #sdy.sharding_per_value<[<@shuffled, [{"x"}]>]>} : (tensor<16xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Both axes of a 2-D mesh on one dimension: the shard index is the device
// id itself (one closed-form digit); on the minor axis alone it is id % 2.
sdy.mesh @grid = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @minor_axis
func.func @minor_axis(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@grid, [{}, {"y"}]>}, %z: tensor<f32>) -> tensor<6x10xf32> {
  // CHECK:      manual_axes={"y"}
  // CHECK:      source_target_pairs = dense<{{\[\[}}0, 1], [2, 3]]>
  // CHECK:      %[[TWO:.*]] = stablehlo.constant dense<2> : tensor<i64>
  // CHECK-NEXT: stablehlo.remainder %{{.*}}, %[[TWO]]
  // The unsharded dimension is padded inside, as the op would.
  // CHECK:      stablehlo.pad %{{.*}}, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<6x5xf32>
  %0 = stablehlo.pad %a, %z, low = [1, 3], high = [1, -1], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@grid, [{}, {"y"}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<6x10xf32>
  return %0 : tensor<6x10xf32>
}

// -----

// Fallbacks to replication.
sdy.mesh @two = <["x"=2]>

// The halo would be the whole other shard: an all-gather moves no more.
// CHECK-LABEL: func.func @halo_as_large_as_all_gather
func.func @halo_as_large_as_all_gather(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@two, [{"x"}]>}, %z: tensor<f32>) -> tensor<10xf32> {
  // CHECK-NEXT: sdy.reshard %arg0 <@two, [{}]>
  // CHECK-NOT: sdy.manual_computation
  %0 = stablehlo.pad %a, %z, low = [5], high = [-3], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@two, [{"x"}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

// Operand and result sharded differently.
// CHECK-LABEL: func.func @different_shardings
func.func @different_shardings(%a: tensor<8xf32>, %z: tensor<f32>) -> tensor<10xf32> {
  // CHECK-NEXT: stablehlo.pad %arg0
  // CHECK-NEXT: sdy.reshard
  // CHECK-NOT: sdy.manual_computation
  %0 = stablehlo.pad %a, %z, low = [1], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@two, [{"x"}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

// -----

// Channel handles are unique in the module: the halo of the first function
// counts on after the handle the second one already uses, and the second
// function's halo after that.
sdy.mesh @four = <["x"=4]>

// CHECK-LABEL: func.func @first_function
func.func @first_function(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}, %z: tensor<f32>) -> tensor<18xf32> {
  // CHECK: "stablehlo.collective_permute"(%{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>
  // CHECK-NOT: "stablehlo.collective_permute"
  %0 = stablehlo.pad %a, %z, low = [1], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<18xf32>
  return %0 : tensor<18xf32>
}

// CHECK-LABEL: func.func @second_function
func.func @second_function(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}, %z: tensor<f32>) -> tensor<18xf32> {
  // CHECK: "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>
  // CHECK: "stablehlo.collective_permute"(%{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>
  %0 = "stablehlo.collective_permute"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = stablehlo.pad %0, %z, low = [1], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<18xf32>
  return %1 : tensor<18xf32>
}
