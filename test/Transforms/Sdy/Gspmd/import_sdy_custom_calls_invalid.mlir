// RUN: mpmd-opt %s -xla-sdy-stablehlo-import-shardings -xla-sdy-import-sdy-custom-calls -split-input-file -verify-diagnostics

func.func @two_operands(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{@Sharding must have one operand and one result of the same type}}
  %0 = stablehlo.custom_call @Sharding(%arg0, %arg0) {mhlo.sharding = "{replicated}"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unspecified_dim_out_of_range(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{@Sharding backend_config "unspecified_dims=[1]" is not "unspecified_dims=[d, ...]" with dimensions below 1}}
  %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @malformed_backend_config(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{@Sharding backend_config "unspecified_dims=0" is not "unspecified_dims=[d, ...]"}}
  %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=0", mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
