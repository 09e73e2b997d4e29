// A mesh whose topology lists device ids: device d of the mesh runs the
// per-device program as partition d and holds the shard of the position
// listing d, so with device_ids = [1, 0] the shard at position 0 (elements
// 0 and 1) comes from partition 1 (docs/runtime.md, Shards). The program is
// in the form `mpmd compile` gives (a fragment call to an SPMD-partitioned
// callee).
// RUN: mpmd run %s | FileCheck %s
// CHECK: output 0: tensor<4xf32> min 0 max 1 mean 0.5 [1, 1, 0, 0]

#topology = #mpmd.topology<<"m0" : <["x"=2], device_ids=[1, 0]>>>
!sharded = !mpmd.mesh_tensor<"m0", tensor<4xf32>, sharding=<@m0, [{"x"}]>>
module {
  sdy.mesh @m0 = <["x"=2], device_ids=[1, 0]>
  func.func @main() -> !sharded attributes {topology = #topology} {
    %0 = mpmd.fragment_call<mesh="m0", origin=["ids"]> @partition_ids() : () -> !sharded
    return %0 : !sharded
  }
  func.func @partition_ids() -> tensor<2xf32> attributes {mesh_shape = #sdy.mesh<["x"=2], device_ids=[1, 0]>, mpmd.spmd_partitioned} {
    %p = stablehlo.partition_id : tensor<ui32>
    %f = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2xf32>
    return %b : tensor<2xf32>
  }
}
