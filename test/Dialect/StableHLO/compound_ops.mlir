// Batch norm, cholesky, triangular_solve, map, composite, rng,
// infeed/outfeed, tuples and the dynamic-shape ops print as upstream StableHLO prints them (generic
// form where upstream has no pretty form) and read back from both forms.
// RUN: mpmd-opt %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt %s -mlir-print-op-generic | mpmd-opt | FileCheck %s

// CHECK-LABEL: func.func @batch_norm(
func.func @batch_norm(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %g: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // CHECK: %{{.*}}, %[[MEAN:.*]], %[[VAR:.*]] = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg1) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %out, %mean, %var = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 0.001 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  // CHECK: "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg1, %[[MEAN]], %[[VAR]]) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  %inf = "stablehlo.batch_norm_inference"(%x, %s, %s, %mean, %var) {epsilon = 0.001 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  // CHECK: "stablehlo.batch_norm_grad"(%arg0, %arg1, %[[MEAN]], %[[VAR]], %arg2) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %gx, %gs, %go = "stablehlo.batch_norm_grad"(%x, %s, %mean, %var, %g) {epsilon = 0.001 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return %inf : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @linalg(
func.func @linalg(%a: tensor<2x3x3xf64>, %b: tensor<2x3x5xf64>) -> tensor<2x3x5xf64> {
  // CHECK: %[[L:.*]] = stablehlo.cholesky %arg0, lower = true : tensor<2x3x3xf64>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x3x3xf64>) -> tensor<2x3x3xf64>
  // CHECK: stablehlo.cholesky %[[L]] : tensor<2x3x3xf64>
  %u = stablehlo.cholesky %l : tensor<2x3x3xf64>
  // CHECK: "stablehlo.triangular_solve"(%{{.*}}, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false}> : (tensor<2x3x3xf64>, tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  %x = "stablehlo.triangular_solve"(%u, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x3x3xf64>, tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  func.return %x : tensor<2x3x5xf64>
}

func.func private @decomposition(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

// CHECK-LABEL: func.func @map_composite_rng(
func.func @map_composite_rng(%x: tensor<4xf32>, %y: tensor<4xf32>, %lo: tensor<f32>, %shape: tensor<2xi64>) -> tensor<4xf32> {
  // CHECK: "stablehlo.map"(%arg0, %arg1) <{dimensions = array<i64: 0>}> ({
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK: }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %m = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: stablehlo.composite "my.identity" %arg2 {composite_attributes = {k = 1 : i64}, decomposition = @decomposition, version = 2 : i32} : (tensor<f32>) -> tensor<f32>
  %c = stablehlo.composite "my.identity" %lo {composite_attributes = {k = 1 : i64}, decomposition = @decomposition, version = 2 : i32} : (tensor<f32>) -> tensor<f32>
  // CHECK: stablehlo.composite "my.plain" %arg2 {decomposition = @decomposition} : (tensor<f32>) -> tensor<f32>
  %d = stablehlo.composite "my.plain" %lo {decomposition = @decomposition} : (tensor<f32>) -> tensor<f32>
  // CHECK: stablehlo.rng %arg2, %{{.*}}, %arg3, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
  %r = stablehlo.rng %lo, %c, %shape, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
  // CHECK: stablehlo.rng %arg2, %arg2, %arg3, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  %u = "stablehlo.rng"(%lo, %lo, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %m : tensor<4xf32>
}

// CHECK-LABEL: func.func @tuples(
func.func @tuples(%a: tensor<2xf32>, %b: tensor<i32>) -> tensor<i32> {
  // CHECK: %[[T:.*]] = stablehlo.tuple %arg0, %{{.*}} : tuple<tensor<2xf32>, tuple<tensor<i32>>>
  %inner = stablehlo.tuple %b : tuple<tensor<i32>>
  %t = stablehlo.tuple %a, %inner : tuple<tensor<2xf32>, tuple<tensor<i32>>>
  // CHECK: stablehlo.get_tuple_element %[[T]][1] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tuple<tensor<i32>>
  %e = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tuple<tensor<i32>>
  %f = "stablehlo.get_tuple_element"(%e) <{index = 0 : i32}> : (tuple<tensor<i32>>) -> tensor<i32>
  func.return %f : tensor<i32>
}

// CHECK-LABEL: func.func @dynamic(
func.func @dynamic(%x: tensor<?x3xf32>, %shape: tensor<2xi64>, %pv: tensor<f32>) -> tensor<?x?xf32> {
  // CHECK: stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  // CHECK: stablehlo.dynamic_iota %arg1, dim = 1 : (tensor<2xi64>) -> tensor<?x?xi32>
  %i = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<?x?xi32>
  // CHECK: stablehlo.dynamic_reshape %arg0, %arg1 : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %r = stablehlo.dynamic_reshape %x, %shape : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [0, 1] {known_expanding_dimensions = array<i64: 0>} : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %b = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 1] {known_expanding_dimensions = array<i64: 0>} : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: "stablehlo.dynamic_gather"(%arg0, %{{.*}}, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<?x3xf32>, tensor<4x1xi32>, tensor<2xi64>) -> tensor<4x3xf32>
  %ids = stablehlo.constant dense<0> : tensor<4x1xi32>
  %g = "stablehlo.dynamic_gather"(%x, %ids, %shape) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<?x3xf32>, tensor<4x1xi32>, tensor<2xi64>) -> tensor<4x3xf32>
  // CHECK: stablehlo.dynamic_pad %arg0, %arg2, %arg1, %arg1, %arg1 : (tensor<?x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %p = stablehlo.dynamic_pad %x, %pv, %shape, %shape, %shape : (tensor<?x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %p : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @feeds(
func.func @feeds(%t: !stablehlo.token, %x: tensor<2xf32>) -> !stablehlo.token {
  // CHECK: %[[IN:.*]]:2 = "stablehlo.infeed"(%arg0) <{infeed_config = "queue"}> : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  %in:2 = "stablehlo.infeed"(%t) {infeed_config = "queue"} : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  // CHECK: "stablehlo.outfeed"(%arg1, %[[IN]]#1) <{outfeed_config = ""}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %out = "stablehlo.outfeed"(%x, %in#1) {outfeed_config = ""} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  func.return %out : !stablehlo.token
}

// CHECK-LABEL: func.func @dynamic_conv(
func.func @dynamic_conv(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>, %pad: tensor<2x2xi64>) -> tensor<1x2x2x1xf32> {
  // CHECK: "stablehlo.dynamic_conv"(%arg0, %arg1, %arg2) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 2>}> : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x2x2x1xf32>
  %r = "stablehlo.dynamic_conv"(%x, %w, %pad) {window_strides = array<i64: 2, 2>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x2x2x1xf32>
  func.return %r : tensor<1x2x2x1xf32>
}
