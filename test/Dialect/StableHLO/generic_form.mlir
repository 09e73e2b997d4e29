// Generic form: properties print as `<{...}>` with upstream's attribute
// syntax, and old-style `{...}` attribute dictionaries parse too.
// RUN: mpmd-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: mpmd-opt %s | FileCheck %s --check-prefix=PRETTY
// RUN: mpmd-opt %s -mlir-print-op-generic | mpmd-opt -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

func.func @generic(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %s: tensor<2xui64>) {
  // Old-style attribute dictionaries.
  // GENERIC: %[[C:.*]] = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // PRETTY: %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %c = "stablehlo.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  // PRETTY: %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %c2 = stablehlo.constant {value = dense<2.0> : tensor<f32>}
  // GENERIC: "stablehlo.compare"(%{{.*}}, %{{.*}}) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  // PRETTY: stablehlo.compare LT, %arg0, %arg0, FLOAT : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  %0 = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  // GENERIC: "stablehlo.broadcast_in_dim"(%[[C]]) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4xf32>
  // PRETTY: stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
  %1 = "stablehlo.broadcast_in_dim"(%c) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x4xf32>
  // GENERIC: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>, dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}> : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  // PRETTY: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  // GENERIC: "stablehlo.slice"(%{{.*}}) <{limit_indices = array<i64: 2, 4>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<2x4xf32>) -> tensor<2x2xf32>
  // PRETTY: stablehlo.slice %arg0 [0:2, 1:4:2] : (tensor<2x4xf32>) -> tensor<2x2xf32>
  %3 = "stablehlo.slice"(%a) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 4>, strides = array<i64: 1, 2>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  // GENERIC: "stablehlo.rng_bit_generator"(%{{.*}}) <{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  // PRETTY: stablehlo.rng_bit_generator %arg2, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %4:2 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  // GENERIC: "stablehlo.reduce"(%{{.*}}, %[[C]]) <{dimensions = array<i64: 1>}> ({
  // GENERIC-NEXT: ^bb0(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>):
  // GENERIC-NEXT: "stablehlo.add"(%[[X]], %[[Y]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // PRETTY: stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  %5 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  // GENERIC: "stablehlo.custom_call"(%{{.*}}) <{call_target_name = "foo", has_side_effect = true}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
  // PRETTY: stablehlo.custom_call @foo(%arg0) {has_side_effect = true} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %6 = "stablehlo.custom_call"(%a) {call_target_name = "foo", has_side_effect = true} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// Element types: every one JAX uses parses, prints and verifies.
// PRETTY-LABEL: func.func @element_types
func.func @element_types(%f64: tensor<2xf64>, %f16: tensor<2xf16>, %bf16: tensor<2xbf16>, %i1: tensor<2xi1>, %i8: tensor<2xi8>, %i16: tensor<2xi16>, %i64: tensor<2xi64>, %ui8: tensor<2xui8>, %ui32: tensor<2xui32>, %ui64: tensor<2xui64>) {
  // PRETTY: stablehlo.add %arg0, %arg0 : tensor<2xf64>
  %0 = stablehlo.add %f64, %f64 : tensor<2xf64>
  // PRETTY: stablehlo.multiply %arg1, %arg1 : tensor<2xf16>
  %1 = stablehlo.multiply %f16, %f16 : tensor<2xf16>
  // PRETTY: stablehlo.maximum %arg2, %arg2 : tensor<2xbf16>
  %2 = stablehlo.maximum %bf16, %bf16 : tensor<2xbf16>
  // PRETTY: stablehlo.and %arg3, %arg3 : tensor<2xi1>
  %3 = stablehlo.and %i1, %i1 : tensor<2xi1>
  // PRETTY: stablehlo.subtract %arg4, %arg4 : tensor<2xi8>
  %4 = stablehlo.subtract %i8, %i8 : tensor<2xi8>
  // PRETTY: stablehlo.divide %arg5, %arg5 : tensor<2xi16>
  %5 = stablehlo.divide %i16, %i16 : tensor<2xi16>
  // PRETTY: stablehlo.remainder %arg6, %arg6 : tensor<2xi64>
  %6 = stablehlo.remainder %i64, %i64 : tensor<2xi64>
  // PRETTY: stablehlo.xor %arg7, %arg7 : tensor<2xui8>
  %7 = stablehlo.xor %ui8, %ui8 : tensor<2xui8>
  // PRETTY: stablehlo.shift_right_logical %arg8, %arg8 : tensor<2xui32>
  %8 = stablehlo.shift_right_logical %ui32, %ui32 : tensor<2xui32>
  // PRETTY: stablehlo.compare GE, %arg9, %arg9, UNSIGNED : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
  %9 = stablehlo.compare GE, %ui64, %ui64, UNSIGNED : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
  // PRETTY: stablehlo.convert %arg0 : (tensor<2xf64>) -> tensor<2xbf16>
  %10 = stablehlo.convert %f64 : (tensor<2xf64>) -> tensor<2xbf16>
  // PRETTY: stablehlo.constant dense<[1, 2]> : tensor<2xui8>
  %11 = stablehlo.constant dense<[1, 2]> : tensor<2xui8>
  // PRETTY: stablehlo.constant dense<0xFC00> : tensor<f16>
  %12 = stablehlo.constant dense<0xFC00> : tensor<f16>
  // PRETTY: stablehlo.bitcast_convert %arg7 : (tensor<2xui8>) -> tensor<2xi8>
  %13 = stablehlo.bitcast_convert %ui8 : (tensor<2xui8>) -> tensor<2xi8>
  // PRETTY: stablehlo.iota dim = 0 : tensor<4xbf16>
  %14 = stablehlo.iota dim = 0 : tensor<4xbf16>
  return
}
