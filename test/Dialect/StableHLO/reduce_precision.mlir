// RUN: mpmd-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @round_trip
// CHECK: stablehlo.reduce_precision %arg0, format = e5m10 : tensor<4xf32>
// CHECK: stablehlo.reduce_precision %arg1, format = e8m0 : tensor<2x2xbf16>
// GENERIC: "stablehlo.reduce_precision"(%{{.*}}) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
func.func @round_trip(%arg0: tensor<4xf32>, %arg1: tensor<2x2xbf16>) -> (tensor<4xf32>, tensor<2x2xbf16>) {
  %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<4xf32>
  %1 = "stablehlo.reduce_precision"(%arg1) {exponent_bits = 8 : i32, mantissa_bits = 0 : i32} : (tensor<2x2xbf16>) -> tensor<2x2xbf16>
  return %0, %1 : tensor<4xf32>, tensor<2x2xbf16>
}

// -----

func.func @no_exponent_bits(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reduce_precision' op attribute 'exponent_bits' failed to satisfy constraint}}
  %0 = stablehlo.reduce_precision %arg0, format = e0m10 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @not_a_format(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected a format like e5m10, got 'm5e2'}}
  %0 = stablehlo.reduce_precision %arg0, format = m5e2 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @integers(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'stablehlo.reduce_precision' op operand #0 must be}}
  %0 = stablehlo.reduce_precision %arg0, format = e5m2 : tensor<4xi32>
  return %0 : tensor<4xi32>
}
