// Verifier errors of the collectives' groups, channels and shapes (the
// spec's constraints that do not need the grid's size): one case per
// message.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics

func.func @f(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.all_gather' op replica_groups must cover every id of [0, 2) but lacks 1}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 2]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.all_gather' op replica_groups repeats id 1}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.all_gather' op use_global_device_ids needs a positive channel id, got 0}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Groups of 2: the gathered dimension doubles.
func.func @f(%x: tensor<4x3xf32>) -> tensor<12x3xf32> {
  // expected-error @+1 {{'stablehlo.all_gather' op result #0 dimension 0 has size 12 but must be 8 for operand type 'tensor<4x3xf32>'}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4x3xf32>) -> tensor<12x3xf32>
  return %0 : tensor<12x3xf32>
}

// -----

func.func @f(%x: tensor<4x3xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'stablehlo.all_gather' op result #0 dimension 1 has size 4 but must be 3 for operand type 'tensor<4x3xf32>'}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<4x3xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.all_reduce' op use_global_device_ids needs a positive channel id, got -1}}
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = -1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.all_reduce' op replica_groups must cover every id of [0, 3) but lacks 0}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[1, 2], [3, -1]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// One body reduces each operand: its arguments are scalars of each
// operand's element type.
func.func @f(%x: tensor<4xf32>, %y: tensor<2xi32>) -> (tensor<4xf32>, tensor<2xi32>) {
  // expected-error @+1 {{'stablehlo.all_reduce' op computation region argument #0 has type 'tensor<f32>' but expected 'tensor<i32>'}}
  %0:2 = "stablehlo.all_reduce"(%x, %y) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xi32>) -> (tensor<4xf32>, tensor<2xi32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<2xi32>
}

// -----

func.func @f(%x: tensor<6xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.reduce_scatter' op scatter dimension size 6 is not divisible by the 4 processes of a group}}
  %0 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @f(%x: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reduce_scatter' op result dimension 0 has size 4 but must be 2 for operand type 'tensor<8xf32>'}}
  %0 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4x8xf32>) -> tensor<16x2xf32> {
  // expected-error @+1 {{'stablehlo.all_to_all' op split_count 4 must equal the size of each replica group, 2}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// -----

func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.all_to_all' op result #0 dimension 0 has size 4 but must be 8}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'stablehlo.all_to_all' op replica_groups must cover every id of [0, 2) but lacks 0}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[1, 2]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.collective_permute' op source_target_pairs repeats source 0}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.collective_permute' op source_target_pairs repeats target 1}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.collective_permute' op source_target_pairs has negative id -1}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, -1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.collective_broadcast' op replica_groups repeats id 2}}
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[2, 2]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Groups of a broadcast need not cover: processes in none receive zeros.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[3, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%t: !stablehlo.token) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.recv' op source_target_pairs repeats target 1}}
  %0:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>}> : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  return %0#0 : tensor<4xf32>
}

// -----

func.func @f(%t: !stablehlo.token) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.recv' op source_target_pairs must have shape [N, 2], got [1, 3]}}
  %0:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1, 2]]> : tensor<1x3xi64>}> : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  return %0#0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>, %t: !stablehlo.token) -> !stablehlo.token {
  // expected-error @+1 {{'stablehlo.send' op source_target_pairs repeats source 0}}
  %0 = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>}> : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
}

// -----

func.func @f(%x: tensor<4xf32>, %t: !stablehlo.token) -> !stablehlo.token {
  // expected-error @+1 {{'stablehlo.send' op source_target_pairs must have shape [N, 2], got [2]}}
  %0 = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[0, 1]> : tensor<2xi64>}> : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
}
