// stablehlo.rng_bit_generator: Threefry-2x32 and Philox-4x32 with XLA's key,
// counter and output layout (docs/runtime.md, "rng_bit_generator"). The
// THREE_FRY u64 values are the spec's own example (XLA's output); the others
// were computed with an independent implementation of the published
// algorithms (checked against the Random123 known answers) and the layout
// the docs describe.
// RUN: mpmd interpret %s | FileCheck %s

// CHECK: PASS: @spec_example
func.func @spec_example() {
  %state = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %next, %bits = "stablehlo.rng_bit_generator"(%state) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
  check.expect_eq_const %next, dense<[1, 6]> : tensor<2xui64>
  check.expect_eq_const %bits, dense<[[9236835810183407956, 16087790271692313299], [18212823393184779219, 2658481902456610144]]> : tensor<2x2xui64>
  func.return
}

// CHECK: PASS: @three_fry_32_bits
func.func @three_fry_32_bits() {
  // Two counters (2, 3): their first words, then the first counter's
  // second word.
  %state = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %next, %bits = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui32>)
  check.expect_eq_const %next, dense<[1, 4]> : tensor<2xui64>
  check.expect_eq_const %bits, dense<[43444564, 3979645651, 2150618427]> : tensor<3xui32>
  func.return
}

// CHECK: PASS: @philox_128_bit_counter
func.func @philox_128_bit_counter() {
  // Key 1, counter 3 * 2^64 + 2: two blocks of four words.
  %state = stablehlo.constant dense<[1, 2, 3]> : tensor<3xui64>
  %next, %bits = stablehlo.rng_bit_generator %state, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5xui32>)
  check.expect_eq_const %next, dense<[1, 4, 3]> : tensor<3xui64>
  check.expect_eq_const %bits, dense<[4031113034, 1366700262, 495645701, 3051723414, 89414891]> : tensor<5xui32>
  func.return
}

// CHECK: PASS: @default_is_philox
func.func @default_is_philox() {
  %state = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %next, %bits = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xui64>)
  check.expect_eq_const %next, dense<[1, 3]> : tensor<2xui64>
  check.expect_eq_const %bits, dense<[10265617376382137328, 17000304051890399886]> : tensor<2xui64>
  %n2, %again = stablehlo.rng_bit_generator %state, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xui64>)
  check.expect_eq %again, %bits : tensor<2xui64>
  func.return
}

// CHECK: PASS: @floats_get_the_bits
func.func @floats_get_the_bits() {
  // An f32 output holds the bits a ui32 output of the same state holds.
  %state = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %n1, %u = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui32>)
  %n2, %f = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xf32>)
  %bits = stablehlo.bitcast_convert %f : (tensor<3xf32>) -> tensor<3xui32>
  check.expect_eq %bits, %u : tensor<3xui32>
  func.return
}
