// Quantized tensors: uniform_quantize / uniform_dequantize and the
// quantized forms of the ops, computed as the spec's quantize / dequantize /
// dequantize_op_quantize. Expected values are worked out by hand in the
// comments (f32 arithmetic; round half to even; clamp to the storage range).
// A quantized tensor's storage integers are read with bitcast_convert.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @quantize_per_tensor
func.func @quantize_per_tensor() {
  // x / 0.5 - 3 = [-3, -1, -0.5, -6.5, 197, -203, -2.5, -1.5], clamped to
  // [-128, 127] and rounded half to even.
  %x = stablehlo.constant dense<[0.0, 1.0, 1.25, -1.75, 100.0, -100.0, 0.25, 0.75]> : tensor<8xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<8xf32>) -> tensor<8x!quant.uniform<i8:f32, 0.5:-3>>
  %bits = stablehlo.bitcast_convert %q : (tensor<8x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<8xi8>
  check.expect_eq_const %bits, dense<[-3, -1, 0, -6, 127, -128, -2, -2]> : tensor<8xi8>
  // (q + 3) * 0.5
  %y = stablehlo.uniform_dequantize %q : (tensor<8x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<8xf32>
  check.expect_eq_const %y, dense<[0.0, 1.0, 1.5, -1.5, 65.0, -62.5, 0.5, 0.5]> : tensor<8xf32>
  func.return
}

// CHECK: PASS: @spec_examples_per_axis
func.func @spec_examples_per_axis() {
  // The spec's uniform_quantize and uniform_dequantize examples:
  // 4.0 / 0.1 - 30 = 10, 15.0 / 0.5 - 20 = 10.
  %x = stablehlo.constant dense<[4.0, 15.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>>
  %bits = stablehlo.bitcast_convert %q : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>>) -> tensor<2xi8>
  check.expect_eq_const %bits, dense<[10, 10]> : tensor<2xi8>
  %y = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>>) -> tensor<2xf32>
  check.expect_eq_const %y, dense<[4.0, 15.0]> : tensor<2xf32>
  // Requantized: 4.0 / 0.1 - 20 = 20, 15.0 / 0.2 - 30 = 45.
  %r = stablehlo.uniform_quantize %q : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-20, 0.2:-30}>>
  %rbits = stablehlo.bitcast_convert %r : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-20, 0.2:-30}>>) -> tensor<2xi8>
  check.expect_eq_const %rbits, dense<[20, 45]> : tensor<2xi8>
  // The same from a constant in the attribute-dictionary form.
  %c = stablehlo.constant() {value = dense<[10, 10]> : tensor<2xi8>} : () -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>>
  %cy = "stablehlo.uniform_dequantize"(%c) : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>>) -> tensor<2xf32>
  check.expect_eq_const %cy, dense<[4.0, 15.0]> : tensor<2xf32>
  func.return
}

