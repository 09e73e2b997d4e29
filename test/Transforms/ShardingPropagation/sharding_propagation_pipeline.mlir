// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -mpmd-sharding-propagation-pipeline | FileCheck %s

// The engine runs over the whole program: @main's input shardings enter
// fragment m1 through its block arguments, the dot_general combines the
// batch sharding of %arg0 with the column sharding of %arg1, the result
// leaves the fragment, crosses the transfer (both meshes have one shape, so
// the transfer is pointwise) and reaches fragment g on m2 and @main's
// output. Everything lands in the mesh tensor types.
sdy.mesh @mesh = <["x"=2, "y"=2]>
!a = tensor<8x4xf32>
!w = tensor<4x6xf32>
!r = tensor<8x6xf32>
#topology = #mpmd.topology<<"m1": <["x"=2, "y"=2]>>, <"m2": <["x"=2, "y"=2]>>>

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {}]>>
// CHECK-SAME:    %arg1: !mpmd.mesh_tensor<"m1", tensor<4x6xf32>, sharding=<@mesh, [{}, {"y"}]>>
// CHECK-SAME:    -> !mpmd.mesh_tensor<"m2", tensor<8x6xf32>, sharding=<@mesh, [{"x"}, {"y"}]>>
// CHECK:       %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1)
// CHECK-NOT:     sdy.sharding
// CHECK:       } : (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {}]>>, !mpmd.mesh_tensor<"m1", tensor<4x6xf32>, sharding=<@mesh, [{}, {"y"}]>>) -> !mpmd.mesh_tensor<"m1", tensor<8x6xf32>, sharding=<@mesh, [{"x"}, {"y"}]>>
// CHECK-NEXT:  %[[T:.*]] = mpmd.transfer %[[F]] : (!mpmd.mesh_tensor<"m1", tensor<8x6xf32>, sharding=<@mesh, [{"x"}, {"y"}]>>) -> !mpmd.mesh_tensor<"m2", tensor<8x6xf32>, sharding=<@mesh, [{"x"}, {"y"}]>>
// CHECK-NEXT:  %[[G:.*]] = mpmd.fragment<mesh="m2", origin=["g"]> (%[[T]])
// CHECK:       } : (!mpmd.mesh_tensor<"m2", tensor<8x6xf32>, sharding=<@mesh, [{"x"}, {"y"}]>>) -> !mpmd.mesh_tensor<"m2", tensor<8x6xf32>, sharding=<@mesh, [{"x"}, {"y"}]>>
// CHECK-NEXT:  return %[[G]]
func.func @main(%arg0: !mpmd.mesh_tensor<"m1", !a> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: !mpmd.mesh_tensor<"m1", !w> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> !mpmd.mesh_tensor<"m2", !r> attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !a, %w: !w) {
    %d = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (!a, !w) -> !r
    %e = stablehlo.tanh %d : !r
    mpmd.return %e : !r
  } : (!mpmd.mesh_tensor<"m1", !a>, !mpmd.mesh_tensor<"m1", !w>) -> !mpmd.mesh_tensor<"m1", !r>
  %1 = mpmd.transfer %0 : (!mpmd.mesh_tensor<"m1", !r>) -> !mpmd.mesh_tensor<"m2", !r>
  %2 = mpmd.fragment<mesh="m2", origin=["g"]> (%1) (%a: !r) {
    %n = stablehlo.negate %a : !r
    mpmd.return %n : !r
  } : (!mpmd.mesh_tensor<"m2", !r>) -> !mpmd.mesh_tensor<"m2", !r>
  return %2 : !mpmd.mesh_tensor<"m2", !r>
}

// -----

// Backwards: a sharding constraint in the last fragment reaches the first
// fragment's operand and @main's input across the transfer; the closed
// user sharding of the output is kept (dimension 1 stays unsharded
// although the constraint shards it on "y" inside g).
sdy.mesh @mesh = <["x"=2, "y"=2]>
!t = tensor<8x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2, "y"=2]>>, <"m2": <["x"=2, "y"=2]>>>

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<8x8xf32>, sharding=<@mesh, [{"y"}, {"x"}]>>
// CHECK-SAME:    -> !mpmd.mesh_tensor<"m2", tensor<8x8xf32>, sharding=<@mesh, [{"y"}, {}]>>
// CHECK:       mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK:       } : (!mpmd.mesh_tensor<"m1", tensor<8x8xf32>, sharding=<@mesh, [{"y"}, {"x"}]>>) -> !mpmd.mesh_tensor<"m1", tensor<8x8xf32>, sharding=<@mesh, [{"y"}, {"x"}]>>
// CHECK:       mpmd.transfer
// CHECK-SAME:    -> !mpmd.mesh_tensor<"m2", tensor<8x8xf32>, sharding=<@mesh, [{"y"}, {"x"}]>>
// CHECK:       mpmd.fragment<mesh="m2", origin=["g"]>
// CHECK:       } : (!mpmd.mesh_tensor<"m2", tensor<8x8xf32>, sharding=<@mesh, [{"y"}, {"x"}]>>) -> !mpmd.mesh_tensor<"m2", tensor<8x8xf32>, sharding=<@mesh, [{"y"}, {}]>>
func.func @main(%arg0: !m1) -> (!m2 {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %e = stablehlo.exponential %a : !t
    mpmd.return %e : !t
  } : (!m1) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["g"]> (%1) (%a: !t) {
    %c = sdy.sharding_constraint %a <@mesh, [{"y"}, {"x"}]> : !t
    %n = stablehlo.negate %c : !t
    mpmd.return %n : !t
  } : (!m2) -> !m2
  return %2 : !m2
}

