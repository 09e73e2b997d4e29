// RUN: mpmd-opt -sdy-reshard-to-collectives %s | FileCheck %s
// RUN: mpmd-opt '-sdy-reshard-to-collectives=keep-redundant-reshards=true' %s | FileCheck %s --check-prefix=KEEP

// Sub-axes (cut into common pieces, split to fit a dimension), another
// device order, non-power-of-two axes, and the reshards that stay: other
// mesh axes (unless the output is replicated) and maximal meshes. A
// redundant reshard goes unless keep-redundant-reshards.

sdy.mesh @m = <["x"=4, "y"=2]>
sdy.mesh @r = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
sdy.mesh @n = <["a"=3, "b"=2]>
sdy.mesh @other = <["p"=8]>
sdy.mesh @single = <[], device_ids=[0]>

// CHECK-LABEL: func.func @sub_gather
// CHECK-NEXT: %[[V0:.*]] = sdy.all_gather [{"x":(2)2}, {}] %arg0 out_sharding=<@m, [{"x":(1)2}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @sub_gather(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"x":(1)2}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @sub_a2a
// CHECK-NEXT: %[[V0:.*]] = sdy.all_to_all [{"x":(2)2}: 0->1] %arg0 out_sharding=<@m, [{"x":(1)2}, {"x":(2)2}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @sub_a2a(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"x":(1)2}, {"x":(2)2}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @sub_split_slice
// CHECK-NEXT: %[[V0:.*]] = sdy.all_slice [{"x":(1)2}, {"x":(2)2}] %arg0 out_sharding=<@m, [{"y", "x":(1)2}, {"x":(2)2}]> : tensor<16x16xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.collective_permute %[[V0]] out_sharding=<@m, [{"x"}, {"y"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<16x16xf32>
func.func @sub_split_slice(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"x"}, {"y"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @sub_swap
// CHECK-NEXT: %[[V0:.*]] = sdy.collective_permute %arg0 out_sharding=<@m, [{"x":(2)2}, {"x":(1)2}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @sub_swap(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2}, {"x":(2)2}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"x":(2)2}, {"x":(1)2}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @device_order
// CHECK-NEXT: %[[V0:.*]] = sdy.collective_permute %arg0 out_sharding=<@r, [{"x"}, {"y"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @device_order(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@r, [{"x"}, {"y"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @device_order_and_gather
// CHECK-NEXT: %[[V0:.*]] = sdy.collective_permute %arg0 out_sharding=<@r, [{"x"}, {"y"}]> : tensor<16x16xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.all_gather [{}, {"y"}] %[[V0]] out_sharding=<@r, [{"x"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<16x16xf32>
func.func @device_order_and_gather(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@r, [{"x"}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @device_order_replicated
// CHECK-NEXT: %[[V0:.*]] = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@m, [{}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @device_order_replicated(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@r, [{}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @non_pow2_swap
// CHECK-NEXT: %[[V0:.*]] = sdy.all_gather [{"a"}, {"b"}] %arg0 out_sharding=<@n, [{}, {}]> : tensor<12x12xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.all_slice [{"b"}, {"a"}] %[[V0]] out_sharding=<@n, [{"b"}, {"a"}]> : tensor<12x12xf32>
// CHECK-NEXT: return %[[V1]] : tensor<12x12xf32>
func.func @non_pow2_swap(%arg0: tensor<12x12xf32> {sdy.sharding = #sdy.sharding<@n, [{"a"}, {"b"}]>}) -> tensor<12x12xf32> {
  %0 = sdy.reshard %arg0 <@n, [{"b"}, {"a"}]> : tensor<12x12xf32>
  return %0 : tensor<12x12xf32>
}

// CHECK-LABEL: func.func @non_pow2_replace
// CHECK-NEXT: %[[V0:.*]] = sdy.all_gather [{"b"}, {}] %arg0 out_sharding=<@n, [{}, {}]> : tensor<12x12xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.all_slice [{"a"}, {}] %[[V0]] out_sharding=<@n, [{"a"}, {}]> : tensor<12x12xf32>
// CHECK-NEXT: return %[[V1]] : tensor<12x12xf32>
func.func @non_pow2_replace(%arg0: tensor<12x12xf32> {sdy.sharding = #sdy.sharding<@n, [{"b"}, {}]>}) -> tensor<12x12xf32> {
  %0 = sdy.reshard %arg0 <@n, [{"a"}, {}]> : tensor<12x12xf32>
  return %0 : tensor<12x12xf32>
}

// CHECK-LABEL: func.func @non_pow2_a2a
// CHECK-NEXT: %[[V0:.*]] = sdy.all_to_all [{"b"}: 0->1] %arg0 out_sharding=<@n, [{"a"}, {"b"}]> : tensor<12x12xf32>
// CHECK-NEXT: return %[[V0]] : tensor<12x12xf32>
func.func @non_pow2_a2a(%arg0: tensor<12x12xf32> {sdy.sharding = #sdy.sharding<@n, [{"a", "b"}, {}]>}) -> tensor<12x12xf32> {
  %0 = sdy.reshard %arg0 <@n, [{"a"}, {"b"}]> : tensor<12x12xf32>
  return %0 : tensor<12x12xf32>
}

// CHECK-LABEL: func.func @different_meshes_kept
// CHECK-NEXT: %[[V0:.*]] = sdy.reshard %arg0 <@other, [{"p"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @different_meshes_kept(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@other, [{"p"}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @different_meshes_replicated
// CHECK-NEXT: %[[V0:.*]] = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@m, [{}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @different_meshes_replicated(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@other, [{}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @maximal_kept
// CHECK-NEXT: %[[V0:.*]] = sdy.reshard %arg0 <@single, []> : tensor<16x16xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.reshard %[[V0]] <@m, [{"x"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<16x16xf32>, tensor<16x16xf32>
func.func @maximal_kept(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %0 = sdy.reshard %arg0 <@single, []> : tensor<16x16xf32>
  %1 = sdy.reshard %0 <@m, [{"x"}, {}]> : tensor<16x16xf32>
  return %0, %1 : tensor<16x16xf32>, tensor<16x16xf32>
}

// KEEP-LABEL: func.func @redundant
// KEEP-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@m, [{"x"}, {"y"}]>
// KEEP-NEXT: return %[[R]]
// KEEP-LABEL: func.func @replicated_to_replicated
// KEEP-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@m, [{}, {}]>
// KEEP-NEXT: return %[[R]]
// KEEP-LABEL: func.func @unreduced_kept
// KEEP-NEXT: sdy.all_to_all
// CHECK-LABEL: func.func @redundant
// CHECK-NEXT: return %arg0 : tensor<16x16xf32>
func.func @redundant(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y", ?}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"x"}, {"y"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @replicated_to_replicated
// CHECK-NEXT: return %arg0 : tensor<16x16xf32>
func.func @replicated_to_replicated(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @unreduced_kept
// CHECK-NEXT: %[[V0:.*]] = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@m, [{}, {"x"}], unreduced={"y"}> : tensor<16x16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16x16xf32>
func.func @unreduced_kept(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}], unreduced={"y"}>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {"x"}], unreduced={"y"}> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

