// RUN: mpmd-opt %s -mpmd-map-input-output-to-mesh='input-assignment=0@m1,2@m2#pinned_host output-assignment=1@m2,0@m1#device' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not mpmd-opt %s -split-input-file -mpmd-map-input-output-to-mesh='input-assignment=0@m1/2' 2>&1 | FileCheck %s --check-prefix=BAD-STAGE
// RUN: not mpmd-opt %s -split-input-file -mpmd-map-input-output-to-mesh='output-assignment=x@m1' 2>&1 | FileCheck %s --check-prefix=BAD-INDEX

// BAD-STAGE: '0@m1/2': a stage is not allowed here
// BAD-INDEX: 'x@m1': 'x' is not a non-negative index

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Inputs become mesh tensors used through unassign {origin = "user_in"};
// outputs are returned through assign {origin = "user_out"}. A memory kind
// goes into the type, and an mhlo.memory_kind attribute that says the
// same is dropped; other attributes stay.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>> {mpmd.foo},
// CHECK-SAME:    %arg1: tensor<4xf32>,
// CHECK-SAME:    %arg2: !mpmd.mesh_tensor<"m2", tensor<4xf32>, memory_kind="pinned_host">)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>, memory_kind="device">, !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:  %[[U0:.*]] = mpmd.unassign {origin = "user_in"} %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> tensor<4xf32>
// CHECK-NEXT:  %[[U2:.*]] = mpmd.unassign {origin = "user_in"} %arg2 : (!mpmd.mesh_tensor<"m2", tensor<4xf32>, memory_kind="pinned_host">) -> tensor<4xf32>
// CHECK-NEXT:  %[[S:.*]] = stablehlo.add %[[U0]], %arg1
// CHECK-NEXT:  %[[P:.*]] = stablehlo.multiply %[[S]], %[[U2]]
// CHECK-NEXT:  %[[A0:.*]] = mpmd.assign {origin = "user_out"} %[[S]] : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>, memory_kind="device">
// CHECK-NEXT:  %[[A1:.*]] = mpmd.assign {origin = "user_out"} %[[P]] : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:  return %[[A0]], %[[A1]]
// A private function or one without a topology is not an entry point.
// CHECK-LABEL: func.func private @callee(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-LABEL: func.func @no_topology(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
func.func @main(%arg0: !t {mpmd.foo}, %arg1: !t, %arg2: !t {mhlo.memory_kind = "pinned_host"})
    -> (!t {mhlo.memory_kind = "device"}, !t) attributes {topology = #topology} {
  %0 = stablehlo.add %arg0, %arg1 : !t
  %1 = stablehlo.multiply %0, %arg2 : !t
  return %0, %1 : !t, !t
}
func.func private @callee(%arg0: !t, %arg1: !t, %arg2: !t) -> (!t, !t) attributes {topology = #topology} {
  return %arg0, %arg1 : !t, !t
}
func.func @no_topology(%arg0: !t, %arg1: !t, %arg2: !t) -> (!t, !t) {
  return %arg0, %arg1 : !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// An input returned directly: it is unassigned and reassigned (the
// transfer, if any, is introduced later).
// CHECK-LABEL: func.func @pass_through
// CHECK-NEXT:  %[[U0:.*]] = mpmd.unassign {origin = "user_in"} %arg0
// CHECK-NEXT:  %[[U2:.*]] = mpmd.unassign {origin = "user_in"} %arg2
// CHECK-NEXT:  %[[A0:.*]] = mpmd.assign {origin = "user_out"} %[[U2]] {{.*}} -> !mpmd.mesh_tensor<"m1", tensor<4xf32>, memory_kind="device">
// CHECK-NEXT:  %[[A1:.*]] = mpmd.assign {origin = "user_out"} %[[U0]] {{.*}} -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:  return %[[A0]], %[[A1]]
func.func @pass_through(%arg0: !t, %arg1: !t, %arg2: !t) -> (!t, !t) attributes {topology = #topology} {
  return %arg2, %arg0 : !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// expected-error @+1 {{input-assignment: input 2 is out of range, the function has 2 inputs}}
func.func @too_few_inputs(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  return %arg0, %arg1 : !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// expected-error @+1 {{output-assignment: output 1 is out of range, the function has 1 outputs}}
func.func @too_few_outputs(%arg0: !t, %arg1: !t, %arg2: !t) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// expected-error @+1 {{input 2 is assigned to mesh "m2", which is not in the topology}}
func.func @unknown_mesh(%arg0: !t, %arg1: !t, %arg2: !t) -> (!t, !t) attributes {topology = #topology} {
  return %arg0, %arg1 : !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// expected-error @+1 {{input 2 has mhlo.memory_kind = "device" but is assigned to memory kind "pinned_host"}}
func.func @memory_kind_conflict(%arg0: !t, %arg1: !t, %arg2: !t {mhlo.memory_kind = "device"}) -> (!t, !t) attributes {topology = #topology} {
  return %arg0, %arg1 : !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// expected-error @+1 {{input 0 is assigned to mesh "m1" but has type '!mpmd.mesh_tensor<"m1", tensor<4xf32>>', which is not a ranked tensor}}
func.func @already_mesh_tensor(%arg0: !mpmd.mesh_tensor<"m1", !t>, %arg1: !t, %arg2: !t) -> (!t, !t) attributes {topology = #topology} {
  return %arg1, %arg2 : !t, !t
}
