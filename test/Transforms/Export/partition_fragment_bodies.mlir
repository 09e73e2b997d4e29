// RUN: mpmd-opt %s -mpmd-partition-fragment-bodies -split-input-file | FileCheck %s

// Column-parallel then row-parallel matmul on a mesh of 2 devices (Megatron's
// MLP): the first weight is sharded on its output dimension, the second on its
// input dimension. The callee takes and returns each device's shard; the
// partial products of the second matmul are summed by an all_reduce over both
// devices. @main keeps the global types and their shardings.

!x = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>
!w1 = !mpmd.mesh_tensor<"m1", tensor<4x6xf32>, sharding=<@mesh, [{}, {"x"}]>>
!w2 = !mpmd.mesh_tensor<"m1", tensor<6x4xf32>, sharding=<@mesh, [{"x"}, {}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%arg0: !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4x6xf32>, sharding=<@mesh, [{}, {"x"}]>>, %arg2: !mpmd.mesh_tensor<"m1", tensor<6x4xf32>, sharding=<@mesh, [{"x"}, {}]>>)
// CHECK-NEXT:    mpmd.fragment_call<mesh="m1", origin=["mlp"]> @p0_mlp.main(%arg0, %arg1, %arg2)
// CHECK-SAME:      -> !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>
func.func @main(%x: !x, %w1: !w1, %w2: !w2) -> !x attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m1", origin=["mlp"]> @p0_mlp.main(%x, %w1, %w2) : (!x, !w1, !w2) -> !x
  return %0 : !x
}

// CHECK-LABEL: func.func @p0_mlp.main
// CHECK-SAME:    (%arg0: tensor<8x4xf32>, %arg1: tensor<4x3xf32>, %arg2: tensor<3x4xf32>) -> tensor<8x4xf32>
// CHECK-SAME:    attributes {mesh_shape = #sdy.mesh<["x"=2]>, mpmd.spmd_partitioned}
// CHECK-NEXT:    %[[H:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
// CHECK-NEXT:    %[[T:.*]] = stablehlo.tanh %[[H]] : tensor<8x3xf32>
// CHECK-NEXT:    %[[P:.*]] = stablehlo.dot_general %[[T]], %arg2, contracting_dims = [1] x [0] : (tensor<8x3xf32>, tensor<3x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.all_reduce"(%[[P]])
// CHECK:         replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>
// CHECK:         return %[[S]] : tensor<8x4xf32>
// CHECK-NOT:   sdy.sharding
func.func @p0_mlp.main(%x: tensor<8x4xf32>, %w1: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %w2: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %t = stablehlo.tanh %h {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x6xf32>
  %y = stablehlo.dot_general %t, %w2, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// -----

// Tensor and data parallelism on a mesh of 4 devices (data=2, model=2):
// device d sits at row-major coordinates (d / 2, d % 2), so the all_reduce
// over "model" groups devices {0, 1} and {2, 3}.

!x = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{"data"}, {"model"}]>>
!w = !mpmd.mesh_tensor<"m", tensor<4x6xf32>, sharding=<@mesh, [{"model"}, {}]>>
!y = !mpmd.mesh_tensor<"m", tensor<8x6xf32>, sharding=<@mesh, [{"data"}, {}]>>
#topology = #mpmd.topology<<"m": <["data"=2, "model"=2]>>>
sdy.mesh @mesh = <["data"=2, "model"=2]>

func.func @main(%x: !x, %w: !w) -> !y attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%x, %w) : (!x, !w) -> !y
  return %0 : !y
}

// CHECK-LABEL: func.func @p0_f.main
// CHECK-SAME:    (%arg0: tensor<4x2xf32>, %arg1: tensor<2x6xf32>) -> tensor<4x6xf32>
// CHECK-SAME:    mpmd.spmd_partitioned
// CHECK-NEXT:    %[[P:.*]] = stablehlo.dot_general %arg0, %arg1, {{.*}} : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.all_reduce"(%[[P]])
// CHECK-SAME:    replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>
// CHECK:         return %[[S]] : tensor<4x6xf32>
func.func @p0_f.main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> tensor<8x6xf32> attributes {mesh_shape = #sdy.mesh<["data"=2, "model"=2]>} {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

// A transfer between two meshes whose shardings differ stays in @main with
// global types: moving the shards is the executor's. Each side's callee
// takes or returns its own mesh's shards.

!a = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {}]>>
!b = !mpmd.mesh_tensor<"m2", tensor<8x4xf32>, sharding=<@mesh, [{}, {"x"}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main
// CHECK:         %[[A:.*]] = mpmd.fragment_call<mesh="m1", origin=["f"]> @p0_f.main(%arg0)
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %[[A]] : (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {}]>>) -> !mpmd.mesh_tensor<"m2", tensor<8x4xf32>, sharding=<@mesh, [{}, {"x"}]>>
// CHECK-NEXT:    mpmd.fragment_call<mesh="m2", origin=["g"]> @p1_g.main(%[[T]])
func.func @main(%x: !a) -> !b attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m1", origin=["f"]> @p0_f.main(%x) : (!a) -> !a
  %1 = mpmd.transfer %0 : (!a) -> !b
  %2 = mpmd.fragment_call<mesh="m2", origin=["g"]> @p1_g.main(%1) : (!b) -> !b
  return %2 : !b
}

