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
