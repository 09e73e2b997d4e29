// Verifier errors of batch norm, cholesky, triangular_solve, map,
// composite, rng, infeed, tuples and the dynamic-shape ops: one case per
// message, labelled with the spec's
// constraint where it has one.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_training' op feature_index 2 is out of range [0, 2) (C1)}}
  %o:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %t: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_training' op offset has 2 elements but the operand has 3 features}}
  %o:3 = "stablehlo.batch_norm_training"(%x, %s, %t) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf64>) {
  // expected-error @+1 {{'stablehlo.batch_norm_inference' op scale element type 'f64' does not match operand element type 'f32' (C2)}}
  %o = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_training' op result #1 dimension 0 has size 2 but expected 3 (expected shape [3])}}
  %o:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %g: tensor<3x2xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_grad' op grad_output shape [3, 2] is incompatible with operand shape [2, 3]}}
  %o:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %g) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.cholesky' op operand must have rank 2 or more, got rank 1 (C2)}}
  %l = stablehlo.cholesky %a, lower = true : tensor<3xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{'stablehlo.cholesky' op operand matrices must be square, got 3x2 (C3)}}
  %l = stablehlo.cholesky %a : tensor<3x2xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>, %b: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.triangular_solve' op a and b must have the same rank, 2 or more; got 2 and 3 (C2)}}
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.triangular_solve' op b has 4 columns but a is 3x3 (C4)}}
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x3xf32>, %b: tensor<4x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.triangular_solve' op batch dimension 0 of a has size 2 but b has 4 (C3)}}
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf32>, tensor<4x3x4xf32>) -> tensor<4x3x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.triangular_solve' op transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT}}
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE_INVALID>} : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2x2xf32>) {
  // expected-error @+1 {{'stablehlo.map' op dimensions must be [0, ..., 1] (C3)}}
  %r = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 1, 0>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.map' op computation region argument #0 has type 'tensor<i32>' but expected 'tensor<f32>'}}
  %r = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<i32>):
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.map' op result element type 'i32' does not match expected 'f32'}}
  %r = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2xi32>
  func.return
}

// -----

func.func @f(%a: tensor<f32>, %b: tensor<i32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'stablehlo.rng' op a, b and result must have one element type, got 'f32', 'i32' and 'f32' (C1)}}
  %r = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<i32>, tensor<1xi64>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<i32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'stablehlo.rng' op a NORMAL distribution needs a floating-point result, got 'i32' (C2)}}
  %r = stablehlo.rng %a, %a, %s, distribution = NORMAL : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<f32>) {
  %s = stablehlo.constant dense<[3]> : tensor<1xi64>
  // expected-error @+1 {{'stablehlo.rng' op result dimension 0 has size 4 but shape says 3 (C3)}}
  %r = stablehlo.rng %a, %a, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<f32>) {
  // expected-error @+1 {{expected UNIFORM or NORMAL, got 'GAUSS'}}
  %r = stablehlo.rng %a, %a, %a, distribution = GAUSS : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%x: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.composite' op decomposition @missing does not name a function (C1)}}
  %r = stablehlo.composite "my.op" %x {decomposition = @missing} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func private @g(%a: tensor<i32>) -> tensor<i32>

func.func @f(%x: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.composite' op decomposition @g has type '(tensor<i32>) -> tensor<i32>', which does not match the composite's operand and result types (C2)}}
  %r = stablehlo.composite "my.op" %x {decomposition = @g} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%t: tuple<tensor<f32>>) {
  // expected-error @+1 {{'stablehlo.get_tuple_element' op index 1 is out of range [0, 1) (C1)}}
  %e = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%t: tuple<tensor<f32>, tensor<i32>>) {
  // expected-error @+1 {{'stablehlo.get_tuple_element' op result element type 'f32' does not match expected 'i32'}}
  %e = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%x: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.get_dimension_size' op dimension 1 is out of range [0, 1) (C1)}}
  %n = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2xf32>) -> tensor<i32>
  func.return
}

