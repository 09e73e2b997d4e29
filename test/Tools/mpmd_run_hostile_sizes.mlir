// Types whose byte size or element count leaves int64 reach the runtime only
// to be refused, naming the type: no buffer sized by a wrapped count (random
// inputs, iota, constants), no silent run on an empty buffer.

// 2^62 f32 elements: 2^64 bytes.
// RUN: not mpmd run %s --function huge_argument --random-inputs 1 2>&1 | FileCheck %s --check-prefix=ARGUMENT
// ARGUMENT: mpmd_run_hostile_sizes.mlir:[[@LINE+2]]:26: error: the interpreter cannot hold a 'tensor<4611686018427387904xf32>': its size in bytes does not fit in 64 bits
// ARGUMENT-NOT: output
func.func @huge_argument(%x: tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32> {
  func.return %x : tensor<4611686018427387904xf32>
}

// 65536^4 elements: the count wraps to 0.
// RUN: not mpmd run %s --function huge_iota 2>&1 | FileCheck %s --check-prefix=IOTA
// IOTA: mpmd_run_hostile_sizes.mlir:[[@LINE+3]]:8: error: the interpreter cannot hold a 'tensor<65536x65536x65536x65536xf32>': its size in bytes does not fit in 64 bits
// IOTA-NOT: output
func.func @huge_iota() -> tensor<65536x65536x65536x65536xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<65536x65536x65536x65536xf32>
  func.return %0 : tensor<65536x65536x65536x65536xf32>
}

// RUN: not mpmd run %s --function huge_constant 2>&1 | FileCheck %s --check-prefix=CONSTANT
// CONSTANT: mpmd_run_hostile_sizes.mlir:[[@LINE+2]]:8: error: the interpreter cannot hold a 'tensor<65536x65536x65536x65536xi8>'
func.func @huge_constant() -> tensor<65536x65536x65536x65536xi8> {
  %0 = stablehlo.constant dense<1> : tensor<65536x65536x65536x65536xi8>
  func.return %0 : tensor<65536x65536x65536x65536xi8>
}

// A window larger than the operand has no position: nothing is selected or
// read, the result is the init value everywhere.
// RUN: mpmd run %s --function window_larger_than_operand --print | FileCheck %s --check-prefix=WINDOW
// WINDOW: output 0: tensor<2xf32> min 7 max 7 mean 7 [7, 7]
func.func @window_larger_than_operand() -> tensor<2xf32> {
  %x = stablehlo.constant dense<[1.0, 9.0]> : tensor<2xf32>
  %source = stablehlo.constant dense<> : tensor<0xf32>
  %init = stablehlo.constant dense<7.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %source, %init) <{window_dimensions = array<i64: 1000>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %d = stablehlo.subtract %a, %b : tensor<f32>
    stablehlo.return %d : tensor<f32>
  }) : (tensor<2xf32>, tensor<0xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// A window of 2^64 positions: its size wraps to 0 in any unchecked count.
// RUN: not mpmd run %s --function huge_window 2>&1 | FileCheck %s --check-prefix=HUGE-WINDOW
// HUGE-WINDOW: mpmd_run_hostile_sizes.mlir:[[@LINE+5]]:8: error: the window has more positions than fit in 64 bits
// HUGE-WINDOW-NOT: output
func.func @huge_window() -> tensor<0x0xf32> {
  %x = stablehlo.constant dense<1.0> : tensor<2x2xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 4294967296, 4294967296>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x2xf32>, tensor<f32>) -> tensor<0x0xf32>
  func.return %0 : tensor<0x0xf32>
}
