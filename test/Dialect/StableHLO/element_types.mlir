// Every element type of the spec parses and prints; stablehlo.complex and
// stablehlo.fft round-trip; their verifiers and the type constraints
// reject what the spec forbids.
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

// CHECK-LABEL: func.func @complex_and_fft
func.func @complex_and_fft(%re: tensor<4xf32>, %im: tensor<4xf32>, %x: tensor<3x8xf64>) {
  // CHECK: stablehlo.complex %arg0, %arg1 : tensor<4xcomplex<f32>>
  %0 = stablehlo.complex %re, %im : tensor<4xcomplex<f32>>
  // CHECK: stablehlo.complex %arg0, %arg1 : tensor<4xcomplex<f32>>
  %1 = stablehlo.complex %re, %im : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
  // CHECK: stablehlo.fft %0, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %2 = stablehlo.fft %0, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  // CHECK: stablehlo.fft %arg2, type = RFFT, length = [3, 8] : (tensor<3x8xf64>) -> tensor<3x5xcomplex<f64>>
  %3 = stablehlo.fft %x, type = RFFT, length = [3, 8] : (tensor<3x8xf64>) -> tensor<3x5xcomplex<f64>>
  // CHECK: stablehlo.fft %3, type = IRFFT, length = [8] : (tensor<3x5xcomplex<f64>>) -> tensor<3x8xf64>
  %4 = stablehlo.fft %3, type = IRFFT, length = [8] : (tensor<3x5xcomplex<f64>>) -> tensor<3x8xf64>
  // CHECK: stablehlo.fft %0, type = IFFT
  %5 = "stablehlo.fft"(%0) {fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 4>} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @f(%a: tensor<2xf80>) {
  // expected-error @+1 {{'stablehlo.add' op operand #0 must be ranked tensor of floating-point or pred (i1) or integer or complex type with 32-bit float or 64-bit float elements or quantized integer values, but got 'tensor<2xf80>'}}
  %0 = stablehlo.add %a, %a : tensor<2xf80>
  func.return
}

// -----

func.func @f(%a: tensor<2xcomplex<f16>>) {
  // expected-error @+1 {{'stablehlo.negate' op operand #0 must be ranked tensor of integer or floating-point or complex type with 32-bit float or 64-bit float elements or per-tensor quantized integer values, but got 'tensor<2xcomplex<f16>>'}}
  %0 = stablehlo.negate %a : tensor<2xcomplex<f16>>
  func.return
}

// -----

func.func @f(%a: tensor<2xf32>, %b: tensor<2xf64>) {
  // expected-error @+1 {{'stablehlo.complex' op requires the real and imaginary parts to have one element type, got 'f32' and 'f64'}}
  %0 = stablehlo.complex %a, %b : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xcomplex<f32>>
  func.return
}

// -----

func.func @f(%a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.complex' op requires a result of element type 'complex<f32>' for parts of 'f32', got 'complex<f64>'}}
  %0 = stablehlo.complex %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f64>>
  func.return
}

// -----

func.func @f(%a: tensor<2xf16>) {
  // expected-error @+1 {{'stablehlo.complex' op operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<2xf16>'}}
  %0 = stablehlo.complex %a, %a : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xcomplex<f32>>
  func.return
}

// -----

func.func @f(%a: tensor<2xf32>) {
  // expected-error @+1 {{expected a tensor of complex type, got 'tensor<2xf32>'}}
  %0 = stablehlo.complex %a, %a : tensor<2xf32>
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

// -----

func.func @f(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'stablehlo.fft' op requires 1 to 3 fft_length entries, got 0}}
  %0 = stablehlo.fft %a, type = FFT, length = [] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @f(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'stablehlo.fft' op has 2 fft_length entries for an operand of rank 1}}
  %0 = stablehlo.fft %a, type = FFT, length = [1, 4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @f(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'stablehlo.fft' op of type IFFT requires operand and result of one complex element type, got 'complex<f32>' and 'complex<f64>'}}
  %0 = stablehlo.fft %a, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f64>>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.fft' op of type RFFT requires a real operand and a result of its complex type, got 'f32' and 'complex<f64>'}}
  %0 = stablehlo.fft %a, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f64>>
  func.return
}

// -----

func.func @f(%a: tensor<3xcomplex<f32>>) {
  // expected-error @+1 {{'stablehlo.fft' op of type IRFFT requires a complex operand and a result of its part type, got 'complex<f32>' and 'complex<f32>'}}
  %0 = stablehlo.fft %a, type = IRFFT, length = [4] : (tensor<3xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @f(%a: tensor<2x6xf32>) {
  // expected-error @+1 {{'stablehlo.fft' op requires the trailing dimensions of the real operand 'tensor<2x6xf32>' to be fft_length [8]}}
  %0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<2x6xf32>) -> tensor<2x5xcomplex<f32>>
  func.return
}

// -----

func.func @f(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{'stablehlo.fft' op requires result dimension 1 to be 5, got 8}}
  %0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<2x8xf32>) -> tensor<2x8xcomplex<f32>>
  func.return
}

// -----

func.func @f(%a: tensor<2x4xcomplex<f32>>) {
  // expected-error @+1 {{'stablehlo.fft' op of type IRFFT requires the operand's last dimension to be 5 (result's / 2 + 1), got 4}}
  %0 = stablehlo.fft %a, type = IRFFT, length = [8] : (tensor<2x4xcomplex<f32>>) -> tensor<2x8xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{expected FFT, IFFT, RFFT or IRFFT, got 'DFT'}}
  %0 = stablehlo.fft %a, type = DFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}
