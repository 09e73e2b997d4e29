// select_and_scatter: the backward of max pooling. Each source element goes
// to the element its window selects (the first maximum with GE), combined
// with add; through the kernel (compare + recognized combiner) and through
// the bodies run per element.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @max_pool_backward
func.func @max_pool_backward() {
  %x = stablehlo.constant dense<[[1.0, 9.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %g = stablehlo.constant dense<[[10.0, 20.0]]> : tensor<1x2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %g, %zero) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x4xf32>, tensor<1x2xf32>, tensor<f32>) -> tensor<2x4xf32>
  check.expect_eq_const %r, dense<[[0.0, 10.0, 0.0, 0.0], [0.0, 0.0, 0.0, 20.0]]> : tensor<2x4xf32>
  func.return
}

// Overlapping windows (stride 1) add into the element they share; ties keep
// the first element with GE and move on with GT.
// CHECK: PASS: @overlapping_windows_and_ties
func.func @overlapping_windows_and_ties() {
  %x = stablehlo.constant dense<[1, 5, 5, 2]> : tensor<4xi32>
  %g = stablehlo.constant dense<[1, 2, 4]> : tensor<3xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %ge = "stablehlo.select_and_scatter"(%x, %g, %zero) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.compare GE, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<4xi32>, tensor<3xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const %ge, dense<[0, 3, 4, 0]> : tensor<4xi32>
  %gt = "stablehlo.select_and_scatter"(%x, %g, %zero) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<4xi32>, tensor<3xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const %gt, dense<[0, 1, 6, 0]> : tensor<4xi32>
  func.return
}

// Bodies the kernel does not recognize (select through a negation, scatter
// keeping the larger value) run per element; bf16 computes in f32.
// CHECK: PASS: @region_bodies_and_halves
func.func @region_bodies_and_halves() {
  %x = stablehlo.constant dense<[4.0, 1.0, 2.0, 8.0]> : tensor<4xbf16>
  %g = stablehlo.constant dense<[3.0, 5.0]> : tensor<2xbf16>
  %init = stablehlo.constant dense<-1.0> : tensor<bf16>
  %r = "stablehlo.select_and_scatter"(%x, %g, %init) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %keep = stablehlo.not %lt : tensor<i1>
    stablehlo.return %keep : tensor<i1>
  }, {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %m = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<bf16>
    stablehlo.return %m : tensor<bf16>
  }) : (tensor<4xbf16>, tensor<2xbf16>, tensor<bf16>) -> tensor<4xbf16>
  check.expect_eq_const %r, dense<[3.0, -1.0, -1.0, 5.0]> : tensor<4xbf16>
  func.return
}
