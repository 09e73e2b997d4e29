// Programs in the form JAX exports shard_map (sdy.manual_computation over
// every mesh axis, StableHLO collectives with replica groups of global
// device ids and channel handles, partition_id, a named computation inside
// the body) on a mesh of 2 device(s), partitioned by upstream's partitioner
// sequence and run on 2 partition(s) against the same math written without
// shard_map (@sequential_*). The same programs on 1, 2 and 4 devices:
// shard_map_exec_{1,2,4}.mlir.
// RUN: %partition-and-run %s -sdy-export-named-computations -sdy-insert-explicit-reshards=enable-full-version=true -sdy-resolve-permutation-factors -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-resolve-single-device-sharding -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL

sdy.mesh @mesh = <["data"=2]>

// A data-parallel SGD step of a linear model with loss |x w|^2 / 2, as JAX
// exports `shard_map` over "data": each device computes the gradient of its
// batch shard, an all-reduce over the data axis sums them.
// CHECK-DAG: PASS: @main_dp_step
func.func @parallel_dp_step(%w: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.manual_computation(%w, %x) in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"data"} (%lw: tensor<8x4xf32>, %lx: tensor<4x8xf32>) {
    %milli = stablehlo.constant dense<1.0e-3> : tensor<8x4xf32>
    %milli_x = stablehlo.constant dense<1.0e-3> : tensor<4x8xf32>
    %sw = stablehlo.multiply %lw, %milli : tensor<8x4xf32>
    %sx = stablehlo.multiply %lx, %milli_x : tensor<4x8xf32>
    %y = stablehlo.dot_general %sx, %sw, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %g = stablehlo.dot_general %sx, %y, contracting_dims = [0] x [0] : (tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %s = "stablehlo.all_reduce"(%g) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %sum = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %lr = stablehlo.constant dense<1.0e-2> : tensor<8x4xf32>
    %step = stablehlo.multiply %s, %lr : tensor<8x4xf32>
    %new = stablehlo.subtract %sw, %step : tensor<8x4xf32>
    sdy.return %new : tensor<8x4xf32>
  } : (tensor<8x4xf32>, tensor<8x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

func.func @sequential_dp_step(%w: tensor<8x4xf32>, %x: tensor<8x8xf32>) -> tensor<8x4xf32> {
  %milli = stablehlo.constant dense<1.0e-3> : tensor<8x4xf32>
  %milli_x = stablehlo.constant dense<1.0e-3> : tensor<8x8xf32>
  %sw = stablehlo.multiply %w, %milli : tensor<8x4xf32>
  %sx = stablehlo.multiply %x, %milli_x : tensor<8x8xf32>
  %y = stablehlo.dot_general %sx, %sw, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %g = stablehlo.dot_general %sx, %y, contracting_dims = [0] x [0] : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %lr = stablehlo.constant dense<1.0e-2> : tensor<8x4xf32>
  %step = stablehlo.multiply %g, %lr : tensor<8x4xf32>
  %new = stablehlo.subtract %sw, %step : tensor<8x4xf32>
  return %new : tensor<8x4xf32>
}

// FSDP-style: the weight is sharded over "data" too and all-gathered inside
// the body before the matmul; the result stays sharded by batch.
// CHECK-DAG: PASS: @main_fsdp_matmul
func.func @parallel_fsdp_matmul(%w: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
    -> (tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
  %0 = sdy.manual_computation(%w, %x) in_shardings=[<@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%lw: tensor<4x2xf32>, %lx: tensor<4x8xf32>) {
    %full = "stablehlo.all_gather"(%lw) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<4x2xf32>) -> tensor<8x2xf32>
    %y = stablehlo.dot_general %lx, %full, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    sdy.return %y : tensor<4x2xf32>
  } : (tensor<8x2xf32>, tensor<8x8xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

func.func @sequential_fsdp_matmul(%w: tensor<8x2xf32>, %x: tensor<8x8xf32>) -> tensor<8x2xf32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x2xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}

// A pipeline written by hand with shard_map: stage k holds layer k's weight
// and activation; each step applies the layer (a named computation inside
// the manual computation), scales it by the stage number read from
// partition_id, and passes it on around the ring with a collective_permute.
// CHECK-DAG: PASS: @main_ring_step
func.func @parallel_ring_step(%w: tensor<2x2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %a: tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
    -> (tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
  %0 = sdy.manual_computation(%w, %a) in_shardings=[<@mesh, [{"data"}, {}, {}]>, <@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%lw: tensor<1x2x2xf32>, %la: tensor<1x2xf32>) {
    %b = sdy.named_computation<"layer">(%lw, %la) (%nw: tensor<1x2x2xf32>, %na: tensor<1x2xf32>) {
      %milli = stablehlo.constant dense<1.0e-3> : tensor<1x2xf32>
      %sa = stablehlo.multiply %na, %milli : tensor<1x2xf32>
      %z = stablehlo.dot_general %sa, %nw, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<1x2xf32>, tensor<1x2x2xf32>) -> tensor<1x2xf32>
      %h = stablehlo.tanh %z : tensor<1x2xf32>
      sdy.return %h : tensor<1x2xf32>
    } : (tensor<1x2x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
    %pid = stablehlo.partition_id : tensor<ui32>
    %fpid = stablehlo.convert %pid : (tensor<ui32>) -> tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %stage = stablehlo.add %fpid, %one : tensor<f32>
    %scale = stablehlo.broadcast_in_dim %stage, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
    %c = stablehlo.multiply %b, %scale : tensor<1x2xf32>
    %next = "stablehlo.collective_permute"(%c) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<1x2xf32>) -> tensor<1x2xf32>
    sdy.return %next : tensor<1x2xf32>
  } : (tensor<2x2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

func.func @sequential_ring_step(%w: tensor<2x2x2xf32>, %a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %milli = stablehlo.constant dense<1.0e-3> : tensor<2x2xf32>
  %sa = stablehlo.multiply %a, %milli : tensor<2x2xf32>
  %z = stablehlo.dot_general %sa, %w, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2xf32>
  %h = stablehlo.tanh %z : tensor<2x2xf32>
  %iota = stablehlo.iota dim = 0 : tensor<2x2xf32>
  %one = stablehlo.constant dense<1.0> : tensor<2x2xf32>
  %stage = stablehlo.add %iota, %one : tensor<2x2xf32>
  %c = stablehlo.multiply %h, %stage : tensor<2x2xf32>
  %last = stablehlo.slice %c [1:2, 0:2] : (tensor<2x2xf32>) -> tensor<1x2xf32>
  %rest = stablehlo.slice %c [0:1, 0:2] : (tensor<2x2xf32>) -> tensor<1x2xf32>
  %rolled = stablehlo.concatenate %last, %rest, dim = 0 : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  return %rolled : tensor<2x2xf32>
}
