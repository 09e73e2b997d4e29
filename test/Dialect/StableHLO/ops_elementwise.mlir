// Round trip of the elementwise ops (pretty and generic form).
// RUN: mpmd-opt %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt %s -mlir-print-op-generic | mpmd-opt | FileCheck %s

// CHECK-LABEL: func.func @elementwise(
// CHECK: %0 = stablehlo.abs %arg0 : tensor<4xf32>
// CHECK: %1 = stablehlo.ceil %arg0 : tensor<4xf32>
// CHECK: %2 = stablehlo.floor %arg0 : tensor<4xf32>
// CHECK: %3 = stablehlo.cosine %arg0 : tensor<4xf32>
// CHECK: %4 = stablehlo.sine %arg0 : tensor<4xf32>
// CHECK: %5 = stablehlo.tan %arg0 : tensor<4xf32>
// CHECK: %6 = stablehlo.tanh %arg0 : tensor<4xf32>
// CHECK: %7 = stablehlo.exponential %arg0 : tensor<4xf32>
// CHECK: %8 = stablehlo.exponential_minus_one %arg0 : tensor<4xf32>
// CHECK: %9 = stablehlo.log %arg0 : tensor<4xf32>
// CHECK: %10 = stablehlo.log_plus_one %arg0 : tensor<4xf32>
// CHECK: %11 = stablehlo.logistic %arg0 : tensor<4xf32>
// CHECK: %12 = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK: %13 = stablehlo.not %arg3 : tensor<4xi1>
// CHECK: %14 = stablehlo.popcnt %arg2 : tensor<4xi32>
// CHECK: %15 = stablehlo.round_nearest_afz %arg0 : tensor<4xf32>
// CHECK: %16 = stablehlo.round_nearest_even %arg0 : tensor<4xf32>
// CHECK: %17 = stablehlo.rsqrt %arg0 : tensor<4xf32>
// CHECK: %18 = stablehlo.sqrt %arg0 : tensor<4xf32>
// CHECK: %19 = stablehlo.cbrt %arg0 : tensor<4xf32>
// CHECK: %20 = stablehlo.sign %arg2 : tensor<4xi32>
// CHECK: %21 = stablehlo.is_finite %arg0 : (tensor<4xf32>) -> tensor<4xi1>
// CHECK: %22 = stablehlo.count_leading_zeros %arg4 : tensor<4xui32>
// CHECK: %23 = stablehlo.real %arg5 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: %24 = stablehlo.imag %arg5 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: %25 = stablehlo.abs %arg5 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: %26 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
// CHECK: %27 = stablehlo.subtract %arg0, %arg1 : tensor<4xf32>
// CHECK: %28 = stablehlo.multiply %arg0, %arg1 : tensor<4xf32>
// CHECK: %29 = stablehlo.divide %arg0, %arg1 : tensor<4xf32>
// CHECK: %30 = stablehlo.remainder %arg2, %arg2 : tensor<4xi32>
// CHECK: %31 = stablehlo.power %arg0, %arg1 : tensor<4xf32>
// CHECK: %32 = stablehlo.maximum %arg0, %arg1 : tensor<4xf32>
// CHECK: %33 = stablehlo.minimum %arg0, %arg1 : tensor<4xf32>
// CHECK: %34 = stablehlo.and %arg3, %arg3 : tensor<4xi1>
// CHECK: %35 = stablehlo.or %arg2, %arg2 : tensor<4xi32>
// CHECK: %36 = stablehlo.xor %arg4, %arg4 : tensor<4xui32>
// CHECK: %37 = stablehlo.shift_left %arg4, %arg4 : tensor<4xui32>
// CHECK: %38 = stablehlo.shift_right_arithmetic %arg2, %arg2 : tensor<4xi32>
// CHECK: %39 = stablehlo.shift_right_logical %arg4, %arg4 : tensor<4xui32>
// CHECK: %40 = stablehlo.atan2 %arg0, %arg1 : tensor<4xf32>
// CHECK: %41 = stablehlo.add %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<?xf32>

func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>, %u: tensor<4xui32>, %c: tensor<4xcomplex<f32>>) {
  %0 = stablehlo.abs %a : tensor<4xf32>
  %1 = stablehlo.ceil %a : tensor<4xf32>
  %2 = stablehlo.floor %a : tensor<4xf32>
  %3 = stablehlo.cosine %a : tensor<4xf32>
  %4 = stablehlo.sine %a : tensor<4xf32>
  %5 = stablehlo.tan %a : tensor<4xf32>
  %6 = stablehlo.tanh %a : tensor<4xf32>
  %7 = stablehlo.exponential %a : tensor<4xf32>
  %8 = stablehlo.exponential_minus_one %a : tensor<4xf32>
  %9 = stablehlo.log %a : tensor<4xf32>
  %10 = stablehlo.log_plus_one %a : tensor<4xf32>
  %11 = stablehlo.logistic %a : tensor<4xf32>
  %12 = stablehlo.negate %a : tensor<4xf32>
  %13 = stablehlo.not %p : tensor<4xi1>
  %14 = stablehlo.popcnt %i : tensor<4xi32>
  %15 = stablehlo.round_nearest_afz %a : tensor<4xf32>
  %16 = stablehlo.round_nearest_even %a : tensor<4xf32>
  %17 = stablehlo.rsqrt %a : tensor<4xf32>
  %18 = stablehlo.sqrt %a : tensor<4xf32>
  %19 = stablehlo.cbrt %a : tensor<4xf32>
  %20 = stablehlo.sign %i : tensor<4xi32>
  %21 = stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<4xi1>
  %22 = stablehlo.count_leading_zeros %u : tensor<4xui32>
  %23 = stablehlo.real %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %24 = stablehlo.imag %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %25 = stablehlo.abs %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %26 = stablehlo.add %a, %b : tensor<4xf32>
  %27 = stablehlo.subtract %a, %b : tensor<4xf32>
  %28 = stablehlo.multiply %a, %b : tensor<4xf32>
  %29 = stablehlo.divide %a, %b : tensor<4xf32>
  %30 = stablehlo.remainder %i, %i : tensor<4xi32>
  %31 = stablehlo.power %a, %b : tensor<4xf32>
  %32 = stablehlo.maximum %a, %b : tensor<4xf32>
  %33 = stablehlo.minimum %a, %b : tensor<4xf32>
  %34 = stablehlo.and %p, %p : tensor<4xi1>
  %35 = stablehlo.or %i, %i : tensor<4xi32>
  %36 = stablehlo.xor %u, %u : tensor<4xui32>
  %37 = stablehlo.shift_left %u, %u : tensor<4xui32>
  %38 = stablehlo.shift_right_arithmetic %i, %i : tensor<4xi32>
  %39 = stablehlo.shift_right_logical %u, %u : tensor<4xui32>
  %40 = stablehlo.atan2 %a, %b : tensor<4xf32>
  %41 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<?xf32>
  return
}
