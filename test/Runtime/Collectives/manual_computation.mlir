// sdy.manual_computation on global values (the unpartitioned program the
// partitioned one is compared with): the body runs as partition d of a
// 1 x N grid for each device id d of the mesh, on the part of each operand
// the manual axes give that device; its collectives meet as under
// run_parallel; each shard of a result comes from the first device holding
// it (docs/runtime.md).
// RUN: not mpmd interpret %s --split-input-file 2>&1 | FileCheck %s

sdy.mesh @grid = <["x"=2, "y"=2]>

// Manual over "x" only: the body sees rows split by "x", columns whole ("y"
// is free). Positions (x, y) hold ids 0, 1, 2, 3; the rows of x = 1 come
// from the first device there, id 2.
// CHECK: PASS: @free_axis_stays_whole
func.func @free_axis_stays_whole() {
  %a = stablehlo.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]> : tensor<4x4xf32>
  %0 = sdy.manual_computation(%a) in_shardings=[<@grid, [{"x"}, {"y"}]>] out_shardings=[<@grid, [{"x"}, {}]>] manual_axes={"x"} (%local: tensor<2x4xf32>) {
    %p = stablehlo.partition_id : tensor<ui32>
    %f = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %s = stablehlo.add %local, %b : tensor<2x4xf32>
    sdy.return %s : tensor<2x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  check.expect_eq_const %0, dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [10.0, 11.0, 12.0, 13.0], [14.0, 15.0, 16.0, 17.0]]> : tensor<4x4xf32>
  func.return
}

// A collective over the manual axis names global device ids: the groups
// along "x" are [0, 2] and [1, 3]. The result is replicated over "x".
// CHECK: PASS: @all_reduce_over_manual_axis
func.func @all_reduce_over_manual_axis() {
  %a = stablehlo.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]> : tensor<4x2xf32>
  %0 = sdy.manual_computation(%a) in_shardings=[<@grid, [{"x"}, {}]>] out_shardings=[<@grid, [{}, {}]>] manual_axes={"x"} (%local: tensor<2x2xf32>) {
    %r = "stablehlo.all_reduce"(%local) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %sum = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
    sdy.return %r : tensor<2x2xf32>
  } : (tensor<4x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %0, dense<[[4.0, 6.0], [8.0, 10.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// Device ids in reverse: position 0 is device 1. partition_id and the
// permute's pairs name ids, so position 0 adds 1 and receives the shard of
// device 0, which sits at position 1.
sdy.mesh @reversed = <["x"=2], device_ids=[1, 0]>

// CHECK: PASS: @reversed_device_ids
func.func @reversed_device_ids() {
  %a = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %0:2 = sdy.manual_computation(%a) in_shardings=[<@reversed, [{"x"}]>] out_shardings=[<@reversed, [{"x"}]>, <@reversed, [{"x"}]>] manual_axes={"x"} (%local: tensor<2xf32>) {
    %p = stablehlo.partition_id : tensor<ui32>
    %f = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %s = stablehlo.add %local, %b : tensor<2xf32>
    %q = "stablehlo.collective_permute"(%local) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %s, %q : tensor<2xf32>, tensor<2xf32>
  } : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  check.expect_eq_const %0#0, dense<[1.0, 2.0, 2.0, 3.0]> : tensor<4xf32>
  check.expect_eq_const %0#1, dense<[2.0, 3.0, 0.0, 1.0]> : tensor<4xf32>
  func.return
}

// -----

// A process of a parallel run holds per-device values: a manual computation
// there is the partitioner's to inline, not the interpreter's to split.
sdy.mesh @mesh = <["x"=2]>

func.func private @negate(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: manual_computation.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: 'sdy.manual_computation' op on global values cannot run in process (0, {{[01]}}) of a grid of 2 (a parallel run or a mesh of several devices), whose values are per device: a partitioned program has it inlined
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%local: tensor<1xf32>) {
    %n = stablehlo.negate %local : tensor<1xf32>
    sdy.return %n : tensor<1xf32>
  } : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @inside_run_parallel() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@negate, @negate]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}
// CHECK: FAIL: @inside_run_parallel: cannot be interpreted

// -----

// Without operands or results no sharding names the mesh to run on.
func.func @no_mesh() {
  // CHECK: manual_computation.mlir:{{[0-9]+}} offset :{{[0-9]+}}:3: error: 'sdy.manual_computation' op has no operands or results, so no mesh to run its body on
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    sdy.return
  } : () -> ()
  func.return
}
// CHECK: FAIL: @no_mesh: cannot be interpreted
