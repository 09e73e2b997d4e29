// The labels of an unpartitioned MPMD program: mpmd.named_computation runs
// its region on its operands and mpmd.call runs its callee, so the program
// runs on one device as the reference for partitioned runs.
// RUN: not mpmd interpret %s --split-input-file 2>&1 | FileCheck %s

// CHECK: PASS: @named_computations
func.func @named_computations() {
  %x = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %w = stablehlo.constant dense<3.0> : tensor<2xf32>
  %a:2 = mpmd.named_computation<"layer_0"> (%x, %w) (%in: tensor<2xf32>, %s: tensor<2xf32>) {
    %m = stablehlo.multiply %in, %s : tensor<2xf32>
    mpmd.return %m, %in : tensor<2xf32>, tensor<2xf32>
  } : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  check.expect_eq_const %a#0, dense<[3.0, -6.0]> : tensor<2xf32>
  check.expect_eq_const %a#1, dense<[1.0, -2.0]> : tensor<2xf32>
  // A backward computation, nested in another, using the outer results.
  %b = mpmd.named_computation<"layer_0"(1)> (%a#0) (%g: tensor<2xf32>) {
    %inner = mpmd.named_computation<"inner"> (%g) (%v: tensor<2xf32>) {
      %n = stablehlo.negate %v : tensor<2xf32>
      mpmd.return %n : tensor<2xf32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %s = stablehlo.add %inner, %g : tensor<2xf32>
    mpmd.return %s : tensor<2xf32>
  } : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const %b, dense<0.0> : tensor<2xf32>
  // The operands stay readable after the computation.
  check.expect_eq_const %w, dense<3.0> : tensor<2xf32>
  func.return
}

func.func private @microbatch(%x: tensor<2xf64>, %w: tensor<2xf64>) -> (tensor<f64>, tensor<2xf64>) {
  %p = mpmd.named_computation<"layer"> (%x, %w) (%a: tensor<2xf64>, %b: tensor<2xf64>) {
    %m = stablehlo.multiply %a, %b : tensor<2xf64>
    mpmd.return %m : tensor<2xf64>
  } : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %sum = stablehlo.reduce(%p init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<2xf64>, tensor<f64>) -> tensor<f64>
  func.return %sum, %p : tensor<f64>, tensor<2xf64>
}

// CHECK: PASS: @microbatch_calls
func.func @microbatch_calls() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
  %w = stablehlo.constant dense<[0.5, 2.0]> : tensor<2xf64>
  %x0 = stablehlo.slice %x [0:2] : (tensor<4xf64>) -> tensor<2xf64>
  %x1 = stablehlo.slice %x [2:4] : (tensor<4xf64>) -> tensor<2xf64>
  %r0:2 = mpmd.call @microbatch(%x0, %w) {call_counter = 0 : ui32} : (tensor<2xf64>, tensor<2xf64>) -> (tensor<f64>, tensor<2xf64>)
  %r1:2 = mpmd.call @microbatch(%x1, %w) {call_counter = 1 : ui32} : (tensor<2xf64>, tensor<2xf64>) -> (tensor<f64>, tensor<2xf64>)
  check.expect_eq_const %r0#0, dense<4.5> : tensor<f64>
  check.expect_eq_const %r0#1, dense<[0.5, 4.0]> : tensor<2xf64>
  check.expect_eq_const %r1#0, dense<9.5> : tensor<f64>
  check.expect_eq_const %r1#1, dense<[1.5, 8.0]> : tensor<2xf64>
  func.return
}

// -----

// An op the interpreter cannot run inside a named computation is an error at
// that op; the function fails.
func.func @unsupported_inside() {
  %x = stablehlo.constant dense<1.0> : tensor<2xf32>
  %r = mpmd.named_computation<"f"> (%x) (%in: tensor<2xf32>) {
    // CHECK: mpmd_ops.mlir:{{[0-9]+}} offset :{{[0-9]+}}:10: error: 'stablehlo.custom_call' target @no_such_target is not supported by the interpreter
    %p = stablehlo.custom_call @no_such_target() : () -> tensor<ui32>
    mpmd.return %in : tensor<2xf32>
  } : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}
// CHECK: FAIL: @unsupported_inside: cannot be interpreted (see the error above)
