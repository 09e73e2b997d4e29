// tuple / get_tuple_element (also across calls), map, composite,
// get_dimension_size and the dynamic-shape ops (dynamic_gather included)
// with static result types.
// RUN: not mpmd interpret %s --split-input-file 2>&1 | FileCheck %s

func.func private @pair(%a: tensor<2xf32>, %b: tensor<i32>) -> tuple<tensor<2xf32>, tuple<tensor<i32>>> {
  %inner = stablehlo.tuple %b : tuple<tensor<i32>>
  %t = stablehlo.tuple %a, %inner : tuple<tensor<2xf32>, tuple<tensor<i32>>>
  func.return %t : tuple<tensor<2xf32>, tuple<tensor<i32>>>
}

func.func private @second(%t: tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tensor<i32> {
  %inner = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tuple<tensor<i32>>
  %b = stablehlo.get_tuple_element %inner[0] : (tuple<tensor<i32>>) -> tensor<i32>
  func.return %b : tensor<i32>
}

// CHECK: PASS: @tuples
func.func @tuples() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<7> : tensor<i32>
  %t = func.call @pair(%a, %b) : (tensor<2xf32>, tensor<i32>) -> tuple<tensor<2xf32>, tuple<tensor<i32>>>
  %first = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tensor<2xf32>
  check.expect_eq_const %first, dense<[1.0, 2.0]> : tensor<2xf32>
  %second = func.call @second(%t) : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tensor<i32>
  check.expect_eq_const %second, dense<7> : tensor<i32>
  func.return
}

// CHECK: PASS: @map
func.func @map() {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %y = stablehlo.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>
  %r = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.multiply %a, %b : tensor<f32>
    %c = stablehlo.compare GT, %m, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
  check.expect_eq_const %r, dense<[[false, true], [true, true]]> : tensor<2x2xi1>
  func.return
}

func.func private @scaled_add(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %two = stablehlo.constant dense<2.0> : tensor<2xf32>
  %m = stablehlo.multiply %b, %two : tensor<2xf32>
  %s = stablehlo.add %a, %m : tensor<2xf32>
  func.return %s : tensor<2xf32>
}

// CHECK: PASS: @composite
func.func @composite() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %r = stablehlo.composite "my.scaled_add" %a, %b {composite_attributes = {scale = 2.0 : f32}, decomposition = @scaled_add, version = 1 : i32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[2.0, 0.0]> : tensor<2xf32>
  func.return
}

// CHECK: PASS: @dynamic_shape_ops
func.func @dynamic_shape_ops() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %d1 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xi64>) -> tensor<i32>
  check.expect_eq_const %d1, dense<3> : tensor<i32>
  %shape = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %r = stablehlo.dynamic_reshape %x, %shape : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<3x2xi64>
  check.expect_eq_const %r, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  %iota = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<3x2xi64>
  check.expect_eq_const %iota, dense<[[0, 0], [1, 1], [2, 2]]> : tensor<3x2xi64>
  %row = stablehlo.constant dense<[7, 8]> : tensor<2xi64>
  %b = stablehlo.dynamic_broadcast_in_dim %row, %shape, dims = [1] : (tensor<2xi64>, tensor<2xi64>) -> tensor<3x2xi64>
  check.expect_eq_const %b, dense<[[7, 8], [7, 8], [7, 8]]> : tensor<3x2xi64>
  %pv = stablehlo.constant dense<0> : tensor<i64>
  %low = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %high = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %interior = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %p = stablehlo.dynamic_pad %x, %pv, %low, %high, %interior : (tensor<2x3xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<3x6xi64>
  check.expect_eq_const %p, dense<[[0, 1, 0, 2, 0, 3], [0, 4, 0, 5, 0, 6], [0, 0, 0, 0, 0, 0]]> : tensor<3x6xi64>
  func.return
}

// The spec's dynamic_gather example, its slice sizes given as a value.
// CHECK: PASS: @dynamic_gather
func.func @dynamic_gather() {
  %operand = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]], [[17, 18], [19, 20], [21, 22], [23, 24]]]> : tensor<3x4x2xi64>
  %start_indices = stablehlo.constant dense<[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 2]]]> : tensor<2x3x2xi64>
  %slice_sizes = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>
  %result = "stablehlo.dynamic_gather"(%operand, %start_indices, %slice_sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xi64>
  check.expect_eq_const %result, dense<[[[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]], [[[9, 10], [11, 12]], [[11, 12], [13, 14]], [[17, 18], [19, 20]]]]> : tensor<2x3x2x2xi64>
  func.return
}

// -----

// A shape operand whose value disagrees with the static result type.
func.func private @shape_value_mismatch(%shape: tensor<2xi64>) {
  // CHECK: error: output_shape is [2, 3] but the result type is 'tensor<3x2xi64>'
  %iota = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<3x2xi64>
  func.return
}

func.func @shape_value_mismatch_caller() {
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  func.call @shape_value_mismatch(%shape) : (tensor<2xi64>) -> ()
  func.return
}
// CHECK: FAIL: @shape_value_mismatch_caller

// -----

// Slice sizes that are not the result's window.
func.func private @gather_sizes(%sizes: tensor<3xi64>) {
  %operand = stablehlo.constant dense<1> : tensor<3x4x2xi64>
  %start_indices = stablehlo.constant dense<0> : tensor<2x3x2xi64>
  // CHECK: error: slice_sizes [1, 3, 2] do not fit operand 'tensor<3x4x2xi64>' and result 'tensor<2x3x2x2xi64>'
  %result = "stablehlo.dynamic_gather"(%operand, %start_indices, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

func.func @gather_sizes_caller() {
  %sizes = stablehlo.constant dense<[1, 3, 2]> : tensor<3xi64>
  func.call @gather_sizes(%sizes) : (tensor<3xi64>) -> ()
  func.return
}
// CHECK: FAIL: @gather_sizes_caller
