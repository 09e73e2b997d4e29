// RUN: mpmd-opt %s -mpmd-partition-fragment-bodies -split-input-file -verify-diagnostics

// A sharding in the body on a mesh whose axes are not the call's mesh.

!x = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {}]>>
#topology = #mpmd.topology<<"m": <["x"=2]>>>
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @other = <["y"=2]>

func.func @main(%x: !x) -> !x attributes {topology = #topology} {
  // expected-error @+1 {{cannot be SPMD-partitioned: callee @p0_f.main has sharding #sdy.sharding<@other, [{"y"}, {}]>, whose mesh #sdy.mesh<["y"=2]> is not mesh "m" #sdy.mesh<["x"=2]> of the topology (same axes and device ids)}}
  %0 = mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%x) : (!x) -> !x
  return %0 : !x
}
func.func @p0_f.main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %0 = stablehlo.abs %x {sdy.sharding = #sdy.sharding_per_value<[<@other, [{"y"}, {}]>]>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// The same axes in another device order: device d would not be the
// executor's device d.

!x = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {}]>>
#topology = #mpmd.topology<<"m": <["x"=2]>>>
sdy.mesh @mesh = <["x"=2], device_ids=[1, 0]>

func.func @main(%x: !x) -> !x attributes {topology = #topology} {
  // expected-error @+1 {{whose mesh #sdy.mesh<["x"=2], device_ids=[1, 0]> is not mesh "m"}}
  %0 = mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%x) : (!x) -> !x
  return %0 : !x
}
func.func @p0_f.main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %0 = stablehlo.abs %x : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A topology mesh with device ids and a sharding mesh in iota order: the
// shards would land on the wrong devices.

!x = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {}]>>
#topology = #mpmd.topology<<"m": <["x"=2], device_ids=[1, 0]>>>
sdy.mesh @mesh = <["x"=2]>

func.func @main(%x: !x) -> !x attributes {topology = #topology} {
  // expected-error @+1 {{whose mesh #sdy.mesh<["x"=2]> is not mesh "m" #sdy.mesh<["x"=2], device_ids=[1, 0]> of the topology (same axes and device ids)}}
  %0 = mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%x) : (!x) -> !x
  return %0 : !x
}
func.func @p0_f.main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {mesh_shape = #sdy.mesh<["x"=2], device_ids=[1, 0]>} {
  %0 = stablehlo.abs %x : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Partial sums (unreduced axes) at a fragment's boundary.

!x = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {}]>>
!u = !mpmd.mesh_tensor<"m", tensor<4x4xf32>, sharding=<@mesh, [{}, {}], unreduced={"x"}>>
#topology = #mpmd.topology<<"m": <["x"=2]>>>
sdy.mesh @mesh = <["x"=2]>

func.func @main(%x: !x, %w: !x) -> !u attributes {topology = #topology} {
  // expected-error @+1 {{cannot be SPMD-partitioned: result 0 has sharding #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>, whose unreduced axes would make the fragment take or return partial sums; values cross fragment boundaries reduced (reduce it inside the fragment)}}
  %0 = mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%x, %w) : (!x, !x) -> !u
  return %0 : !u
}
func.func @p0_f.main(%x: tensor<8x4xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// The partitioner's own error names the op; the call says which fragment
// could not be partitioned. (A reduction over every device of a mesh too
// large to list in a replica group.)

!x = !mpmd.mesh_tensor<"m", tensor<2097152xf32>, sharding=<@mesh, [{"x"}]>>
!s = !mpmd.mesh_tensor<"m", tensor<f32>>
#topology = #mpmd.topology<<"m": <["x"=2097152]>>>
sdy.mesh @mesh = <["x"=2097152]>

func.func @main(%x: !x) -> !s attributes {topology = #topology} {
  // expected-error @+1 {{cannot be SPMD-partitioned over the 2097152 devices of mesh "m": the partitioner failed on callee @p0_f.main (see the error above)}}
  %0 = mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%x) : (!x) -> !s
  return %0 : !s
}
func.func @p0_f.main(%x: tensor<2097152xf32>) -> tensor<f32> attributes {mesh_shape = #sdy.mesh<["x"=2097152]>} {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{mesh of 2097152 devices is too large to list its devices (at most 1048576)}}
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<2097152xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
