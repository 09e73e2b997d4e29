// while, if, case, func.call, optimization_barrier, sharding_constraint.
// RUN: mpmd interpret %s | FileCheck %s

sdy.mesh @mesh = <["x"=2]>

// CHECK: PASS: @while_sum
func.func @while_sum() {
  %i0 = stablehlo.constant dense<0> : tensor<i64>
  %s0 = stablehlo.constant dense<0> : tensor<i64>
  %n = stablehlo.constant dense<10> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  // Sums 0..9 with the loop bound captured from above.
  %r:2 = stablehlo.while(%i = %i0, %s = %s0) : tensor<i64>, tensor<i64>
   cond {
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %s1 = stablehlo.add %s, %i : tensor<i64>
    %i1 = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %i1, %s1 : tensor<i64>, tensor<i64>
  }
  check.expect_eq_const %r#0, dense<10> : tensor<i64>
  check.expect_eq_const %r#1, dense<45> : tensor<i64>
  // Values are dropped after their last use in their block; uses inside the
  // loop's regions count as uses by the loop.
  check.expect_eq_const %n, dense<10> : tensor<i64>
  func.return
}

// CHECK: PASS: @if_case
func.func @if_case() {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %x = "stablehlo.if"(%t) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %b : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  check.expect_eq_const %x, dense<[1.0, 2.0]> : tensor<2xf32>
  %y = "stablehlo.if"(%f) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    %s = stablehlo.add %a, %b : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  check.expect_eq_const %y, dense<[4.0, 6.0]> : tensor<2xf32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %c1 = "stablehlo.case"(%one) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %b : tensor<2xf32>
  }, {
    %n = stablehlo.negate %a : tensor<2xf32>
    stablehlo.return %n : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  check.expect_eq_const %c1, dense<[3.0, 4.0]> : tensor<2xf32>
  // An index out of range runs the last branch.
  %seven = stablehlo.constant dense<7> : tensor<i32>
  %c7 = "stablehlo.case"(%seven) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    %n = stablehlo.negate %a : tensor<2xf32>
    stablehlo.return %n : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  check.expect_eq_const %c7, dense<[-1.0, -2.0]> : tensor<2xf32>
  func.return
}

func.func private @axpy(%a: tensor<f32>, %x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %ab = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %ax = stablehlo.multiply %ab, %x : tensor<3xf32>
  %r = stablehlo.add %ax, %y : tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// CHECK: PASS: @call_and_identities
func.func @call_and_identities() {
  %a = stablehlo.constant dense<2.0> : tensor<f32>
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r = func.call @axpy(%a, %x, %x) : (tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[3.0, 6.0, 9.0]> : tensor<3xf32>
  %b:2 = stablehlo.optimization_barrier %r, %x : tensor<3xf32>, tensor<3xf32>
  check.expect_eq %b#0, %r : tensor<3xf32>
  check.expect_eq %b#1, %x : tensor<3xf32>
  %c = sdy.sharding_constraint %x <@mesh, [{"x"}]> : tensor<3xf32>
  check.expect_eq %c, %x : tensor<3xf32>
  func.return
}
