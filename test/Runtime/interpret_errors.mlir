// What mpmd interpret cannot run is an error at the op, naming it; the
// other functions and chunks still run, and the exit code is 1.
// RUN: not mpmd interpret %s --split-input-file 2>&1 | FileCheck %s

func.func @unsupported_op() {
  %x = stablehlo.constant dense<[3.0, 1.0]> : tensor<2xf32>
  // CHECK: interpret_errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: 'stablehlo.custom_call' is not supported by the interpreter
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

func.func @scatter_with_other_body() {
  %x = stablehlo.constant dense<[1.0, 5.0]> : tensor<2xf32>
  %ids = stablehlo.constant dense<[[0]]> : tensor<1x1xi32>
  %upd = stablehlo.constant dense<[3.0]> : tensor<1xf32>
  // CHECK: offset :{{[0-9]+}}:8: error: this scatter update computation is not supported by the interpreter (supported: replace, add, multiply, maximum, minimum, and, or)
  %r = "stablehlo.scatter"(%x, %ids, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%cur: tensor<f32>, %new: tensor<f32>):
    %s = stablehlo.subtract %cur, %new : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<2xf32>
  func.return
}
// CHECK: FAIL: @scatter_with_other_body

// -----

func.func @dynamic_shape() {
  %x = stablehlo.constant dense<[1.0, 5.0]> : tensor<2xf32>
  // CHECK: offset :{{[0-9]+}}:8: error: the interpreter supports only statically shaped ranked tensors, not 'tensor<?xf32>'
  %d = "stablehlo.reshape"(%x) : (tensor<2xf32>) -> tensor<?xf32>
  func.return
}
// CHECK: FAIL: @dynamic_shape

// -----

func.func @select_and_scatter_with_padding() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %g = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: interpret_errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: select_and_scatter with padding is not supported by the interpreter
  %r = "stablehlo.select_and_scatter"(%x, %g, %zero) <{padding = dense<[[1, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2xf32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return
}
// CHECK: FAIL: @select_and_scatter_with_padding
