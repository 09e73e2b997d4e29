// RUN: not mpmd interpret %s 2>&1 | FileCheck %s

func.func @sub_byte_output() {
  %state = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  // CHECK: error: 'stablehlo.rng_bit_generator' producing i4 is not supported by the interpreter (8-, 16-, 32- and 64-bit types are)
  %next, %bits = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xi4>)
  func.return
}