// CHECK-LABEL: func.func @p0_f.main
// CHECK-SAME:    (%arg0: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    stablehlo.sine %arg0 : tensor<4x4xf32>
func.func @p0_f.main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %0 = stablehlo.sine %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @p1_g.main
// CHECK-SAME:    (%arg0: tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    stablehlo.cosine %arg0 : tensor<8x2xf32>
func.func @p1_g.main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %0 = stablehlo.cosine %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// One callee, called with its values sharded two ways: the second layout
// gets a copy of its own (named by the symbol table), each partitioned for
// its calls' shardings, whatever the callee's signature said before.

!r = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {}]>>
!c = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{}, {"x"}]>>
#topology = #mpmd.topology<<"m": <["x"=2]>>>
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%arg0)
// CHECK-NEXT:    mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main_0(%arg1)
// CHECK-NEXT:    mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%arg0)
func.func @main(%x: !r, %y: !c) -> (!r, !c, !r) attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%x) : (!r) -> !r
  %1 = mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%y) : (!c) -> !c
  %2 = mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%x) : (!r) -> !r
  return %0, %1, %2 : !r, !c, !r
}

// CHECK-LABEL: func.func @p0_f.main(
// CHECK-SAME:    %arg0: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    stablehlo.abs %arg0 : tensor<4x4xf32>
// CHECK-LABEL: func.func @p0_f.main_0(
// CHECK-SAME:    %arg0: tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    stablehlo.abs %arg0 : tensor<8x2xf32>
func.func @p0_f.main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %0 = stablehlo.abs %x : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Left alone: a mesh of one device, and a callee on two devices where
// nothing is sharded (it runs replicated, on global types, as before).

!one = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh1, [{"x"}, {}]>>
!rep = !mpmd.mesh_tensor<"m2", tensor<8x4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=1]>>, <"m2": <["y"=2]>>>
sdy.mesh @mesh1 = <["x"=1]>
sdy.mesh @mesh2 = <["y"=2]>

func.func @main(%x: !one, %y: !rep) -> (!one, !rep) attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m1", origin=["f"]> @p0_f.main(%x) : (!one) -> !one
  %1 = mpmd.fragment_call<mesh="m2", origin=["g"]> @p1_g.main(%y) : (!rep) -> !rep
  return %0, %1 : !one, !rep
}

