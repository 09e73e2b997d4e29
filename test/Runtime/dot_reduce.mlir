// dot_general (BLAS for f32/f64, through f32 for bf16/f16, a loop for
// integers) with every operand layout, the legacy dot, and reductions.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @matmul_layouts
func.func @matmul_layouts() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = stablehlo.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %ab = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %ab, dense<[[4.0, 5.0], [10.0, 11.0]]> : tensor<2x2xf32>
  // lhs contracted on its first dimension: passed to BLAS transposed.
  %at = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %atb = stablehlo.dot_general %at, %b, contracting_dims = [0] x [0] : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %atb, dense<[[4.0, 5.0], [10.0, 11.0]]> : tensor<2x2xf32>
  // rhs contracted on its last dimension (A * B^T).
  %bt = stablehlo.transpose %b, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %abt = stablehlo.dot_general %a, %bt, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %abt, dense<[[4.0, 5.0], [10.0, 11.0]]> : tensor<2x2xf32>
  // Result dims: lhs free then rhs free, here (b-free, a-free) = B^T A^T.
  %ba = stablehlo.dot_general %bt, %at, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %ba, dense<[[4.0, 10.0], [5.0, 11.0]]> : tensor<2x2xf32>
  %v = stablehlo.constant dense<[1.0, 1.0, 1.0]> : tensor<3xf32>
  %av = stablehlo.dot %a, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const %av, dense<[6.0, 15.0]> : tensor<2xf32>
  %outer = stablehlo.dot_general %v, %v, contracting_dims = [] x [] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const %outer, dense<1.0> : tensor<3x3xf32>
  func.return
}

// CHECK: PASS: @batched
func.func @batched() {
  %a = stablehlo.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf64>
  %b = stablehlo.constant dense<[[[1.0], [1.0]], [[2.0], [0.5]]]> : tensor<2x2x1xf64>
  %c = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x1x2xf64>, tensor<2x2x1xf64>) -> tensor<2x1x1xf64>
  check.expect_almost_eq_const %c, dense<[[[3.0]], [[8.0]]]> : tensor<2x1x1xf64>
  // Batch dimension in the middle of the lhs: transposed into place first.
  %x = stablehlo.constant dense<[[[1.0, 0.0], [2.0, 1.0]], [[0.0, 1.0], [1.0, 3.0]]]> : tensor<2x2x2xbf16>
  %y = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xbf16>
  %z = stablehlo.dot_general %x, %y, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<2x2x2xbf16>, tensor<2x2xbf16>) -> tensor<2x2xbf16>
  // z[b, i] = sum_k x[i, b, k] * y[b, k]
  check.expect_eq_const %z, dense<[[1.0, 2.0], [10.0, 15.0]]> : tensor<2x2xbf16>
  func.return
}

// CHECK: PASS: @integer_dot
func.func @integer_dot() {
  %a = stablehlo.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %c = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  // c[i, j] = sum_k a[k, i] * b[j, k]
  check.expect_eq_const %c, dense<[[23, 31], [14, 18]]> : tensor<2x2xi32>
  func.return
}

// CHECK: PASS: @reductions
func.func @reductions() {
  %a = stablehlo.constant dense<[[1.0, 5.0, 3.0], [-4.0, 2.0, 0.5]]> : tensor<2x3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %rows = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_almost_eq_const %rows, dense<[9.0, -1.5]> : tensor<2xf32>
  %cols = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_almost_eq_const %cols, dense<[-3.0, 7.0, 3.5]> : tensor<3xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %all = stablehlo.reduce(%a init: %ninf) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %all, dense<5.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %prod = stablehlo.reduce(%a init: %one) applies stablehlo.multiply across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_almost_eq_const %prod, dense<[15.0, -4.0]> : tensor<2xf32>
  %i = stablehlo.iota dim = 1 : tensor<2x3x4xi32>
  %big = stablehlo.constant dense<100> : tensor<i32>
  %min = stablehlo.reduce(%i init: %big) applies stablehlo.minimum across dimensions = [1] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<2x4xi32>
  check.expect_eq_const %min, dense<0> : tensor<2x4xi32>
  %izero = stablehlo.constant dense<0> : tensor<i32>
  %sum02 = stablehlo.reduce(%i init: %izero) applies stablehlo.add across dimensions = [0, 2] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %sum02, dense<[0, 8, 16]> : tensor<3xi32>
  %p = stablehlo.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %and = stablehlo.reduce(%p init: %t) applies stablehlo.and across dimensions = [1] : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %and, dense<[false, true]> : tensor<2xi1>
  %h = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  %hz = stablehlo.constant dense<0.5> : tensor<f16>
  %hs = stablehlo.reduce(%h init: %hz) applies stablehlo.add across dimensions = [0] : (tensor<2x2xf16>, tensor<f16>) -> tensor<2xf16>
  check.expect_eq_const %hs, dense<[4.5, 6.5]> : tensor<2xf16>
  func.return
}

// A body that is not a single known op runs through the region per element:
// here a variadic argmax.
// CHECK: PASS: @argmax
func.func @argmax() {
  %x = stablehlo.constant dense<[[1.0, 7.0, 3.0], [9.0, 2.0, 4.0]]> : tensor<2x3xf32>
  %idx = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.reduce"(%x, %idx, %ninf, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%acc: tensor<f32>, %acc_i: tensor<i32>, %v: tensor<f32>, %v_i: tensor<i32>):
    %gt = stablehlo.compare GT, %v, %acc, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.select %gt, %v, %acc : tensor<i1>, tensor<f32>
    %mi = stablehlo.select %gt, %v_i, %acc_i : tensor<i1>, tensor<i32>
    stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
  }) : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[7.0, 9.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<[1, 0]> : tensor<2xi32>
  func.return
}
