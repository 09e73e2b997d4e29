// RUN: mpmd-opt -sdy-pad-for-divisibility -split-input-file %s | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=4]>

// Elementwise ops and their users take the padded type (7 over 2 shards ->
// 8); a dimension that is divisible, or not sharded, keeps its size.
// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x6xf32> {
  // CHECK-NEXT: %[[S:.*]] = stablehlo.slice %arg0 [0:8, 0:6] {{.*}} -> tensor<8x6xf32>
  %0 = stablehlo.slice %arg0 [0:7, 0:6] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<7x6xf32>
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[S]] {{.*}} : tensor<8x6xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<7x6xf32>
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %[[N]], %[[S]] {{.*}} : tensor<8x6xf32>
  %2 = stablehlo.add %1, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<7x6xf32>
  // A transpose moves the padded dim.
  // CHECK-NEXT: stablehlo.transpose %[[A]], dims = [1, 0] {{.*}} : (tensor<8x6xf32>) -> tensor<6x8xf32>
  %3 = stablehlo.transpose %2, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<7x6xf32>) -> tensor<6x7xf32>
  return %arg0 : tensor<8x6xf32>
}

// A value returned with its unpadded type is sliced back right after its
// definition, once for all such uses.
// CHECK-LABEL: func.func @return_unpadded
func.func @return_unpadded(%arg0: tensor<8xf32>) -> (tensor<7xf32>, tensor<7xf32>) {
  // CHECK-NEXT: %[[S:.*]] = stablehlo.slice %arg0 [0:8] {{.*}} -> tensor<8xf32>
  // CHECK-NEXT: %[[BACK:.*]] = stablehlo.slice %[[S]] [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<8xf32>) -> tensor<7xf32>
  // CHECK-NEXT: return %[[BACK]], %[[BACK]]
  %0 = stablehlo.slice %arg0 [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<8xf32>) -> tensor<7xf32>
  return %0, %0 : tensor<7xf32>, tensor<7xf32>
}

// Splat constants stay splats; other constants are padded with zeros.
// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<6xf32>, tensor<6xi32>) {
  // CHECK-NEXT: %[[SPLAT:.*]] = stablehlo.constant {{.*}} dense<2.000000e+00> : tensor<8xf32>
  // CHECK-NEXT: %[[SPLAT_BACK:.*]] = stablehlo.slice %[[SPLAT]] [0:6]
  %0 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} dense<2.0> : tensor<6xf32>
  // CHECK-NEXT: %[[DENSE:.*]] = stablehlo.constant {{.*}} dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  // CHECK-NEXT: %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i32>
  // CHECK-NEXT: %[[PADDED:.*]] = stablehlo.pad %[[DENSE]], %[[ZERO]], low = [0], high = [2], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<6xi32>, tensor<i32>) -> tensor<8xi32>
  %1 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  // CHECK-NEXT: %[[SUM:.*]] = stablehlo.add %[[PADDED]], %[[PADDED]] {{.*}} : tensor<8xi32>
  %2 = stablehlo.add %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<6xi32>
  // CHECK-NEXT: %[[SUM_BACK:.*]] = stablehlo.slice %[[SUM]] [0:6]
  // CHECK-NEXT: return %[[SPLAT_BACK]], %[[SUM_BACK]]
  return %0, %2 : tensor<6xf32>, tensor<6xi32>
}

// An sdy.constant is padded like a stablehlo.constant.
// CHECK-LABEL: func.func @sdy_constant
func.func @sdy_constant() -> tensor<6xf32> {
  // CHECK-NEXT: sdy.constant {{.*}} dense<1.000000e+00> : tensor<8xf32>
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} dense<1.0> : tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// all_gather gathers the padded form and slices the gathered dim back;
// all_slice pads its operand to what the out sharding needs (with zeros),
// and a pad whose padding already holds its padding value needs no mask.
// CHECK-LABEL: func.func @gather_then_slice
func.func @gather_then_slice(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: %[[S:.*]] = stablehlo.slice %arg0 [0:8, 0:16]
  %0 = stablehlo.slice %arg0 [0:7, 0:16] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<7x16xf32>
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"x"}, {}] %[[S]] out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
  // CHECK-NEXT: %[[BACK:.*]] = stablehlo.slice %[[G]] [0:7, 0:16] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>) -> tensor<7x16xf32>
  %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<7x16xf32>
  // CHECK-NEXT: %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[P:.*]] = stablehlo.pad %[[BACK]], %[[ZERO]], low = [0, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<7x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  // CHECK-NEXT: %[[SL:.*]] = sdy.all_slice [{"y"}, {}] %[[P]] out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x16xf32>
  %2 = sdy.all_slice [{"y"}, {}] %1 out_sharding=<@mesh, [{"y"}, {}]> : tensor<7x16xf32>
  // CHECK-NEXT: stablehlo.pad %[[SL]], %cst, low = [0, 0], high = [0, 0], interior = [0, 0] {{.*}} -> tensor<8x16xf32>
  %3 = stablehlo.pad %2, %cst, low = [0, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<7x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}

