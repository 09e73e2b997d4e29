// stablehlo.custom_call targets JAX emits: annotations that are the
// identity on one device, chlo ops written as `mhlo.*` calls, TopK, and
// StableHLO's testdata checks (`check.expect_*` calls).
// RUN: not mpmd interpret %s --split-input-file 2>&1 | FileCheck %s

// CHECK: PASS: @annotations
func.func @annotations() {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %s = stablehlo.custom_call @Sharding(%x) {backend_config = "", mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %shard = stablehlo.custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = "{manual}"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %full = stablehlo.custom_call @SPMDShardToFullShape(%shard) {mhlo.sharding = "{replicated}"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %host = stablehlo.custom_call @MoveToHost(%full) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %device = stablehlo.custom_call @MoveToDevice(%host) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %device, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  func.return
}

// CHECK: PASS: @math_calls
func.func @math_calls() {
  %x = stablehlo.constant dense<[-0.5, 0.0, 0.5]> : tensor<3xf32>
  %erf = stablehlo.custom_call @mhlo.erf(%x) {mhlo.attributes = {}, mhlo.version = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const %erf, dense<[-0.52049988, 0.0, 0.52049988]> : tensor<3xf32>
  %sinh = stablehlo.custom_call @mhlo.sinh(%x) : (tensor<3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const %sinh, dense<[-0.52109531, 0.0, 0.52109531]> : tensor<3xf32>
  func.return
}

// Largest first, ties by position, nan above every number.
// CHECK: PASS: @top_k
func.func @top_k() {
  %x = stablehlo.constant dense<[[1.0, 5.0, 3.0, 5.0, -2.0], [0x7FC00000, 0.0, 7.0, -1.0, 2.0]]> : tensor<2x5xf32>
  %v, %i = stablehlo.custom_call @TopK(%x) : (tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  check.expect_eq_const %v, dense<[[5.0, 5.0, 3.0], [0x7FC00000, 7.0, 2.0]]> : tensor<2x3xf32>
  check.expect_eq_const %i, dense<[[1, 3, 2], [0, 2, 4]]> : tensor<2x3xi32>
  %cv, %ci = chlo.top_k(%x, k = 2) : tensor<2x5xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  check.expect_eq_const %ci, dense<[[1, 3], [0, 2]]> : tensor<2x2xi32>
  %n = stablehlo.constant dense<[4, -3, 9, 9]> : tensor<4xi64>
  %nv, %ni = stablehlo.custom_call @mhlo.topk(%n) {mhlo.attributes = {k = 2 : i64, largest = true}} : (tensor<4xi64>) -> (tensor<2xi64>, tensor<2xi32>)
  check.expect_eq_const %nv, dense<[9, 9]> : tensor<2xi64>
  check.expect_eq_const %ni, dense<[2, 3]> : tensor<2xi32>
  func.return
}

// CHECK: PASS: @testdata_checks_that_hold
func.func @testdata_checks_that_hold() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = stablehlo.constant dense<[1.00001, 2.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%x, %x) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_almost_eq(%x, %y) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  %z = stablehlo.constant dense<[1.00000024, 2.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_close(%x, %z) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}

// -----

// CHECK: FAIL: @testdata_eq_fails: stablehlo.custom_call at {{.*}}custom_call.mlir:{{.*}}:3: element 1 is [2{{.*}}], expected [3
func.func @testdata_eq_fails() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%x, %y) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}

// CHECK: FAIL: @testdata_almost_eq_fails: {{.*}}element 0 is [1{{.*}}], expected [1.00{{.*}}] (tolerance 0.0001
func.func @testdata_almost_eq_fails() {
  %x = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %y = stablehlo.constant dense<[1.001]> : tensor<1xf32>
  stablehlo.custom_call @check.expect_almost_eq(%x, %y) {has_side_effect = true} : (tensor<1xf32>, tensor<1xf32>) -> ()
  func.return
}

// CHECK: FAIL: @testdata_close_fails: {{.*}}(4 ULPs apart)
func.func @testdata_close_fails() {
  %x = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %y = stablehlo.constant dense<[1.00000048]> : tensor<1xf32>
  stablehlo.custom_call @check.expect_close(%x, %y) {has_side_effect = true} : (tensor<1xf32>, tensor<1xf32>) -> ()
  func.return
}

// -----

func.func @unknown_target() {
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  // CHECK: custom_call.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: 'stablehlo.custom_call' target @my.kernel is not supported by the interpreter
  %y = stablehlo.custom_call @my.kernel(%x) : (tensor<f32>) -> tensor<f32>
  func.return
}
// CHECK: FAIL: @unknown_target

// -----

func.func @sharding_that_changes_the_shape() {
  %x = stablehlo.constant dense<1.0> : tensor<4xf32>
  // CHECK: error: custom call @SPMDFullToShardShape changes 'tensor<4xf32>' into 'tensor<2xf32>': the interpreter runs it on one device, where it is the identity
  %y = stablehlo.custom_call @SPMDFullToShardShape(%x) : (tensor<4xf32>) -> tensor<2xf32>
  func.return
}
// CHECK: FAIL: @sharding_that_changes_the_shape
