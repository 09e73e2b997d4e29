// With replica-count > 1 the halo code reads replica_id and its
// collective_permutes carry no channel, so that their pairs name replicas
// (a channel would make them name partitions). Run as four replicas of one
// partition (test/Utils/partition_and_run.py), halo exchange on and off.
// RUN: %partition-and-run %s -sdy-insert-explicit-reshards=enable-full-version=true "-sdy-resolve-permutation-factors=enable-halo-exchange=true replica-count=4" -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-resolve-single-device-sharding=replica-count=4 -sdy-convert-global-to-local=replica-count=4 -sdy-drop-sharding-and-mesh | FileCheck %s
// RUN: %partition-and-run %s -sdy-insert-explicit-reshards=enable-full-version=true "-sdy-resolve-permutation-factors=enable-halo-exchange=false replica-count=4" -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-resolve-single-device-sharding=replica-count=4 -sdy-convert-global-to-local=replica-count=4 -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL
sdy.mesh @grid = <["x"=2, "y"=2]>

// CHECK: PASS: @main_pad_both_axes
func.func @parallel_pad_both_axes(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@grid, [{"x", "y"}]>}) -> (tensor<20xf32> {sdy.sharding = #sdy.sharding<@grid, [{"x", "y"}]>}) {
  %z = stablehlo.constant dense<7.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [3], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@grid, [{"x", "y"}]>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<20xf32>
  return %0 : tensor<20xf32>
}

// CHECK: PASS: @main_slice_reverse_minor_axis
func.func @parallel_slice_reverse_minor_axis(%a: tensor<4x12xf32> {sdy.sharding = #sdy.sharding<@grid, [{"x"}, {"y"}]>}) -> (tensor<4x10xf32> {sdy.sharding = #sdy.sharding<@grid, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.slice %a [0:4, 1:11] {sdy.sharding = #sdy.sharding_per_value<[<@grid, [{"x"}, {"y"}]>]>} : (tensor<4x12xf32>) -> tensor<4x10xf32>
  %1 = stablehlo.reverse %0, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@grid, [{"x"}, {"y"}]>]>} : tensor<4x10xf32>
  return %1 : tensor<4x10xf32>
}
