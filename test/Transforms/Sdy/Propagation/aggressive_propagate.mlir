// -sdy-aggressive-propagate: each tensor takes the axes of the largest
// tensor holding them, as far as its own dimensions and factors allow.
// RUN: mpmd-opt -split-input-file -sdy-aggressive-propagate %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-aggressive-propagate=propagation-strategy=basic %s | FileCheck %s --check-prefix=BASIC

// Worked example E1: the result takes both candidates; the operands
// refuse them because of their closed dimensions.
sdy.mesh @abc = <["a"=2, "b"=2, "c"=2]>
// CHECK-LABEL: func.func @add_closed_dims(
// BASIC-LABEL: func.func @add_closed_dims(
func.func @add_closed_dims(%p: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@abc, [{"a", ?}, {"b"}]>},
                           %q: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@abc, [{}, {"b", "c", ?}]>}) -> tensor<8x8xf32> {
  // CHECK: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@abc, [{"a", ?}, {"b", "c", ?}]>]>}
  // BASIC: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@abc, [{?}, {"b", ?}]>]>}
  %r = stablehlo.add %p, %q : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Worked example E2: factor j (source %B, the larger operand) goes first
// and takes "a" on the result, so i finds "a" taken there.
sdy.mesh @abc = <["a"=2, "b"=2, "c"=2]>
// CHECK-LABEL: func.func @dot_larger_operand_wins(
// CHECK-SAME: %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@abc, [{"b", ?}, {"a", ?}]>}
func.func @dot_larger_operand_wins(%A: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@abc, [{"a"}, {"b", ?}]>},
                                   %B: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@abc, [{?}, {"a", ?}]>}) -> tensor<8x32xf32> {
  // CHECK: stablehlo.dot_general {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@abc, [{?}, {"a", ?}]>]>
  %c = stablehlo.dot_general %A, %B, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}

// -----

// Operands whose major axes differ leave no candidate for the factor, so
// even the aggressive strategy moves nothing (sdy-notes 3.5 step 1).
sdy.mesh @xy = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @operand_conflict(
func.func @operand_conflict(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"x", ?}]>},
                            %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@xy, [{"y", ?}]>}) -> tensor<8xf32> {
  // CHECK: stablehlo.add %arg0, %arg1 : tensor<8xf32>
  %0 = stablehlo.add %a, %b : tensor<8xf32>
  return %0 : tensor<8xf32>
}
