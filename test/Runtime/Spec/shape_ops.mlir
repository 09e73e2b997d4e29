// Ops that build, move or pick elements (constant, iota, broadcast, reshape,
// transpose, slices, pad, concatenate, reverse, gather, scatter and their
// dynamic forms): the examples of their sections of the StableHLO
// specification as executable checks, then the element types and shapes
// StableHLO's interpreter tests vary.
// RUN: mpmd interpret -split-input-file %s | FileCheck %s

// CHECK: PASS: @broadcast_in_dim_spec
func.func @broadcast_in_dim_spec() {
  %operand = stablehlo.constant dense<[ [1, 2, 3] ]> : tensor<1x3xi32>
  %result = "stablehlo.broadcast_in_dim"(%operand) {
    broadcast_dimensions = array<i64: 2, 1>
  } : (tensor<1x3xi32>) -> tensor<2x3x2xi32>
  check.expect_eq_const %result, dense<[ [ [1, 1], [2, 2], [3, 3] ], [ [1, 1], [2, 2], [3, 3] ] ]> : tensor<2x3x2xi32>
  func.return
}

// -----

// CHECK: PASS: @concatenate_spec
func.func @concatenate_spec() {
  %input0 = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  %input1 = stablehlo.constant dense<[[7, 8]]> : tensor<1x2xi64>
  %result = "stablehlo.concatenate"(%input0, %input1) {
    dimension = 0 : i64
  } : (tensor<3x2xi64>, tensor<1x2xi64>) -> tensor<4x2xi64>
  check.expect_eq_const %result, dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi64>
  func.return
}

// -----

// CHECK: PASS: @constant_spec
func.func @constant_spec() {
  %output = "stablehlo.constant"() {
    value = dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  } : () -> tensor<2x2xf32>
  check.expect_almost_eq_const %output, dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// CHECK: PASS: @dynamic_broadcast_in_dim_spec
func.func @dynamic_broadcast_in_dim_spec() {
  %operand = stablehlo.constant dense<[[1, 2, 3]]> : tensor<1x3xi64>
  %output_dimensions = stablehlo.constant dense<[2, 3, 2]> : tensor<3xi64>
  %result = "stablehlo.dynamic_broadcast_in_dim"(%operand, %output_dimensions) {
    broadcast_dimensions = array<i64: 2, 1>,
    known_expanding_dimensions = array<i64: 0>,
    known_nonexpanding_dimensions = array<i64: 1>
  } : (tensor<1x3xi64>, tensor<3xi64>) -> tensor<2x3x2xi64>
  check.expect_eq_const %result, dense<[ [ [1, 1], [2, 2], [3, 3] ], [ [1, 1], [2, 2], [3, 3] ] ]> : tensor<2x3x2xi64>
  func.return
}

// -----

// CHECK: PASS: @dynamic_gather_spec
func.func @dynamic_gather_spec() {
  %operand = stablehlo.constant dense<[ [[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10],[11, 12], [13, 14], [15, 16]], [[17, 18], [19, 20], [21, 22], [23, 24]] ]> : tensor<3x4x2xi64>
  %start_indices = stablehlo.constant dense<[ [[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 2]] ]> : tensor<2x3x2xi64>
  %slize_sizes = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>
  %result = "stablehlo.dynamic_gather"(%operand, %start_indices, %slize_sizes) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [2, 3],
      collapsed_slice_dims = [0],
      start_index_map = [1, 0],
      index_vector_dim = 2>,
    indices_are_sorted = false
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xi64>
  check.expect_eq_const %result, dense<[ [ [[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]] ], [ [[9, 10], [11, 12]], [[11, 12], [13, 14]], [[17, 18], [19, 20]] ] ]> : tensor<2x3x2x2xi64>
  func.return
}

// -----

// CHECK: PASS: @dynamic_iota_spec
func.func @dynamic_iota_spec() {
  %output_shape = stablehlo.constant dense<[4, 5]> : tensor<2xi64>
  %result = "stablehlo.dynamic_iota"(%output_shape) {
    iota_dimension = 0 : i64
  } : (tensor<2xi64>) -> tensor<4x5xi64>
  check.expect_eq_const %result, dense<[ [0, 0, 0, 0, 0], [1, 1, 1, 1, 1], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3] ]> : tensor<4x5xi64>
  func.return
}

