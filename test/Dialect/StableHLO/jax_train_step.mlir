// A JAX-style training step (embedding gather/scatter, remat barrier, dense and batched dot_general, log-softmax reduces, scanned SGD loop, argsort, sharding custom call). Our printed text must equal the input, which follows JAX's.
// RUN: mpmd-opt %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt %s -mlir-print-op-generic | mpmd-opt | FileCheck %s

// CHECK: module @jit_train_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-LABEL: func.func public @main(
// CHECK: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %c_0 = stablehlo.constant dense<64> : tensor<i32>
// CHECK: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK: %cst_2 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
// CHECK: %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
// CHECK: %1 = stablehlo.compare LT, %arg2, %0, SIGNED : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi1>
// CHECK: %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
// CHECK: %3 = stablehlo.add %arg2, %2 : tensor<2x4xi32>
// CHECK: %4 = stablehlo.select %1, %3, %arg2 : tensor<2x4xi1>, tensor<2x4xi32>
// CHECK: %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x4xi32>) -> tensor<2x4x1xi32>
// CHECK: %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<2x4x1xi32>) -> tensor<2x4x32xbf16>
// CHECK: %7:2 = stablehlo.optimization_barrier %6, %arg1 : tensor<2x4x32xbf16>, tensor<32x128xbf16>
// CHECK: %8 = stablehlo.dot_general %7#0, %7#1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4x32xbf16>, tensor<32x128xbf16>) -> tensor<2x4x128xbf16>
// CHECK: %9 = stablehlo.convert %8 : (tensor<2x4x128xbf16>) -> tensor<2x4x128xf32>
// CHECK: %10 = call @relu(%9) : (tensor<2x4x128xf32>) -> tensor<2x4x128xf32>
// CHECK: %11 = stablehlo.reshape %10 : (tensor<2x4x128xf32>) -> tensor<2x4x8x16xf32>
// CHECK: %12 = stablehlo.transpose %11, dims = [0, 2, 1, 3] : (tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32>
// CHECK: %13 = stablehlo.dot_general %12, %12, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x4x16xf32>, tensor<2x8x4x16xf32>) -> tensor<2x8x4x4xf32>
// CHECK: %14 = stablehlo.reduce(%13 init: %cst_1) applies stablehlo.maximum across dimensions = [3] : (tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x8x4xf32>
// CHECK: %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<2x8x4xf32>) -> tensor<2x8x4x4xf32>
// CHECK: %16 = stablehlo.subtract %13, %15 : tensor<2x8x4x4xf32>
// CHECK: %17 = stablehlo.exponential %16 : tensor<2x8x4x4xf32>
// CHECK: %18 = stablehlo.reduce(%17 init: %cst) applies stablehlo.add across dimensions = [3] : (tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x8x4xf32>
// CHECK: %19 = stablehlo.log %18 : tensor<2x8x4xf32>
// CHECK: %20 = stablehlo.reduce(%19 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x8x4xf32>, tensor<f32>) -> tensor<f32>
// CHECK: %21 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<2x4xi32>) -> tensor<2x4x1xi32>
// CHECK: %22 = "stablehlo.gather"(%10, %21) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<2x4x128xf32>, tensor<2x4x1xi32>) -> tensor<2x4xf32>
// CHECK: %23 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
// CHECK: %24 = stablehlo.convert %6 : (tensor<2x4x32xbf16>) -> tensor<2x4x32xf32>
// CHECK: %25 = "stablehlo.scatter"(%23, %5, %24) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
// CHECK: ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
// CHECK: %34 = stablehlo.add %arg5, %arg6 : tensor<f32>
// CHECK: stablehlo.return %34 : tensor<f32>
// CHECK: }) : (tensor<64x32xf32>, tensor<2x4x1xi32>, tensor<2x4x32xf32>) -> tensor<64x32xf32>
// CHECK: %26:3 = stablehlo.while(%iterArg = %c, %iterArg_3 = %25, %iterArg_4 = %arg1) : tensor<i32>, tensor<64x32xf32>, tensor<32x128xbf16>
// CHECK: cond {
// CHECK: %c_5 = stablehlo.constant dense<2> : tensor<i32>
// CHECK: %34 = stablehlo.compare LT, %iterArg, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: stablehlo.return %34 : tensor<i1>
// CHECK: } do {
// CHECK: %c_5 = stablehlo.constant dense<1> : tensor<i32>
// CHECK: %34 = stablehlo.add %iterArg, %c_5 : tensor<i32>
// CHECK: %35 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
// CHECK: %36 = stablehlo.multiply %iterArg_3, %35 : tensor<64x32xf32>
// CHECK: %37 = stablehlo.dynamic_slice %iterArg_4, %c, %c, sizes = [32, 128] : (tensor<32x128xbf16>, tensor<i32>, tensor<i32>) -> tensor<32x128xbf16>
// CHECK: %38 = stablehlo.dynamic_update_slice %iterArg_4, %37, %c, %c : (tensor<32x128xbf16>, tensor<32x128xbf16>, tensor<i32>, tensor<i32>) -> tensor<32x128xbf16>
// CHECK: stablehlo.return %34, %36, %38 : tensor<i32>, tensor<64x32xf32>, tensor<32x128xbf16>
// CHECK: %27 = stablehlo.convert %26#1 : (tensor<64x32xf32>) -> tensor<64x32xbf16>
// CHECK: %28 = stablehlo.subtract %arg0, %27 : tensor<64x32xbf16>
// CHECK: %29 = stablehlo.iota dim = 1 : tensor<2x16xi32>
// CHECK: %30:2 = "stablehlo.sort"(%arg4, %29) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK: ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>, %arg7: tensor<i32>, %arg8: tensor<i32>):
// CHECK: %34 = stablehlo.compare GT, %arg5, %arg6, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK: stablehlo.return %34 : tensor<i1>
// CHECK: }) : (tensor<2x16xf32>, tensor<2x16xi32>) -> (tensor<2x16xf32>, tensor<2x16xi32>)
// CHECK: %31 = stablehlo.custom_call @Sharding(%28) {mhlo.sharding = "{replicated}"} : (tensor<64x32xbf16>) -> tensor<64x32xbf16>
// CHECK: %32 = stablehlo.reduce(%22 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<f32>
// CHECK: %33 = stablehlo.subtract %20, %32 : tensor<f32>
// CHECK: return %33, %31, %26#2 : tensor<f32>, tensor<64x32xbf16>, tensor<32x128xbf16>
// CHECK-LABEL: func.func private @relu(
// CHECK: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x128xf32>
// CHECK: %1 = stablehlo.maximum %arg0, %0 : tensor<2x4x128xf32>
// CHECK: return %1 : tensor<2x4x128xf32>

