// Reductions, windows, sort, dot_general, convolution, batch norm, linear
// algebra, fft and map: the examples of their sections of the StableHLO
// specification as executable checks, then the element types StableHLO's
// interpreter tests vary.
// RUN: mpmd interpret -split-input-file %s | FileCheck %s

// CHECK: PASS: @batch_norm_inference_spec
func.func @batch_norm_inference_spec() {
  %operand = stablehlo.constant dense<[ [[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]] ]> : tensor<2x2x2xf64>
  %scale = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf64>
  %offset = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf64>
  %mean = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf64>
  %variance = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf64>
  %result = "stablehlo.batch_norm_inference"(%operand, %scale, %offset, %mean, %variance) {
    epsilon = 0.0 : f32,
    feature_index = 2 : i64
  } : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) -> tensor<2x2x2xf64>
  check.expect_almost_eq_const %result, dense<[ [[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]] ]> : tensor<2x2x2xf64>
  func.return
}

// -----

// CHECK: PASS: @batch_norm_training_spec
func.func @batch_norm_training_spec() {
  %operand = stablehlo.constant dense<[ [[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]] ]> : tensor<2x2x2xf64>
  %scale = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf64>
  %offset = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf64>
  %output, %batch_mean, %batch_var = "stablehlo.batch_norm_training"(%operand, %scale, %offset) {
    epsilon = 0.0 : f32,
    feature_index = 2 : i64
  } : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) ->
      (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  check.expect_almost_eq_const %output, dense<[ [[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]] ]> : tensor<2x2x2xf64>
  check.expect_almost_eq_const %batch_mean, dense<[2.0, 3.0]> : tensor<2xf64>
  check.expect_almost_eq_const %batch_var, dense<[1.0, 1.0]> : tensor<2xf64>
  func.return
}

// -----

// CHECK: PASS: @convolution_spec
func.func @convolution_spec() {
  %lhs = stablehlo.constant dense<[[ [ [1], [2], [5], [6] ], [ [3], [4], [7], [8] ], [ [10], [11], [14], [15] ], [ [12], [13], [16], [17] ] ]]> : tensor<1x4x4x1xi64>
  %rhs = stablehlo.constant dense<[ [[[1]], [[1]], [[1]]], [[[1]], [[1]], [[1]]], [[[1]], [[1]], [[1]]] ]> : tensor<3x3x1x1xi64>
  %result = "stablehlo.convolution"(%lhs, %rhs) {
    window_strides = array<i64: 4, 4>,
    padding = dense<0> : tensor<2x2xi64>,
    lhs_dilation = array<i64: 2, 2>,
    rhs_dilation = array<i64: 1, 1>,
    window_reversal = array<i1: false, false>,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    batch_group_count = 1 : i64,
    feature_group_count = 1 : i64,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
  } : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>
  check.expect_eq_const %result, dense<[[ [[10], [26]], [[46], [62]] ]]> : tensor<1x2x2x1xi64>
  func.return
}

// -----

// CHECK: PASS: @dot_general_spec
func.func @dot_general_spec() {
  %lhs = stablehlo.constant dense<[ [[1, 2], [3, 4]], [[5, 6], [7, 8]] ]> : tensor<2x2x2xi64>
  %rhs = stablehlo.constant dense<[ [[1, 0], [0, 1]], [[1, 0], [0, 1]] ]> : tensor<2x2x2xi64>
  %result = "stablehlo.dot_general"(%lhs, %rhs) {
    dot_dimension_numbers = #stablehlo.dot<
      lhs_batching_dimensions = [0],
      rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2],
      rhs_contracting_dimensions = [1]
    >,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>],
    algorithm = #stablehlo.dot_algorithm<
      lhs_precision_type = tf32,
      rhs_precision_type = tf32,
      accumulation_type = f32,
      lhs_component_count = 1,
      rhs_component_count = 1,
      num_primitive_operations = 1,
      allow_imprecise_accumulation = false
    >
  } : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>
  check.expect_eq_const %result, dense<[ [[1, 2], [3, 4]], [[5, 6], [7, 8]] ]> : tensor<2x2x2xi64>
  func.return
}

// -----

