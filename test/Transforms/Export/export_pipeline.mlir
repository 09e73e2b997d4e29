// RUN: mpmd-opt %s -mpmd-export-pipeline -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not mpmd-opt %s -mpmd-export-pipeline='fail-on-reshard-only-fragments=true fail-on-backward-deps=true' -split-input-file 2>&1 | FileCheck %s --check-prefix=FAIL

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A single fragment whose input the user aliased to output 0: a call of a
// function whose argument reuses its buffer, no other live memory.
// CHECK-LABEL: module @jit_single
// CHECK:      func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {tf.aliasing_output = 0 : i32})
// CHECK-NEXT:   %[[C:.*]] = mpmd.fragment_call<mesh="m1", origin=["f"]> @p0_f.single(%arg0)
// CHECK-NEXT:   return %[[C]]
// CHECK:      func.func @p0_f.single(%arg0: tensor<4x8xf32> {tf.aliasing_output = 0 : i32}) -> tensor<4x8xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 0 : i64} {
// CHECK-NEXT:   stablehlo.add
module @jit_single {
func.func @main(%arg0: !m1 {tf.aliasing_output = 0 : i32}) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  return %0 : !m1
}
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_x = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A fragment that only changes the sharding: a warning, an error with
// fail-on-reshard-only-fragments.
// FAIL: error: reshard-only fragment: @p1_g.main only returns its arguments
// CHECK-LABEL: func.func @reshard_only
// CHECK: mpmd.fragment_call<mesh="m1", origin=["g"]> @p1_g.main
sdy.mesh @mesh = <["x"=2]>
func.func @reshard_only(%arg0: !m1) -> !m1_x attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  // expected-warning @+1 {{reshard-only fragment: @p1_g.main only returns its arguments}}
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1_x
  return %2 : !m1_x
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A forward-only program with an m2 -> m1 dependency.
// FAIL: error: Detected backward dependency in a forward-only program
// CHECK-LABEL: func.func @backward
func.func @backward(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.transfer %arg0 : (!m1) -> !m2
  %1 = mpmd.fragment<mesh="m2", origin=["f"]> (%0) (%a: !t) {
    %2 = stablehlo.add %a, %a : !t
    mpmd.return %2 : !t
  } : (!m2) -> !m2
  %3 = mpmd.transfer %1 : (!m2) -> !m1
  // expected-warning @+1 {{Detected backward dependency in a forward-only program}}
  %4 = mpmd.fragment<mesh="m1", origin=["g"]> (%3) (%a: !t) {
    %5 = stablehlo.multiply %a, %a : !t
    mpmd.return %5 : !t
  } : (!m1) -> !m1
  return %4 : !m1
}

// -----

// A `topology` that is not an #mpmd.topology (here a unit attribute) is the
// user's own attribute: the function is not an MPMD program and the export
// passes leave it alone (found by the export-pipeline fuzzer, which made the
// reserved-memory pass read meshes from it).
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

// CHECK-LABEL: func.func @not_mpmd_topology
// CHECK-SAME: attributes {topology}
// CHECK-NEXT: return %arg0
// CHECK-NOT: xla_tpu_user_reserved_hbm_bytes
func.func @not_mpmd_topology(%arg0: !m1) -> !m1 attributes {topology} {
  return %arg0 : !m1
}