// A gather that still leaves axes on the dim keeps the padding they need.
// The pad after it must mask: the slice read arguments 5..7 into the
// padding, where the result's real high padding (zeros) is.
// CHECK-LABEL: func.func @partial_gather
func.func @partial_gather(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}]>}) -> tensor<8xf32> {
  // CHECK: %[[S:.*]] = stablehlo.slice %arg0 [0:8]
  %0 = stablehlo.slice %arg0 [0:5] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", "x"}]>]>} : (tensor<8xf32>) -> tensor<5xf32>
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"x"}] %[[S]] out_sharding=<@mesh, [{"y"}]> : tensor<8xf32>
  // CHECK-NOT: stablehlo.slice %[[G]]
  %1 = sdy.all_gather [{"x"}] %0 out_sharding=<@mesh, [{"y"}]> : tensor<5xf32>
  // CHECK: %[[M:.*]] = stablehlo.select {{.*}}, %[[G]], {{.*}} : tensor<8xi1>, tensor<8xf32>
  // CHECK-NEXT: stablehlo.pad %[[M]], {{.*}} high = [0]
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.pad %1, %cst, low = [0], high = [3], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<5xf32>, tensor<f32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// reduce_scatter pads before scattering; all_reduce and collective_permute
// keep the padded type.
// CHECK-LABEL: func.func @reductions
func.func @reductions(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<6x8xf32> {
  // CHECK: %[[P:.*]] = stablehlo.pad %arg0, {{.*}} high = [2, 0]{{.*}} -> tensor<8x8xf32>
  // CHECK-NEXT: %[[RS:.*]] = sdy.reduce_scatter [{"y"}, {}] %[[P]] out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  %0 = sdy.reduce_scatter [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<6x8xf32>
  // CHECK-NEXT: %[[CP:.*]] = sdy.collective_permute %[[RS]] out_sharding=<@mesh, [{"x", "y":(1)2}, {}]> : tensor<8x8xf32>
  %1 = sdy.collective_permute %0 out_sharding=<@mesh, [{"x", "y":(1)2}, {}]> : tensor<6x8xf32>
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"y":(2)2} %[[CP]] out_sharding=<@mesh, [{"x", "y":(1)2}, {}]> : tensor<8x8xf32>
  %2 = sdy.all_reduce {"y":(2)2} %1 out_sharding=<@mesh, [{"x", "y":(1)2}, {}]> : tensor<6x8xf32>
  // CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"x", "y":(1)2}, {}] %[[AR]] out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT: stablehlo.slice %[[G]] [0:6, 0:8]
  %3 = sdy.all_gather [{"x", "y":(1)2}, {}] %2 out_sharding=<@mesh, [{}, {}]> : tensor<6x8xf32>
  return %3 : tensor<6x8xf32>
}

