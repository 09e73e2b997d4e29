// RUN: mpmd-opt %s -mpmd-mark-aliasing-and-donation -split-input-file | FileCheck %s --implicit-check-not=arg_attrs

!t = tensor<4x8xf32>
!t2 = tensor<8x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_big = !mpmd.mesh_tensor<"m1", tensor<8x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A user-aliased argument whose type matches no result is donated; an
// intermediate is aliased to the first result of its type; an unmarked
// argument is left alone.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) {arg_attrs = [{jax.buffer_donor = true}, {}]}
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (%{{.*}}) {arg_attrs = [{tf.aliasing_output = 1 : i32}]}
func.func @main(%arg0: !m1 {tf.aliasing_output = 0 : i32}, %arg1: !m1) -> (!m1_big, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !t, %b: !t) {
    %1 = stablehlo.concatenate %a, %b, dim = 0 : (!t, !t) -> !t2
    mpmd.return %1 : !t2
  } : (!m1, !m1) -> !m1_big
  %2:2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: !t2) {
    %3 = stablehlo.slice %a [0:4, 0:8] : (!t2) -> !t
    mpmd.return %3, %a : !t, !t2
  } : (!m1_big) -> (!m1, !m1_big)
  return %2#1, %2#0 : !m1_big, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Two arguments compete for the one output: the first is aliased, the
// second donated. The preferred output is the result reaching output K,
// here result 1 through a transfer-free chain; a value also used later
// (the return) is not marked.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) {arg_attrs = [{tf.aliasing_output = 0 : i32}, {jax.buffer_donor = true}]}
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (%arg2, %{{.*}}) {arg_attrs = [{tf.aliasing_output = 1 : i32}, {}]}
func.func @main(%arg0: !m1 {jax.buffer_donor = true}, %arg1: !m1 {jax.buffer_donor = true}, %arg2: !m1 {tf.aliasing_output = 1 : i32}) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !t, %b: !t) {
    %1 = stablehlo.add %a, %b : !t
    mpmd.return %1 : !t
  } : (!m1, !m1) -> !m1
  %2:2 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg2, %0) (%a: !t, %b: !t) {
    %3 = stablehlo.multiply %a, %b : !t
    mpmd.return %3, %3 : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  return %0, %2#1, %2#0 : !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_host = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, memory_kind="pinned_host">
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Not marked: a host input, an input marked host by arg_attrs, a value
// that also has a transfer user, and a value passed twice. A result on the
// host or with another layout mode is not compatible: the input is donated.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) {arg_attrs = [{}, {mhlo.memory_kind = "pinned_host"}]}
// CHECK:      mpmd.transfer
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (%{{.*}}, %{{.*}}, %{{.*}}) {arg_attrs
// CHECK-SAME: [{}, {}, {}, {jax.buffer_donor = true, mhlo.layout_mode = "default"}], res_attrs = [{mhlo.layout_mode = "auto"}, {}]}
func.func @main(%arg0: !m1_host {jax.buffer_donor = true}, %arg1: !m1 {jax.buffer_donor = true}) -> (!m2, !m1, !m1_host) attributes {topology = #topology} {
  %0:3 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) {arg_attrs = [{}, {mhlo.memory_kind = "pinned_host"}]} (%a: !t, %b: !t) {
    %1 = stablehlo.add %a, %b : !t
    mpmd.return %1, %1, %1 : !t, !t, !t
  } : (!m1_host, !m1) -> (!m1, !m1, !m1)
  %2 = mpmd.transfer %0#0 : (!m1) -> !m2
  %3:2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0#0, %0#1, %0#1, %0#2) {arg_attrs = [{}, {}, {}, {mhlo.layout_mode = "default"}], res_attrs = [{mhlo.layout_mode = "auto"}, {}]} (%a: !t, %b: !t, %c: !t, %d: !t) {
    %4 = stablehlo.add %a, %b : !t
    %5 = stablehlo.add %4, %c : !t
    %6 = stablehlo.add %5, %d : !t
    mpmd.return %6, %6 : !t, !t
  } : (!m1, !m1, !m1, !m1) -> (!m1, !m1_host)
  return %2, %3#0, %3#1 : !m2, !m1, !m1_host
}