// -----

func.func @f(%s: tensor<2xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_iota' op iota_dimension 2 is out of range [0, 2) (C1)}}
  %i = stablehlo.dynamic_iota %s, dim = 2 : (tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @f(%s: tensor<3xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_iota' op output_shape has 3 elements but the result has rank 2 (C2)}}
  %i = stablehlo.dynamic_iota %s, dim = 0 : (tensor<3xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>) {
  %s = stablehlo.constant dense<[3, 3]> : tensor<2xi64>
  // expected-error @+1 {{'stablehlo.dynamic_reshape' op result dimension 0 has size 2 but output_shape says 3 (C3)}}
  %r = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x?xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_reshape' op result has 4 elements but the operand has 6 (C2)}}
  %r = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @f(%x: tensor<3xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_broadcast_in_dim' op operand dimension 0 of size 3 cannot broadcast to result dimension 1 of size 4 (C5)}}
  %b = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @f(%x: tensor<3xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_broadcast_in_dim' op dimension 0 is both known expanding and known non-expanding (C9)}}
  %b = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] {known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2xf32>, %p: tensor<f32>) {
  %low = stablehlo.constant dense<[1]> : tensor<1xi64>
  %interior = stablehlo.constant dense<[0]> : tensor<1xi64>
  // expected-error @+1 {{'stablehlo.dynamic_pad' op result dimension 0 has size 5 but the padding gives 4 (C4)}}
  %r = stablehlo.dynamic_pad %x, %p, %low, %low, %interior : (tensor<2xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2xf32>, %p: tensor<f32>, %low: tensor<2xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_pad' op edge_padding_low has 2 elements but the operand has rank 1 (C2)}}
  %r = stablehlo.dynamic_pad %x, %p, %low, %low, %low : (tensor<2xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?xf32>
  func.return
}

// -----

func.func @f(%t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.infeed' op last result must be a !stablehlo.token (C3)}}
  %r = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> tensor<2xi64>
  func.return
}

// -----

func.func @f(%t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.infeed' op results before the token must be tensors, got '!stablehlo.token' (C2)}}
  %r:2 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (!stablehlo.token, !stablehlo.token)
  func.return
}

// -----

func.func @f(%x: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.map' op computation region must not be empty}}
  %r = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @f(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_gather' op slice_sizes has 2 elements but the operand has rank 3 (C11)}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @f(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  %s = stablehlo.constant dense<[1, 3, 2]> : tensor<3xi64>
  // expected-error @+1 {{'stablehlo.dynamic_gather' op result dimension 2 has size 2 but expected 3 (expected shape [2, 3, 3, 2])}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @f(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>, %pad: tensor<2x3xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_conv' op padding must have shape [2, 2], got 'tensor<2x3xi64>' (C4)}}
  %r = "stablehlo.dynamic_conv"(%x, %w, %pad) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x3xi64>) -> tensor<1x4x4x1xf32>
  func.return
}

// -----

func.func @f(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) {
  %pad = stablehlo.constant dense<[[1, 1], [0, 0]]> : tensor<2x2xi32>
  // expected-error @+1 {{'stablehlo.dynamic_conv' op result dimension 2 has size 4 but expected 2 (expected shape [1, 4, 2, 1])}}
  %r = "stablehlo.dynamic_conv"(%x, %w, %pad) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi32>) -> tensor<1x4x4x1xf32>
  func.return
}

// -----

func.func @f(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x2xf32>, %pad: tensor<2x2xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_conv' op result dimension 3 has size 1 but expected 2 (C25)}}
  %r = "stablehlo.dynamic_conv"(%x, %w, %pad) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x2xf32>, tensor<2x2xi64>) -> tensor<1x4x4x1xf32>
  func.return
}

// -----

func.func @f(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>, %pad: tensor<2x2xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_conv' op result element type 'f64' does not match lhs element type 'f32'}}
  %r = "stablehlo.dynamic_conv"(%x, %w, %pad) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x4x4x1xf64>
  func.return
}
