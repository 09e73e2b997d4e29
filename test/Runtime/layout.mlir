// Shape ops: reshape, broadcast_in_dim, transpose, slice, dynamic slices,
// concatenate, pad, reverse, iota.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @reshape_broadcast
func.func @reshape_broadcast() {
  %a = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %r = stablehlo.reshape %a : (tensor<6xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %row = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %rows = stablehlo.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %rows, dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %cols = stablehlo.broadcast_in_dim %row, dims = [0] : (tensor<3xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %cols, dense<[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]> : tensor<3x2xf32>
  %one = stablehlo.constant dense<[[7], [8]]> : tensor<2x1xi8>
  %wide = stablehlo.broadcast_in_dim %one, dims = [0, 1] : (tensor<2x1xi8>) -> tensor<2x3xi8>
  check.expect_eq_const %wide, dense<[[7, 7, 7], [8, 8, 8]]> : tensor<2x3xi8>
  %s = stablehlo.constant dense<true> : tensor<i1>
  %splat = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i1>) -> tensor<2x2xi1>
  check.expect_eq_const %splat, dense<true> : tensor<2x2xi1>
  func.return
}

// CHECK: PASS: @transpose
func.func @transpose() {
  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xi64>) -> tensor<3x2xi64>
  check.expect_eq_const %t, dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi64>
  %b = stablehlo.iota dim = 2 : tensor<2x3x4xf32>
  %c = stablehlo.iota dim = 0 : tensor<2x3x4xf32>
  %ten = stablehlo.constant dense<10.0> : tensor<2x3x4xf32>
  %c10 = stablehlo.multiply %c, %ten : tensor<2x3x4xf32>
  %v = stablehlo.add %b, %c10 : tensor<2x3x4xf32>
  // The middle dimension stays; the outer and inner ones swap.
  %p = stablehlo.transpose %v, dims = [2, 1, 0] : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  check.expect_eq_const %p, dense<[[[0.0, 10.0], [0.0, 10.0], [0.0, 10.0]], [[1.0, 11.0], [1.0, 11.0], [1.0, 11.0]], [[2.0, 12.0], [2.0, 12.0], [2.0, 12.0]], [[3.0, 13.0], [3.0, 13.0], [3.0, 13.0]]]> : tensor<4x3x2xf32>
  // Keeping the innermost dimension in place copies whole rows.
  %q = stablehlo.transpose %v, dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %q0 = stablehlo.slice %q [0:1, 0:2, 0:4] : (tensor<3x2x4xf32>) -> tensor<1x2x4xf32>
  check.expect_eq_const %q0, dense<[[[0.0, 1.0, 2.0, 3.0], [10.0, 11.0, 12.0, 13.0]]]> : tensor<1x2x4xf32>
  // A transpose larger than one 32x32 tile, checked by transposing back.
  %big = stablehlo.iota dim = 0 : tensor<70x45xi32>
  %bigT = stablehlo.transpose %big, dims = [1, 0] : (tensor<70x45xi32>) -> tensor<45x70xi32>
  %back = stablehlo.transpose %bigT, dims = [1, 0] : (tensor<45x70xi32>) -> tensor<70x45xi32>
  check.expect_eq %back, %big : tensor<70x45xi32>
  %rowT = stablehlo.slice %bigT [3:4, 0:70] : (tensor<45x70xi32>) -> tensor<1x70xi32>
  %expected = stablehlo.iota dim = 1 : tensor<1x70xi32>
  check.expect_eq %rowT, %expected : tensor<1x70xi32>
  func.return
}

// CHECK: PASS: @slices
func.func @slices() {
  %a = stablehlo.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %s = stablehlo.slice %a [1:3, 0:4:2] : (tensor<3x4xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %s, dense<[[4, 6], [8, 10]]> : tensor<2x2xi32>
  %i = stablehlo.constant dense<2> : tensor<i32>
  %j = stablehlo.constant dense<1> : tensor<i32>
  // The start (2, 1) is clamped to (1, 1) so that the 2x3 slice fits.
  %d = stablehlo.dynamic_slice %a, %i, %j, sizes = [2, 3] : (tensor<3x4xi32>, tensor<i32>, tensor<i32>) -> tensor<2x3xi32>
  check.expect_eq_const %d, dense<[[5, 6, 7], [9, 10, 11]]> : tensor<2x3xi32>
  %u = stablehlo.constant dense<[[-1, -2]]> : tensor<1x2xi32>
  %k = stablehlo.constant dense<5> : tensor<i32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %w = stablehlo.dynamic_update_slice %a, %u, %z, %k : (tensor<3x4xi32>, tensor<1x2xi32>, tensor<i32>, tensor<i32>) -> tensor<3x4xi32>
  check.expect_eq_const %w, dense<[[0, 1, -1, -2], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  func.return
}

// CHECK: PASS: @concatenate_pad_reverse
func.func @concatenate_pad_reverse() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  %b = stablehlo.constant dense<[[5.0], [6.0]]> : tensor<2x1xf16>
  %c = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x2xf16>, tensor<2x1xf16>) -> tensor<2x3xf16>
  check.expect_eq_const %c, dense<[[1.0, 2.0, 5.0], [3.0, 4.0, 6.0]]> : tensor<2x3xf16>
  %r = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<4x2xf16>
  check.expect_eq_const %r, dense<[[1.0, 2.0], [3.0, 4.0], [1.0, 2.0], [3.0, 4.0]]> : tensor<4x2xf16>
  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %p = stablehlo.pad %x, %zero, low = [2], high = [1], interior = [1] : (tensor<3xi32>, tensor<i32>) -> tensor<8xi32>
  check.expect_eq_const %p, dense<[0, 0, 1, 0, 2, 0, 3, 0]> : tensor<8xi32>
  // Negative edge padding crops.
  %n = stablehlo.pad %x, %zero, low = [-1], high = [-1], interior = [2] : (tensor<3xi32>, tensor<i32>) -> tensor<5xi32>
  check.expect_eq_const %n, dense<[0, 0, 2, 0, 0]> : tensor<5xi32>
  %m = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %nine = stablehlo.constant dense<9> : tensor<i32>
  %p2 = stablehlo.pad %m, %nine, low = [1, 0], high = [0, 1], interior = [0, 0] : (tensor<2x2xi32>, tensor<i32>) -> tensor<3x3xi32>
  check.expect_eq_const %p2, dense<[[9, 9, 9], [1, 2, 9], [3, 4, 9]]> : tensor<3x3xi32>
  %rev = stablehlo.reverse %m, dims = [0, 1] : tensor<2x2xi32>
  check.expect_eq_const %rev, dense<[[4, 3], [2, 1]]> : tensor<2x2xi32>
  %rev1 = stablehlo.reverse %m, dims = [1] : tensor<2x2xi32>
  check.expect_eq_const %rev1, dense<[[2, 1], [4, 3]]> : tensor<2x2xi32>
  func.return
}

// CHECK: PASS: @iota
func.func @iota() {
  %a = stablehlo.iota dim = 1 : tensor<2x3xui32>
  check.expect_eq_const %a, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xui32>
  %b = stablehlo.iota dim = 0 : tensor<3xbf16>
  check.expect_eq_const %b, dense<[0.0, 1.0, 2.0]> : tensor<3xbf16>
  %c = stablehlo.iota dim = 0 : tensor<2x2xf64>
  check.expect_eq_const %c, dense<[[0.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf64>
  func.return
}
