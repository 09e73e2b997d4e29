// Sizes from attributes and types that leave int64, windows larger than
// their operand and ids that are hash-map keys: verifier errors, never a
// wrapped size or a crash.
// RUN: mpmd-opt %s -split-input-file -verify-diagnostics

func.func @f(%x: tensor<2xf32>, %p: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.pad' op padding dimension 0 (size 2, low 9223372036854775807, high 9223372036854775807, interior 0) overflows 64 bits}}
  %0 = stablehlo.pad %x, %p, low = [9223372036854775807], high = [9223372036854775807], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%x: tensor<3xf32>, %p: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.pad' op padding dimension 0 (size 3, low 0, high 0, interior 4611686018427387904) overflows 64 bits}}
  %0 = stablehlo.pad %x, %p, low = [0], high = [0], interior = [4611686018427387904] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
// 65536^4 = 2^64 elements: wrapped, both counts would be 0.
func.func @f(%x: tensor<65536x65536x65536x65536xf32>) -> tensor<0xf32> {
  // expected-error @+1 {{'stablehlo.reshape' op the element count of 'tensor<65536x65536x65536x65536xf32>' does not fit in 64 bits}}
  %0 = stablehlo.reshape %x : (tensor<65536x65536x65536x65536xf32>) -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
// -----
func.func @f(%x: tensor<4xf32>, %init: tensor<f32>) -> tensor<1xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op the padded input or the dilated window of dimension 0 does not fit in 64 bits}}
  %0 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 4611686018427387904>, window_dilations = array<i64: 4>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
// -----
// A window larger than the (padded) operand has no position: the source
// must be empty (StableHLO select_and_scatter, C2).
func.func @f(%x: tensor<2xf32>, %source: tensor<1xf32>, %init: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op source (one element per window) dimension 0 has size 1 but expected 0 (expected shape [0])}}
  %0 = "stablehlo.select_and_scatter"(%x, %source, %init) <{window_dimensions = array<i64: 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2xf32>, tensor<1xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%x: tensor<4xf32>, %source: tensor<3xf32>, %init: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op source (one element per window) dimension 0 has size 3 but expected 2 (expected shape [2])}}
  %0 = "stablehlo.select_and_scatter"(%x, %source, %init) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%x: tensor<4xf32>, %source: tensor<4xi32>, %init: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op source element type 'i32' does not match operand element type 'f32'}}
  %0 = "stablehlo.select_and_scatter"(%x, %source, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<4xi32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
// INT64_MAX is the empty key of an integer hash map.
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.all_reduce' op replica_groups repeats id 9223372036854775807}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[9223372036854775807, 9223372036854775807]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
// Groups that skip ids cannot cover the grid; INT64_MAX is no special id.
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.all_reduce' op replica_groups must cover every id of [0, 2) but lacks 1}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[9223372036854775807, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
