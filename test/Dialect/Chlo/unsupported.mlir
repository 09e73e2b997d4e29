// Ops outside our chlo subset fail to parse with an error naming them.
// RUN: mpmd-opt -split-input-file -verify-diagnostics %s

func.func @broadcast_add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'chlo.broadcast_add' is an unsupported chlo op (mpmd's chlo dialect does not define it; legalize chlo to stablehlo before import)}}
  %0 = chlo.broadcast_add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @generic_form(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unregistered operation 'chlo.ragged_dot' found in dialect ('chlo') that does not allow unknown operations}}
  %0 = "chlo.ragged_dot"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
