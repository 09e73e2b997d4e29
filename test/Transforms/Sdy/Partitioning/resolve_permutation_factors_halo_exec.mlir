// RUN: %partition-and-run %s -sdy-insert-explicit-reshards=enable-full-version=true -sdy-resolve-permutation-factors=enable-halo-exchange=true -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-resolve-single-device-sharding -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// RUN: %partition-and-run %s -sdy-insert-explicit-reshards=enable-full-version=true -sdy-resolve-permutation-factors=enable-halo-exchange=false -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-resolve-single-device-sharding -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL
// Pads and slices along sharded dimensions, partitioned by the whole
// partitioner sequence with and without halo exchange, run on the
// interpreter and compared with the unpartitioned functions
// (test/Utils/partition_and_run.py). Function inputs and outputs are
// divisible; values in between need not be.
sdy.mesh @two = <["x"=2]>
sdy.mesh @three = <["x"=3]>
sdy.mesh @four = <["x"=4]>
sdy.mesh @grid = <["x"=2, "y"=2]>
sdy.mesh @shuffled = <["x"=4], device_ids=[2, 0, 3, 1]>

// CHECK: PASS: @main_shift_right_two
func.func @parallel_shift_right_two(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@two, [{"x"}]>}) -> (tensor<10xf32> {sdy.sharding = #sdy.sharding<@two, [{"x"}]>}) {
  %z = stablehlo.constant dense<-1.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [1], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@two, [{"x"}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

// Both neighbours, and a padding value other than zero at the edges.
// CHECK: PASS: @main_pad_both_sides_four
func.func @parallel_pad_both_sides_four(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> (tensor<20xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) {
  %z = stablehlo.constant dense<7.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [2], high = [2], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<20xf32>
  return %0 : tensor<20xf32>
}

// Negative low padding drops elements: data moves left.
// CHECK: PASS: @main_negative_low_four
func.func @parallel_negative_low_four(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> (tensor<20xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) {
  %z = stablehlo.constant dense<5.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [-3], high = [7], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<20xf32>
  return %0 : tensor<20xf32>
}

// Low padding 6 over input shards of 4: two hops, the far one sending 2
// elements.
// CHECK: PASS: @main_two_hops_four
func.func @parallel_two_hops_four(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> (tensor<20xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) {
  %z = stablehlo.constant dense<0.5> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [6], high = [-2], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<20xf32>
  return %0 : tensor<20xf32>
}

// Interior padding spreads 8 elements over 16.
// CHECK: PASS: @main_interior_four
func.func @parallel_interior_four(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) {
  %z = stablehlo.constant dense<3.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [0], high = [1], interior = [1] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// CHECK: PASS: @main_slice_offset_four
func.func @parallel_slice_offset_four(%a: tensor<16xi32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> (tensor<8xi32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) {
  %0 = stablehlo.slice %a [2:10] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// CHECK: PASS: @main_strided_slice_four
func.func @parallel_strided_slice_four(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) {
  %0 = stablehlo.slice %a [1:16:2] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A non-divisible value between two halo exchanges (18 over 4 shards).
// CHECK: PASS: @main_pad_then_slice_four
func.func @parallel_pad_then_slice_four(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) {
  %z = stablehlo.constant dense<2.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [1], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<18xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : tensor<18xf32>
  %2 = stablehlo.slice %1 [2:18] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<18xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// Three shards: 12 -> 15 -> 9, and a non-divisible 10 in between.
// CHECK: PASS: @main_pad_three
func.func @parallel_pad_three(%a: tensor<12xf32> {sdy.sharding = #sdy.sharding<@three, [{"x"}]>}) -> (tensor<15xf32> {sdy.sharding = #sdy.sharding<@three, [{"x"}]>}) {
  %z = stablehlo.constant dense<9.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [1], high = [2], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@three, [{"x"}]>]>} : (tensor<12xf32>, tensor<f32>) -> tensor<15xf32>
  return %0 : tensor<15xf32>
}

// CHECK: PASS: @main_slice_three
func.func @parallel_slice_three(%a: tensor<12xf32> {sdy.sharding = #sdy.sharding<@three, [{"x"}]>}) -> (tensor<9xf32> {sdy.sharding = #sdy.sharding<@three, [{"x"}]>}) {
  %0 = stablehlo.slice %a [1:10] {sdy.sharding = #sdy.sharding_per_value<[<@three, [{"x"}]>]>} : (tensor<12xf32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}

// CHECK: PASS: @main_cut_then_pad_three
func.func @parallel_cut_then_pad_three(%a: tensor<12xf32> {sdy.sharding = #sdy.sharding<@three, [{"x"}]>}) -> (tensor<12xf32> {sdy.sharding = #sdy.sharding<@three, [{"x"}]>}) {
  %z = stablehlo.constant dense<4.0> : tensor<f32>
  %0 = stablehlo.slice %a [0:10] {sdy.sharding = #sdy.sharding_per_value<[<@three, [{"x"}]>]>} : (tensor<12xf32>) -> tensor<10xf32>
  %1 = stablehlo.pad %0, %z, low = [2], high = [0], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@three, [{"x"}]>]>} : (tensor<10xf32>, tensor<f32>) -> tensor<12xf32>
  return %1 : tensor<12xf32>
}

// CHECK: PASS: @main_strided_interior_three
func.func @parallel_strided_interior_three(%a: tensor<12xf32> {sdy.sharding = #sdy.sharding<@three, [{"x"}]>}) -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@three, [{"x"}]>}) {
  %z = stablehlo.constant dense<1.5> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [-1], high = [0], interior = [2] {sdy.sharding = #sdy.sharding_per_value<[<@three, [{"x"}]>]>} : (tensor<12xf32>, tensor<f32>) -> tensor<33xf32>
  %1 = stablehlo.slice %0 [2:32:5] {sdy.sharding = #sdy.sharding_per_value<[<@three, [{"x"}]>]>} : (tensor<33xf32>) -> tensor<6xf32>
  return %1 : tensor<6xf32>
}

// Two sharded dimensions on a 2-D mesh, one with interior padding.
// CHECK: PASS: @main_pad_2d
func.func @parallel_pad_2d(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@grid, [{"x"}, {"y"}]>}) -> (tensor<10x16xf32> {sdy.sharding = #sdy.sharding<@grid, [{"x"}, {"y"}]>}) {
  %z = stablehlo.constant dense<-2.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [1, 1], high = [1, 0], interior = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@grid, [{"x"}, {"y"}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<10x16xf32>
  return %0 : tensor<10x16xf32>
}

// One dimension sharded over both axes, the other unsharded and strided.
// CHECK: PASS: @main_slice_2d_both_axes
func.func @parallel_slice_2d_both_axes(%a: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@grid, [{"x", "y"}, {}]>}) -> (tensor<12x2xf32> {sdy.sharding = #sdy.sharding<@grid, [{"x", "y"}, {}]>}) {
  %0 = stablehlo.slice %a [3:15, 0:4:2] {sdy.sharding = #sdy.sharding_per_value<[<@grid, [{"x", "y"}, {}]>]>} : (tensor<16x4xf32>) -> tensor<12x2xf32>
  return %0 : tensor<12x2xf32>
}

// The minor axis alone: neighbours are devices 0-1 and 2-3.
// CHECK: PASS: @main_pad_minor_axis
func.func @parallel_pad_minor_axis(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@grid, [{}, {"y"}]>}) -> (tensor<6x10xf32> {sdy.sharding = #sdy.sharding<@grid, [{}, {"y"}]>}) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [1, 3], high = [1, -1], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@grid, [{}, {"y"}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<6x10xf32>
  return %0 : tensor<6x10xf32>
}

// Explicit device ids: shard indices come from a lookup table.
// CHECK: PASS: @main_pad_shuffled
func.func @parallel_pad_shuffled(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@shuffled, [{"x"}]>}) -> (tensor<20xf32> {sdy.sharding = #sdy.sharding<@shuffled, [{"x"}]>}) {
  %z = stablehlo.constant dense<6.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [3], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@shuffled, [{"x"}]>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<20xf32>
  return %0 : tensor<20xf32>
}

// Reverse: each device takes its mirror device's shard and reverses it.
// CHECK: PASS: @main_reverse_four
func.func @parallel_reverse_four(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) {
  %0 = stablehlo.reverse %a, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// A non-divisible reverse (10 over 3 shards of 4) between two slices: the
// padding of the last shard is shifted to the front first.
// CHECK: PASS: @main_reverse_three
func.func @parallel_reverse_three(%a: tensor<12xi32> {sdy.sharding = #sdy.sharding<@three, [{"x"}]>}) -> (tensor<9xi32> {sdy.sharding = #sdy.sharding<@three, [{"x"}]>}) {
  %0 = stablehlo.slice %a [1:11] {sdy.sharding = #sdy.sharding_per_value<[<@three, [{"x"}]>]>} : (tensor<12xi32>) -> tensor<10xi32>
  %1 = stablehlo.reverse %0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@three, [{"x"}]>]>} : tensor<10xi32>
  %2 = stablehlo.slice %1 [0:9] {sdy.sharding = #sdy.sharding_per_value<[<@three, [{"x"}]>]>} : (tensor<10xi32>) -> tensor<9xi32>
  return %2 : tensor<9xi32>
}

// A shift larger than a shard (5 over 4 shards of 2: 3 padding elements)
// needs two hops before the mirror swap.
// CHECK: PASS: @main_reverse_two_hop_shift
func.func @parallel_reverse_two_hop_shift(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@four, [{"x"}]>}) {
  %z = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.slice %a [2:7] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<5xf32>
  %1 = stablehlo.reverse %0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : tensor<5xf32>
  %2 = stablehlo.pad %1, %z, low = [0], high = [3], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@four, [{"x"}]>]>} : (tensor<5xf32>, tensor<f32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// Two dimensions reversed on a 2-D mesh, one sharded on each axis, and one
// unsharded reversed dimension.
// CHECK: PASS: @main_reverse_2d
func.func @parallel_reverse_2d(%a: tensor<4x6x3xf32> {sdy.sharding = #sdy.sharding<@grid, [{"x"}, {"y"}, {}]>}) -> (tensor<4x6x3xf32> {sdy.sharding = #sdy.sharding<@grid, [{"x"}, {"y"}, {}]>}) {
  %0 = stablehlo.reverse %a, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@grid, [{"x"}, {"y"}, {}]>]>} : tensor<4x6x3xf32>
  return %0 : tensor<4x6x3xf32>
}

// Mirror devices on a mesh with explicit device ids.
// CHECK: PASS: @main_reverse_shuffled
func.func @parallel_reverse_shuffled(%a: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@shuffled, [{"x"}, {}]>}) -> (tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@shuffled, [{"x"}, {}]>}) {
  %0 = stablehlo.reverse %a, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@shuffled, [{"x"}, {}]>]>} : tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}
