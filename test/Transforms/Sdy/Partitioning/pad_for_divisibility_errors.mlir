// RUN: mpmd-opt -sdy-pad-for-divisibility -split-input-file -verify-diagnostics %s

sdy.mesh @mesh = <["x"=2, "y"=4]>

// expected-error @+1 {{argument #1 of type 'tensor<6x7xf32>' has sharding #sdy.sharding<@mesh, [{}, {"x"}]>, whose 2 shards do not divide dim 1 (size 7); the partitioner pads only values inside functions, so function inputs and outputs must be divisible}}
func.func @argument(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                    %arg1: tensor<6x7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// expected-error @+1 {{result #0 of type 'tensor<6xf32>' has sharding #sdy.sharding<@mesh, [{"y"}]>, whose 4 shards do not divide dim 0 (size 6)}}
func.func @result(%arg0: tensor<6xf32>) -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  return %arg0 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// A slice starting at 1 cannot grow from 7 to 8 elements inside 8.
func.func @slice_past_operand(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.slice' op cannot be padded for divisibility: dim 0 of the result must grow to 8 elements, which would read past the end of an operand of size 8; the dimension needs a reshard before padding}}
  %0 = stablehlo.slice %arg0 [1:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<7xf32>
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.pad %0, %cst, low = [0], high = [1], interior = [0] : (tensor<7xf32>, tensor<f32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// A reshape cannot merge a padded dim into another one.
func.func @reshape(%arg0: tensor<8x2xf32>) -> tensor<14xf32> {
  %0 = stablehlo.slice %arg0 [0:7, 0:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x2xf32>) -> tensor<7x2xf32>
  // expected-error @+1 {{'stablehlo.reshape' op cannot take the padded types -sdy-pad-for-divisibility gives it: result has 14 elements but the operand has 16}}
  %1 = stablehlo.reshape %0 : (tensor<7x2xf32>) -> tensor<14xf32>
  return %1 : tensor<14xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>

// 6 input features over 4 shards would become 8, which breaks the groups.
func.func @grouped_convolution(%arg0: tensor<1x4x8xf32>, %arg1: tensor<3x3x6xf32>) -> tensor<1x2x6xf32> {
  %0 = stablehlo.slice %arg0 [0:1, 0:4, 0:6] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"x"}]>]>} : (tensor<1x4x8xf32>) -> tensor<1x4x6xf32>
  %1 = stablehlo.slice %0 [0:1, 0:4, 0:6] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"x", ?}]>]>} : (tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
  // expected-error @+1 {{'stablehlo.convolution' op cannot be padded for divisibility: a grouped convolution's batch or feature dimension is sharded unevenly}}
  %2 = stablehlo.convolution(%1, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x6xf32>, tensor<3x3x6xf32>) -> tensor<1x2x6xf32>
  return %2 : tensor<1x2x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @complex(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{'stablehlo.slice' op result #0 of type 'tensor<7xcomplex<f32>>' needs padding for divisibility, which is only supported for integer and float elements}}
  %0 = stablehlo.slice %arg0 [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xcomplex<f32>>) -> tensor<7xcomplex<f32>>
  return %arg0 : tensor<8xcomplex<f32>>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// expected-error @+1 {{'func.func' op has a value whose padded size does not fit in 64 bits}}
func.func @overflow(%arg0: tensor<9223372036854775807xi1>) -> tensor<9223372036854775807xi1> {
  %0 = stablehlo.not %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<9223372036854775807xi1>
  return %0 : tensor<9223372036854775807xi1>
}
