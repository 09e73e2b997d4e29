// stablehlo.async_start / async_done and !stablehlo.future: the generic
// form round-trips; the verifiers check (C1)-(C4) of async_start and (C1)
// of async_done.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @round_trip(
// CHECK:         %[[F:.*]] = "stablehlo.async_start"(%arg0) ({
// CHECK-NEXT:      %[[G:.*]] = "stablehlo.all_gather"(%arg0)
// CHECK-NEXT:      stablehlo.return %[[G]] : tensor<8x8xf32>
// CHECK-NEXT:    }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x8xf32>>
// CHECK-NEXT:    "stablehlo.async_done"(%[[F]]) : (!stablehlo.future<tensor<8x8xf32>>) -> tensor<8x8xf32>
func.func @round_trip(%arg0: tensor<8x2xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.async_start"(%arg0) ({
    %1 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>}> : (tensor<8x2xf32>) -> tensor<8x8xf32>
    "stablehlo.return"(%1) : (tensor<8x8xf32>) -> ()
  }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x8xf32>>
  %2 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<8x8xf32>>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

func.func @not_a_collective(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{body op must be a collective or a slice, got stablehlo.negate}}
  %0 = "stablehlo.async_start"(%arg0) ({
    %1 = stablehlo.negate %arg0 : tensor<4xf32>
    "stablehlo.return"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>>
  return
}

// -----

func.func @two_ops(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{body must hold exactly one op and a stablehlo.return, got 3 ops}}
  %0 = "stablehlo.async_start"(%arg0) ({
    %1 = "stablehlo.slice"(%arg0) <{start_indices = array<i64: 0>, limit_indices = array<i64: 2>, strides = array<i64: 1>}> : (tensor<4xf32>) -> tensor<2xf32>
    %2 = "stablehlo.slice"(%arg0) <{start_indices = array<i64: 2>, limit_indices = array<i64: 4>, strides = array<i64: 1>}> : (tensor<4xf32>) -> tensor<2xf32>
    "stablehlo.return"(%1) : (tensor<2xf32>) -> ()
  }) : (tensor<4xf32>) -> !stablehlo.future<tensor<2xf32>>
  return
}

// -----

func.func @other_operands(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) {
  // expected-error @+1 {{the operands of stablehlo.slice must be the operands of async_start, in order}}
  %0 = "stablehlo.async_start"(%arg0) ({
    %1 = "stablehlo.slice"(%arg1) <{start_indices = array<i64: 0>, limit_indices = array<i64: 2>, strides = array<i64: 1>}> : (tensor<4xf32>) -> tensor<2xf32>
    "stablehlo.return"(%1) : (tensor<2xf32>) -> ()
  }) : (tensor<4xf32>) -> !stablehlo.future<tensor<2xf32>>
  return
}

// -----

func.func @wrong_future(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{result must be a future of the types stablehlo.slice returns}}
  %0 = "stablehlo.async_start"(%arg0) ({
    %1 = "stablehlo.slice"(%arg0) <{start_indices = array<i64: 0>, limit_indices = array<i64: 2>, strides = array<i64: 1>}> : (tensor<4xf32>) -> tensor<2xf32>
    "stablehlo.return"(%1) : (tensor<2xf32>) -> ()
  }) : (tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>>
  return
}

// -----

func.func @done_of_other_types(%arg0: !stablehlo.future<tensor<2xf32>>) {
  // expected-error @+1 {{results must be the types of the future '!stablehlo.future<tensor<2xf32>>'}}
  %0 = "stablehlo.async_done"(%arg0) : (!stablehlo.future<tensor<2xf32>>) -> tensor<2xi32>
  return
}

// -----

// expected-error @+1 {{a future holds ranked tensors, got 'f32'}}
func.func @future_of_scalar(%arg0: !stablehlo.future<f32>)