// -----

// CHECK: PASS: @dynamic_pad_spec
func.func @dynamic_pad_spec() {
  %operand = stablehlo.constant dense<[ [1, 2, 3], [4, 5, 6] ]> : tensor<2x3xi64>
  %padding_value = stablehlo.constant dense<0> : tensor<i64>
  %edge_padding_low = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %edge_padding_high = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
  %interior_padding = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %result = "stablehlo.dynamic_pad"(%operand, %padding_value,
    %edge_padding_low, %edge_padding_high, %interior_padding
  ) : (tensor<2x3xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<5x9xi64>
  check.expect_eq_const %result, dense<[ [0, 1, 0, 0, 2, 0, 0, 3, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 4, 0, 0, 5, 0, 0, 6, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0] ]> : tensor<5x9xi64>
  func.return
}

// -----

// CHECK: PASS: @dynamic_reshape_spec
func.func @dynamic_reshape_spec() {
  %operand = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %output_shape = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %result = "stablehlo.dynamic_reshape"(%operand, %output_shape) : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<3x2xi64>
  check.expect_eq_const %result, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  func.return
}

// -----

// CHECK: PASS: @dynamic_slice_spec
func.func @dynamic_slice_spec() {
  %operand = stablehlo.constant dense<[ [0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0] ]> : tensor<4x4xi32>
  %start_indices0 = stablehlo.constant dense<-1> : tensor<i64>
  %start_indices1 = stablehlo.constant dense<3> : tensor<i64>
  %result = "stablehlo.dynamic_slice"(%operand, %start_indices0, %start_indices1) {
    slice_sizes = array<i64: 2, 2>
  } : (tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>
  check.expect_eq_const %result, dense<[ [1, 1], [1, 1] ]> : tensor<2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @dynamic_update_slice_spec
func.func @dynamic_update_slice_spec() {
  %operand = stablehlo.constant dense<[ [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1] ]> : tensor<4x4xi32>
  %update = stablehlo.constant dense<[ [1, 1], [1, 1] ]> : tensor<2x2xi32>
  %start_indices0 = stablehlo.constant dense<-1> : tensor<i64>
  %start_indices1 = stablehlo.constant dense<3> : tensor<i64>
  %result = "stablehlo.dynamic_update_slice"(%operand, %update, %start_indices0, %start_indices1)
    : (tensor<4x4xi32>, tensor<2x2xi32>, tensor<i64>, tensor<i64>) -> tensor<4x4xi32>
  check.expect_eq_const %result, dense<[ [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1] ]> : tensor<4x4xi32>
  func.return
}

// -----

// CHECK: PASS: @gather_spec
func.func @gather_spec() {
  %operand = stablehlo.constant dense<[ [ [[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10],[11, 12], [13, 14], [15, 16]], [[17, 18], [19, 20], [21, 22], [23, 24]] ], [ [[25, 26], [27, 28], [29, 30], [31, 32]], [[33, 34], [35, 36], [37, 38], [39, 40]], [[41, 42], [43, 44], [45, 46], [47, 48]] ] ]> : tensor<2x3x4x2xi32>
  %start_indices = stablehlo.constant dense<[ [ [[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]] ], [ [[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]] ] ]> : tensor<2x2x3x2xi64>
  %result = "stablehlo.gather"(%operand, %start_indices) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [3, 4],
      collapsed_slice_dims = [1],
      operand_batching_dims = [0],
      start_indices_batching_dims = [1],
      start_index_map = [2, 1],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>,
    indices_are_sorted = false
  } : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
  check.expect_eq_const %result, dense<[ [ [ [[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]] ], [ [[33, 34], [35, 36]], [[35, 36], [37, 38]], [[41, 42], [43, 44]] ] ], [ [ [[1, 2], [3, 4]], [[13, 14], [15, 16]], [[21, 22], [23, 24]] ], [ [[43, 44], [45, 46]], [[33, 34], [35, 36]], [[27, 28], [29, 30]] ] ] ]> : tensor<2x2x3x2x2xi32>
  func.return
}

// -----

// CHECK: PASS: @get_dimension_size_spec
func.func @get_dimension_size_spec() {
  %operand = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %result = "stablehlo.get_dimension_size"(%operand) {
    dimension = 1 : i64
  } : (tensor<2x3xi64>) -> tensor<i32>
  check.expect_eq_const %result, dense<3> : tensor<i32>
  func.return
}

// -----

// CHECK: PASS: @pad_spec
func.func @pad_spec() {
  %operand = stablehlo.constant dense<[ [1, 2, 3], [4, 5, 6] ]> : tensor<2x3xi32>
  %padding_value = stablehlo.constant dense<0> : tensor<i32>
  %result = "stablehlo.pad"(%operand, %padding_value) {
    edge_padding_low = array<i64: 0, 1>,
    edge_padding_high = array<i64: 2, 1>,
    interior_padding = array<i64: 1, 2>
  } : (tensor<2x3xi32>, tensor<i32>) -> tensor<5x9xi32>
  check.expect_eq_const %result, dense<[ [0, 1, 0, 0, 2, 0, 0, 3, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 4, 0, 0, 5, 0, 0, 6, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0] ]> : tensor<5x9xi32>
  func.return
}

// -----

// CHECK: PASS: @reshape_spec
func.func @reshape_spec() {
  %operand = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %result = "stablehlo.reshape"(%operand) : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %result, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  func.return
}

// -----

// CHECK: PASS: @reverse_spec
func.func @reverse_spec() {
  %operand = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %result = "stablehlo.reverse"(%operand) {
    dimensions = array<i64: 1>
  } : (tensor<3x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %result, dense<[[2, 1], [4, 3], [6, 5]]> : tensor<3x2xi32>
  func.return
}

// -----

// CHECK: PASS: @scatter_spec
func.func @scatter_spec() {
  %input = stablehlo.constant dense<[ [ [[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10],[11, 12], [13, 14], [15, 16]], [[17, 18], [19, 20], [21, 22], [23, 24]] ], [ [[25, 26], [27, 28], [29, 30], [31, 32]], [[33, 34], [35, 36], [37, 38], [39, 40]], [[41, 42], [43, 44], [45, 46], [47, 48]] ] ]> : tensor<2x3x4x2xi64>
  %scatter_indices = stablehlo.constant dense<[ [ [[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]] ], [ [[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]] ] ]> : tensor<2x2x3x2xi64>
  %update = stablehlo.constant dense<[ [ [[[1, 1], [1, 1]], [[1, 1], [1, 1]], [[1, 1], [1, 1]]], [[[1, 1], [1, 1]], [[1, 1], [1, 1]], [[1, 1], [1, 1]]] ], [ [[[1, 1], [1, 1]], [[1, 1], [1, 1]], [[1, 1], [1, 1]]], [[[1, 1], [1, 1]], [[1, 1], [1, 1]], [[1, 1], [1, 1]]] ] ]> : tensor<2x2x3x2x2xi64>
  %result = "stablehlo.scatter"(%input, %scatter_indices, %update) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%0) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [3, 4],
      inserted_window_dims = [1],
      input_batching_dims = [0],
      scatter_indices_batching_dims = [1],
      scatter_dims_to_operand_dims = [2, 1],
      index_vector_dim = 3>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  check.expect_eq_const %result, dense<[ [ [[3, 4], [6, 7], [6, 7], [7, 8]], [[9, 10],[11, 12], [15, 16], [17, 18]], [[17, 18], [19, 20], [22, 23], [24, 25]] ], [ [[25, 26], [28, 29], [30, 31], [31, 32]], [[35, 36], [38, 39], [38, 39], [39, 40]], [[41, 42], [44, 45], [46, 47], [47, 48]] ] ]> : tensor<2x3x4x2xi64>
  func.return
}

// -----

// CHECK: PASS: @slice_spec
func.func @slice_spec() {
  %operand = stablehlo.constant dense<[ [0, 0, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1] ]> : tensor<3x4xi64>
  %result = "stablehlo.slice"(%operand) {
    start_indices = array<i64: 1, 2>,
    limit_indices = array<i64: 3, 4>,
    strides = array<i64: 1, 1>
  } : (tensor<3x4xi64>) -> tensor<2x2xi64>
  // NO EXPECTED %result
  func.return
}

// -----

// CHECK: PASS: @transpose_spec
func.func @transpose_spec() {
  %operand = stablehlo.constant dense<[ [[1,2], [3,4], [5,6]], [[7,8], [9,10], [11,12]] ]> : tensor<2x3x2xi32>
  %result = "stablehlo.transpose"(%operand) {
    permutation = array<i64: 2, 1, 0>
  } : (tensor<2x3x2xi32>) -> tensor<2x3x2xi32>
  check.expect_eq_const %result, dense<[ [[1,7], [3,9], [5,11]], [[2,8], [4,10], [6,12]] ]> : tensor<2x3x2xi32>
  func.return
}

// -----

// CHECK: PASS: @iota_spec
func.func @iota_spec() {
  %output = "stablehlo.iota"() {
    iota_dimension = 0 : i64
  } : () -> tensor<4x5xi32>
  check.expect_eq_const %output, dense<[[0, 0, 0, 0, 0], [1, 1, 1, 1, 1], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]]> : tensor<4x5xi32>
  %output1 = "stablehlo.iota"() {
    iota_dimension = 1 : i64
  } : () -> tensor<4x5xi32>
  check.expect_eq_const %output1, dense<[[0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]> : tensor<4x5xi32>
  func.return
}

// -----

// Layout ops move elements of every type alike: i1, unsigned, narrow floats
// and complex pairs.
// CHECK: PASS: @transpose_reverse_types
func.func @transpose_reverse_types() {
  %b = stablehlo.constant dense<[[true, false, false], [false, true, true]]> : tensor<2x3xi1>
  %tb = stablehlo.transpose %b, dims = [1, 0] : (tensor<2x3xi1>) -> tensor<3x2xi1>
  check.expect_eq_const %tb, dense<[[true, false], [false, true], [false, true]]> : tensor<3x2xi1>
  %h = stablehlo.constant dense<[[1.5, -2.0], [0.25, 65504.0]]> : tensor<2x2xf16>
  %th = "stablehlo.transpose"(%h) {permutation = array<i64: 1, 0>} : (tensor<2x2xf16>) -> tensor<2x2xf16>
  check.expect_eq_const %th, dense<[[1.5, 0.25], [-2.0, 65504.0]]> : tensor<2x2xf16>
  %z = stablehlo.constant dense<[(1.0, -1.0), (2.0, -2.0), (3.0, -3.0)]> : tensor<3xcomplex<f64>>
  %rz = stablehlo.reverse %z, dims = [0] : tensor<3xcomplex<f64>>
  check.expect_eq_const %rz, dense<[(3.0, -3.0), (2.0, -2.0), (1.0, -1.0)]> : tensor<3xcomplex<f64>>
  %u = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xui16>
  %ru = stablehlo.reverse %u, dims = [0, 1] : tensor<2x2xui16>
  check.expect_eq_const %ru, dense<[[4, 3], [2, 1]]> : tensor<2x2xui16>
  func.return
}

// -----

// CHECK: PASS: @broadcast_reshape_types
func.func @broadcast_reshape_types() {
  %s = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
  %bs = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<ui64>) -> tensor<2x2xui64>
  check.expect_eq_const %bs, dense<18446744073709551615> : tensor<2x2xui64>
  %z = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>
  %bz = stablehlo.broadcast_in_dim %z, dims = [1] : (tensor<1xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
  check.expect_eq_const %bz, dense<(1.0, 2.0)> : tensor<2x3xcomplex<f32>>
  %r0 = stablehlo.constant dense<7> : tensor<i8>
  %r1 = stablehlo.reshape %r0 : (tensor<i8>) -> tensor<1x1xi8>
  check.expect_eq_const %r1, dense<[[7]]> : tensor<1x1xi8>
  %back = "stablehlo.reshape"(%r1) : (tensor<1x1xi8>) -> tensor<i8>
  check.expect_eq_const %back, dense<7> : tensor<i8>
  %e = stablehlo.constant dense<> : tensor<0x4xbf16>
  %re = stablehlo.reshape %e : (tensor<0x4xbf16>) -> tensor<2x0x2xbf16>
  check.expect_eq_const %re, dense<> : tensor<2x0x2xbf16>
  %be = stablehlo.broadcast_in_dim %e, dims = [0, 2] : (tensor<0x4xbf16>) -> tensor<0x3x4xbf16>
  check.expect_eq_const %be, dense<> : tensor<0x3x4xbf16>
  func.return
}

// -----

// CHECK: PASS: @concatenate_pad_slice_types
func.func @concatenate_pad_slice_types() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xbf16>
  %b = stablehlo.constant dense<> : tensor<0xbf16>
  %c = stablehlo.constant dense<[3.0]> : tensor<1xbf16>
  %cat = stablehlo.concatenate %a, %b, %c, dim = 0 : (tensor<2xbf16>, tensor<0xbf16>, tensor<1xbf16>) -> tensor<3xbf16>
  check.expect_eq_const %cat, dense<[1.0, 2.0, 3.0]> : tensor<3xbf16>
  %z = stablehlo.constant dense<[(1.0, 1.0), (2.0, 2.0)]> : tensor<2xcomplex<f32>>
  %zero = stablehlo.constant dense<(0.0, -1.0)> : tensor<complex<f32>>
  %pz = stablehlo.pad %z, %zero, low = [1], high = [0], interior = [1] : (tensor<2xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
  check.expect_eq_const %pz, dense<[(0.0, -1.0), (1.0, 1.0), (0.0, -1.0), (2.0, 2.0)]> : tensor<4xcomplex<f32>>
  // Negative padding removes elements.
  %i = stablehlo.constant dense<[1, 2, 3, 4, 5]> : tensor<5xui8>
  %pad = stablehlo.constant dense<9> : tensor<ui8>
  %pi = stablehlo.pad %i, %pad, low = [-2], high = [1], interior = [0] : (tensor<5xui8>, tensor<ui8>) -> tensor<4xui8>
  check.expect_eq_const %pi, dense<[3, 4, 5, 9]> : tensor<4xui8>
  %s = stablehlo.slice %i [1:5:3] : (tensor<5xui8>) -> tensor<2xui8>
  check.expect_eq_const %s, dense<[2, 5]> : tensor<2xui8>
  %none = stablehlo.slice %i [2:2] : (tensor<5xui8>) -> tensor<0xui8>
  check.expect_eq_const %none, dense<> : tensor<0xui8>
  func.return
}

// -----

// iota of every element kind; dimension 1 of a 2-D result.
// CHECK: PASS: @iota_types
func.func @iota_types() {
  %f = stablehlo.iota dim = 0 : tensor<3xf32>
  check.expect_eq_const %f, dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
  %h = stablehlo.iota dim = 1 : tensor<2x3xf16>
  check.expect_eq_const %h, dense<[[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]> : tensor<2x3xf16>
  %u = stablehlo.iota dim = 0 : tensor<4xui8>
  check.expect_eq_const %u, dense<[0, 1, 2, 3]> : tensor<4xui8>
  %z = stablehlo.iota dim = 0 : tensor<2xcomplex<f32>>
  check.expect_eq_const %z, dense<[(0.0, 0.0), (1.0, 0.0)]> : tensor<2xcomplex<f32>>
  %e = stablehlo.iota dim = 0 : tensor<0xi32>
  check.expect_eq_const %e, dense<> : tensor<0xi32>
  func.return
}

// -----

// dynamic_slice and dynamic_update_slice clamp start indices of any integer
// type into range.
// CHECK: PASS: @dynamic_slice_index_types
func.func @dynamic_slice_index_types() {
  %x = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0]> : tensor<5xf16>
  %big = stablehlo.constant dense<200> : tensor<ui8>
  %s = stablehlo.dynamic_slice %x, %big, sizes = [2] : (tensor<5xf16>, tensor<ui8>) -> tensor<2xf16>
  check.expect_eq_const %s, dense<[3.0, 4.0]> : tensor<2xf16>
  %neg = stablehlo.constant dense<-5> : tensor<i16>
  %u = stablehlo.constant dense<[9.0, 9.0]> : tensor<2xf16>
  %d = stablehlo.dynamic_update_slice %x, %u, %neg : (tensor<5xf16>, tensor<2xf16>, tensor<i16>) -> tensor<5xf16>
  check.expect_eq_const %d, dense<[9.0, 9.0, 2.0, 3.0, 4.0]> : tensor<5xf16>
  func.return
}
