// mpmd run: seeded random inputs, outputs written as .npy and read back as
// the inputs of another run (so the files hold the printed values).
// RUN: rm -rf %t && mkdir -p %t

// RUN: mpmd run %s --random-inputs 7 --outputs %t/main | FileCheck %s --check-prefix=MAIN
// MAIN:      output 0: tensor<2x3xf32> min -1.27086 max 0.886033 mean 0.0367767 [0.8860326, 0.5988171, 0.19749713, 0.41693902, -0.60776615, -1.2708592]
// MAIN-NEXT: output 1: tensor<3xi32> min -3 max 1 mean -0.333333 [-3, 1, 1]
// MAIN-NOT:  output

// RUN: mpmd run %s --function half --inputs %t/main/output_0.npy | FileCheck %s --check-prefix=HALF
// HALF: output 0: tensor<2x3xf32> min -0.63543 max 0.443016 mean 0.0183884 [0.4430163, 0.29940856, 0.098748565, 0.20846951, -0.30388308, -0.6354296]

// The same seed gives the same inputs.
// RUN: mpmd run %s --random-inputs 7 --outputs %t/again
// RUN: cmp %t/main/output_0.npy %t/again/output_0.npy
// RUN: cmp %t/main/output_1.npy %t/again/output_1.npy

func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xi32>) -> (tensor<2x3xf32>, tensor<3xi32>) {
  %0 = stablehlo.add %a, %a : tensor<2x3xf32>
  %c = stablehlo.constant dense<1> : tensor<3xi32>
  %1 = stablehlo.add %b, %c : tensor<3xi32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<3xi32>
}

func.func @half(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = stablehlo.constant dense<0.5> : tensor<2x3xf32>
  %0 = stablehlo.multiply %x, %c : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// No arguments: no inputs needed; --print shows every value.
// RUN: mpmd run %s --function no_arguments | FileCheck %s --check-prefix=SHORT
// SHORT: output 0: tensor<20xi64> min 0 max 19 mean 9.5 [0, 1, 2, 3, 4, 5, ... (20 elements)]
// RUN: mpmd run %s --function no_arguments --print | FileCheck %s --check-prefix=PRINT
// PRINT: output 0: tensor<20xi64> min 0 max 19 mean 9.5 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
func.func @no_arguments() -> tensor<20xi64> {
  %0 = stablehlo.iota dim = 0 : tensor<20xi64>
  func.return %0 : tensor<20xi64>
}

// bf16 travels as '<f4': an output read back as a bf16 argument keeps its
// values (0.21972656^2 = 0.048279... rounds to 0.048339844 in bf16).
// RUN: mpmd run %s --function bf16_square --random-inputs 3 --outputs %t/bf16 | FileCheck %s --check-prefix=BF16
// BF16: output 0: tensor<3xbf16> min 0.0322266 max 0.219727 mean 0.107422 [0.21972656, 0.032226562, 0.0703125]
// RUN: mpmd run %s --function bf16_square --inputs %t/bf16/output_0.npy | FileCheck %s --check-prefix=BF16-AGAIN
// BF16-AGAIN: output 0: tensor<3xbf16> min 0.0010376 max 0.0483398 mean 0.0181071 [0.048339844, 0.0010375977, 0.0049438477]
func.func @bf16_square(%x: tensor<3xbf16>) -> tensor<3xbf16> {
  %0 = stablehlo.multiply %x, %x : tensor<3xbf16>
  func.return %0 : tensor<3xbf16>
}
