// Quantized element types (`!quant.uniform`), uniform_quantize,
// uniform_dequantize, quantized constants and the quantized forms of the ops
// the spec allows: what verifies and what each spec constraint rejects.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @quantize_dequantize
// CHECK: stablehlo.uniform_quantize %arg0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK: stablehlo.uniform_quantize %{{.*}} : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4x!quant.uniform<i4:f32, 2.500000e-01>>
// CHECK: stablehlo.uniform_dequantize %{{.*}} : (tensor<4x!quant.uniform<i4:f32, 2.500000e-01>>) -> tensor<4xf32>
func.func @quantize_dequantize(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  %1 = "stablehlo.uniform_quantize"(%0) : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4x!quant.uniform<i4:f32, 0.25>>
  %2 = stablehlo.uniform_dequantize %1 : (tensor<4x!quant.uniform<i4:f32, 0.25>>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Per-axis types, unsigned and narrowed storage, other expressed types.
// CHECK-LABEL: func.func @storage_kinds
func.func @storage_kinds(%arg0: tensor<2x3xf32>, %arg1: tensor<3xbf16>) {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:-1, 0.2:2, 0.3}>>
  %1 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<u8:f32, 0.5:128>>
  %2 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i4<-7:7>:f32, 1.0>>
  %3 = stablehlo.uniform_quantize %arg1 : (tensor<3xbf16>) -> tensor<3x!quant.uniform<i16:bf16, 0.125:7>>
  %4 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i2:f32, 2.0>>
  %5 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i32:f32, 1.0e-3>>
  return
}

// -----

// Quantized constants list their storage integers; printed in the form
// upstream uses, which parses back.
// CHECK-LABEL: func.func @constants
// CHECK: stablehlo.constant dense<[1, -2]> : tensor<2xi8> : () -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK: stablehlo.constant dense<[3, 4]> : tensor<2xi8> : () -> tensor<2x!quant.uniform<i8:f32:0, {1.000000e-01,2.000000e-01}>>
// CHECK: stablehlo.constant dense<7> : tensor<2xi4> : () -> tensor<2x!quant.uniform<u4:f32, 1.000000e+00:8>>
func.func @constants() {
  %0 = stablehlo.constant() <{value = dense<[1, -2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 0.5:-3>>
  %1 = "stablehlo.constant"() {value = dense<[3, 4]> : tensor<2xi8>} : () -> tensor<2x!quant.uniform<i8:f32:0, {0.1, 0.2}>>
  %2 = stablehlo.constant dense<7> : tensor<2xi4> : () -> tensor<2x!quant.uniform<u4:f32, 1.0:8>>
  return
}

// -----

// The elementwise ops take operands and results of one storage and
// expressed type whose scales and zero points may differ.
// CHECK-LABEL: func.func @elementwise
// CHECK: stablehlo.add %arg0, %arg1 : (tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<3x!quant.uniform<i8:f32, 2.500000e-01:1>>) -> tensor<3x!quant.uniform<i8:f32, 1.000000e-01:-5>>
func.func @elementwise(%a: tensor<3x!quant.uniform<i8:f32, 0.5>>, %b: tensor<3x!quant.uniform<i8:f32, 0.25:1>>, %p: tensor<3xi1>) {
  %0 = stablehlo.add %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<3x!quant.uniform<i8:f32, 0.1:-5>>
  %1 = stablehlo.multiply %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  %2 = stablehlo.tanh %a : (tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x!quant.uniform<i8:f32, 0.01>>
  %3 = stablehlo.abs %a : tensor<3x!quant.uniform<i8:f32, 0.5>>
  %4 = stablehlo.compare GT, %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<3xi1>
  %5 = stablehlo.select %p, %a, %b : (tensor<3xi1>, tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  %6 = stablehlo.is_finite %a : (tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3xi1>
  %7 = stablehlo.iota dim = 0 : tensor<3x!quant.uniform<i8:f32, 0.5>>
  %8 = stablehlo.reshape %a : (tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x3x!quant.uniform<i8:f32, 0.5>>
  %9 = stablehlo.bitcast_convert %a : (tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3xi8>
  return
}

// -----

// dot_general: quantized lhs, rhs and result, or a float lhs and result
// with a quantized rhs (weight-only quantization); per-axis rhs along a
// non-contracting dimension.
// CHECK-LABEL: func.func @dot_general
func.func @dot_general(%q: tensor<2x2x!quant.uniform<i8:f32, 0.5>>, %f: tensor<2x2xf32>,
                       %w: tensor<2x2x!quant.uniform<i8:f32, 0.25>>,
                       %wa: tensor<2x2x!quant.uniform<i8:f32:1, {0.25, 0.5}>>) {
  %0 = stablehlo.dot_general %q, %w, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  %1 = stablehlo.dot_general %f, %w, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<2x2xf32>
  %2 = stablehlo.dot_general %q, %wa, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32:1, {0.25, 0.5}>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @storage_width_not_in_spec(%arg0: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.uniform_quantize' op result #0 must be ranked tensor of quantized integer values}}
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<2xf32>) -> tensor<2x!quant.uniform<i3:f32, 1.0>>
  return
}

// -----

func.func @zero_point_outside_storage_range(%arg0: tensor<2xf32>) {
  // (C7) storage_min <= zero_point <= storage_max.
  // expected-error @+1 {{'stablehlo.uniform_quantize' op result #0 must be ranked tensor of quantized integer values}}
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8<-8:7>:f32, 1.0:9>>
  return
}

// -----

func.func @quantization_dimension_past_rank(%arg0: tensor<2xf32>) {
  // (C12) quantization_dimension < rank.
  // expected-error @+1 {{'stablehlo.uniform_quantize' op result #0 must be ranked tensor of quantized integer values}}
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:1, {0.1, 0.2}>>
  return
}

// -----

func.func @scales_do_not_match_dimension(%arg0: tensor<3xf32>) {
  // (C13) dim(quantization_dimension) = size(scales).
  // expected-error @+1 {{'stablehlo.uniform_quantize' op result #0 must be ranked tensor of quantized integer values}}
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32:0, {0.1, 0.2}>>
  return
}

// -----

func.func @quantize_other_expressed_type(%arg0: tensor<2xf16>) {
  // expected-error @+1 {{'stablehlo.uniform_quantize' op requires the result's expressed type ('f32') to be the operand's element type ('f16') (C2)}}
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<2xf16>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @requantize_other_expressed_type(%arg0: tensor<2x!quant.uniform<i8:f16, 1.0>>) {
  // expected-error @+1 {{'stablehlo.uniform_quantize' op requires the result's expressed type ('f32') to be the operand's expressed type ('f16') (C2)}}
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<2x!quant.uniform<i8:f16, 1.0>>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @quantize_integers(%arg0: tensor<2xi32>) {
  // expected-error @+1 {{'stablehlo.uniform_quantize' op operand #0 must be ranked tensor of}}
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<2xi32>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @quantize_shape(%arg0: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.uniform_quantize' op requires the same shape for all operands and results}}
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<3xf32>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @dequantize_other_type(%arg0: tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  // (C2) the result has the expressed type.
  // expected-error @+1 {{'stablehlo.uniform_dequantize' op result element type 'f16' does not match expected 'f32'}}
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2xf16>
  return
}

// -----

func.func @dequantize_floats(%arg0: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.uniform_dequantize' op operand #0 must be ranked tensor of quantized integer values}}
  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @add_quantized_and_float(%a: tensor<3x!quant.uniform<i8:f32, 0.5>>, %b: tensor<3xf32>) {
  // (C2) all of lhs, rhs and result quantized.
  // expected-error @+1 {{'stablehlo.add' op requires the same element type for all operands}}
  %0 = stablehlo.add %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  return
}

// -----

func.func @add_other_storage(%a: tensor<3x!quant.uniform<i8:f32, 0.5>>, %b: tensor<3x!quant.uniform<i16:f32, 0.5>>) {
  // (C3) one storage type.
  // expected-error @+1 {{'stablehlo.add' op requires the same element type for all operands}}
  %0 = stablehlo.add %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i16:f32, 0.5>>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  return
}

// -----

func.func @add_other_expressed(%a: tensor<3x!quant.uniform<i8:f32, 0.5>>, %b: tensor<3x!quant.uniform<i8:f32, 0.5>>) {
  // (C4) one expressed type.
  // expected-error @+1 {{'stablehlo.add' op requires the same element type for all operands and results, but operand #0 has type 'tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>' and the result has 'tensor<3x!quant.uniform<i8:f16, 5.000000e-01>>'}}
  %0 = stablehlo.add %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x!quant.uniform<i8:f16, 0.5>>
  return
}

// -----

// add mixes per-tensor and per-axis operands (C5-C7): the result is
// per-axis along the per-axis operand's dimension; the inferred type is
// that operand's.
// CHECK-LABEL: func.func @add_per_tensor_and_per_axis
// CHECK: stablehlo.add %arg0, %arg1 : (tensor<2x2x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<2x2x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {1.000000e+00,2.000000e+00}>>
// CHECK: stablehlo.add %arg1, %arg0 : (tensor<2x2x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01}>>, tensor<2x2x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01}>>
func.func @add_per_tensor_and_per_axis(%a: tensor<2x2x!quant.uniform<i8:f32, 0.5>>, %b: tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) {
  %0 = stablehlo.add %a, %b : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>
  %1 = "stablehlo.add"(%b, %a) : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>, tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
  return
}

// -----

func.func @add_per_tensor_into_per_axis(%a: tensor<2x2x!quant.uniform<i8:f32, 0.5>>) {
  // (C5) a per-axis result needs a per-axis operand.
  // expected-error @+1 {{'stablehlo.add' op requires the same element type for all operands and results, but operand #0 has type 'tensor<2x2x!quant.uniform<i8:f32, 5.000000e-01>>' and the result has 'tensor<2x2x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01}>>'}}
  %0 = "stablehlo.add"(%a, %a) : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
  return
}

// -----

func.func @add_per_axis_into_per_tensor(%a: tensor<2x2x!quant.uniform<i8:f32, 0.5>>, %b: tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) {
  // (C5) a per-axis operand needs a per-axis result.
  // expected-error @+1 {{'stablehlo.add' op requires the same element type for all operands and results, but operand #1 has type 'tensor<2x2x!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01}>>' and the result has 'tensor<2x2x!quant.uniform<i8:f32, 5.000000e-01>>'}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5>>
  return
}

// -----

func.func @add_other_quantization_dimension(%a: tensor<2x2x!quant.uniform<i8:f32, 0.5>>, %b: tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) {
  // (C7) the per-axis operand's quantization_dimension is the result's.
  // expected-error @+1 {{'stablehlo.add' op requires the same element type for all operands and results, but operand #0 has type 'tensor<2x2x!quant.uniform<i8:f32, 5.000000e-01>>' and the result has 'tensor<2x2x!quant.uniform<i8:f32:0, {5.000000e-01,2.500000e-01}>>'}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  return
}

// -----

func.func @subtract_per_axis(%a: tensor<2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) {
  // subtract takes per-tensor quantized tensors only.
  // expected-error @+1 {{'stablehlo.subtract' op operand #0 must be ranked tensor of}}
  %0 = stablehlo.subtract %a, %a : tensor<2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  return
}

// -----

func.func @bitwise_on_quantized(%a: tensor<2x!quant.uniform<i8:f32, 0.5>>) {
  // expected-error @+1 {{'stablehlo.and' op operand #0 must be ranked tensor of}}
  %0 = stablehlo.and %a, %a : tensor<2x!quant.uniform<i8:f32, 0.5>>
  return
}

// -----

func.func @convert_quantized(%a: tensor<2x!quant.uniform<i8:f32, 0.5>>) {
  // expected-error @+1 {{'stablehlo.convert' op does not convert quantized tensors ('tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>'): use stablehlo.uniform_quantize or stablehlo.uniform_dequantize}}
  %0 = stablehlo.convert %a : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf32>
  return
}

// -----

func.func @constant_not_storage_width() {
  // expected-error @+1 {{'stablehlo.constant' op value type 'tensor<2xi16>' must be the storage type of result type 'tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>' (integers of 8 bits, same shape)}}
  %0 = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi16>}> : () -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  return
}

// -----

func.func @constant_float_values() {
  // expected-error @+1 {{'stablehlo.constant' op value type 'tensor<2xf32>' must be the storage type of result type}}
  %0 = stablehlo.constant() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  return
}

// -----

func.func @dot_general_float_rhs(%q: tensor<2x2x!quant.uniform<i8:f32, 0.5>>, %f: tensor<2x2xf32>) {
  // (C14) the rhs is quantized.
  // expected-error @+1 {{'stablehlo.dot_general' op with quantized tensors requires a quantized rhs and either a quantized lhs and result or float ones}}
  %0 = stablehlo.dot_general %q, %f, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @dot_general_rhs_zero_point(%q: tensor<2x2x!quant.uniform<i8:f32, 0.5>>, %w: tensor<2x2x!quant.uniform<i8:f32, 0.5:3>>) {
  // (C15)
  // expected-error @+1 {{'stablehlo.dot_general' op requires the rhs zero points to be 0}}
  %0 = stablehlo.dot_general %q, %w, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @dot_general_rhs_axis_contracted(%q: tensor<2x2x!quant.uniform<i8:f32, 0.5>>, %w: tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) {
  // (C16)
  // expected-error @+1 {{'stablehlo.dot_general' op requires the rhs quantization dimension 0 not to be a contracting dimension}}
  %0 = stablehlo.dot_general %q, %w, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @dot_general_storage(%q: tensor<2x2x!quant.uniform<i8:f32, 0.5>>, %w: tensor<2x2x!quant.uniform<i16:f32, 0.5>>) {
  // (C17)
  // expected-error @+1 {{'stablehlo.dot_general' op requires the lhs and rhs storage types to match}}
  %0 = stablehlo.dot_general %q, %w, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i16:f32, 0.5>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @dot_general_per_axis_result(%q: tensor<2x2x!quant.uniform<i8:f32, 0.5>>, %w: tensor<2x2x!quant.uniform<i8:f32, 0.5>>) {
  // (C19)
  // expected-error @+1 {{'stablehlo.dot_general' op requires a per-tensor quantized result for a per-tensor quantized rhs}}
  %0 = stablehlo.dot_general %q, %w, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>
  return
}

// -----

func.func @dot_general_hybrid_types(%f: tensor<2x2xf16>, %w: tensor<2x2x!quant.uniform<i8:f32, 0.5>>) {
  // (C20)
  // expected-error @+1 {{'stablehlo.dot_general' op with a float lhs requires the lhs and result element types to be the rhs's expressed type 'f32', got 'f16' and 'f32'}}
  %0 = stablehlo.dot_general %f, %w, contracting_dims = [1] x [0] : (tensor<2x2xf16>, tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2xf32>
  return
}

// -----

// CHECK-LABEL: func.func @convolution
func.func @convolution(%q: tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>, %f: tensor<1x3x1xf32>,
                       %w: tensor<2x1x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>) {
  %0 = stablehlo.convolution(%q, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>) -> tensor<1x2x2x!quant.uniform<i8:f32:2, {0.25, 0.5}>>
  %1 = stablehlo.convolution(%f, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1xf32>, tensor<2x1x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>) -> tensor<1x2x2xf32>
  return
}

// -----

func.func @convolution_rhs_axis(%q: tensor<1x3x2x!quant.uniform<i8:f32, 0.5>>, %w: tensor<2x2x1x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) {
  // (C29) a per-axis rhs is quantized along the kernel output features.
  // expected-error @+1 {{'stablehlo.convolution' op requires the rhs quantization dimension 1 to be the kernel output feature dimension 2}}
  %0 = stablehlo.convolution(%q, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x1x!quant.uniform<i8:f32:1, {1.0, 0.5}>>) -> tensor<1x2x1x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @convolution_result_axis(%q: tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>, %w: tensor<2x1x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>) {
  // (C30) a per-axis result is quantized along the output features.
  // expected-error @+1 {{'stablehlo.convolution' op requires the result quantization dimension 1 to be the output feature dimension 2}}
  %0 = stablehlo.convolution(%q, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>) -> tensor<1x2x2x!quant.uniform<i8:f32:1, {0.25, 0.5}>>
  return
}

// -----

// A per-axis quantization dimension moves with transpose and
// broadcast_in_dim (a size-1 axis repeats its scale).
// CHECK-LABEL: func.func @per_axis_layout
func.func @per_axis_layout(%a: tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>,
                           %b: tensor<1x!quant.uniform<i8:f32:0, {0.5:1}>>) {
  // CHECK: stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {1.000000e-01,2.000000e-01,3.000000e-01}>>
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {0.1, 0.2, 0.3}>>
  %1 = stablehlo.broadcast_in_dim %a, dims = [1, 2] : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<4x2x3x!quant.uniform<i8:f32:2, {0.1, 0.2, 0.3}>>
  %2 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<1x!quant.uniform<i8:f32:0, {0.5:1}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1, 0.5:1, 0.5:1}>>
  return
}

// -----

func.func @transpose_keeps_axis(%a: tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) {
  // (C4) the axis must follow the permutation.
  // expected-error @+1 {{'stablehlo.transpose' op result element type}}
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.1, 0.2}>>
  return
}

// -----

func.func @broadcast_other_axis(%a: tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op result element type '!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>' must be the operand's '!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>' quantized along dimension 2 (C6)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 2] : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<2x3x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>
  return
}

// -----

func.func @broadcast_other_scales(%b: tensor<1x!quant.uniform<i8:f32:0, {0.5:1}>>) {
  // (C6) a size-1 axis repeats its one scale and zero point.
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op result element type}}
  %0 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<1x!quant.uniform<i8:f32:0, {0.5:1}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5:1, 0.25:1}>>
  return
}
