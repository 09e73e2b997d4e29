// Every element type of the spec parses and prints; the type constraints
// and bitcast_convert's verifier reject what the spec forbids.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @types
func.func @types(%a: tensor<2xi2>, %b: tensor<2xui2>, %c: tensor<2xi4>, %d: tensor<2xui4>,
                 %e: tensor<2xf8E4M3FN>, %f: tensor<2xf8E5M2>, %g: tensor<2xf8E4M3FNUZ>,
                 %h: tensor<2xf8E5M2FNUZ>, %i: tensor<2xf8E4M3B11FNUZ>, %j: tensor<2xf8E3M4>,
                 %k: tensor<2xf8E4M3>, %l: tensor<2xf8E8M0FNU>, %m: tensor<2xf4E2M1FN>,
                 %n: tensor<2xf6E2M3FN>, %o: tensor<2xf6E3M2FN>, %p: tensor<2xtf32>) {
  // CHECK: stablehlo.add %arg0, %arg0 : tensor<2xi2>
  %0 = stablehlo.add %a, %a : tensor<2xi2>
  // CHECK: stablehlo.multiply %arg3, %arg3 : tensor<2xui4>
  %1 = stablehlo.multiply %d, %d : tensor<2xui4>
  // CHECK: stablehlo.add %arg11, %arg11 : tensor<2xf8E8M0FNU>
  %2 = stablehlo.add %l, %l : tensor<2xf8E8M0FNU>
  // CHECK: stablehlo.convert %arg12 : (tensor<2xf4E2M1FN>) -> tensor<2xf6E3M2FN>
  %3 = stablehlo.convert %m : (tensor<2xf4E2M1FN>) -> tensor<2xf6E3M2FN>
  // CHECK: stablehlo.bitcast_convert %arg2 : (tensor<2xi4>) -> tensor<i8>
  %4 = stablehlo.bitcast_convert %c : (tensor<2xi4>) -> tensor<i8>
  // CHECK: stablehlo.constant dense<[1.000000e+00, 4.480000e+02]> : tensor<2xf8E4M3FN>
  %5 = stablehlo.constant dense<[1.0, 448.0]> : tensor<2xf8E4M3FN>
  // CHECK: stablehlo.exponential %arg15 : tensor<2xtf32>
  %6 = stablehlo.exponential %p : tensor<2xtf32>
  func.return
}

// -----

func.func @f(%a: tensor<2xf80>) {
  // expected-error @+1 {{'stablehlo.add' op operand #0 must be ranked tensor of floating-point or pred (i1) or integer or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<2xf80>'}}
  %0 = stablehlo.add %a, %a : tensor<2xf80>
  func.return
}

// -----

func.func @f(%a: tensor<2xcomplex<f16>>) {
  // expected-error @+1 {{'stablehlo.negate' op operand #0 must be ranked tensor of integer or floating-point or complex type with 32-bit float or 64-bit float elements values, but got 'tensor<2xcomplex<f16>>'}}
  %0 = stablehlo.negate %a : tensor<2xcomplex<f16>>
  func.return
}

// -----

func.func @f(%a: tensor<2xcomplex<f32>>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op cannot bitcast between complex and non-complex element types ('complex<f32>' to 'f64')}}
  %0 = stablehlo.bitcast_convert %a : (tensor<2xcomplex<f32>>) -> tensor<2xf64>
  func.return
}

// -----

func.func @f(%a: tensor<3xi4>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op cannot bitcast 'i4' to 'f6E2M3FN': 4 and 6 bits are not multiples of one another}}
  %0 = stablehlo.bitcast_convert %a : (tensor<3xi4>) -> tensor<2xf6E2M3FN>
  func.return
}
