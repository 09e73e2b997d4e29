// RUN: %partition-and-run %s -mpmd-partition-fragment-bodies -symbol-dce | FileCheck %s
// CHECK-NOT: FAIL

// The fragment callees of an MPMD program, partitioned by
// -mpmd-partition-fragment-bodies and run on every device of their mesh with
// interpreter.run_parallel: each device's results must be its shards of
// what the unpartitioned callee computes. (@program, private and unused once
// partitioned, only drives the pass; symbol-dce removes it.)

sdy.mesh @mesh = <["data"=2, "model"=2]>
#topology = #mpmd.topology<<"m": <["data"=2, "model"=2]>>>

!x = tensor<8x4xf32>
!w1 = tensor<4x8xf32>
!w2 = tensor<8x4xf32>
!mx = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{"data"}, {}]>>
!mw1 = !mpmd.mesh_tensor<"m", tensor<4x8xf32>, sharding=<@mesh, [{}, {"model"}]>>
!mw2 = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{"model"}, {}]>>
!mxr = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{}, {"model"}]>>
!mwf = !mpmd.mesh_tensor<"m", tensor<4x8xf32>, sharding=<@mesh, [{"data"}, {}]>>

func.func private @program(%x: !mx, %w1: !mw1, %w2: !mw2, %xr: !mxr, %wf: !mwf) -> (!mx, !mx, !mx, !mw1)
    attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m", origin=["tp_dp"]> @parallel_tp_dp(%x, %w1, %w2) : (!mx, !mw1, !mw2) -> !mx
  %1 = mpmd.fragment_call<mesh="m", origin=["row"]> @parallel_row(%xr, %w2) : (!mxr, !mw2) -> !mx
  %2 = mpmd.fragment_call<mesh="m", origin=["fsdp"]> @parallel_fsdp(%x, %wf) : (!mx, !mwf) -> !mx
  %3 = mpmd.fragment_call<mesh="m", origin=["constraint"]> @parallel_constraint(%w1) : (!mw1) -> !mw1
  return %0, %1, %2, %3 : !mx, !mx, !mx, !mw1
}

// Megatron MLP with the batch over "data": column-parallel, tanh,
// row-parallel (an all_reduce over "model").
// CHECK: PASS: @main_tp_dp
func.func @parallel_tp_dp(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                          %w1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
                          %w2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) attributes {mesh_shape = #sdy.mesh<["data"=2, "model"=2]>} {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : (!x, !w1) -> tensor<8x8xf32>
  %t = stablehlo.tanh %h {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : tensor<8x8xf32>
  %y = stablehlo.dot_general %t, %w2, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : (tensor<8x8xf32>, !w2) -> !x
  return %y : !x
}

// Row-parallel from an input sharded on its features, with a transposed
// weight: the weight is gathered and sliced to match, the partial products
// are all-reduced over "model", and each device keeps its batch rows.
// CHECK: PASS: @main_row
func.func @parallel_row(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
                        %w2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) attributes {mesh_shape = #sdy.mesh<["data"=2, "model"=2]>} {
  %s = stablehlo.transpose %w2, dims = [1, 0] : (!w2) -> tensor<4x8xf32>
  %y = stablehlo.dot_general %x, %s, contracting_dims = [1] x [0] : (!x, tensor<4x8xf32>) -> tensor<8x8xf32>
  %z = stablehlo.slice %y [0:8, 0:4] : (tensor<8x8xf32>) -> !x
  return %z : !x
}

// FSDP: the weight arrives sharded over "data" and is all-gathered for the
// matmul.
// CHECK: PASS: @main_fsdp
func.func @parallel_fsdp(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                         %w: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) attributes {mesh_shape = #sdy.mesh<["data"=2, "model"=2]>} {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (!x, !w1) -> tensor<8x8xf32>
  %z = stablehlo.slice %h [0:8, 2:6] : (tensor<8x8xf32>) -> !x
  return %z : !x
}

// A sharding constraint inside the body is honoured: the value is moved to
// it (all-to-all) and back to the result's sharding.
// CHECK: PASS: @main_constraint
func.func @parallel_constraint(%w: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>})
    -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) attributes {mesh_shape = #sdy.mesh<["data"=2, "model"=2]>} {
  %c = sdy.sharding_constraint %w <@mesh, [{"data", "model"}, {}]> : !w1
  %n = stablehlo.negate %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data", "model"}, {}]>]>} : !w1
  return %n : !w1
}