module @jit_train_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x32xbf16>, %arg1: tensor<32x128xbf16>, %arg2: tensor<2x4xi32>, %arg3: tensor<2x4xi32>, %arg4: tensor<2x16xf32>) -> (tensor<f32>, tensor<64x32xbf16>, tensor<32x128xbf16>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    // Embedding lookup with negative-index wrap.
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
    %1 = stablehlo.compare LT, %arg2, %0, SIGNED : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi1>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
    %3 = stablehlo.add %arg2, %2 : tensor<2x4xi32>
    %4 = stablehlo.select %1, %3, %arg2 : tensor<2x4xi1>, tensor<2x4xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x4xi32>) -> tensor<2x4x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<2x4x1xi32>) -> tensor<2x4x32xbf16>
    // Dense layer, remat'd.
    %7:2 = stablehlo.optimization_barrier %6, %arg1 : tensor<2x4x32xbf16>, tensor<32x128xbf16>
    %8 = stablehlo.dot_general %7#0, %7#1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4x32xbf16>, tensor<32x128xbf16>) -> tensor<2x4x128xbf16>
    %9 = stablehlo.convert %8 : (tensor<2x4x128xbf16>) -> tensor<2x4x128xf32>
    %10 = call @relu(%9) : (tensor<2x4x128xf32>) -> tensor<2x4x128xf32>
    // Attention-style batched matmul.
    %11 = stablehlo.reshape %10 : (tensor<2x4x128xf32>) -> tensor<2x4x8x16xf32>
    %12 = stablehlo.transpose %11, dims = [0, 2, 1, 3] : (tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32>
    %13 = stablehlo.dot_general %12, %12, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x4x16xf32>, tensor<2x8x4x16xf32>) -> tensor<2x8x4x4xf32>
    // log-softmax over the last axis.
    %14 = stablehlo.reduce(%13 init: %cst_1) applies stablehlo.maximum across dimensions = [3] : (tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x8x4xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<2x8x4xf32>) -> tensor<2x8x4x4xf32>
    %16 = stablehlo.subtract %13, %15 : tensor<2x8x4x4xf32>
    %17 = stablehlo.exponential %16 : tensor<2x8x4x4xf32>
    %18 = stablehlo.reduce(%17 init: %cst) applies stablehlo.add across dimensions = [3] : (tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x8x4xf32>
    %19 = stablehlo.log %18 : tensor<2x8x4xf32>
    %20 = stablehlo.reduce(%19 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x8x4xf32>, tensor<f32>) -> tensor<f32>
    // take_along_axis on the labels.
    %21 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<2x4xi32>) -> tensor<2x4x1xi32>
    %22 = "stablehlo.gather"(%10, %21) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<2x4x128xf32>, tensor<2x4x1xi32>) -> tensor<2x4xf32>
    // Embedding gradient: scatter-add.
    %23 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %24 = stablehlo.convert %6 : (tensor<2x4x32xbf16>) -> tensor<2x4x32xf32>
    %25 = "stablehlo.scatter"(%23, %5, %24) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %34 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %34 : tensor<f32>
    }) : (tensor<64x32xf32>, tensor<2x4x1xi32>, tensor<2x4x32xf32>) -> tensor<64x32xf32>
    // SGD over a scanned loop.
    %26:3 = stablehlo.while(%iterArg = %c, %iterArg_3 = %25, %iterArg_4 = %arg1) : tensor<i32>, tensor<64x32xf32>, tensor<32x128xbf16>
     cond {
      %c_5 = stablehlo.constant dense<2> : tensor<i32>
      %34 = stablehlo.compare LT, %iterArg, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %34 : tensor<i1>
    } do {
      %c_5 = stablehlo.constant dense<1> : tensor<i32>
      %34 = stablehlo.add %iterArg, %c_5 : tensor<i32>
      %35 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
      %36 = stablehlo.multiply %iterArg_3, %35 : tensor<64x32xf32>
      %37 = stablehlo.dynamic_slice %iterArg_4, %c, %c, sizes = [32, 128] : (tensor<32x128xbf16>, tensor<i32>, tensor<i32>) -> tensor<32x128xbf16>
      %38 = stablehlo.dynamic_update_slice %iterArg_4, %37, %c, %c : (tensor<32x128xbf16>, tensor<32x128xbf16>, tensor<i32>, tensor<i32>) -> tensor<32x128xbf16>
      stablehlo.return %34, %36, %38 : tensor<i32>, tensor<64x32xf32>, tensor<32x128xbf16>
    }
    %27 = stablehlo.convert %26#1 : (tensor<64x32xf32>) -> tensor<64x32xbf16>
    %28 = stablehlo.subtract %arg0, %27 : tensor<64x32xbf16>
    // argsort (top-k style) and a sharding custom call.
    %29 = stablehlo.iota dim = 1 : tensor<2x16xi32>
    %30:2 = "stablehlo.sort"(%arg4, %29) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>, %arg7: tensor<i32>, %arg8: tensor<i32>):
      %34 = stablehlo.compare GT, %arg5, %arg6, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %34 : tensor<i1>
    }) : (tensor<2x16xf32>, tensor<2x16xi32>) -> (tensor<2x16xf32>, tensor<2x16xi32>)
    %31 = stablehlo.custom_call @Sharding(%28) {mhlo.sharding = "{replicated}"} : (tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %32 = stablehlo.reduce(%22 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<f32>
    %33 = stablehlo.subtract %20, %32 : tensor<f32>
    return %33, %31, %26#2 : tensor<f32>, tensor<64x32xbf16>, tensor<32x128xbf16>
  }
  func.func private @relu(%arg0: tensor<2x4x128xf32>) -> tensor<2x4x128xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x128xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x4x128xf32>
    return %1 : tensor<2x4x128xf32>
  }
}
