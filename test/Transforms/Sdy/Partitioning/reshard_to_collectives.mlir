// RUN: mpmd-opt -sdy-reshard-to-collectives %s | FileCheck %s

// Each reshard becomes the collectives that move its input's sharding to
// its own (sdy-notes 5.2): the four examples of the notes (ex_*), the
// example of upstream's pass documentation, slicing ahead of an all-to-all,
// permutes that swap or reorder axes, gathers, a fully replicated output,
// an unsharded input, and an input read through a propagation barrier.

sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>

// CHECK-LABEL: func.func @ex_gather
// CHECK-NEXT: %[[V0:.*]] = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@m, [{"z"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @ex_gather(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"z", "x"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"z"}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @ex_slice
// CHECK-NEXT: %[[V0:.*]] = sdy.all_slice [{"y"}, {}] %arg0 out_sharding=<@m, [{"x", "y"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @ex_slice(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"x", "y"}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @ex_a2a
// CHECK-NEXT: %[[V0:.*]] = sdy.all_to_all [{"x", "y"}: 0->1] %arg0 out_sharding=<@m, [{}, {"x", "y"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @ex_a2a(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {"x", "y"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @ex_permute
// CHECK-NEXT: %[[V0:.*]] = sdy.collective_permute %arg0 out_sharding=<@m, [{"y"}, {"x"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @ex_permute(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"y"}, {"x"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @doc_gather
// CHECK-NEXT: %[[V0:.*]] = sdy.all_gather [{"y", "z"}, {}] %arg0 out_sharding=<@m, [{"x"}, {}]> : tensor<16x2xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x2xf32>
func.func @doc_gather(%arg0: tensor<16x2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y", "z"}, {}]>}) -> tensor<16x2xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"x"}, {}]> : tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// CHECK-LABEL: func.func @pre_slice
// CHECK-NEXT: %[[V0:.*]] = sdy.all_slice [{"y"}, {}] %arg0 out_sharding=<@m, [{"x", "y"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.all_to_all [{"x", "y"}: 0->1] %[[V0]] out_sharding=<@m, [{}, {"x", "y"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<16x16xf32>
func.func @pre_slice(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {"x", "y"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @slice_then_a2a
// CHECK-NEXT: %[[V0:.*]] = sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@m, [{"x"}, {"y"}]> : tensor<16x16xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.all_to_all [{"x"}: 0->1] %[[V0]] out_sharding=<@m, [{}, {"y", "x"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<16x16xf32>
func.func @slice_then_a2a(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {"y", "x"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @swap_free
// CHECK-NEXT: %[[V0:.*]] = sdy.collective_permute %arg0 out_sharding=<@m, [{"y"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @swap_free(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"y"}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @reorder
// CHECK-NEXT: %[[V0:.*]] = sdy.collective_permute %arg0 out_sharding=<@m, [{"y", "x"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.all_to_all [{"x"}: 0->1] %[[V0]] out_sharding=<@m, [{"y"}, {"x"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<16x16xf32>
func.func @reorder(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"y"}, {"x"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @gather_then_a2a
// CHECK-NEXT: %[[V0:.*]] = sdy.collective_permute %arg0 out_sharding=<@m, [{"y"}, {"x"}]> : tensor<16x16xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.all_gather [{"y"}, {}] %[[V0]] out_sharding=<@m, [{}, {"x"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<16x16xf32>
func.func @gather_then_a2a(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {"x"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @three_dims
// CHECK-NEXT: %[[V0:.*]] = sdy.collective_permute %arg0 out_sharding=<@m, [{"z"}, {"x"}, {"y"}]> : tensor<16x16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16x16xf32>
func.func @three_dims(%arg0: tensor<16x16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}, {"z"}]>}) -> tensor<16x16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"z"}, {"x"}, {"y"}]> : tensor<16x16x16xf32>
  return %0 : tensor<16x16x16xf32>
}

// CHECK-LABEL: func.func @replicated_out
// CHECK-NEXT: %[[V0:.*]] = sdy.all_gather [{"x"}, {"y", "z"}] %arg0 out_sharding=<@m, [{}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @replicated_out(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y", "z"}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @unsharded_in
// CHECK-NEXT: %[[V0:.*]] = sdy.all_slice [{"y"}, {"x", "z"}] %arg0 out_sharding=<@m, [{"y"}, {"x", "z"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @unsharded_in(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"y"}, {"x", "z"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @barrier
// CHECK-NEXT: %[[V0:.*]] = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<16x16xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.all_to_all [{"x"}: 0->1] %[[V0]] out_sharding=<@m, [{}, {"x"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<16x16xf32>
func.func @barrier(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<16x16xf32> {
  %b = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<16x16xf32>
  %0 = sdy.reshard %b <@m, [{}, {"x"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @three_dims_mixed
// CHECK-NEXT: %[[V0:.*]] = sdy.collective_permute %arg0 out_sharding=<@m, [{"z", "x"}, {}, {"y"}]> : tensor<16x16x16xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.all_to_all [{"y"}: 2->1] %[[V0]] out_sharding=<@m, [{"z", "x"}, {"y"}, {}]> : tensor<16x16x16xf32>
// CHECK-NEXT: %[[V2:.*]] = sdy.all_to_all [{"x"}: 0->1] %[[V1]] out_sharding=<@m, [{"z"}, {"y", "x"}, {}]> : tensor<16x16x16xf32>
// CHECK-NEXT: return %[[V2]] : tensor<16x16x16xf32>
func.func @three_dims_mixed(%arg0: tensor<16x16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {}, {"z"}]>}) -> tensor<16x16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"z"}, {"y", "x"}, {}]> : tensor<16x16x16xf32>
  return %0 : tensor<16x16x16xf32>
}

// CHECK-LABEL: func.func @in_dim_reorder
// CHECK-NEXT: %[[V0:.*]] = sdy.collective_permute %arg0 out_sharding=<@m, [{"z", "y", "x"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @in_dim_reorder(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y", "z"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"z", "y", "x"}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @a2a_two_moves
// CHECK-NEXT: %[[V0:.*]] = sdy.all_to_all [{"x"}: 0->2] %arg0 out_sharding=<@m, [{}, {"y"}, {"x"}]> : tensor<16x16x16xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.all_to_all [{"y"}: 1->2] %[[V0]] out_sharding=<@m, [{}, {}, {"x", "y"}]> : tensor<16x16x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<16x16x16xf32>
func.func @a2a_two_moves(%arg0: tensor<16x16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}, {}]>}) -> tensor<16x16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {}, {"x", "y"}]> : tensor<16x16x16xf32>
  return %0 : tensor<16x16x16xf32>
}

