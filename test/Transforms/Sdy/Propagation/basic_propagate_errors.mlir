// Modules propagation cannot handle are rejected.
// RUN: mpmd-opt -split-input-file -sdy-basic-propagate -verify-diagnostics %s

func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{sharding propagation needs statically shaped tensors, got 'tensor<?xf32>'}}
  %0 = stablehlo.negate %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
