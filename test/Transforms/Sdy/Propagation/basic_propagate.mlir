// -sdy-basic-propagate: axes every operand and result of an op agree on
// move; conflicts and closed dimensions block a factor for all tensors.
// RUN: mpmd-opt -split-input-file -sdy-basic-propagate %s | FileCheck %s

// Worked example E1: "a" meets %q's closed empty dim and stops; of j's
// candidate {"b", "c"}, %p's closed dim only agrees on "b".
sdy.mesh @abc = <["a"=2, "b"=2, "c"=2]>
// CHECK-LABEL: func.func @add_closed_dims(
func.func @add_closed_dims(%p: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@abc, [{"a", ?}, {"b"}]>},
                           %q: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@abc, [{}, {"b", "c", ?}]>}) -> tensor<8x8xf32> {
  // CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@abc, [{?}, {"b", ?}]>]>}
  %r = stablehlo.add %p, %q : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Worked example E2: the contracting (reduction) factor k carries "b" to
// %B; "a" is used by i in %A and by j in %B, so neither reaches %c.
sdy.mesh @abc = <["a"=2, "b"=2, "c"=2]>
// CHECK-LABEL: func.func @dot_reduction_factor(
// CHECK-SAME: %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@abc, [{"b", ?}, {"a", ?}]>}
func.func @dot_reduction_factor(%A: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@abc, [{"a"}, {"b", ?}]>},
                                %B: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@abc, [{?}, {"a", ?}]>}) -> tensor<8x32xf32> {
  // CHECK: stablehlo.dot_general
  // CHECK-NOT: sdy.sharding
  // CHECK-SAME: -> tensor<8x32xf32>
  %c = stablehlo.dot_general %A, %B, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}

// -----

// Worked example E3: splitting a dimension splits "y" into sub-axes;
// merging the dimensions again joins them into "y".
sdy.mesh @xy = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @reshape_split_and_merge(
func.func @reshape_split_and_merge(%t: tensor<8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", "y"}]>}) -> tensor<8xf32> {
  // CHECK: stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@xy, [{"x", "y":(1)2, ?}, {"y":(2)2, ?}]>]>}
  %r = stablehlo.reshape %t : (tensor<8xf32>) -> tensor<4x2xf32>
  // CHECK: stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@xy, [{"x", "y", ?}]>]>}
  %back = stablehlo.reshape %r : (tensor<4x2xf32>) -> tensor<8xf32>
  return %back : tensor<8xf32>
}

// -----

// Forward through a chain: elementwise, transpose, broadcast; the
// unsharded operand of the add takes the agreed axes too, and the new
// broadcast dimension stays open and empty.
sdy.mesh @xy = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @forward_chain(
// CHECK-SAME: %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", ?}, {"y", ?}]>}
// CHECK-SAME: -> (tensor<4x16x8xf32> {sdy.sharding = #sdy.sharding<@xy, [{?}, {"y", ?}, {"x", ?}]>})
func.func @forward_chain(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", ?}, {"y", ?}]>},
                         %b: tensor<8x16xf32>) -> tensor<4x16x8xf32> {
  // CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@xy, [{"x", ?}, {"y", ?}]>]>}
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  // CHECK: stablehlo.transpose {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@xy, [{"y", ?}, {"x", ?}]>]>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  // CHECK: stablehlo.broadcast_in_dim {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@xy, [{?}, {"y", ?}, {"x", ?}]>]>
  %2 = stablehlo.broadcast_in_dim %1, dims = [1, 2] : (tensor<16x8xf32>) -> tensor<4x16x8xf32>
  return %2 : tensor<4x16x8xf32>
}

// -----

// Backward: the function's result sharding seeds the body and flows up
// to the arguments, through a reduce (the reduced dimension stays empty).
sdy.mesh @xy = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @result_seeds_body(
// CHECK-SAME: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", ?}, {?}]>}
// CHECK-SAME: -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x"}]>})
func.func @result_seeds_body(%a: tensor<8x16xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x"}]>}) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@xy, [{"x", ?}, {?}]>]>}
  %e = stablehlo.exponential %a : tensor<8x16xf32>
  // CHECK: stablehlo.reduce
  // CHECK-SAME: sdy.sharding = #sdy.sharding_per_value<[<@xy, [{"x", ?}]>]>
  %r = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Two operands with different axes for one dimension: neither moves, and
// values that gain nothing stay without a sharding.
sdy.mesh @xy = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @operand_conflict(
// CHECK-SAME: -> tensor<8xf32>
func.func @operand_conflict(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", ?}]>},
                            %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"y", ?}]>}) -> tensor<8xf32> {
  // CHECK: stablehlo.add %arg0, %arg1 : tensor<8xf32>
  %0 = stablehlo.add %a, %b : tensor<8xf32>
  // CHECK: stablehlo.negate %0 : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// A closed dimension keeps its axes and takes no more; an open one is
// extended and stays open.
sdy.mesh @xy = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @open_and_closed(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", "y"}, {?}]>}
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", "y", ?}, {}]>}
func.func @open_and_closed(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", "y"}, {?}]>},
                           %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", ?}, {}]>}) -> tensor<8x8xf32> {
  // CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@xy, [{"x", "y", ?}, {?}]>]>}
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Shardings on different meshes are not compared: nothing moves.
sdy.mesh @m1 = <["x"=2]>
sdy.mesh @m2 = <["x"=2], device_ids=[1, 0]>
// CHECK-LABEL: func.func @different_meshes(
func.func @different_meshes(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m1, [{"x", ?}]>},
                            %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m2, [{?}]>}) -> tensor<8xf32> {
  // CHECK: stablehlo.add %arg0, %arg1 : tensor<8xf32>
  %0 = stablehlo.add %a, %b : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Replicated axes of a tensor are not available to it.
sdy.mesh @xy = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @replicated_axes(
func.func @replicated_axes(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", ?}]>},
                           %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@xy, [{?}], replicated={"x"}>}) -> tensor<8xf32> {
  // CHECK: stablehlo.add %arg0, %arg1 : tensor<8xf32>
  %0 = stablehlo.add %a, %b : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Sharding rules are dropped afterwards unless asked to keep them;
// custom rules always stay.
// RUN: mpmd-opt -split-input-file -sdy-basic-propagate=keep-sharding-rules %s | FileCheck %s --check-prefix=KEEP
sdy.mesh @xy = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @rules(
// KEEP-LABEL: func.func @rules(
func.func @rules(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", ?}]>}) -> tensor<8xf32> {
  // CHECK-NOT: sdy.sharding_rule
  // KEEP: stablehlo.negate {{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>
  %0 = stablehlo.negate %a : tensor<8xf32>
  // CHECK: stablehlo.abs {{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>
  %1 = stablehlo.abs %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