// CHECK: PASS: @per_axis_inner_dimension
func.func @per_axis_inner_dimension() {
  // Column j uses scale 2^-j: [[1, 1], [2, 3]] / [1, 0.5] = [[1, 2], [2, 6]].
  %x = stablehlo.constant dense<[[1.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>
  %bits = stablehlo.bitcast_convert %q : (tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) -> tensor<2x2xi8>
  check.expect_eq_const %bits, dense<[[1, 2], [2, 6]]> : tensor<2x2xi8>
  func.return
}

// CHECK: PASS: @unsigned_and_narrowed_storage
func.func @unsigned_and_narrowed_storage() {
  // u8, scale 0.25, zero point 128: x * 4 + 128 = [124, 129.2, 288, -32],
  // clamped to [0, 255].
  %x = stablehlo.constant dense<[-1.0, 0.3, 40.0, -40.0]> : tensor<4xf32>
  %u = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<u8:f32, 0.25:128>>
  %ubits = stablehlo.bitcast_convert %u : (tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<4xui8>
  check.expect_eq_const %ubits, dense<[124, 129, 255, 0]> : tensor<4xui8>
  %uy = stablehlo.uniform_dequantize %u : (tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<4xf32>
  check.expect_eq_const %uy, dense<[-1.0, 0.25, 31.75, -32.0]> : tensor<4xf32>
  // i4 narrowed to [-7, 7]: -9 and 8 clamp, 3.5 and 2.5 round to even.
  %v = stablehlo.constant dense<[-9.0, 3.5, 2.5, 8.0, -0.5]> : tensor<5xf32>
  %n = stablehlo.uniform_quantize %v : (tensor<5xf32>) -> tensor<5x!quant.uniform<i4<-7:7>:f32, 1.0>>
  %nbits = stablehlo.bitcast_convert %n : (tensor<5x!quant.uniform<i4<-7:7>:f32, 1.0>>) -> tensor<5xi4>
  check.expect_eq_const %nbits, dense<[-7, 4, 2, 7, 0]> : tensor<5xi4>
  func.return
}

// CHECK: PASS: @f16_expressed
func.func @f16_expressed() {
  // The scale rounds to f16 (0.0999755859375): 1 / it = 10.0024 rounds to
  // 10; back, 10 * 0.0999755859375 = 1 - 2^-12, halfway between two f16
  // values, rounds to the even one, 1.0.
  %x = stablehlo.constant dense<[1.0]> : tensor<1xf16>
  %q = stablehlo.uniform_quantize %x : (tensor<1xf16>) -> tensor<1x!quant.uniform<i8:f16, 0.1>>
  %bits = stablehlo.bitcast_convert %q : (tensor<1x!quant.uniform<i8:f16, 0.1>>) -> tensor<1xi8>
  check.expect_eq_const %bits, dense<[10]> : tensor<1xi8>
  %y = stablehlo.uniform_dequantize %q : (tensor<1x!quant.uniform<i8:f16, 0.1>>) -> tensor<1xf16>
  check.expect_eq_const %y, dense<[1.0]> : tensor<1xf16>
  func.return
}

// CHECK: PASS: @constants_and_add
func.func @constants_and_add() {
  // lhs [2, 4, -6] * 0.5 = [1, 2, -3]; rhs ([5, -3, 9] - 1) * 0.25 =
  // [1, -1, 2]; the sum [2, 1, -1] / 0.1 - 5 = [15, 5, -15].
  %a = stablehlo.constant() <{value = dense<[2, 4, -6]> : tensor<3xi8>}> : () -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  %b = stablehlo.constant() <{value = dense<[5, -3, 9]> : tensor<3xi8>}> : () -> tensor<3x!quant.uniform<i8:f32, 0.25:1>>
  %sum = stablehlo.add %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<3x!quant.uniform<i8:f32, 0.1:-5>>
  %bits = stablehlo.bitcast_convert %sum : (tensor<3x!quant.uniform<i8:f32, 0.1:-5>>) -> tensor<3xi8>
  check.expect_eq_const %bits, dense<[15, 5, -15]> : tensor<3xi8>
  // maximum([1, 2, -3], [1, -1, 2]) = [1, 2, 2], at scale 0.5.
  %max = stablehlo.maximum %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  %maxbits = stablehlo.bitcast_convert %max : (tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3xi8>
  check.expect_eq_const %maxbits, dense<[2, 4, 4]> : tensor<3xi8>
  // Compared as floats: [1, 2, -3] > [1, -1, 2].
  %gt = stablehlo.compare GT, %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<3xi1>
  check.expect_eq_const %gt, dense<[false, true, false]> : tensor<3xi1>
  %eq = stablehlo.compare EQ, %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<3xi1>
  check.expect_eq_const %eq, dense<[true, false, false]> : tensor<3xi1>
  func.return
}

// CHECK: PASS: @unary_ops
func.func @unary_ops() {
  // Storage [0, 6, 2] with zero point 2 and scale 0.5 is [-1, 2, 0].
  %a = stablehlo.constant() <{value = dense<[0, 6, 2]> : tensor<3xi8>}> : () -> tensor<3x!quant.uniform<i8:f32, 0.5:2>>
  // |x| = [1, 2, 0] -> [4, 6, 2].
  %abs = stablehlo.abs %a : tensor<3x!quant.uniform<i8:f32, 0.5:2>>
  %absbits = stablehlo.bitcast_convert %abs : (tensor<3x!quant.uniform<i8:f32, 0.5:2>>) -> tensor<3xi8>
  check.expect_eq_const %absbits, dense<[4, 6, 2]> : tensor<3xi8>
  // -x = [1, -2, 0] -> [4, -2, 2].
  %neg = stablehlo.negate %a : tensor<3x!quant.uniform<i8:f32, 0.5:2>>
  %negbits = stablehlo.bitcast_convert %neg : (tensor<3x!quant.uniform<i8:f32, 0.5:2>>) -> tensor<3xi8>
  check.expect_eq_const %negbits, dense<[4, -2, 2]> : tensor<3xi8>
  // Every quantized value is finite.
  %finite = stablehlo.is_finite %a : (tensor<3x!quant.uniform<i8:f32, 0.5:2>>) -> tensor<3xi1>
  check.expect_eq_const %finite, dense<true> : tensor<3xi1>
  // iota quantizes its indices: [0, 1, 2, 3] / 0.5 + 1.
  %iota = stablehlo.iota dim = 0 : tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %iotabits = stablehlo.bitcast_convert %iota : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4xi8>
  check.expect_eq_const %iotabits, dense<[1, 3, 5, 7]> : tensor<4xi8>
  func.return
}

// CHECK: PASS: @dot_general
func.func @dot_general() {
  // lhs [[2, 4], [6, -2]] * 0.5 = [[1, 2], [3, -1]];
  // rhs [[4, 8], [-4, 12]] * 0.25 = [[1, 2], [-1, 3]];
  // lhs . rhs = [[-1, 8], [4, 3]], at scale 1.
  %lhs = stablehlo.constant() <{value = dense<[[2, 4], [6, -2]]> : tensor<2x2xi8>}> : () -> tensor<2x2x!quant.uniform<i8:f32, 0.5>>
  %rhs = stablehlo.constant() <{value = dense<[[4, 8], [-4, 12]]> : tensor<2x2xi8>}> : () -> tensor<2x2x!quant.uniform<i8:f32, 0.25>>
  %q = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  %qbits = stablehlo.bitcast_convert %q : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2xi8>
  check.expect_eq_const %qbits, dense<[[-1, 8], [4, 3]]> : tensor<2x2xi8>
  // Weight-only: a float lhs times the dequantized rhs.
  %f = stablehlo.constant dense<[[1.0, 2.0], [3.0, -1.0]]> : tensor<2x2xf32>
  %h = stablehlo.dot_general %f, %rhs, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x2xf32>
  check.expect_eq_const %h, dense<[[-1.0, 8.0], [4.0, 3.0]]> : tensor<2x2xf32>
  // A per-axis rhs with the same values: columns at scales 0.25 and 0.5.
  %axis = stablehlo.constant() <{value = dense<[[4, 4], [-4, 6]]> : tensor<2x2xi8>}> : () -> tensor<2x2x!quant.uniform<i8:f32:1, {0.25, 0.5}>>
  %p = stablehlo.dot_general %lhs, %axis, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32:1, {0.25, 0.5}>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  %pbits = stablehlo.bitcast_convert %p : (tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2xi8>
  check.expect_eq_const %pbits, dense<[[-1, 8], [4, 3]]> : tensor<2x2xi8>
  func.return
}

// CHECK: PASS: @reduce_and_layout
func.func @reduce_and_layout() {
  // Storage [3, 5, 7] at scale 0.5, zero point 1 is [1, 2, 3]; the body's
  // add quantizes after each step: 0 + 1 = 1 -> 3, 1 + 2 = 3 -> 7,
  // 3 + 3 = 6 -> 13 (adding the storage integers would give 16).
  %x = stablehlo.constant() <{value = dense<[3, 5, 7]> : tensor<3xi8>}> : () -> tensor<3x!quant.uniform<i8:f32, 0.5:1>>
  %zero = stablehlo.constant() <{value = dense<1> : tensor<i8>}> : () -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3x!quant.uniform<i8:f32, 0.5:1>>, tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  %sumbits = stablehlo.bitcast_convert %sum : (tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<i8>
  check.expect_eq_const %sumbits, dense<13> : tensor<i8>
  // Layout ops move the storage integers.
  %m = stablehlo.constant() <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>}> : () -> tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>
  %t = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>
  %y = stablehlo.uniform_dequantize %t : (tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x2xf32>
  check.expect_eq_const %y, dense<[[0.0, 1.0], [0.5, 1.5]]> : tensor<2x2xf32>
  func.return
}

// CHECK: PASS: @convolution_and_batch_norm
func.func @convolution_and_batch_norm() {
  // lhs [2, 4, 6] * 0.5 = [1, 2, 3] along one spatial dimension; kernel
  // [1, -1]: out[x] = in[x] - in[x + 1] = [-1, -1], at scale 0.25: [-4, -4].
  %lhs = stablehlo.constant() <{value = dense<[[[2], [4], [6]]]> : tensor<1x3x1xi8>}> : () -> tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>
  %rhs = stablehlo.constant() <{value = dense<[[[1]], [[-1]]]> : tensor<2x1x1xi8>}> : () -> tensor<2x1x1x!quant.uniform<i8:f32, 1.0>>
  %conv = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x1x!quant.uniform<i8:f32, 1.0>>) -> tensor<1x2x1x!quant.uniform<i8:f32, 0.25>>
  %convbits = stablehlo.bitcast_convert %conv : (tensor<1x2x1x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x2x1xi8>
  check.expect_eq_const %convbits, dense<[[[-4], [-4]]]> : tensor<1x2x1xi8>
  // scale 2, offset 1, mean 1, variance 4, epsilon 0:
  // 2 * (x - 1) / 2 + 1 = x, so [1, 2] at scale 0.25 is [4, 8].
  %x = stablehlo.constant() <{value = dense<[[2], [4]]> : tensor<2x1xi8>}> : () -> tensor<2x1x!quant.uniform<i8:f32, 0.5>>
  %scale = stablehlo.constant() <{value = dense<[4]> : tensor<1xi8>}> : () -> tensor<1x!quant.uniform<i8:f32, 0.5>>
  %offset = stablehlo.constant() <{value = dense<[2]> : tensor<1xi8>}> : () -> tensor<1x!quant.uniform<i8:f32, 0.5>>
  %mean = stablehlo.constant() <{value = dense<[2]> : tensor<1xi8>}> : () -> tensor<1x!quant.uniform<i8:f32, 0.5>>
  %var = stablehlo.constant() <{value = dense<[8]> : tensor<1xi8>}> : () -> tensor<1x!quant.uniform<i8:f32, 0.5>>
  %norm = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %var) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<2x1x!quant.uniform<i8:f32, 0.5>>, tensor<1x!quant.uniform<i8:f32, 0.5>>, tensor<1x!quant.uniform<i8:f32, 0.5>>, tensor<1x!quant.uniform<i8:f32, 0.5>>, tensor<1x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x1x!quant.uniform<i8:f32, 0.25>>
  %normbits = stablehlo.bitcast_convert %norm : (tensor<2x1x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x1xi8>
  check.expect_eq_const %normbits, dense<[[4], [8]]> : tensor<2x1xi8>
  func.return
}

// CHECK: PASS: @per_axis_layout
func.func @per_axis_layout() {
  // Column j of [[1, 2], [3, 4]] has scale 2^-j; transposed, row j keeps it:
  // [[1, 3], [2 * 0.5, 4 * 0.5]].
  %m = stablehlo.constant() <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>}> : () -> tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>
  %t = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 0.5}>>
  %y = stablehlo.uniform_dequantize %t : (tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 0.5}>>) -> tensor<2x2xf32>
  check.expect_eq_const %y, dense<[[1.0, 3.0], [1.0, 2.0]]> : tensor<2x2xf32>
  func.return
}

// CHECK: PASS: @per_axis_reshape
func.func @per_axis_reshape() {
  // Column j has scale 2^-j; a reshape that keeps the columns together moves
  // the quantization dimension with them (1 of 2x2 is 2 of 1x2x2, and 1 of
  // 2x2x1 after splitting nothing before it).
  %m = stablehlo.constant() <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>}> : () -> tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>
  %r = stablehlo.reshape %m : (tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) -> tensor<1x2x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>
  %y = stablehlo.uniform_dequantize %r : (tensor<1x2x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>) -> tensor<1x2x2xf32>
  check.expect_eq_const %y, dense<[[[1.0, 1.0], [3.0, 2.0]]]> : tensor<1x2x2xf32>
  %s = stablehlo.reshape %m : (tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) -> tensor<2x2x1x!quant.uniform<i8:f32:1, {1.0, 0.5}>>
  %z = stablehlo.uniform_dequantize %s : (tensor<2x2x1x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) -> tensor<2x2x1xf32>
  check.expect_eq_const %z, dense<[[[1.0], [1.0]], [[3.0], [2.0]]]> : tensor<2x2x1xf32>
  func.return
}

// add of a per-tensor and a per-axis operand into a per-axis result:
// lhs [[1, 2], [3, 4]] at scale 0.5 (storage [[2, 4], [6, 8]]); rhs the
// same values with columns at scales 0.5 and 0.25 (storage [[2, 8],
// [6, 16]]); the sum [[2, 4], [6, 8]] with columns at scales 0.5 and 0.25
// is stored as [[4, 16], [12, 32]]. Either operand order.
// CHECK: PASS: @add_per_tensor_and_per_axis
func.func @add_per_tensor_and_per_axis() {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %lhs = stablehlo.uniform_quantize %x : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5>>
  %rhs = stablehlo.uniform_quantize %x : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
  %sum = stablehlo.add %lhs, %rhs : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
  %bits = stablehlo.bitcast_convert %sum : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) -> tensor<2x2xi8>
  check.expect_eq_const %bits, dense<[[4, 16], [12, 32]]> : tensor<2x2xi8>
  %swapped = stablehlo.add %rhs, %lhs : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>, tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
  %dequantized = stablehlo.uniform_dequantize %swapped : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) -> tensor<2x2xf32>
  check.expect_eq_const %dequantized, dense<[[2.0, 4.0], [6.0, 8.0]]> : tensor<2x2xf32>
  func.return
}
