// RUN: mpmd-opt %s -mpmd-mark-fragment-reserved-memory -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=1]>>, <"m2": <["x"=1]>>>

// 4x8xf32 = 128 bytes per device. A fragment consuming only the argument
// reserves 0; intermediates stay alive (128, then 256); a duplicated
// operand counts once; operands are freed after their last use. The transfer moves 128 bytes to m2, whose fragment sees
// nothing else live there.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[A:.*]] = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) {reserved_hbm_bytes = 0 : i64}
// CHECK:      %[[B:.*]] = mpmd.fragment<mesh="m1", origin=["b"]> (%arg0) {reserved_hbm_bytes = 128 : i64}
// CHECK:      mpmd.fragment<mesh="m1", origin=["c"]> (%arg0) {reserved_hbm_bytes = 256 : i64}
// CHECK:      mpmd.fragment<mesh="m1", origin=["d"]> (%[[A]], %[[A]], %[[B]]) {reserved_hbm_bytes = 256 : i64}
// CHECK:      mpmd.fragment<mesh="m1", origin=["e"]> (%arg0) {reserved_hbm_bytes = 256 : i64}
// CHECK:      mpmd.transfer
// CHECK:      mpmd.fragment<mesh="m2", origin=["f"]> (%{{.*}}) {reserved_hbm_bytes = 0 : i64}
func.func @main(%arg0: !m1) -> (!m1, !m1, !m2) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["b"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["c"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["d"]> (%0, %0, %1) (%x: !t, %y: !t, %z: !t) {
    mpmd.return %x : !t
  } : (!m1, !m1, !m1) -> !m1
  // Live: %arg0, %2, %3 (128 each; %0 and %1 died in "d"); the operand is
  // %arg0.
  %4 = mpmd.fragment<mesh="m1", origin=["e"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %5 = mpmd.transfer %4 : (!m1) -> !m2
  %6 = mpmd.fragment<mesh="m2", origin=["f"]> (%5) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  return %2, %3, %6 : !m1, !m1, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_x = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
!m1_host = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, memory_kind="pinned_host">
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Sizes are per device (a sharded 4x8xf32 is 64 bytes on 2 devices); host
// values and donated unused arguments do not count; a donated argument is
// freed after its last use, an undonated one is not.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) {reserved_hbm_bytes = 128 : i64}
// CHECK:      mpmd.fragment<mesh="m1", origin=["b"]> (%arg1) {reserved_hbm_bytes = 64 : i64}
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: !m1_x {jax.buffer_donor = true}, %arg1: !m1, %arg2: !m1_host, %arg3: !m1 {jax.buffer_donor = true}) -> (!m1_x, !m1) attributes {topology = #topology} {
  // Live: %arg0 (64), %arg1 (128).
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1_x) -> !m1_x
  // Live: %0 (64), %arg1 (128); %arg0 was freed.
  %1 = mpmd.fragment<mesh="m1", origin=["b"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  return %0, %1 : !m1_x, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  // expected-error @+1 {{is not supported by the reserved-memory analysis}}
  %0 = mpmd.for (%arg0) {iterations = 1 : ui32, unroll_factor = 1 : ui32} (%x: !m1, %index: tensor<ui32>) {
    mpmd.return %x : !m1
  } : !m1
  return %0 : !m1
}

// -----

// 2^59 i8 = 2^62 bits each: the argument and one more live value reach
// 2^63 bits, past int64.
!big = tensor<576460752303423488xi8>
!m1big = !mpmd.mesh_tensor<"m1", tensor<576460752303423488xi8>>
#topology = #mpmd.topology<<"m1": <["x"=1]>>>

func.func @main(%arg0: !m1big) -> (!m1big, !m1big) attributes {topology = #topology} {
  // expected-error @+1 {{the tensors live on mesh "m1" take more than 2^63 - 1 bits}}
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) (%x: !big) {
    mpmd.return %x : !big
  } : (!m1big) -> !m1big
  return %arg0, %0 : !m1big, !m1big
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=1]>>>

// Host memory through attributes: an argument whose arg attr says
// pinned_host, a fragment result whose res_attrs say so, and an operand a
// fragment takes from host memory (arg_attrs) do not count. Donation as
// upstream decides it here: a string tf.aliasing_output gives the buffer
// away, an integer one does not (that argument stays live).
// CHECK-LABEL: func.func @main
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["a"]> (%arg1, %arg2) {res_attrs = [{mhlo.memory_kind = "pinned_host"}], reserved_hbm_bytes = 0 : i64}
// CHECK:      mpmd.fragment<mesh="m1", origin=["b"]> (%{{.*}}) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}], reserved_hbm_bytes = 128 : i64}
// CHECK:      mpmd.fragment<mesh="m1", origin=["c"]> (%arg1, %arg0) {arg_attrs = [{}, {mhlo.memory_kind = "pinned_host"}], reserved_hbm_bytes = 128 : i64}
func.func @main(%arg0: !m1 {mhlo.memory_kind = "pinned_host"}, %arg1: !m1 {tf.aliasing_output = 0 : i32}, %arg2: !m1 {tf.aliasing_output = "0"}) -> (!m1, !m1) attributes {topology = #topology} {
  // Live: %arg1 and %arg2 (128 each), both operands.
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%arg1, %arg2) {res_attrs = [{mhlo.memory_kind = "pinned_host"}]} (%x: !t, %y: !t) {
    mpmd.return %x : !t
  } : (!m1, !m1) -> !m1
  // Live: %arg1 (%arg2 was given away; %0 is on the host).
  %1 = mpmd.fragment<mesh="m1", origin=["b"]> (%0) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}]} (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  // Live: %arg1 and %1; the operand %arg1 is subtracted, the host one not.
  %2 = mpmd.fragment<mesh="m1", origin=["c"]> (%arg1, %arg0) {arg_attrs = [{}, {mhlo.memory_kind = "pinned_host"}]} (%x: !t, %y: !t) {
    mpmd.return %x : !t
  } : (!m1, !m1) -> !m1
  return %1, %2 : !m1, !m1
}
