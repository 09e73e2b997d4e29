// What mpmd interpret cannot run is an error at the op, naming it; the
// other functions and chunks still run, and the exit code is 1.
// RUN: not mpmd interpret %s --split-input-file 2>&1 | FileCheck %s

func.func @unsupported_op() {
  %x = stablehlo.constant dense<[3.0, 1.0]> : tensor<2xf32>
  // CHECK: interpret_errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: 'stablehlo.custom_call' target @no_such_target is not supported by the interpreter
  %p = stablehlo.custom_call @no_such_target() : () -> tensor<ui32>
  func.return
}
// CHECK: FAIL: @unsupported_op: cannot be interpreted (see the error above)

// CHECK: PASS: @still_runs
func.func @still_runs() {
  func.return
}

// -----

func.func @complex_clamp() {
  %c = stablehlo.constant dense<(1.0, 2.0)> : tensor<complex<f32>>
  // CHECK: interpret_errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: 'stablehlo.clamp' on complex tensors is not supported by the interpreter
  %d = stablehlo.clamp %c, %c, %c : tensor<complex<f32>>
  func.return
}
// CHECK: FAIL: @complex_clamp

// -----

func.func @wrong_dtype_for_op() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  // The verifier rejects what the kernels could not run.
  // CHECK: interpret_errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: 'stablehlo.exponential' op operand #0 must be ranked tensor of floating-point
  %e = "stablehlo.exponential"(%x) : (tensor<2xi32>) -> tensor<2xi32>
  func.return
}

// -----

// CHECK: interpret_errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:1: error: custom op 'func.funk' is unknown
func.funk @parse_error() {
}

// -----

func.func @dynamic_shape() {
  %x = stablehlo.constant dense<[1.0, 5.0]> : tensor<2xf32>
  // CHECK: offset :{{[0-9]+}}:8: error: the interpreter supports only statically shaped ranked tensors, not 'tensor<?xf32>'
  %d = "stablehlo.reshape"(%x) : (tensor<2xf32>) -> tensor<?xf32>
  func.return
}
// CHECK: FAIL: @dynamic_shape
