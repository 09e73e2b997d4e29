// RUN: %partition-and-run %s -sdy-insert-explicit-reshards='enable-full-version=true' -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-convert-global-to-local='partition-count=2' -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL
// Reductions over a sharded dimension, partitioned by the partitioner's
// passes and run on 2 devices against the unpartitioned program
// (test/Utils/partition_and_run.py): the all-reduce after the local reduce
// takes the maximum / minimum / sum as the reduce's body does. The inputs
// count up, so each function first scrambles them (sine, remainder).
sdy.mesh @pair = <["x"=2]>

// CHECK: PASS: @main_max_f32
func.func @parallel_max_f32(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@pair, [{}, {"x"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@pair, [{}]>}) {
  %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x8xf32>
  %1 = stablehlo.reduce(%0 init: %low) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// CHECK: PASS: @main_min_f32
func.func @parallel_min_f32(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@pair, [{"x"}, {}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@pair, [{}]>}) {
  %high = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{"x"}, {}]>]>} : tensor<8x4xf32>
  %1 = stablehlo.reduce(%0 init: %high) applies stablehlo.minimum across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}]>]>} : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Integers: (x * 7) % 11 scrambles 0, 1, 2, ...; max and min of every row.
// CHECK: PASS: @main_max_min_i32
func.func @parallel_max_min_i32(%arg0: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@pair, [{}, {"x"}]>})
    -> (tensor<4xi32> {sdy.sharding = #sdy.sharding<@pair, [{}]>}, tensor<4xi32> {sdy.sharding = #sdy.sharding<@pair, [{}]>}) {
  %seven = stablehlo.constant dense<7> : tensor<4x8xi32>
  %eleven = stablehlo.constant dense<11> : tensor<4x8xi32>
  %lowest = stablehlo.constant dense<-2147483648> : tensor<i32>
  %highest = stablehlo.constant dense<2147483647> : tensor<i32>
  %0 = stablehlo.multiply %arg0, %seven {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x8xi32>
  %1 = stablehlo.remainder %0, %eleven {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x8xi32>
  %2 = stablehlo.reduce(%1 init: %lowest) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}]>]>} : (tensor<4x8xi32>, tensor<i32>) -> tensor<4xi32>
  %3 = stablehlo.reduce(%1 init: %highest) applies stablehlo.minimum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}]>]>} : (tensor<4x8xi32>, tensor<i32>) -> tensor<4xi32>
  return %2, %3 : tensor<4xi32>, tensor<4xi32>
}

// A sum, as before.
// CHECK: PASS: @main_sum_f32
func.func @parallel_sum_f32(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@pair, [{}, {"x"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@pair, [{}]>}) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x8xf32>
  %1 = stablehlo.reduce(%0 init: %zero) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// 7 columns over 2 devices (4 + 3, padded): the padding must not win the
// maximum of negative values nor the minimum of positive ones.
// CHECK: PASS: @main_non_divisible
func.func @parallel_non_divisible(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@pair, [{}, {"x"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@pair, [{}]>}, tensor<4xf32> {sdy.sharding = #sdy.sharding<@pair, [{}]>}) {
  %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %high = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<4x7xf32>
  %0 = stablehlo.slice %arg0 [0:4, 0:7] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : (tensor<4x8xf32>) -> tensor<4x7xf32>
  %1 = stablehlo.add %0, %one {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x7xf32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x7xf32>
  %3 = stablehlo.reduce(%2 init: %low) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}]>]>} : (tensor<4x7xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = stablehlo.reduce(%1 init: %high) applies stablehlo.minimum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}]>]>} : (tensor<4x7xf32>, tensor<f32>) -> tensor<4xf32>
  return %3, %4 : tensor<4xf32>, tensor<4xf32>
}

// Softmax over a sharded row, as JAX writes it: subtract the row maximum,
// exponentiate, divide by the row sum. The quotient does not depend on the
// value subtracted, so the shifted row is returned too.
// CHECK: PASS: @main_softmax
func.func @parallel_softmax(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@pair, [{}, {"x"}]>})
    -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@pair, [{}, {"x"}]>}, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@pair, [{}, {"x"}]>}) {
  %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %scale = stablehlo.constant dense<0.25> : tensor<4x8xf32>
  %x = stablehlo.multiply %arg0, %scale {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x8xf32>
  %max = stablehlo.reduce(%x init: %low) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %maxb = stablehlo.broadcast_in_dim %max, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %shifted = stablehlo.subtract %x, %maxb {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x8xf32>
  %e = stablehlo.exponential %shifted {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x8xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %sumb = stablehlo.broadcast_in_dim %sum, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %y = stablehlo.divide %e, %sumb {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{}, {"x"}]>]>} : tensor<4x8xf32>
  return %y, %shifted : tensor<4x8xf32>, tensor<4x8xf32>
}

// any / all of a sharded boolean vector (or / and bodies): 0..7 > 2 is
// true on both devices for any, false on one for all.
// CHECK: PASS: @main_any_all
func.func @parallel_any_all(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@pair, [{"x"}]>})
    -> (tensor<i1> {sdy.sharding = #sdy.sharding<@pair, []>}, tensor<i1> {sdy.sharding = #sdy.sharding<@pair, []>}) {
  %two = stablehlo.constant dense<2> : tensor<8xi32>
  %false = stablehlo.constant dense<false> : tensor<i1>
  %true = stablehlo.constant dense<true> : tensor<i1>
  %0 = stablehlo.compare GT, %arg0, %two {sdy.sharding = #sdy.sharding_per_value<[<@pair, [{"x"}]>]>} : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  %1 = stablehlo.reduce(%0 init: %false) applies stablehlo.or across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@pair, []>]>} : (tensor<8xi1>, tensor<i1>) -> tensor<i1>
  %2 = stablehlo.reduce(%0 init: %true) applies stablehlo.and across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@pair, []>]>} : (tensor<8xi1>, tensor<i1>) -> tensor<i1>
  return %1, %2 : tensor<i1>, tensor<i1>
}
