// RUN: mpmd-opt -sdy-convert-global-to-local -split-input-file -verify-diagnostics %s

sdy.mesh @mesh = <["x"=2]>

// expected-error@+1 {{dimension 0 of argument #0 ('tensor<7xf32>') has size 7, not divisible by its 2 shards in #sdy.sharding<@mesh, [{"x"}]>; run -sdy-pad-for-divisibility first}}
func.func @argument(%arg0: tensor<7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<7xf32> {
  return %arg0 : tensor<7xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// expected-error@+1 {{dimension 1 of result #0 ('tensor<2x3xf32>') has size 3, not divisible by its 2 shards}}
func.func @result(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  return %arg0 : tensor<2x3xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @op_result(%arg0: tensor<5xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{dimension 0 of result #0 ('tensor<5xf32>') has size 5, not divisible by its 2 shards}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @reshard_left(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'sdy.reshard' is left; run -sdy-reshard-to-collectives before -sdy-convert-global-to-local}}
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @constraint_left(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'sdy.sharding_constraint' is not supported by -sdy-convert-global-to-local}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @returned_type(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  // expected-error@+1 {{returns 'tensor<2xf32>' as result #0, whose sharding makes it 'tensor<4xf32>' on each device}}
  return %arg0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @contracting_not_reduced(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                                   %arg1: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<2x2xf32> {
  // expected-error@+1 {{contracts a dimension sharded on #sdy<axis_ref_list{"x"}> but its only user is not a summing 'sdy.all_reduce' or 'sdy.reduce_scatter' over exactly those axes}}
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @slice_across_shards(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // expected-error@+1 {{slices sharded dimension 0, which needs data from other devices; -sdy-resolve-permutation-factors should have resharded it}}
  %0 = stablehlo.slice %arg0 [2:6] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @pad_sharded(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error@+1 {{pads sharded dimension 0, which needs data from other devices}}
  %0 = stablehlo.pad %arg0, %z, low = [1], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<6xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @concatenate_sharded(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // expected-error@+1 {{concatenates along dimension 0, which is sharded; -sdy-insert-explicit-reshards should have made it replicated}}
  %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @overlapping_windows(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error@+1 {{has windows across the shards of sharded dimension 0; -sdy-insert-explicit-reshards should have replicated it}}
  %0 = "stablehlo.reduce_window"(%arg0, %z) <{window_dimensions = array<i64: 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @gather_sharded(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<3x1xi32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{indexes operand dimension 0, which is sharded; -sdy-insert-explicit-reshards should have replicated it}}
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}> : (tensor<8x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @spatial_window(%arg0: tensor<1x8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}, %arg1: tensor<3x2x2xf32>)
    -> (tensor<1x6x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}) {
  // expected-error@+1 {{convolves over sharded spatial dimension 1 with a window that crosses shards}}
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<1x8x2xf32>, tensor<3x2x2xf32>) -> tensor<1x6x2xf32>
  return %0 : tensor<1x6x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @reverse_sharded(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-error@+1 {{reverses sharded dimension 0; -sdy-insert-explicit-reshards should have replicated it}}
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @sort_sharded(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  // expected-error@+1 {{sorts along sharded dimension 1}}
  %0 = "stablehlo.sort"(%arg0) <{dimension = -1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @gather_part_of_sharded(%arg0: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<3x1xi32>)
    -> (tensor<3x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  // expected-error@+1 {{takes slices of size 4 of sharded operand dimension 1; only whole sharded dimensions stay local}}
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<2x8xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @scatter_part_of_sharded(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<1x1xi32>, %arg2: tensor<1x4xf32>)
    -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  // expected-error@+1 {{updates part of sharded input dimension 1; only whole sharded dimensions stay local}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<4x8xf32>, tensor<1x1xi32>, tensor<1x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

sdy.mesh @huge = <["x"=1099511627776]>

func.func @huge_mesh(%arg0: tensor<1099511627776xi8> {sdy.sharding = #sdy.sharding<@huge, [{"x"}]>}) -> tensor<1099511627776xi8> {
  // expected-error@+1 {{mesh of 1099511627776 devices is too large to list its devices (at most 1048576)}}
  %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@huge, [{}]> : tensor<1099511627776xi8>
  return %0 : tensor<1099511627776xi8>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @manual_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error@+1 {{operand #0 is 'tensor<4xf32>' on each device but the body expects 'tensor<2xf32>'}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// Partial sums of a contraction combined with a max would be wrong.
func.func @contracting_reduced_by_max(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                                      %arg1: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<2x2xf32> {
  // expected-error@+1 {{contracts a dimension sharded on #sdy<axis_ref_list{"x"}> but its only user is not a summing 'sdy.all_reduce' or 'sdy.reduce_scatter' over exactly those axes}}
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  %1 = sdy.all_reduce max {"x"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// The state of a random-bit generator must be whole on every device.
func.func @rng_sharded_state(%state: tensor<2xui64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xui32> {
  // expected-error@+1 {{draws from a sharded state #sdy.sharding<@mesh, [{"x"}]>; -sdy-insert-explicit-reshards should have replicated it}}
  %next, %bits = stablehlo.rng_bit_generator %state, algorithm = DEFAULT {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>]>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)
  return %bits : tensor<8xui32>
}
