// RUN: mpmd-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @state_sizes
func.func @state_sizes(%two: tensor<2xui64>, %three: tensor<3xui64>) {
  %0:2 = stablehlo.rng_bit_generator %two, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xf32>)
  %1:2 = stablehlo.rng_bit_generator %two, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi8>)
  %2:2 = stablehlo.rng_bit_generator %three, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xui64>)
  %3:2 = stablehlo.rng_bit_generator %three, algorithm = DEFAULT : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2xbf16>)
  return
}

// -----

func.func @three_fry_takes_two(%state: tensor<3xui64>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op initial_state of THREE_FRY must have 2 elements, got 3 (C2)}}
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return
}

// -----

func.func @philox_takes_two_or_three(%state: tensor<4xui64>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op initial_state of PHILOX must have 2 or 3 elements, got 4 (C2)}}
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = PHILOX : (tensor<4xui64>) -> (tensor<4xui64>, tensor<4xui32>)
  return
}

// -----

func.func @state_not_ui64(%state: tensor<2xi64>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op initial_state must be a 1-dimensional tensor of ui64, got 'tensor<2xi64>'}}
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xi64>) -> (tensor<2xi64>, tensor<4xui32>)
  return
}

// -----

func.func @state_types_differ(%state: tensor<2xui64>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op output_state type 'tensor<3xui64>' does not match initial_state type 'tensor<2xui64>'}}
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return
}