// CHECK: PASS: @fft_spec
func.func @fft_spec() {
  %operand = stablehlo.constant dense<[(1.0, 0.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0)]> : tensor<4xcomplex<f32>>
  %result = "stablehlo.fft"(%operand) {
    fft_type = #stablehlo<fft_type FFT>,
    fft_length = array<i64: 4>
  } : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  check.expect_almost_eq_const %result, dense<[(1.0, 0.0), (1.0, 0.0), (1.0, 0.0), (1.0, 0.0)]> : tensor<4xcomplex<f32>>
  func.return
}

// -----

// CHECK: PASS: @map_spec
func.func @map_spec() {
  %input0 = stablehlo.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>
  %input1 = stablehlo.constant dense<[[4, 5], [6, 7]]> : tensor<2x2xi64>
  %result = "stablehlo.map"(%input0, %input1) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.multiply %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {
    dimensions = array<i64: 0, 1>
  } : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  check.expect_eq_const %result, dense<[[0, 5], [12, 21]]> : tensor<2x2xi64>
  func.return
}

// -----

// CHECK: PASS: @reduce_spec
func.func @reduce_spec() {
  %input = stablehlo.constant dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>
  %init_value = stablehlo.constant dense<0> : tensor<i64>
  %result = "stablehlo.reduce"(%input, %init_value) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%0) : (tensor<i64>) -> ()
  }) {
    dimensions = array<i64: 1>
  } : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>
  check.expect_eq_const %result, dense<[15]> : tensor<1xi64>
  func.return
}

// -----

// CHECK: PASS: @reduce_window_spec
func.func @reduce_window_spec() {
  %input = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  %init_value = stablehlo.constant dense<0> : tensor<i64>
  %result = "stablehlo.reduce_window"(%input, %init_value) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%0) : (tensor<i64>) -> ()
  }) {
    window_dimensions = array<i64: 2, 1>,
    window_strides = array<i64: 4, 1>,
    base_dilations = array<i64: 2, 1>,
    window_dilations = array<i64: 3, 1>,
    padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>
  } : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  check.expect_eq_const %result, dense<[[0, 0], [3, 4]]> : tensor<2x2xi64>
  func.return
}

// -----

// CHECK: PASS: @select_and_scatter_spec
func.func @select_and_scatter_spec() {
  %operand = stablehlo.constant dense<[[1, 5], [2, 5], [3, 6], [4, 4]]> : tensor<4x2xi64>
  %source = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  %init_value = stablehlo.constant dense<0> : tensor<i64>
  %result = "stablehlo.select_and_scatter"(%operand, %source, %init_value) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = "stablehlo.compare"(%arg0, %arg1) {
        comparison_direction = #stablehlo<comparison_direction GE>
      } : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%0) : (tensor<i1>) -> ()
  }, {
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%0) : (tensor<i64>) -> ()
  }) {
    window_dimensions = array<i64: 3, 1>,
    window_strides = array<i64: 2, 1>,
    padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>
  } : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  check.expect_eq_const %result, dense<[[0, 0], [0, 0], [5, 14], [7, 0]]> : tensor<4x2xi64>
  func.return
}

// -----

// CHECK: PASS: @sort_spec
func.func @sort_spec() {
  %input0 = stablehlo.constant dense<[[1, 2, 3], [3, 2, 1]]> : tensor<2x3xi64>
  %input1 = stablehlo.constant dense<[[3, 2, 1], [1, 2, 3]]> : tensor<2x3xi64>
  %result0, %result1 = "stablehlo.sort"(%input0, %input1) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>, %arg2: tensor<i64>, %arg3: tensor<i64>):
      %predicate = "stablehlo.compare"(%arg0, %arg1) {
        comparison_direction = #stablehlo<comparison_direction GT>
      } : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%predicate) : (tensor<i1>) -> ()
  }) {
    dimension = 0 : i64,
    is_stable = true
  } : (tensor<2x3xi64>, tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>)
  check.expect_eq_const %result0, dense<[[3, 2, 3], [1, 2, 1]]> : tensor<2x3xi64>
  check.expect_eq_const %result1, dense<[[1, 2, 1], [3, 2, 3]]> : tensor<2x3xi64>
  func.return
}

// -----

