// reduce_window: pooling with strides, padding (filled with the init value),
// base dilation (holes read the init value) and window dilation, through
// the recognized-combiner kernel and through the body run per element.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @max_pool_2x2
func.func @max_pool_2x2() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %ninf) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[6.0, 8.0], [14.0, 16.0]]> : tensor<2x2xf32>
  func.return
}

// CHECK: PASS: @padded_sum_same_size
func.func @padded_sum_same_size() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[3, 6, 5], [9, 15, 11]]> : tensor<2x3xi32>
  func.return
}

// Padding is made of init values, which the window folds in like elements:
// with init 1, [1, 2] padded to [1, 1, 2, 1] gives 1+1+1+2 and 1+1+2+1.
// CHECK: PASS: @padding_reads_the_init_value
func.func @padding_reads_the_init_value() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %one = stablehlo.constant dense<1.0> : tensor<f64>
  %r = "stablehlo.reduce_window"(%x, %one) <{padding = dense<[[1, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %s = stablehlo.add %a, %b : tensor<f64>
    stablehlo.return %s : tensor<f64>
  }) : (tensor<2xf64>, tensor<f64>) -> tensor<2xf64>
  check.expect_eq_const %r, dense<[5.0, 5.0]> : tensor<2xf64>
  func.return
}

// Base dilation 2: [1, 2, 3] reads as [1, _, 2, _, 3]; window dilation 2:
// [1, 2, 3, 4, 5] summed at distance 2.
// CHECK: PASS: @dilations
func.func @dilations() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %base = "stablehlo.reduce_window"(%x, %zero) <{base_dilations = array<i64: 2>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %base, dense<[1.0, 2.0, 2.0, 3.0]> : tensor<4xf32>
  %y = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %apart = "stablehlo.reduce_window"(%y, %zero) <{window_dilations = array<i64: 2>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %apart, dense<[4.0, 6.0, 8.0]> : tensor<3xf32>
  func.return
}

// A body the kernels do not recognize (max by compare + select) runs per
// element and gives the same pooling; halves compute in f32.
// CHECK: PASS: @region_body_and_halves
func.func @region_body_and_halves() {
  %x = stablehlo.constant dense<[[1.0, 5.0, 2.0, 0.0], [3.0, 4.0, 8.0, 7.0]]> : tensor<2x4xbf16>
  %ninf = stablehlo.constant dense<-100.0> : tensor<bf16>
  %r = "stablehlo.reduce_window"(%x, %ninf) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %m = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<bf16>
    stablehlo.return %m : tensor<bf16>
  }) : (tensor<2x4xbf16>, tensor<bf16>) -> tensor<1x2xbf16>
  check.expect_eq_const %r, dense<[[5.0, 8.0]]> : tensor<1x2xbf16>
  %h = stablehlo.convert %x : (tensor<2x4xbf16>) -> tensor<2x4xf16>
  %hinit = stablehlo.constant dense<0.0> : tensor<f16>
  %sum = "stablehlo.reduce_window"(%h, %hinit) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %s = stablehlo.add %a, %b : tensor<f16>
    stablehlo.return %s : tensor<f16>
  }) : (tensor<2x4xf16>, tensor<f16>) -> tensor<1x2xf16>
  check.expect_eq_const %sum, dense<[[13.0, 17.0]]> : tensor<1x2xf16>
  func.return
}

// Two inputs reduced together (value and index: an argmax pool).
// CHECK: PASS: @variadic_argmax
func.func @variadic_argmax() {
  %x = stablehlo.constant dense<[3.0, 9.0, 4.0, 1.0]> : tensor<4xf32>
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %none = stablehlo.constant dense<-1> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %i, %ninf, %none) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %bv, %av : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %bv, %av : tensor<i1>, tensor<f32>
    %j = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }) : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[9.0, 4.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<[1, 2]> : tensor<2xi32>
  func.return
}
