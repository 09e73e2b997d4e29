// Round trip of the check ops, pretty and generic.
// RUN: mpmd-opt %s | FileCheck %s
// RUN: mpmd-opt %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt -mlir-print-op-generic %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt -mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// The ops have side effects: canonicalization keeps them.
// RUN: mpmd-opt -canonicalize %s | FileCheck %s

// CHECK-LABEL: func.func @checks
func.func @checks(%i: tensor<4xi64>, %x: tensor<2xf32>, %c: tensor<2xcomplex<f32>>, %b: tensor<i1>) {
  // CHECK-NEXT: check.expect_eq %arg0, %arg0 : tensor<4xi64>
  // GENERIC: "check.expect_eq"(%{{.*}}, %{{.*}}) : (tensor<4xi64>, tensor<4xi64>) -> ()
  check.expect_eq %i, %i : tensor<4xi64>
  // CHECK-NEXT: check.expect_eq %arg3, %arg3 : tensor<i1>
  check.expect_eq %b, %b : tensor<i1>
  // CHECK-NEXT: check.expect_eq_const %arg0, dense<[6, 8, 10, 12]> : tensor<4xi64>
  // GENERIC: "check.expect_eq_const"(%{{.*}}) <{value = dense<[6, 8, 10, 12]> : tensor<4xi64>}> : (tensor<4xi64>) -> ()
  check.expect_eq_const %i, dense<[6, 8, 10, 12]> : tensor<4xi64>
  // CHECK-NEXT: check.expect_eq_const %arg3, dense<true> : tensor<i1>
  check.expect_eq_const %b, dense<true> : tensor<i1>
  // CHECK-NEXT: check.expect_almost_eq %arg1, %arg1 : tensor<2xf32>
  // GENERIC: "check.expect_almost_eq"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<2xf32>) -> ()
  check.expect_almost_eq %x, %x : tensor<2xf32>
  // CHECK-NEXT: check.expect_almost_eq %arg1, %arg1, tolerance = 1.000000e-03 : tensor<2xf32>
  // GENERIC: "check.expect_almost_eq"(%{{.*}}, %{{.*}}) <{tolerance = 1.000000e-03 : f64}>
  check.expect_almost_eq %x, %x, tolerance = 1.0e-3 : tensor<2xf32>
  // CHECK-NEXT: check.expect_almost_eq_const %arg1, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // GENERIC: "check.expect_almost_eq_const"(%{{.*}}) <{value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}> : (tensor<2xf32>) -> ()
  check.expect_almost_eq_const %x, dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK-NEXT: check.expect_almost_eq_const %arg1, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, tolerance = 5.000000e-01
  check.expect_almost_eq_const %x, dense<[1.0, 2.0]> : tensor<2xf32>, tolerance = 0.5
  // CHECK-NEXT: check.expect_almost_eq_const %arg2, dense<(1.000000e+00,-1.000000e+00)> : tensor<2xcomplex<f32>>
  check.expect_almost_eq_const %c, dense<(1.0, -1.0)> : tensor<2xcomplex<f32>>
  // CHECK-NEXT: check.expect_close %arg1, %arg1, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  // GENERIC: "check.expect_close"(%{{.*}}, %{{.*}}) <{max_ulp_difference = 3 : i64}> : (tensor<2xf32>, tensor<2xf32>) -> ()
  check.expect_close %x, %x, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  // CHECK-NEXT: check.expect_close %arg1, %arg1, max_ulp_difference = 4, min_ulp_difference = 1 : tensor<2xf32>, tensor<2xf32>
  check.expect_close %x, %x, max_ulp_difference = 4, min_ulp_difference = 1 : tensor<2xf32>, tensor<2xf32>
  // CHECK-NEXT: return
  return
}