// CHECK: PASS: @triangular_solve_spec
func.func @triangular_solve_spec() {
  %a = stablehlo.constant dense<[ [1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.0] ]> : tensor<3x3xf32>
  %b = stablehlo.constant dense<[ [2.0, 0.0, 0.0], [4.0, 8.0, 0.0], [6.0, 10.0, 12.0] ]> : tensor<3x3xf32>
  %result = "stablehlo.triangular_solve"(%a, %b) {
    left_side = true,
    lower = true,
    unit_diagonal = false,
    transpose_a = #stablehlo<transpose NO_TRANSPOSE>
  } : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const %result, dense<[ [2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0] ]> : tensor<3x3xf32>
  func.return
}

// -----

// dynamic_conv
// The spec's example lists input_spatial_dimensions = [0, 1], which repeats
// the batch dimension; the layout is [b, 0, 1, f].
// CHECK: PASS: @dynamic_conv_spec
func.func @dynamic_conv_spec() {
  %lhs = stablehlo.constant dense<[[ [[1], [2], [5], [6]], [[3], [4], [7], [8]], [[10], [11], [14], [15]], [[12], [13], [16], [17]] ]]> : tensor<1x4x4x1xi64>
  %rhs = stablehlo.constant dense<[ [[[1]], [[1]], [[1]]], [[[1]], [[1]], [[1]]], [[[1]], [[1]], [[1]]] ]> : tensor<3x3x1x1xi64>
  %padding = stablehlo.constant dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>
  %result = "stablehlo.dynamic_conv"(%lhs, %rhs, %padding) {
    window_strides = array<i64: 4, 4>,
    lhs_dilation = array<i64: 2, 2>,
    rhs_dilation = array<i64: 1, 1>,
    window_reversal = array<i1: false, false>,
    dimension_numbers = #stablehlo.conv<raw
      input_batch_dimension = 0,
      input_feature_dimension = 3,
      input_spatial_dimensions = [1, 2],
      kernel_input_feature_dimension = 2,
      kernel_output_feature_dimension = 3,
      kernel_spatial_dimensions = [0, 1],
      output_batch_dimension = 0,
      output_feature_dimension = 3,
      output_spatial_dimensions = [1, 2]
    >,
    feature_group_count = 1 : i64,
    batch_group_count = 1 : i64,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
  } : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>, tensor<2x2xi64>) -> tensor<1x2x2x1xi64>
  check.expect_eq_const %result, dense<[[ [[1], [5]], [[10], [14]] ]]> : tensor<1x2x2x1xi64>
  func.return
}

// -----

