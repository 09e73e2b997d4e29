// Round trip of constants, shape, slicing, compare/select and dot ops.
// RUN: mpmd-opt %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt %s -mlir-print-op-generic | mpmd-opt | FileCheck %s

// CHECK-LABEL: func.func @misc(
// CHECK: %c = stablehlo.constant dense<1> : tensor<i32>
// CHECK: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
// CHECK: %c_1 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
// CHECK: %0 = stablehlo.clamp %arg2, %arg0, %arg2 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: %1 = stablehlo.clamp %arg0, %arg0, %arg0 : tensor<4xf32>
// CHECK: %2 = stablehlo.select %arg3, %arg0, %arg0 : tensor<4xi1>, tensor<4xf32>
// CHECK: %3 = stablehlo.compare LT, %arg4, %arg5, SIGNED : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi1>
// CHECK: %4 = stablehlo.compare GT, %arg0, %arg0, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: %5 = stablehlo.compare EQ, %arg0, %arg0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: %6 = stablehlo.convert %arg6 : (tensor<2x4x32xbf16>) -> tensor<2x4x32xf32>
// CHECK: %7 = stablehlo.convert %c : tensor<i32>
// CHECK: %8 = stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: %9 = stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4x2xf16>
// CHECK: %10 = stablehlo.reshape %arg6 : (tensor<2x4x32xbf16>) -> tensor<2x4x2x16xbf16>
// CHECK: %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x32xf32>
// CHECK: %12 = stablehlo.broadcast_in_dim %arg4, dims = [0, 1] : (tensor<2x4xi32>) -> tensor<2x4x1xi32>
// CHECK: %13 = stablehlo.transpose %10, dims = [0, 2, 1, 3] : (tensor<2x4x2x16xbf16>) -> tensor<2x2x4x16xbf16>
// CHECK: %14 = stablehlo.iota dim = 1 : tensor<256x1000xi32>
// CHECK: %15 = stablehlo.slice %arg1 [1:3, 4:8:2] : (tensor<3x8xf32>) -> tensor<2x2xf32>
// CHECK: %16 = stablehlo.dynamic_slice %arg4, %c, %c, sizes = [1, 4] : (tensor<2x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1x4xi32>
// CHECK: %17 = stablehlo.dynamic_update_slice %arg1, %15, %c, %c : (tensor<3x8xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<3x8xf32>
// CHECK: %18 = stablehlo.concatenate %arg4, %arg5, dim = 1 : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x8xi32>
// CHECK: %19 = stablehlo.pad %arg0, %arg2, low = [4], high = [4], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<15xf32>
// CHECK: %20 = stablehlo.reverse %arg1, dims = [1, 0] : tensor<3x8xf32>
// CHECK-LABEL: func.func @dots(
// CHECK: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4x32xbf16>, tensor<32x128xbf16>) -> tensor<2x4x128xbf16>
// CHECK: %1 = stablehlo.dot_general %arg2, %arg3, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x4xbf16>, tensor<2x4x2x16xbf16>) -> tensor<2x2x4x4xbf16>
// CHECK: %2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0] : (tensor<2x4x32xbf16>, tensor<32x128xbf16>) -> tensor<2x4x128xf32>
// CHECK: %3 = stablehlo.dot_general %arg4, %arg5, contracting_dims = [1] x [0], precision = [HIGH, HIGHEST], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
// CHECK: %4 = stablehlo.dot %arg4, %arg5 : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
// CHECK: %5 = stablehlo.dot %arg4, %arg5, precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
// CHECK: %6 = stablehlo.dot %arg5, %arg5, precision = [HIGHEST, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
// CHECK: %7 = stablehlo.dot_general %arg4, %arg5, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>

func.func @misc(%a: tensor<4xf32>, %x: tensor<3x8xf32>, %f: tensor<f32>, %p: tensor<4xi1>, %i: tensor<2x4xi32>, %z: tensor<2x4xi32>, %bf: tensor<2x4x32xbf16>) {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %c_1 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %0 = stablehlo.clamp %f, %a, %f : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.clamp %a, %a, %a : tensor<4xf32>
  %2 = stablehlo.select %p, %a, %a : tensor<4xi1>, tensor<4xf32>
  %3 = stablehlo.compare LT, %i, %z, SIGNED : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi1>
  %4 = stablehlo.compare  GT, %a, %a,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = stablehlo.compare EQ, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %6 = stablehlo.convert %bf : (tensor<2x4x32xbf16>) -> tensor<2x4x32xf32>
  %7 = stablehlo.convert %c : tensor<i32>
  %8 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4xi32>
  %9 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4x2xf16>
  %10 = stablehlo.reshape %bf : (tensor<2x4x32xbf16>) -> tensor<2x4x2x16xbf16>
  %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x32xf32>
  %12 = stablehlo.broadcast_in_dim %i, dims = [0, 1] : (tensor<2x4xi32>) -> tensor<2x4x1xi32>
  %13 = stablehlo.transpose %10, dims = [0, 2, 1, 3] : (tensor<2x4x2x16xbf16>) -> tensor<2x2x4x16xbf16>
  %14 = stablehlo.iota dim = 1 : tensor<256x1000xi32>
  %15 = stablehlo.slice %x [1:3, 4:8:2] : (tensor<3x8xf32>) -> tensor<2x2xf32>
  %16 = stablehlo.dynamic_slice %i, %c, %c, sizes = [1, 4] : (tensor<2x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1x4xi32>
  %17 = stablehlo.dynamic_update_slice %x, %15, %c, %c : (tensor<3x8xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<3x8xf32>
  %18 = stablehlo.concatenate %i, %z, dim = 1 : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x8xi32>
  %19 = stablehlo.pad %a, %f, low = [4], high = [4], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<15xf32>
  %20 = stablehlo.reverse %x, dims = [1, 0] : tensor<3x8xf32>
  return
}

func.func @dots(%a: tensor<2x4x32xbf16>, %w: tensor<32x128xbf16>, %q: tensor<2x2x16x4xbf16>, %k: tensor<2x4x2x16xbf16>, %m: tensor<3x4xf32>, %v: tensor<4xf32>) {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4x32xbf16>, tensor<32x128xbf16>) -> tensor<2x4x128xbf16>
  %1 = stablehlo.dot_general %q, %k, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x4xbf16>, tensor<2x4x2x16xbf16>) -> tensor<2x2x4x4xbf16>
  %2 = stablehlo.dot_general %a, %w, contracting_dims = [2] x [0] : (tensor<2x4x32xbf16>, tensor<32x128xbf16>) -> tensor<2x4x128xf32>
  %3 = stablehlo.dot_general %m, %v, contracting_dims = [1] x [0], precision = [HIGH, HIGHEST], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %4 = stablehlo.dot %m, %v : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %5 = stablehlo.dot %m, %v, precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %6 = "stablehlo.dot"(%v, %v) {precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  %7 = "stablehlo.dot_general"(%m, %v) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return
}
