// RUN: mpmd-opt %s -xla-sdy-stablehlo-import-shardings -split-input-file -verify-diagnostics

// expected-error @+1 {{invalid mhlo.sharding "{devices=[2,2]<=[3]}": offset 14: the iota dimensions must be positive and hold the 4 devices of the tile dimensions}}
func.func @bad_iota(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[3]}"}) {
  return
}

// -----

func.func @bad_op(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{invalid mhlo.sharding "{devices=[2,2]0,1,1,3}": offset 14: the device ids must be a permutation of 0..3}}
  %0 = stablehlo.negate %arg0 {mhlo.sharding = "{devices=[2,2]0,1,1,3}"} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{invalid mhlo.sharding "{replicated": offset 11: expected '}'}}
func.func @bad_result(%arg0: tensor<8xf32>) -> (tensor<8xf32> {mhlo.sharding = "{replicated"}) {
  return %arg0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{mhlo.sharding must be a string, got 3 : i64}}
func.func @not_a_string(%arg0: tensor<8xf32> {mhlo.sharding = 3}) {
  return
}

// -----

// expected-error @+1 {{mhlo.sharding has 1 data tile dimensions for a tensor of rank 2}}
func.func @rank_mismatch(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dim_replicate}"}) {
  return
}

// -----

module attributes {mhlo.num_partitions = 8 : i32} {
  // expected-error @+1 {{mhlo.sharding "{devices=[2,2]<=[4]}" tiles over 4 devices, but the module has mhlo.num_partitions = 8}}
  func.func @device_count(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"}) {
    return
  }
}

// -----

module attributes {mhlo.num_partitions = 2 : i32} {
  // expected-error @+1 {{mhlo.sharding "{maximal device=2}" names device 2, but the module has mhlo.num_partitions = 2}}
  func.func @maximal_device(%arg0: tensor<8x8xf32> {mhlo.sharding = "{maximal device=2}"}) {
    return
  }
}

// -----

func.func @tuple_length(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{a tuple mhlo.sharding of 1 elements on an op with 2 results}}
  %0:2 = stablehlo.custom_call @foo(%arg0) {mhlo.sharding = "{{replicated}}"} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @not_a_tuple(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{an op with 2 results needs a tuple mhlo.sharding}}
  %0:2 = stablehlo.custom_call @foo(%arg0) {mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @nested_tuple(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{a nested tuple mhlo.sharding for a result of type 'tensor<8xf32>'}}
  %0 = stablehlo.custom_call @foo(%arg0) {mhlo.sharding = "{{{replicated}}}"} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// expected-error @+1 {{a tuple mhlo.sharding on a function argument of type 'tensor<8xf32>'}}
func.func @tuple_argument(%arg0: tensor<8xf32> {mhlo.sharding = "{{replicated}}"}) {
  return
}

// -----

func.func @tiled_token(%arg0: !stablehlo.token) {
  // expected-error @+1 {{a tiled mhlo.sharding on a value of type '!stablehlo.token'}}
  %0 = stablehlo.custom_call @foo(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (!stablehlo.token) -> !stablehlo.token
  return
}