// cholesky
// The result has the operand's type (the spec's example lists f64).
// CHECK: PASS: @cholesky_spec
func.func @cholesky_spec() {
  %a = stablehlo.constant dense<[ [1.0, 2.0, 3.0], [2.0, 20.0, 26.0], [3.0, 26.0, 70.0] ]> : tensor<3x3xf32>
  %result = "stablehlo.cholesky"(%a) {
    lower = true
  } : (tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const %result, dense<[ [1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.0] ]> : tensor<3x3xf32>
  func.return
}

// -----

// CHECK: PASS: @batch_norm_grad_spec
func.func @batch_norm_grad_spec() {
  %operand = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf64>
  %scale = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf64>
  %mean = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf64>
  %variance = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf64>
  %grad_output = stablehlo.constant dense<0.1> : tensor<2x2x2xf64>
  %grad_operand, %grad_scale, %grad_offset =
  "stablehlo.batch_norm_grad"(%operand, %scale, %mean, %variance, %grad_output) {
    epsilon = 0.0 : f32,
    feature_index = 2 : i64
  } : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>,
       tensor<2x2x2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  check.expect_almost_eq_const %grad_operand, dense<0.0> : tensor<2x2x2xf64>
  check.expect_almost_eq_const %grad_scale, dense<[0.0, 0.0]> : tensor<2xf64>
  check.expect_almost_eq_const %grad_offset, dense<[0.4, 0.4]> : tensor<2xf64>
  func.return
}

// -----

// reduce of every element kind: unsigned maximum, i1 and/or, complex sums,
// f16 sums (exact in any order: the spec leaves the order open), a reduction over a zero-sized
// dimension (the init value), and a two-input argmax body.
// CHECK: PASS: @reduce_types
func.func @reduce_types() {
  %u = stablehlo.constant dense<[[3, 250], [7, 1]]> : tensor<2x2xui8>
  %u0 = stablehlo.constant dense<0> : tensor<ui8>
  %umax = stablehlo.reduce(%u init: %u0) applies stablehlo.maximum across dimensions = [1] : (tensor<2x2xui8>, tensor<ui8>) -> tensor<2xui8>
  check.expect_eq_const %umax, dense<[250, 7]> : tensor<2xui8>
  %p = stablehlo.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %all = stablehlo.reduce(%p init: %t) applies stablehlo.and across dimensions = [1] : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %all, dense<[false, true]> : tensor<2xi1>
  %z = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0), (0.5, 0.5)]> : tensor<3xcomplex<f64>>
  %z0 = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f64>>
  %zsum = stablehlo.reduce(%z init: %z0) applies stablehlo.add across dimensions = [0] : (tensor<3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
  check.expect_eq_const %zsum, dense<(4.5, -1.5)> : tensor<complex<f64>>
  %h = stablehlo.constant dense<[0.5, 0.25, 1024.0]> : tensor<3xf16>
  %h0 = stablehlo.constant dense<0.0> : tensor<f16>
  %hsum = stablehlo.reduce(%h init: %h0) applies stablehlo.add across dimensions = [0] : (tensor<3xf16>, tensor<f16>) -> tensor<f16>
  check.expect_eq_const %hsum, dense<1024.75> : tensor<f16>
  %e = stablehlo.constant dense<> : tensor<2x0xf32>
  %init = stablehlo.constant dense<-1.5> : tensor<f32>
  %esum = stablehlo.reduce(%e init: %init) applies stablehlo.add across dimensions = [1] : (tensor<2x0xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %esum, dense<-1.5> : tensor<2xf32>
  func.return
}

// -----

// CHECK: PASS: @reduce_argmax_two_inputs
func.func @reduce_argmax_two_inputs() {
  %values = stablehlo.constant dense<[[1.0, 9.0, 3.0], [7.0, 2.0, 7.0]]> : tensor<2x3xf32>
  %index = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %lowest = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %none = stablehlo.constant dense<-1> : tensor<i32>
  %r:2 = stablehlo.reduce(%values init: %lowest), (%index init: %none) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
    reducer(%av: tensor<f32>, %bv: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
      %gt = stablehlo.compare GT, %bv, %av : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = stablehlo.select %gt, %bv, %av : tensor<i1>, tensor<f32>
      %i = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
      stablehlo.return %v, %i : tensor<f32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[9.0, 7.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<[1, 0]> : tensor<2xi32>
  func.return
}

// -----

// sort: several inputs, a descending comparator, and TOTALORDER placing
// -0.0 before +0.0 and NaN last.
// CHECK: PASS: @sort_types
func.func @sort_types() {
  %x = stablehlo.constant dense<[0.0, 0x7FC00000, -0.0, -1.0, 2.0]> : tensor<5xf32>
  %r = "stablehlo.sort"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<5xf32>) -> tensor<5xf32>
  %bits = stablehlo.bitcast_convert %r : (tensor<5xf32>) -> tensor<5xi32>
  check.expect_eq_const %bits, dense<[-1082130432, -2147483648, 0, 1073741824, 2143289344]> : tensor<5xi32>
  %k = stablehlo.constant dense<[[3, 1, 2], [1, 3, 2]]> : tensor<2x3xui8>
  %v = stablehlo.constant dense<[[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0)], [(4.0, 0.0), (5.0, 0.0), (6.0, 0.0)]]> : tensor<2x3xcomplex<f32>>
  %s:2 = "stablehlo.sort"(%k, %v) ({
    ^bb0(%a: tensor<ui8>, %b: tensor<ui8>, %c: tensor<complex<f32>>, %d: tensor<complex<f32>>):
      %gt = stablehlo.compare GT, %a, %b : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
      stablehlo.return %gt : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<2x3xui8>, tensor<2x3xcomplex<f32>>) -> (tensor<2x3xui8>, tensor<2x3xcomplex<f32>>)
  check.expect_eq_const %s#0, dense<[[3, 2, 1], [3, 2, 1]]> : tensor<2x3xui8>
  check.expect_eq_const %s#1, dense<[[(1.0, 0.0), (3.0, 0.0), (2.0, 0.0)], [(5.0, 0.0), (6.0, 0.0), (4.0, 0.0)]]> : tensor<2x3xcomplex<f32>>
  func.return
}

// -----

// dot_general on integers of one width, on f16, and on complex, and with
// a result type wider than the operands.
// CHECK: PASS: @dot_general_types
func.func @dot_general_types() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %b = stablehlo.constant dense<[[100, 0], [0, 100]]> : tensor<2x2xi8>
  %wide = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x2xi32>
  check.expect_eq_const %wide, dense<[[100, 200], [300, 400]]> : tensor<2x2xi32>
  %h = stablehlo.constant dense<[[0.5, 1.0]]> : tensor<1x2xf16>
  %g = stablehlo.constant dense<[[2.0], [4.0]]> : tensor<2x1xf16>
  %hg = stablehlo.dot_general %h, %g, contracting_dims = [1] x [0] : (tensor<1x2xf16>, tensor<2x1xf16>) -> tensor<1x1xf16>
  check.expect_eq_const %hg, dense<[[5.0]]> : tensor<1x1xf16>
  %z = stablehlo.constant dense<[(1.0, 1.0), (0.0, 2.0)]> : tensor<2xcomplex<f32>>
  %w = stablehlo.constant dense<[(2.0, 0.0), (1.0, -1.0)]> : tensor<2xcomplex<f32>>
  %zw = stablehlo.dot_general %z, %w, contracting_dims = [0] x [0] : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<complex<f32>>
  check.expect_almost_eq_const %zw, dense<(4.0, 4.0)> : tensor<complex<f32>>
  %u = stablehlo.constant dense<[200, 100]> : tensor<2xui8>
  %uu = stablehlo.dot_general %u, %u, contracting_dims = [0] x [0] : (tensor<2xui8>, tensor<2xui8>) -> tensor<ui32>
  check.expect_eq_const %uu, dense<50000> : tensor<ui32>
  func.return
}

// -----

// triangular_solve on complex matrices: op(a) is a, its transpose or its
// adjoint (conjugate transpose); only the lower triangle is read.
// CHECK: PASS: @triangular_solve_complex
func.func @triangular_solve_complex() {
  %a = stablehlo.constant dense<[[(2.0, 0.0), (9.0, 9.0)], [(1.0, 1.0), (1.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %b = stablehlo.constant dense<[[(2.0, 2.0)], [(3.0, 1.0)]]> : tensor<2x1xcomplex<f64>>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xcomplex<f64>>, tensor<2x1xcomplex<f64>>) -> tensor<2x1xcomplex<f64>>
  check.expect_almost_eq_const %x, dense<[[(1.0, 1.0)], [(3.0, -1.0)]]> : tensor<2x1xcomplex<f64>>
  %t = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x2xcomplex<f64>>, tensor<2x1xcomplex<f64>>) -> tensor<2x1xcomplex<f64>>
  check.expect_almost_eq_const %t, dense<[[(0.0, -1.0)], [(3.0, 1.0)]]> : tensor<2x1xcomplex<f64>>
  %h = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x2xcomplex<f64>>, tensor<2x1xcomplex<f64>>) -> tensor<2x1xcomplex<f64>>
  check.expect_almost_eq_const %h, dense<[[(-1.0, 2.0)], [(3.0, 1.0)]]> : tensor<2x1xcomplex<f64>>
  %af = stablehlo.convert %a : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f32>>
  %r = stablehlo.constant dense<[[(1.0, 0.0), (0.0, 2.0)]]> : tensor<1x2xcomplex<f32>>
  %xr = "stablehlo.triangular_solve"(%af, %r) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xcomplex<f32>>, tensor<1x2xcomplex<f32>>) -> tensor<1x2xcomplex<f32>>
  check.expect_almost_eq_const %xr, dense<[[(1.5, -1.0), (0.0, 2.0)]]> : tensor<1x2xcomplex<f32>>
  func.return
}