// CHECK-LABEL: func.func @p0_f.main
// CHECK-SAME:    (%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh1, [{"x"}, {}]>}) -> tensor<8x4xf32>
// CHECK-SAME:    attributes {mesh_shape = #sdy.mesh<["x"=1]>} {
// CHECK-LABEL: func.func @p1_g.main
// CHECK-SAME:    (%arg0: tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-SAME:    attributes {mesh_shape = #sdy.mesh<["y"=2]>} {
func.func @p0_f.main(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh1, [{"x"}, {}]>}) -> tensor<8x4xf32> attributes {mesh_shape = #sdy.mesh<["x"=1]>} {
  %0 = stablehlo.abs %x : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
func.func @p1_g.main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {mesh_shape = #sdy.mesh<["y"=2]>} {
  %0 = stablehlo.abs %x : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Collective pairs are folded after the reshards become collectives
// (`canonicalize` restricted to label `sdy-collective`, as upstream's
// export pipeline): gathering and slicing back on the same axes moves
// nothing.

!v = !mpmd.mesh_tensor<"m", tensor<8xf32>, sharding=<@mesh, [{"x"}]>>
#topology = #mpmd.topology<<"m": <["x"=2]>>>
sdy.mesh @mesh = <["x"=2]>

func.func @main(%v: !v) -> !v attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m", origin=["f"]> @p0_f.main(%v) : (!v) -> !v
  return %0 : !v
}

// CHECK-LABEL: func.func @p0_f.main
// CHECK-SAME:    (%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK-NEXT:    return %[[N]]
func.func @p0_f.main(%v: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %g = sdy.all_gather [{"x"}] %v out_sharding=<@mesh, [{}]> : tensor<8xf32>
  %s = sdy.all_slice [{"x"}] %g out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  %n = stablehlo.negate %s {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %n : tensor<8xf32>
}

// -----

// Data parallelism with a body that carries no shardings (sharding
// propagation over the MPMD program leaves none inside fragments): the body
// is propagated from the batch-sharded argument, so each device normalizes
// its own 4 rows and nothing is gathered.

!x = !mpmd.mesh_tensor<"m", tensor<8x16xf32>, sharding=<@mesh, [{"data"}, {}]>>
#topology = #mpmd.topology<<"m": <["data"=2]>>>
sdy.mesh @mesh = <["data"=2]>

func.func @main(%x: !x) -> !x attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m", origin=["norm"]> @p0_norm.main(%x) : (!x) -> !x
  return %0 : !x
}

// CHECK-LABEL: func.func @p0_norm.main
// CHECK-SAME:    (%arg0: tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-SAME:    mpmd.spmd_partitioned
// CHECK-NOT:     all_gather
// CHECK:         stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NOT:     all_gather
// CHECK:         stablehlo.subtract %arg0, %{{.*}} : tensor<4x16xf32>
// CHECK-NOT:     all_gather
// CHECK:         return
func.func @p0_norm.main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> attributes {mesh_shape = #sdy.mesh<["data"=2]>} {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %mean = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %centered = stablehlo.subtract %x, %mean : tensor<8x16xf32>
  return %centered : tensor<8x16xf32>
}

// -----

// The argument is batch-sharded and the result replicated: the body still
// runs on each device's rows, and the result is gathered once, at the end.

!x = !mpmd.mesh_tensor<"m", tensor<8x16xf32>, sharding=<@mesh, [{"data"}, {}]>>
!y = !mpmd.mesh_tensor<"m", tensor<8x16xf32>>
#topology = #mpmd.topology<<"m": <["data"=2]>>>
sdy.mesh @mesh = <["data"=2]>

func.func @main(%x: !x) -> !y attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m", origin=["act"]> @p0_act.main(%x) : (!x) -> !y
  return %0 : !y
}

// CHECK-LABEL: func.func @p0_act.main
// CHECK-SAME:    (%arg0: tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %[[T:.*]] = stablehlo.tanh %arg0 : tensor<4x16xf32>
// CHECK-NEXT:    %[[E:.*]] = stablehlo.exponential %[[T]] : tensor<4x16xf32>
// CHECK-NEXT:    %[[G:.*]] = "stablehlo.all_gather"(%[[E]])
// CHECK-SAME:      (tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    return %[[G]] : tensor<8x16xf32>
func.func @p0_act.main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> attributes {mesh_shape = #sdy.mesh<["data"=2]>} {
  %t = stablehlo.tanh %x : tensor<8x16xf32>
  %e = stablehlo.exponential %t : tensor<8x16xf32>
  return %e : tensor<8x16xf32>
}

// -----

// A topology mesh with device ids: the sharding's mesh lists the same ids, and
// the collectives group devices by id. Position (a, b) of the 2x2 mesh is
// device ids[2a + b], so the groups over "b" are {0, 2} and {1, 3}.

!x = !mpmd.mesh_tensor<"m", tensor<8x4xf32>>
!w = !mpmd.mesh_tensor<"m", tensor<4x4xf32>, sharding=<@mesh, [{"b"}, {}]>>
!h = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{}, {"b"}]>>
#topology = #mpmd.topology<<"m": <["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>>>
sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>

func.func @main(%h: !h, %w: !w) -> !x attributes {topology = #topology} {
  %0 = mpmd.fragment_call<mesh="m", origin=["proj"]> @p0_proj.main(%h, %w) : (!h, !w) -> !x
  return %0 : !x
}

