// RUN: mpmd-opt -sdy-insert-explicit-reshards="enable-full-version=true" -split-input-file -verify-diagnostics %s | FileCheck %s

// Reduction kinds: a reduce over a sharded dimension is all-reduced with the
// kind of its body (add: a sum, maximum / or of i1: max, minimum / and of
// i1: min); unreduced operands are all-reduced with their own kind.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @reduce_max
func.func @reduce_max(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %z: tensor<f32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  // CHECK-NEXT: %[[RED:.*]] = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.maximum
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce max {"x"} %[[RED]] out_sharding=<@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[AR]]
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @reduce_min_int
func.func @reduce_min_int(%a: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %z: tensor<i32>) -> (tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  // CHECK-NEXT: %[[RED:.*]] = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.minimum
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce min {"x"} %[[RED]] out_sharding=<@mesh, [{"y"}]> : tensor<8xi32>
  // CHECK-NEXT: return %[[AR]]
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.minimum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<8x16xi32>, tensor<i32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// CHECK-LABEL: func.func @reduce_or_and
func.func @reduce_or_and(%a: tensor<16xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}, %z: tensor<i1>) -> (tensor<i1>, tensor<i1>) {
  // CHECK-NEXT: %[[ANY:.*]] = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.or
  // CHECK-NEXT: %[[AR0:.*]] = sdy.all_reduce max {"x", "y"} %[[ANY]] out_sharding=<@mesh, []> : tensor<i1>
  // CHECK-NEXT: %[[ALL:.*]] = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.and
  // CHECK-NEXT: %[[AR1:.*]] = sdy.all_reduce min {"x", "y"} %[[ALL]] out_sharding=<@mesh, []> : tensor<i1>
  // CHECK-NEXT: return %[[AR0]], %[[AR1]]
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.or across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : (tensor<16xi1>, tensor<i1>) -> tensor<i1>
  %1 = stablehlo.reduce(%a init: %z) applies stablehlo.and across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : (tensor<16xi1>, tensor<i1>) -> tensor<i1>
  return %0, %1 : tensor<i1>, tensor<i1>
}

// A result that stays max-unreduced over "x" is all-reduced over "y" only
// (without the full version too: insert_explicit_reshards_unreduced.mlir).
// CHECK-LABEL: func.func @reduce_max_partly_unreduced
func.func @reduce_max_partly_unreduced(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}, %z: tensor<f32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[RED:.*]] = stablehlo.reduce
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce max {"y"} %[[RED]] out_sharding=<@mesh, [{}], unreduced=max{"x"}> : tensor<8xf32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"x"}>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  // A max-unreduced operand of an op whose result is not unreduced.
  // CHECK-NEXT: %[[AR2:.*]] = sdy.all_reduce max {"x"} %[[AR]] out_sharding=<@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[AR2]]
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// A max-unreduced operand of an op with sum-unreduced results over the same
// axis is combined completely first.
// CHECK-LABEL: func.func @kind_changes
func.func @kind_changes(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"x"}>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce max {"x"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: stablehlo.negate %[[AR]]
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>]>} : tensor<8xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// An argmax (a variadic reduce over value/index pairs) over a sharded
// dimension: no all-reduce can combine its partial results.
func.func @argmax(%v: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %i: tensor<16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                  %v0: tensor<f32>, %i0: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  // expected-error @+1 {{'stablehlo.reduce' op reduces dimensions sharded along {"x"}, but its body is not one add, maximum or minimum of its two arguments, so no all-reduce can combine the partial results; replicate the reduced dimensions first}}
  %0:2 = stablehlo.reduce(%v init: %v0), (%i init: %i0) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, []>]>} : (tensor<16xf32>, tensor<16xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %mv = stablehlo.select %gt, %a, %c : tensor<i1>, tensor<f32>
    %mi = stablehlo.select %gt, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %mv, %mi : tensor<f32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<f32>, tensor<i32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// A product over a sharded dimension.
func.func @product(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %one: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.reduce' op reduces dimensions sharded along {"x"}, but its body is not one add, maximum or minimum of its two arguments}}
  %0 = stablehlo.reduce(%a init: %one) applies stablehlo.multiply across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A max reduce whose result claims partial sums.
func.func @max_into_sum_unreduced(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}, %z: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.reduce' op makes partial results of kind max but result 0 is unreduced with kind sum along {"x"}}}
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [], unreduced={"x"}>]>} : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
