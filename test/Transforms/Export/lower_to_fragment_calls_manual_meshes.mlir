// RUN: mpmd-opt %s -mpmd-lower-to-fragment-calls -split-input-file -verify-diagnostics | FileCheck %s

// Mesh symbols around export (G12): the manual computations of an outlined
// fragment body run on the fragment's mesh, so their shardings name it
// (@m1 here, a mesh created at the top of the module with the topology's
// shape). An inlined mesh stays inlined; the signature shardings of the
// outlined function keep their mesh (@jax_mesh).

// CHECK-LABEL: module
// CHECK-NEXT:    sdy.mesh @m1 = <["x"=2]>
// CHECK-NEXT:    sdy.mesh @jax_mesh = <["x"=2]>
// CHECK:       func.func @p0_f_call0.main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@jax_mesh, [{"x"}, {}]>})
// CHECK-NEXT:    sdy.manual_computation(%arg0) in_shardings=[<@m1, [{"x"}, {}]>] out_shardings=[<@m1, [{"x"}, {}]>] manual_axes={"x"}
// CHECK:         sdy.manual_computation(%{{.*}}) in_shardings=[<mesh<["x"=2]>, [{}, {}]>] out_shardings=[<mesh<["x"=2]>, [{}, {}]>] manual_axes={}

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@jax_mesh, [{"x"}, {}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

sdy.mesh @jax_mesh = <["x"=2]>

func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %1 = sdy.manual_computation(%a) in_shardings=[<@jax_mesh, [{"x"}, {}]>] out_shardings=[<@jax_mesh, [{"x"}, {}]>] manual_axes={"x"} (%l: tensor<2x8xf32>) {
      %2 = stablehlo.add %l, %l : tensor<2x8xf32>
      sdy.return %2 : tensor<2x8xf32>
    } : (!t) -> !t
    %3 = sdy.manual_computation(%1) in_shardings=[<mesh<["x"=2]>, [{}, {}]>] out_shardings=[<mesh<["x"=2]>, [{}, {}]>] manual_axes={} (%l: !t) {
      sdy.return %l : !t
    } : (!t) -> !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  return %0 : !m1
}

// -----

// The fragment's mesh already has an sdy.mesh: it is reused, not repeated.

// CHECK-LABEL: module
// CHECK-NEXT:    sdy.mesh @m1 = <["x"=2]>
// CHECK-NEXT:    sdy.mesh @other = <["x"=2]>
// CHECK-NOT:     sdy.mesh @
// CHECK:         sdy.manual_computation(%arg0) in_shardings=[<@m1, [{"x"}]>] out_shardings=[<@m1, [{"x"}]>]

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

sdy.mesh @m1 = <["x"=2]>
sdy.mesh @other = <["x"=2]>

func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %1 = sdy.manual_computation(%a) in_shardings=[<@other, [{"x"}]>] out_shardings=[<@other, [{"x"}]>] manual_axes={"x"} (%l: tensor<2xf32>) {
      sdy.return %l : tensor<2xf32>
    } : (!t) -> !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  return %0 : !m1
}

// -----

// A symbol named like the mesh that is not an sdy.mesh cannot be used.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

sdy.mesh @other = <["x"=2]>

func.func private @m1()

func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  // expected-error @+1 {{the manual computations of this outlined fragment run on mesh "m1", but the module's symbol @m1 is not an sdy.mesh}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %1 = sdy.manual_computation(%a) in_shardings=[<@other, [{"x"}]>] out_shardings=[<@other, [{"x"}]>] manual_axes={"x"} (%l: tensor<2xf32>) {
      sdy.return %l : tensor<2xf32>
    } : (!t) -> !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  return %0 : !m1
}