// CHECK-LABEL: func.func @p0_proj.main
// CHECK-SAME:    (%arg0: tensor<8x2xf32>, %arg1: tensor<2x4xf32>) -> tensor<8x4xf32>
// CHECK-SAME:    attributes {mesh_shape = #sdy.mesh<["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>, mpmd.spmd_partitioned}
// CHECK-NEXT:    %[[P:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x2xf32>, tensor<2x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.all_reduce"(%[[P]])
// CHECK:         replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>
// CHECK:         return %[[S]] : tensor<8x4xf32>
func.func @p0_proj.main(%h: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, %w: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> tensor<8x4xf32> attributes {mesh_shape = #sdy.mesh<["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>} {
  %y = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// -----

// One learning-rate constant shared by the updates of a column-parallel and a
// row-parallel weight (the export's CSE leaves one constant per value): as
// Shardy's propagation pipeline does, each use gets its own copy before the
// body is propagated, so each update keeps its weight's sharding and nothing
// moves. One shared constant takes one of the two shardings and is resharded
// (all_to_all) for the other update; in the transformer example its sharding
// spread from the update back through the gradient of the output projection
// into the residual stream's gradient, which was then sharded by features.

!a = !mpmd.mesh_tensor<"m", tensor<8x4xf32>>
!h = !mpmd.mesh_tensor<"m", tensor<8x4xf32>, sharding=<@mesh, [{}, {"x"}]>>
!col = !mpmd.mesh_tensor<"m", tensor<4x4xf32>, sharding=<@mesh, [{}, {"x"}]>>
!row = !mpmd.mesh_tensor<"m", tensor<4x4xf32>, sharding=<@mesh, [{"x"}, {}]>>
#topology = #mpmd.topology<<"m": <["x"=2]>>>
sdy.mesh @mesh = <["x"=2]>

func.func @main(%a: !a, %h: !h, %w1: !col, %w2: !row) -> (!col, !row) attributes {topology = #topology} {
  %0:2 = mpmd.fragment_call<mesh="m", origin=["sgd"]> @p0_sgd.main(%a, %h, %w1, %w2) : (!a, !h, !col, !row) -> (!col, !row)
  return %0#0, %0#1 : !col, !row
}

// CHECK-LABEL: func.func @p0_sgd.main
// CHECK-SAME:    (%arg0: tensor<8x4xf32>, %arg1: tensor<8x2xf32>, %arg2: tensor<4x2xf32>, %arg3: tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<2x4xf32>)
// CHECK-NOT:     stablehlo.all_
// CHECK-NOT:     stablehlo.collective
// CHECK-DAG:     %[[LR1:.*]] = stablehlo.constant dense<1.000000e-01> : tensor<4x2xf32>
// CHECK-DAG:     %[[LR2:.*]] = stablehlo.constant dense<1.000000e-01> : tensor<2x4xf32>
// CHECK-DAG:     %[[G1:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
// CHECK-DAG:     %[[G2:.*]] = stablehlo.dot_general %arg1, %arg0, contracting_dims = [0] x [0] : (tensor<8x2xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK-DAG:     %[[S1:.*]] = stablehlo.multiply %[[G1]], %[[LR1]] : tensor<4x2xf32>
// CHECK-DAG:     %[[S2:.*]] = stablehlo.multiply %[[G2]], %[[LR2]] : tensor<2x4xf32>
// CHECK-DAG:     %[[N1:.*]] = stablehlo.subtract %arg2, %[[S1]] : tensor<4x2xf32>
// CHECK-DAG:     %[[N2:.*]] = stablehlo.subtract %arg3, %[[S2]] : tensor<2x4xf32>
// CHECK-NOT:     stablehlo.all_
// CHECK-NOT:     stablehlo.collective
// CHECK:         return %[[N1]], %[[N2]] : tensor<4x2xf32>, tensor<2x4xf32>
func.func @p0_sgd.main(%a: tensor<8x4xf32>, %h: tensor<8x4xf32>, %w1: tensor<4x4xf32>, %w2: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %g1 = stablehlo.dot_general %a, %h, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %g2 = stablehlo.dot_general %h, %a, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %lr = stablehlo.constant dense<0.1> : tensor<4x4xf32>
  %s1 = stablehlo.multiply %g1, %lr : tensor<4x4xf32>
  %n1 = stablehlo.subtract %w1, %s1 : tensor<4x4xf32>
  %s2 = stablehlo.multiply %g2, %lr : tensor<4x4xf32>
  %n2 = stablehlo.subtract %w2, %s2 : tensor<4x4xf32>
  return %n1, %n2 : tensor<4x4xf32>, tensor<4x4xf32>
}