// all_to_all pads the target dim for its new axes and slices the source dim
// back to what the remaining axes need.
// CHECK-LABEL: func.func @all_to_all
func.func @all_to_all(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x6xf32> {
  // CHECK: %[[S:.*]] = stablehlo.slice %arg0 [0:8, 0:6]
  %0 = stablehlo.slice %arg0 [0:7, 0:6] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<7x6xf32>
  // CHECK-NEXT: %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[P:.*]] = stablehlo.pad %[[S]], %[[ZERO]], low = [0, 0], high = [0, 2], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x6xf32>, tensor<f32>) -> tensor<8x8xf32>
  // CHECK-NEXT: %[[A:.*]] = sdy.all_to_all [{"y"}: 0->1] %[[P]] out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[BACK:.*]] = stablehlo.slice %[[A]] [0:7, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x8xf32>) -> tensor<7x8xf32>
  %1 = sdy.all_to_all [{"y"}: 0->1] %0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<7x6xf32>
  // CHECK-NEXT: sdy.all_gather [{}, {"y"}] %[[BACK]] out_sharding=<@mesh, [{}, {}]> : tensor<7x8xf32>
  %2 = sdy.all_gather [{}, {"y"}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<7x6xf32>
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %3 = stablehlo.pad %2, %cst, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<7x6xf32>, tensor<f32>) -> tensor<8x6xf32>
  return %3 : tensor<8x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// dot_general: the padded contracting dim is masked with zeros on both
// sides (iota < size, select).
// CHECK-LABEL: func.func @dot
func.func @dot(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
               %arg1: tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x3xf32> {
  // CHECK: %[[L:.*]] = stablehlo.slice %arg0 [0:4, 0:6]
  // CHECK: %[[R:.*]] = stablehlo.slice %arg1 [0:6, 0:3]
  %0 = stablehlo.slice %arg0 [0:4, 0:5] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<4x8xf32>) -> tensor<4x5xf32>
  %1 = stablehlo.slice %arg1 [0:5, 0:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>) -> tensor<5x3xf32>
  // CHECK-NEXT: %[[IOTA:.*]] = stablehlo.iota dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<4x6xi64>
  // CHECK-NEXT: %[[FIVE:.*]] = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} dense<5> : tensor<4x6xi64>
  // CHECK-NEXT: %[[IN:.*]] = stablehlo.compare LT, %[[IOTA]], %[[FIVE]], SIGNED {{.*}} : (tensor<4x6xi64>, tensor<4x6xi64>) -> tensor<4x6xi1>
  // CHECK-NEXT: %[[Z:.*]] = stablehlo.constant {{.*}} dense<0.000000e+00> : tensor<4x6xf32>
  // CHECK-NEXT: %[[ML:.*]] = stablehlo.select %[[IN]], %[[L]], %[[Z]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<4x6xi1>, tensor<4x6xf32>
  // CHECK:      %[[MR:.*]] = stablehlo.select {{.*}}, %[[R]], {{.*}} : tensor<6x3xi1>, tensor<6x3xf32>
  // CHECK-NEXT: stablehlo.dot_general %[[ML]], %[[MR]], contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return %2 : tensor<4x3xf32>
}

// A value whose padding is known to be zero (the pad before the all_slice)
// is not masked; a dot result is, before a pad puts zeros next to it.
// CHECK-LABEL: func.func @mask_once
func.func @mask_once(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x4xf32>, tensor<6x6xf32>) {
  // CHECK: %[[MASKED:.*]] = stablehlo.pad {{.*}} -> tensor<6x4xf32>
  %c = stablehlo.constant dense<1.0> : tensor<5x4xf32>
  %0 = sdy.all_slice [{"x"}, {}] %c out_sharding=<@mesh, [{"x"}, {}]> : tensor<5x4xf32>
  // CHECK: %[[SL:.*]] = sdy.all_slice [{"x"}, {}] %[[MASKED]]
  // CHECK-NOT: stablehlo.select
  // CHECK: stablehlo.dot_general %[[SL]], %[[SL]], contracting_dims = [0] x [0]
  %1 = stablehlo.dot_general %0, %0, contracting_dims = [0] x [0] : (tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<4x4xf32>
  %2 = stablehlo.dot_general %0, %0, contracting_dims = [1] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<5x5xf32>
  // CHECK: %[[D:.*]] = stablehlo.dot_general %[[SL]], %[[SL]], contracting_dims = [1] x [1] {{.*}} -> tensor<6x6xf32>
  // CHECK: %[[BOTH:.*]] = stablehlo.and
  // CHECK: %[[M:.*]] = stablehlo.select %[[BOTH]], %[[D]]
  // CHECK-NEXT: stablehlo.pad %[[M]], {{.*}} high = [0, 0]{{.*}} -> tensor<6x6xf32>
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %3 = stablehlo.pad %2, %cst, low = [0, 0], high = [1, 1], interior = [0, 0] : (tensor<5x5xf32>, tensor<f32>) -> tensor<6x6xf32>
  return %1, %3 : tensor<4x4xf32>, tensor<6x6xf32>
}

// A reduce over a padded dim masks the padding with its init value.
// CHECK-LABEL: func.func @reduce_max
func.func @reduce_max(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<f32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  // CHECK: %[[S:.*]] = stablehlo.slice %arg0 [0:8]
  %0 = stablehlo.slice %arg0 [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<7xf32>
  // CHECK: %[[NEGINF:.*]] = stablehlo.constant {{.*}} dense<0xFF800000> : tensor<8xf32>
  // CHECK-NEXT: %[[M:.*]] = stablehlo.select {{.*}}, %[[S]], %[[NEGINF]]
  // CHECK-NEXT: stablehlo.reduce(%[[M]] init: %{{.*}}) applies stablehlo.maximum across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reduce(%0 init: %init) applies stablehlo.maximum across dimensions = [0] : (tensor<7xf32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// A while loop carries the padded type in its block arguments; a value
// returned from a named computation is sliced back to its original type.
// CHECK-LABEL: func.func @loop_and_region
func.func @loop_and_region(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<7xf32> {
  %0 = stablehlo.slice %arg0 [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<7xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  // CHECK: stablehlo.while(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : tensor<i64>, tensor<8xf32>
  %1:2 = stablehlo.while(%i = %c0, %v = %0) : tensor<i64>, tensor<7xf32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"x"}]>]>}
   cond {
    %c3 = stablehlo.constant dense<3> : tensor<i64>
    %lt = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    // CHECK: stablehlo.negate %{{.*}} : tensor<8xf32>
    %n = stablehlo.negate %v : tensor<7xf32>
    %c1 = stablehlo.constant dense<1> : tensor<i64>
    %j = stablehlo.add %i, %c1 : tensor<i64>
    stablehlo.return %j, %n : tensor<i64>, tensor<7xf32>
  }
  // CHECK: sdy.named_computation<"double">(%[[ARG:.*]]) (%{{.*}}: tensor<7xf32>)
  %2 = sdy.named_computation<"double">(%1#1) (%a: tensor<7xf32>) {
    // CHECK: %[[D:.*]] = stablehlo.add {{.*}} : tensor<8xf32>
    // CHECK-NEXT: %[[BACK:.*]] = stablehlo.slice %[[D]] [0:7]
    // CHECK-NEXT: sdy.return %[[BACK]] : tensor<7xf32>
    %cst = stablehlo.constant dense<0.0> : tensor<f32>
    %p = stablehlo.pad %a, %cst, low = [0], high = [1], interior = [0] : (tensor<7xf32>, tensor<f32>) -> tensor<8xf32>
    %q = stablehlo.slice %p [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<7xf32>
    %d = stablehlo.add %q, %q {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<7xf32>
    sdy.return %d : tensor<7xf32>
  } : (tensor<7xf32>) -> tensor<7xf32>
  return %2 : tensor<7xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The ops that make axes unreduced keep the padded type; the all-reduce
// after them too.
// CHECK-LABEL: func.func @unreduced
func.func @unreduced(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<7x4xf32> {
  // CHECK: %[[S:.*]] = stablehlo.slice %arg0 [0:8, 0:4]
  %0 = stablehlo.slice %arg0 [0:7, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<7x4xf32>
  // CHECK-NEXT: %[[R:.*]] = sdy.replicated_to_unreduced {"y"} %[[S]] out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x4xf32>
  %1 = sdy.replicated_to_unreduced {"y"} %0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<7x4xf32>
  // CHECK-NEXT: %[[U:.*]] = sdy.sharded_to_unreduced [{"x"}, {}] %[[R]] out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<8x4xf32>
  %2 = sdy.sharded_to_unreduced [{"x"}, {}] %1 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<7x4xf32>
  // CHECK-NEXT: %[[A:.*]] = sdy.all_reduce {"x", "y"} %[[U]] out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
  // CHECK-NEXT: %[[BACK:.*]] = stablehlo.slice %[[A]] [0:7, 0:4]
  // CHECK-NEXT: return %[[BACK]]
  %3 = sdy.all_reduce {"x", "y"} %2 out_sharding=<@mesh, [{}, {}]> : tensor<7x4xf32>
  return %3 : tensor<7x4xf32>
}
