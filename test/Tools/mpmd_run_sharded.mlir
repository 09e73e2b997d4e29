// Meshes run SPMD (docs/runtime.md, SPMD meshes): a fragment call whose
// callee has local types runs on each device's shard, values move between
// meshes and shardings as the pieces each device needs, and outputs are
// assembled from the shards.
// RUN: mpmd run %s --random-inputs 3 --summary | FileCheck %s

// The row-parallel matmul on shards (each device multiplies its slices of
// the contraction, an all_reduce sums) equals the whole matmul: the inputs
// are rounded to small integers first, so both sums are exact.
// CHECK:      output 0: tensor<4x6xf32> min 0 max 0 mean 0
// On m1, device d's row shard of the product equals rows [2d, 2d + 2) of
// the replicated copy.
// CHECK-NEXT: output 1: tensor<4x6xf32> min 0 max 0 mean 0
// Per device of m1: its 2x6 shard (48 B) and the whole 4x6 copy (96 B).
// CHECK:      device busy bubble peak memory received
// CHECK-NEXT: m0:0 {{.*}} 0 B
// CHECK-NEXT: m0:1 {{.*}} 0 B
// CHECK-NEXT: m1:0 {{.*}} 144 B
// CHECK-NEXT: m1:1 {{.*}} 144 B

sdy.mesh @mesh0 = <["x"=2]>
sdy.mesh @mesh1 = <["y"=2]>
!a = !mpmd.mesh_tensor<"m0", tensor<4x8xf32>, sharding=<@mesh0, [{}, {"x"}]>>
!w = !mpmd.mesh_tensor<"m0", tensor<8x6xf32>, sharding=<@mesh0, [{"x"}, {}]>>
!r = !mpmd.mesh_tensor<"m0", tensor<4x6xf32>>
!rows = !mpmd.mesh_tensor<"m1", tensor<4x6xf32>, sharding=<@mesh1, [{"y"}, {}]>>
!whole = !mpmd.mesh_tensor<"m1", tensor<4x6xf32>>
func.func @main(%a: !a, %w: !w) -> (!r, !rows)
    attributes {topology = #mpmd.topology<<"m0": <["x"=2]>>, <"m1": <["y"=2]>>>} {
  %ai, %wi = mpmd.fragment_call<mesh="m0", origin=["round"]> @round(%a, %w) : (!a, !w) -> (!a, !w)
  %r = mpmd.fragment_call<mesh="m0", origin=["matmul"]> @matmul_on_shards(%ai, %wi) : (!a, !w) -> !r
  %d = mpmd.fragment_call<mesh="m0", origin=["check"]> @matmul_minus(%ai, %wi, %r) : (!a, !w, !r) -> !r
  %t = mpmd.transfer %r : (!r) -> !rows
  %u = mpmd.transfer %r : (!r) -> !whole
  %e = mpmd.fragment_call<mesh="m1", origin=["compare"]> @shard_minus_rows(%t, %u) : (!rows, !whole) -> !rows
  return %d, %e : !r, !rows
}
// Global types: runs replicated, so a and w are held whole on m0.
func.func @round(%a: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> (tensor<4x8xf32>, tensor<8x6xf32>)
    attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %four = stablehlo.constant dense<4.0> : tensor<4x8xf32>
  %a4 = stablehlo.multiply %a, %four : tensor<4x8xf32>
  %ar = stablehlo.round_nearest_even %a4 : tensor<4x8xf32>
  %four2 = stablehlo.constant dense<4.0> : tensor<8x6xf32>
  %w4 = stablehlo.multiply %w, %four2 : tensor<8x6xf32>
  %wr = stablehlo.round_nearest_even %w4 : tensor<8x6xf32>
  return %ar, %wr : tensor<4x8xf32>, tensor<8x6xf32>
}
// Local types: each device gets its 4x4 columns of a and 4x6 rows of w.
func.func @matmul_on_shards(%a: tensor<4x4xf32>, %w: tensor<4x6xf32>) -> tensor<4x6xf32>
    attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %p = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %r = "stablehlo.all_reduce"(%p) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %sum = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>,
      use_global_device_ids} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
func.func @matmul_minus(%a: tensor<4x8xf32>, %w: tensor<8x6xf32>, %r: tensor<4x6xf32>) -> tensor<4x6xf32>
    attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %p = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %d = stablehlo.subtract %p, %r : tensor<4x6xf32>
  return %d : tensor<4x6xf32>
}
// Device d's 2x6 row shard minus rows [2d, 2d + 2) of the whole value.
func.func @shard_minus_rows(%t: tensor<2x6xf32>, %u: tensor<4x6xf32>) -> tensor<2x6xf32>
    attributes {mesh_shape = #sdy.mesh<["y"=2]>} {
  %p = stablehlo.partition_id : tensor<ui32>
  %pi = stablehlo.convert %p : (tensor<ui32>) -> tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %row = stablehlo.multiply %pi, %two : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %rows = stablehlo.dynamic_slice %u, %row, %zero, sizes = [2, 6] : (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
  %d = stablehlo.subtract %t, %rows : tensor<2x6xf32>
  return %d : tensor<2x6xf32>
}