// -----

// Meshes of different shapes share no axes: the transfer from m1 (x=2) to
// m2 (y=4) has no rule, so each side keeps its own shardings and m2 stays
// replicated.
sdy.mesh @m1 = <["x"=2]>
sdy.mesh @m2 = <["y"=4]>
!t = tensor<8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["y"=4]>>>

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<8xf32>, sharding=<@m1, [{"x"}]>>
// CHECK-SAME:    -> !mpmd.mesh_tensor<"m2", tensor<8xf32>>
// CHECK:       } : (!mpmd.mesh_tensor<"m1", tensor<8xf32>, sharding=<@m1, [{"x"}]>>) -> !mpmd.mesh_tensor<"m1", tensor<8xf32>, sharding=<@m1, [{"x"}]>>
// CHECK-NEXT:  mpmd.transfer {{.*}} -> !mpmd.mesh_tensor<"m2", tensor<8xf32>>
// CHECK:       } : (!mpmd.mesh_tensor<"m2", tensor<8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<8xf32>>
func.func @main(%arg0: !m1 {sdy.sharding = #sdy.sharding<@m1, [{"x"}]>}) -> !m2
    attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %e = stablehlo.abs %a : !t
    mpmd.return %e : !t
  } : (!m1) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["g"]> (%1) (%a: !t) {
    %n = stablehlo.negate %a : !t
    mpmd.return %n : !t
  } : (!m2) -> !m2
  return %2 : !m2
}

// -----

// An mpmd.for carries shardings like a while: the loop-carried value takes
// the input's sharding (operand, block argument, result), and so do the
// fragment in the body and the output.
sdy.mesh @mesh = <["x"=2]>
!t = tensor<4x2xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{"x"}, {}]>>
// CHECK-SAME:    -> !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{"x"}, {}]>>
// CHECK:       %[[L:.*]] = mpmd.for (%arg0) {iterations = 3 : ui32, unroll_factor = 3 : ui32} (%[[X:.*]]: !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{"x"}, {}]>>, %index: tensor<ui32>)
// CHECK:         mpmd.fragment<mesh="m1", origin=["body"]> (%[[X]])
// CHECK:         } : (!mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{"x"}, {}]>>) -> !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{"x"}, {}]>>
// CHECK:       } : !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{"x"}, {}]>>
// CHECK-NOT:   sdy.sharding =
func.func @main(%arg0: !m1 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> !m1
    attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 3 : ui32, unroll_factor = 3 : ui32} (%x: !m1, %index: tensor<ui32>) {
    %1 = mpmd.fragment<mesh="m1", origin=["body"]> (%x) (%a: !t) {
      %s = stablehlo.sine %a : !t
      mpmd.return %s : !t
    } : (!m1) -> !m1
    mpmd.return %1 : !m1
  } : !m1
  return %0 : !m1
}

// -----

// The pipeline is Shardy's whole propagation pipeline, import included: the
// in_shardings of a manual computation (shard_map) inside a fragment dictate
// the sharding of its operands. The operand is a fragment block argument (a
// data-flow edge target), so the sharding arrives through a new constraint
// at the top of the body, and from there reaches the fragment's operand and
// @main's argument; the replicated weight stays replicated.
sdy.mesh @mesh = <["data"=2]>
#topology = #mpmd.topology<<"m0": <["data"=2]>>>

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m0", tensor<8x4xf32>>
// CHECK-SAME:    %arg1: !mpmd.mesh_tensor<"m0", tensor<8x8xf32>, sharding=<@mesh, [{"data"}, {}]>>
// CHECK:       mpmd.fragment<mesh="m0", origin=["step"]> (%arg0, %arg1) (%[[W:.*]]: tensor<8x4xf32>, %[[X:.*]]: tensor<8x8xf32>)
// CHECK-NEXT:    %[[CW:.*]] = sdy.sharding_constraint %[[W]] <@mesh, [{}, {}]>
// CHECK-NEXT:    %[[CX:.*]] = sdy.sharding_constraint %[[X]] <@mesh, [{"data"}, {}]>
// CHECK-NEXT:    sdy.manual_computation(%[[CW]], %[[CX]])
func.func @main(%w: !mpmd.mesh_tensor<"m0", tensor<8x4xf32>>,
                %x: !mpmd.mesh_tensor<"m0", tensor<8x8xf32>>)
    -> !mpmd.mesh_tensor<"m0", tensor<8x4xf32>> attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m0", origin=["step"]> (%w, %x) (%iw: tensor<8x4xf32>, %ix: tensor<8x8xf32>) {
    %1 = sdy.manual_computation(%iw, %ix) in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"data"} (%lw: tensor<8x4xf32>, %lx: tensor<4x8xf32>) {
      %y = stablehlo.dot_general %lx, %lw, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
      %g = stablehlo.dot_general %lx, %y, contracting_dims = [0] x [0] : (tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
      %s = "stablehlo.all_reduce"(%g) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %sum : tensor<f32>
      }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
      %new = stablehlo.subtract %lw, %s : tensor<8x4xf32>
      sdy.return %new : tensor<8x4xf32>
    } : (tensor<8x4xf32>, tensor<8x8xf32>) -> tensor<8x4xf32>
    mpmd.return %1 : tensor<8x4xf32>
  } : (!mpmd.mesh_tensor<"m0", tensor<8x4xf32>>, !mpmd.mesh_tensor<"m0", tensor<8x8xf32>>) -> !mpmd.mesh_tensor<"m0", tensor<8x4xf32>>
  return %0 : !mpmd.mesh_tensor<"m0", tensor<8x4xf32>>
}
