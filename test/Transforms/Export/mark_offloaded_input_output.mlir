// RUN: mpmd-opt %s -mpmd-mark-offloaded-input-output -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m1_host = !mpmd.mesh_tensor<"m1", tensor<4xf32>, memory_kind="pinned_host">
!m1_dev = !mpmd.mesh_tensor<"m1", tensor<4xf32>, memory_kind="device">
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Host memory from a type (input 0), from an input attribute (input 1),
// from an output attribute (output 1, a fragment result), and from an
// annotate_device_placement behind an optimization barrier (result 2 of f);
// a "device" placement and a device input stay unmarked. The function's
// inputs and outputs are marked too. Every fragment carries both arrays,
// with {} for unmarked values.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>, memory_kind="pinned_host"> {mhlo.memory_kind = "pinned_host"},
// CHECK-SAME:    %arg1: !mpmd.mesh_tensor<"m1", tensor<4xf32>> {mhlo.memory_kind = "pinned_host"},
// CHECK-SAME:    %arg2: !mpmd.mesh_tensor<"m1", tensor<4xf32>, memory_kind="device">)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>> {mhlo.memory_kind = "pinned_host"}, !mpmd.mesh_tensor<"m1", tensor<4xf32>> {mhlo.memory_kind = "pinned_host"}, !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1, %arg2) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}, {mhlo.memory_kind = "pinned_host"}, {}], res_attrs = [{}, {mhlo.memory_kind = "pinned_host"}, {mhlo.memory_kind = "pinned_host"}, {}]}
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (%{{.*}}#2) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}], res_attrs = [{}]}
func.func @main(%arg0: !m1_host, %arg1: !m1 {mhlo.memory_kind = "pinned_host"}, %arg2: !m1_dev)
    -> (!m1, !m1 {mhlo.memory_kind = "pinned_host"}, !m1, !m1) attributes {topology = #topology} {
  %0:4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1, %arg2) (%a: !t, %b: !t, %c: !t) {
    %1 = stablehlo.add %a, %b : !t
    %2 = stablehlo.custom_call @annotate_device_placement(%1) {has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (!t) -> !t
    %3:2 = stablehlo.optimization_barrier %c, %2 : !t, !t
    %4 = stablehlo.custom_call @annotate_device_placement(%c) {has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (!t) -> !t
    mpmd.return %1, %1, %3#1, %4 : !t, !t, !t, !t
  } : (!m1_host, !m1, !m1_dev) -> (!m1, !m1, !m1, !m1)
  %5 = mpmd.fragment<mesh="m1", origin=["g"]> (%0#2) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0#0, %0#1, %0#2, %5 : !m1, !m1, !m1, !m1
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Only entry points: a private function is left alone.
// CHECK-LABEL: func.func private @callee
// CHECK-NOT:   arg_attrs
func.func private @callee(%arg0: !m1 {mhlo.memory_kind = "pinned_host"}) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0 : !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// expected-error @+1 {{input 0 has unknown memory kind "hbm"; expected "pinned_host" or "device"}}
func.func @unknown_kind(%arg0: !m1 {mhlo.memory_kind = "hbm"}) -> !m1 attributes {topology = #topology} {
  return %arg0 : !m1
}

// -----

!m1_dev = !mpmd.mesh_tensor<"m1", tensor<4xf32>, memory_kind="device">
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// expected-error @+1 {{output 0 is in memory kind "pinned_host" but its type says "device"}}
func.func @contradicts_type(%arg0: !m1_dev) -> (!m1_dev {mhlo.memory_kind = "pinned_host"}) attributes {topology = #topology} {
  return %arg0 : !m1_dev
}

// -----

!t = tensor<4xf32>
!m1_dev = !mpmd.mesh_tensor<"m1", tensor<4xf32>, memory_kind="device">
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @annotation_contradicts_type(%arg0: !m1_dev) -> !m1_dev attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    // expected-error @+1 {{result 0 of the fragment is in memory kind "pinned_host" but its type says "device"}}
    %1 = stablehlo.custom_call @annotate_device_placement(%a) {mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (!t) -> !t
    mpmd.return %1 : !t
  } : (!m1_dev) -> !m1_dev
  return %0 : !m1_dev
}

// -----

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @annotation_unknown_kind(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    // expected-error @+1 {{result 0 of the fragment has unknown memory kind "disk"}}
    %1 = stablehlo.custom_call @annotate_device_placement(%a) {mhlo.frontend_attributes = {_xla_buffer_placement = "disk"}} : (!t) -> !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  return %0 : !m1
}

// -----

// Memory kinds written as attributes must be consistent once marked (G6).
// The pass only writes pinned_host for values it finds on the host; a kind
// written before that it keeps can contradict: here a device input whose
// fragment user's arg_attrs entry expects pinned_host (error at the input),
// and a device output whose producing fragment result says pinned_host
// (error at the return). "device" and no memory kind are both device memory
// (input 1).

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @main(
    // expected-error @+1 {{input 0 has memory kind none but its users expect "pinned_host"}}
    %arg0: !m1,
    %arg1: !m1 {mhlo.memory_kind = "device"})
    -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}, {}], res_attrs = [{mhlo.memory_kind = "pinned_host"}]} (%x: !t, %y: !t) {
    %s = stablehlo.add %x, %y : !t
    mpmd.return %s : !t
  } : (!m1, !m1) -> !m1
  // expected-error @+1 {{output 0 has memory kind none but its producer's is "pinned_host"}}
  return %0, %arg1 : !m1, !m1
}

// -----

// Users of an input that expect different kinds: a fragment's kept
// arg_attrs entry says pinned_host, the returned input's output says
// nothing.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @main(
    // expected-error @+1 {{input 0 is used with different memory kinds}}
    %arg0: !m1)
    -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {arg_attrs = [{mhlo.memory_kind = "pinned_host"}]} (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  return %0, %arg0 : !m1, !m1
}
