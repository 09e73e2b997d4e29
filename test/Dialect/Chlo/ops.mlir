// Round trip of the chlo ops, pretty and generic.
// RUN: mpmd-opt %s | FileCheck %s
// RUN: mpmd-opt %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt -mlir-print-op-generic %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt -mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x4x32xf32>, %b: tensor<8xbf16>, %c: tensor<4xcomplex<f32>>, %i: tensor<4xi32>) {
  // CHECK-NEXT: chlo.square %arg0 : tensor<2x4x32xf32> -> tensor<2x4x32xf32>
  // GENERIC: "chlo.square"(%{{.*}}) : (tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %0 = chlo.square %x : tensor<2x4x32xf32> -> tensor<2x4x32xf32>
  // CHECK-NEXT: chlo.square %arg3 : tensor<4xi32> -> tensor<4xi32>
  %1 = chlo.square %i : tensor<4xi32> -> tensor<4xi32>
  // CHECK-NEXT: chlo.square %arg2 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %2 = chlo.square %c : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  // CHECK-NEXT: chlo.erf %arg0 : tensor<2x4x32xf32> -> tensor<2x4x32xf32>
  %3 = chlo.erf %x : tensor<2x4x32xf32> -> tensor<2x4x32xf32>
  // CHECK-NEXT: chlo.erfc %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %4 = chlo.erfc %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.erf_inv %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %5 = chlo.erf_inv %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.lgamma %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %6 = chlo.lgamma %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.digamma %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %7 = chlo.digamma %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.bessel_i1e %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %8 = chlo.bessel_i1e %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.conj %arg2 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %9 = chlo.conj %c : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  // CHECK-NEXT: chlo.tan %arg2 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %10 = chlo.tan %c : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  // CHECK-NEXT: chlo.sinh %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %11 = chlo.sinh %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.cosh %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %12 = chlo.cosh %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.asin %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %13 = chlo.asin %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.acos %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %14 = chlo.acos %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.atan %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %15 = chlo.atan %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.asinh %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %16 = chlo.asinh %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.acosh %arg1 : tensor<8xbf16> -> tensor<8xbf16>
  %17 = chlo.acosh %b : tensor<8xbf16> -> tensor<8xbf16>
  // CHECK-NEXT: chlo.atanh %arg2 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %18 = chlo.atanh %c : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  // CHECK-NEXT: chlo.square %arg0 {foo = 1 : i32} : tensor<2x4x32xf32> -> tensor<2x4x32xf32>
  %19 = chlo.square %x {foo = 1 : i32} : tensor<2x4x32xf32> -> tensor<2x4x32xf32>
  // Scalars (rank-0 tensors) are fine.
  // CHECK: chlo.erf %{{.*}} : tensor<f32> -> tensor<f32>
  %s = tensor.extract_slice %x[0, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<2x4x32xf32> to tensor<f32>
  %20 = chlo.erf %s : tensor<f32> -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @predicates
func.func @predicates(%x: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK-NEXT: chlo.is_inf %arg0 : tensor<4xf32> -> tensor<4xi1>
  // GENERIC: "chlo.is_inf"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xi1>
  %0 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>
  // CHECK-NEXT: chlo.is_neg_inf %arg0 : tensor<4xf32> -> tensor<4xi1>
  %1 = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>
  // CHECK-NEXT: chlo.is_pos_inf %arg0 : tensor<4xf32> -> tensor<4xi1>
  %2 = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // CHECK-NEXT: chlo.polygamma %arg0, %arg1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // GENERIC: "chlo.polygamma"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = chlo.polygamma %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK-NEXT: chlo.zeta %arg0, %arg1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.zeta %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK-NEXT: chlo.next_after %arg0, %arg1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @top_k
func.func @top_k(%x: tensor<16x16xf32>, %i: tensor<5xi32>) {
  // CHECK-NEXT: %{{.*}}, %{{.*}} = chlo.top_k(%arg0, k = 8) : tensor<16x16xf32> -> (tensor<16x8xf32>, tensor<16x8xi32>)
  // GENERIC: "chlo.top_k"(%{{.*}}) <{k = 8 : i64}> : (tensor<16x16xf32>) -> (tensor<16x8xf32>, tensor<16x8xi32>)
  %0:2 = chlo.top_k(%x, k = 8) : tensor<16x16xf32> -> (tensor<16x8xf32>, tensor<16x8xi32>)
  // CHECK-NEXT: chlo.top_k(%arg1, k = 5) : tensor<5xi32> -> (tensor<5xi32>, tensor<5xi32>)
  %1:2 = chlo.top_k(%i, k = 5) : tensor<5xi32> -> (tensor<5xi32>, tensor<5xi32>)
  // CHECK-NEXT: chlo.top_k(%arg0, k = 0) : tensor<16x16xf32> -> (tensor<16x0xf32>, tensor<16x0xi32>)
  %2:2 = chlo.top_k(%x, k = 0) : tensor<16x16xf32> -> (tensor<16x0xf32>, tensor<16x0xi32>)
  return
}
