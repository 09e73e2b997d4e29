// RUN: mpmd-opt %s -mpmd-lower-to-fragment-calls -split-input-file | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=4]>>>

// Two fragments with the same body on m1 (different locations, origins and
// counters) call one function; the same body on m2 gets its own. Forward-only
// module: no phase suffix. The calls keep origin, mesh, remat and the call
// counter.
// CHECK-LABEL: func.func @same_body_same_mesh
// CHECK-NEXT: %[[A:.*]] = mpmd.fragment_call<mesh="m1", origin=["f"]> @p0_f_calls0to1.main(%arg0) {call_counter = 0 : ui32} : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT: %[[B:.*]] = mpmd.fragment_call<mesh="m1", origin=["g"]> @p0_f_calls0to1.main(%[[A]]) {call_counter = 1 : ui32, remat} : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT: %[[T:.*]] = mpmd.transfer %[[B]]
// CHECK-NEXT: %[[C:.*]] = mpmd.fragment_call<mesh="m2", origin=["f"]> @p1_f_call2.main(%[[T]]) {call_counter = 2 : ui32} :
// CHECK-NEXT: return %[[C]]
// CHECK:      func.func @p0_f_calls0to1.main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %arg0, %arg0 : tensor<4x8xf32>
// CHECK-NEXT:   return %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK:      func.func @p1_f_call2.main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mesh_shape = #sdy.mesh<["x"=4]>} {
// CHECK-NOT:  func.func
func.func @same_body_same_mesh(%arg0: !m1) -> !m2 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) {call_counter = 1 : ui32, remat} (%a: !t) {
    %3 = stablehlo.add %a, %a : !t loc("elsewhere")
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.transfer %2 : (!m1) -> !m2
  %5 = mpmd.fragment<mesh="m2", origin=["f"]> (%4) {call_counter = 2 : ui32} (%a: !t) {
    %6 = stablehlo.add %a, %a : !t
    mpmd.return %6 : !t
  } : (!m2) -> !m2
  return %5 : !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A backward origin anywhere in the module adds phase suffixes; the module
// name loses its `jit_` prefix. The function gets the largest
// reserved_hbm_bytes of its group.
// CHECK-LABEL: module @jit_test_module
// CHECK:      mpmd.fragment_call<mesh="m1", origin=["foo"]> @p0_foo_fwd.test_module
// CHECK-NEXT: mpmd.fragment_call<mesh="m1", origin=["bar"(1)]> @p1_bar_bwd.test_module
// CHECK-NEXT: mpmd.fragment_call<mesh="m1", origin=["foo"]> @p0_foo_fwd.test_module
// CHECK-NEXT: mpmd.fragment_call<mesh="m1", origin=["foo", "foo"(1), "foo"(2)]> @"p2_foo.foo(1).foo(2)_fwd_bwd_transpose2.test_module"
// CHECK: func.func @p0_foo_fwd.test_module({{.*}} attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 256 : i64}
// CHECK: func.func @p1_bar_bwd.test_module({{.*}} attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
// CHECK-NEXT: stablehlo.multiply
// CHECK: func.func @"p2_foo.foo(1).foo(2)_fwd_bwd_transpose2.test_module"(
module @jit_test_module {
func.func @phases_and_module_name(%arg0: !m1) -> (!m1, !m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["foo"]> (%arg0) {reserved_hbm_bytes = 128 : i64} (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["bar"(1)]> (%0) (%a: !t) {
    %3 = stablehlo.multiply %a, %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["foo"]> (%2) {reserved_hbm_bytes = 256 : i64} (%a: !t) {
    %5 = stablehlo.add %a, %a : !t
    mpmd.return %5 : !t
  } : (!m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=["foo", "foo"(1), "foo"(2)]> (%4) (%a: !t) {
    %7 = stablehlo.subtract %a, %a : !t
    mpmd.return %7 : !t
  } : (!m1) -> !m1
  return %0, %2, %4, %6 : !m1, !m1, !m1, !m1
}
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Base names: the stage wins over origins; inferred fragments are
// `inferred`; numbered origins are compressed; the most frequent base name
// of a group is used. Call counters: a descending run, and counters that
// are not a run (no suffix). Inferred fragments have no phase. The calls
// keep the stage as `stage_id`.
// CHECK-LABEL: func.func @base_names_and_call_sites
// CHECK-NEXT: @p0_stage3_fwd_calls2from0.main(%arg0) {call_counter = 2 : ui32, stage_id = 3 : i64}
// CHECK-NEXT: @p0_stage3_fwd_calls2from0.main(%arg0) {call_counter = 1 : ui32, stage_id = 3 : i64}
// CHECK-NEXT: @p0_stage3_fwd_calls2from0.main(%arg0) {call_counter = 0 : ui32, stage_id = 3 : i64}
// CHECK-NEXT: @p1_inferred.main
// CHECK-NEXT: @"p2_f_1:3.loss.f(1)_1:3_fwd_bwd.main"
// CHECK-NEXT: @p3_b_fwd.main
// CHECK-NEXT: @p3_b_fwd.main
// CHECK-NEXT: @p3_b_fwd.main
func.func @base_names_and_call_sites(%arg0: !m1) -> (!m1, !m1, !m1, !m1, !m1, !m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["s"], stage=3> (%arg0) {call_counter = 2 : ui32} (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["s"], stage=3> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    %3 = stablehlo.abs %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["s"], stage=3> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %5 = stablehlo.abs %a : !t
    mpmd.return %5 : !t
  } : (!m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    %7 = stablehlo.negate %a : !t
    mpmd.return %7 : !t
  } : (!m1) -> !m1
  %8 = mpmd.fragment<mesh="m1", origin=["f_1", "f_2", "f_3", "loss", "f_1"(1), "f_2"(1), "f_3"(1)]> (%arg0) (%a: !t) {
    %9 = stablehlo.sine %a : !t
    mpmd.return %9 : !t
  } : (!m1) -> !m1
  %10 = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %11 = stablehlo.cosine %a : !t
    mpmd.return %11 : !t
  } : (!m1) -> !m1
  %12 = mpmd.fragment<mesh="m1", origin=["b"]> (%arg0) {call_counter = 2 : ui32} (%a: !t) {
    %13 = stablehlo.cosine %a : !t
    mpmd.return %13 : !t
  } : (!m1) -> !m1
  %14 = mpmd.fragment<mesh="m1", origin=["b"]> (%arg0) {call_counter = 2 : ui32} (%a: !t) {
    %15 = stablehlo.cosine %a : !t
    mpmd.return %15 : !t
  } : (!m1) -> !m1
  return %0, %2, %4, %6, %8, %10, %12, %14 : !m1, !m1, !m1, !m1, !m1, !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_x = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {?}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Equal bodies with different arg_attrs, or different shardings, do not
// share a function. Per-value attributes and shardings go to the function
// signature.
// CHECK-LABEL: func.func @signature_attrs
// CHECK-NEXT: @p0_f.main
// CHECK-NEXT: @p1_f.main
// CHECK-NEXT: @p2_f.main
// CHECK: func.func @p0_f.main(%arg0: tensor<4x8xf32> {tf.aliasing_output = 0 : i32}) -> (tensor<4x8xf32> {mhlo.memory_kind = "device"})
// CHECK: func.func @p1_f.main(%arg0: tensor<4x8xf32> {jax.buffer_donor = true}) -> tensor<4x8xf32>
// CHECK: func.func @p2_f.main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>})
sdy.mesh @mesh = <["x"=2]>
func.func @signature_attrs(%arg0: !m1, %arg1: !m1_x) -> (!m1, !m1, !m1_x) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {arg_attrs = [{tf.aliasing_output = 0 : i32}], res_attrs = [{mhlo.memory_kind = "device"}]} (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {arg_attrs = [{jax.buffer_donor = true}]} (%a: !t) {
    %3 = stablehlo.abs %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg1) (%a: !t) {
    %5 = stablehlo.abs %a : !t
    mpmd.return %5 : !t
  } : (!m1_x) -> !m1_x
  return %0, %2, %4 : !m1, !m1, !m1_x
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// The name before `.<module>` is cut at 200 characters.
// CHECK-LABEL: func.func @truncation
// CHECK-NEXT: @p0_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.main(
func.func @truncation(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]> (%arg0) {call_counter = 7 : ui32} (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  return %0 : !m1
}
