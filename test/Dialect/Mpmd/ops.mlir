// RUN: mpmd-opt %s -split-input-file | FileCheck %s
// Pretty form round-trips unchanged, and so does the generic form.
// RUN: mpmd-opt %s -split-input-file | mpmd-opt -split-input-file | FileCheck %s
// RUN: mpmd-opt %s -split-input-file -mlir-print-op-generic | mpmd-opt -split-input-file | FileCheck %s

!t = tensor<4x8xf32>
!m1t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2t = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @named_ops
func.func @named_ops(%arg0: !t, %arg1: !t) -> (!t, !t) {
  // CHECK: %[[NC:.*]] = mpmd.named_computation<"f1"> (%arg0, %arg1) (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) {
  // CHECK-NEXT: mpmd.return %[[A]] : tensor<4x8xf32>
  // CHECK-NEXT: } : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = mpmd.named_computation<"f1"> (%arg0, %arg1) (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!t, !t) -> !t
  // CHECK: mpmd.named_computation<"f1"(1)> (%[[NC]]) {some_attr} (%{{.*}}: tensor<4x8xf32>)
  // CHECK: } : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %1:2 = mpmd.named_computation<"f1"(1)> (%0) {some_attr} (%a: !t) {
    mpmd.return %a, %a : !t, !t
  } : (!t) -> (!t, !t)
  // CHECK: mpmd.named_tensor %{{.*}}#0 name="n1" : tensor<4x8xf32>
  %2 = mpmd.named_tensor %1#0 name="n1" : !t
  // Transpose count 0 is the default and prints as the bare name.
  // CHECK: mpmd.named_computation<"f2"> ()
  mpmd.named_computation<"f2"(0)> () () {
    mpmd.return
  } : () -> ()
  return %2, %1#1 : !t, !t
}

// -----

!t = tensor<4x8xf32>
!m1t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1t_sharded = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {?}]>>
!m2t = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#replicated = #sdy.sharding<@mesh, [{}, {}]>

module {
  sdy.mesh @mesh = <["x"=2]>
  // CHECK-LABEL: func.func @fragments
  func.func @fragments(%arg0: !m1t, %arg1: !m1t_sharded) -> (!m1t, !m2t)
      attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
    // Attributes print in the fixed order mesh, origin, stage, in_shardings, out_shardings.
    // CHECK: mpmd.fragment<mesh="m1", origin=["f1", "f1"(1)], stage=2, in_shardings=[<@mesh, [{"x"}, {?}]>, <@mesh, [{}, {}]>], out_shardings=[<@mesh, [{?}, {?}]>]> (%arg0, %arg1) {call_counter = 0 : ui32, remat} (%{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<4x8xf32>)
    %0 = mpmd.fragment<mesh="m1", origin=["f1", "f1"(1)], stage=2, in_shardings=[<@mesh, [{"x"}, {?}]>, <@mesh, [{}, {}]>], out_shardings=[<@mesh, [{?}, {?}]>]> (%arg0, %arg1) {call_counter = 0 : ui32, remat} (%a: !t, %b: !t) {
      mpmd.return %a : !t
    } : (!m1t, !m1t_sharded) -> !m1t
    // CHECK: mpmd.fragment<mesh="m1", origin=[], out_shardings=[<@mesh, [{"x"}, {}]>]> (%{{.*}}) (%{{.*}}: tensor<4x8xf32>)
    %1 = mpmd.fragment<mesh="m1", origin=[], out_shardings=[<@mesh, [{"x"}, {}]>]> (%0) (%a: !t) {
      mpmd.return %a : !t
    } : (!m1t) -> !m1t
    // A sharding list entry may be an attribute alias.
    // CHECK: mpmd.fragment<mesh="m1", origin=["g"], in_shardings=[<@mesh, [{}, {}]>]>
    %2 = mpmd.fragment<mesh="m1", origin=["g"], in_shardings=[#replicated]> (%1) (%a: !t) {
      mpmd.return %a : !t
    } : (!m1t) -> !m1t
    // CHECK: %[[T:.*]] = mpmd.transfer %{{.*}} : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
    %3 = mpmd.transfer %2 : (!m1t) -> !m2t
    // CHECK: mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} %[[T]]
    %4 = mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} %3 : (!m2t) -> !m2t
    return %2, %4 : !m1t, !m2t
  }
}

// -----

!t = tensor<4x8xf32>
!m1t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1t_batch = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>

module {
  sdy.mesh @mesh = <["x"=2]>
  // CHECK-LABEL: func.func @main
  func.func @main(%arg0: !m1t, %arg1: !m1t_batch) -> (!m1t, !m1t, !m1t_batch)
      attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
    // CHECK: mpmd.fragment_call<mesh="m1", origin=["f"(1), "g"]> @callee(%arg0) : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
    %0 = mpmd.fragment_call<mesh="m1", origin=["f"(1), "g"]> @callee(%arg0) : (!m1t) -> !m1t
    // CHECK: mpmd.fragment_call<mesh="m1", origin=[]> @callee(%{{.*}}) {call_counter = 1 : ui32}
    %1 = mpmd.fragment_call<mesh="m1", origin=[]> @callee(%0) {call_counter = 1 : ui32} : (!m1t) -> !m1t
    // Shardings live in the types; the callee sees global types.
    // CHECK: mpmd.fragment_call<mesh="m1", origin=["h"]> @callee(%arg1)
    %2 = mpmd.fragment_call<mesh="m1", origin=["h"]> @callee(%arg1) : (!m1t_batch) -> !m1t_batch
    return %0, %1, %2 : !m1t, !m1t, !m1t_batch
  }
  // CHECK: func.func @callee(%arg0: tensor<4x8xf32> {tf.aliasing_output = 0 : i32}) -> tensor<4x8xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>}
  func.func @callee(%arg0: !t {tf.aliasing_output = 0 : i32}) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
    return %arg0 : !t
  }
}

// -----

// A callee partitioned for its mesh takes and returns each value's shard
// (the executor runs it on every device's shards).
!m1t_batch = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
!m1t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

module {
  sdy.mesh @mesh = <["x"=2]>
  // CHECK-LABEL: func.func @main
  func.func @main(%arg0: !m1t_batch) -> !m1t
      attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
    // CHECK: mpmd.fragment_call<mesh="m1", origin=["f"]> @on_shards(%arg0)
    %0 = mpmd.fragment_call<mesh="m1", origin=["f"]> @on_shards(%arg0) : (!m1t_batch) -> !m1t
    return %0 : !m1t
  }
  // CHECK: func.func @on_shards(%arg0: tensor<2x8xf32>) -> tensor<4x8xf32>
  func.func @on_shards(%arg0: tensor<2x8xf32>) -> tensor<4x8xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
    %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids} : (tensor<2x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}

// -----

!t = tensor<4x8xf32>
!m1t = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>

// CHECK-LABEL: func.func @assign_unassign
func.func @assign_unassign(%arg0: !t) -> !t
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // CHECK: %[[A:.*]] = mpmd.assign {origin = "f1"} %arg0 : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
  %0 = mpmd.assign {origin = "f1"} %arg0 : (!t) -> !m1t
  // CHECK: %[[U:.*]] = mpmd.unassign {origin = "f1"} %[[A]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> tensor<4x8xf32>
  %1 = mpmd.unassign {origin = "f1"} %0 : (!m1t) -> !t
  // CHECK: mpmd.assign %[[U]] : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
  %2 = mpmd.assign %1 : (!t) -> !m1t
  // CHECK: mpmd.unassign %{{.*}} : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> tensor<4x8xf32>
  %3 = mpmd.unassign %2 : (!m1t) -> !t
  return %3 : !t
}

// -----

!t = tensor<3x5xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// CHECK-LABEL: func.func @calls_and_loops
func.func @calls_and_loops(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  // CHECK: mpmd.call @body(%arg0) {call_counter = 0 : ui32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %0 = mpmd.call @body(%arg0) {call_counter = 0 : ui32} : (!t) -> !t
  // CHECK: mpmd.call @body(%{{.*}}) {call_counter = 1 : ui32, unroll_counter = 2 : ui32}
  %1 = mpmd.call @body(%0) {call_counter = 1 : ui32, unroll_counter = 2 : ui32} : (!t) -> !t
  // CHECK: %{{.*}}:2 = mpmd.for (%{{.*}}, %arg1) {iterations = 12 : ui32, unroll_factor = 3 : ui32} (%[[X:.*]]: tensor<3x5xf32>, %[[Y:.*]]: tensor<3x5xf32>, %index: tensor<ui32>) {
  // CHECK-NEXT: mpmd.return %[[Y]], %[[X]] : tensor<3x5xf32>, tensor<3x5xf32>
  // CHECK-NEXT: } : tensor<3x5xf32>, tensor<3x5xf32>
  %2:2 = mpmd.for (%1, %arg1) {iterations = 12 : ui32, unroll_factor = 3 : ui32} (%x: !t, %y: !t, %i: tensor<ui32>) {
    mpmd.return %y, %x : !t, !t
  } : !t, !t
  // Attributes of the loop-carried values, one dictionary each.
  // CHECK: mpmd.for (%{{.*}}) {arg_attrs = [{mpmd.use_set = #mpmd.meshes_with_origins<"m1">}], iterations = 2 : ui32} (%{{.*}}: tensor<3x5xf32>, %index: tensor<ui32>)
  // CHECK: mpmd.call @body
  %3 = mpmd.for (%2#0) {arg_attrs = [{mpmd.use_set = #mpmd.meshes_with_origins<"m1">}], iterations = 2 : ui32} (%x: !t, %i: tensor<ui32>) {
    %4 = mpmd.call @body(%x) : (!t) -> !t
    mpmd.return %4 : !t
  } : !t
  return %3, %2#1 : !t, !t
}
func.func private @body(%arg0: !t) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}

// -----

!t = tensor<4x8xf32>

// CHECK-LABEL: func.func @broadcast_reduce
func.func @broadcast_reduce(%arg0: !t, %arg1: !t) -> (!t, !t, !t) {
  // CHECK: %[[B:.*]] = mpmd.broadcast %arg0 : tensor<4x8xf32>
  %0 = mpmd.broadcast %arg0 : !t
  // The attribute dictionary comes before the operand.
  // CHECK: mpmd.broadcast {mpmd.use_set = #mpmd.meshes_with_origins<"m1">} %[[B]] : tensor<4x8xf32>
  %6 = mpmd.broadcast {mpmd.use_set = #mpmd.meshes_with_origins<"m1">} %0 : !t
  // CHECK: mpmd.reduce<add> %[[B]], %arg1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = mpmd.reduce<add> %0, %arg1 : (!t, !t) -> !t
  // CHECK: mpmd.reduce<none> %arg0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = mpmd.reduce<none> %arg0 : (!t) -> !t
  // CHECK: mpmd.reduce<max> {foo} %arg0, %arg1, %arg0
  %3 = mpmd.reduce<max> {foo} %arg0, %arg1, %arg0 : (!t, !t, !t) -> !t
  // CHECK: mpmd.reduce<min>
  %4 = mpmd.reduce<min> %3, %3 : (!t, !t) -> !t
  // CHECK: mpmd.reduce<mul>
  %5 = mpmd.reduce<mul> %4, %6 : (!t, !t) -> !t
  return %1, %2, %5 : !t, !t, !t
}

// CHECK-LABEL: func.func @bool_reduce
func.func @bool_reduce(%arg0: tensor<i1>) -> tensor<i1> {
  // CHECK: mpmd.reduce<or>
  %0 = mpmd.reduce<or> %arg0, %arg0 : (tensor<i1>, tensor<i1>) -> tensor<i1>
  // CHECK: mpmd.reduce<and>
  %1 = mpmd.reduce<and> %0, %0 : (tensor<i1>, tensor<i1>) -> tensor<i1>
  return %1 : tensor<i1>
}

// -----

// `func` is the default dialect of a named computation's body, as of the
// function around it: JAX's short `call` form parses there and prints so.
// CHECK-LABEL: func.func @short_call_in_named_computation
// CHECK:         mpmd.named_computation<"f1"> (%arg0) (%[[A:.*]]: tensor<4xf32>) {
// CHECK-NEXT:      %[[C:.*]] = call @callee(%[[A]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      %[[D:.*]] = call @callee(%[[C]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      mpmd.return %[[D]] : tensor<4xf32>
func.func @short_call_in_named_computation(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mpmd.named_computation<"f1"> (%arg0) (%a: tensor<4xf32>) {
    %1 = call @callee(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = func.call @callee(%1) : (tensor<4xf32>) -> tensor<4xf32>
    mpmd.return %2 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @callee(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// Host memory in the types is what transfers move (G6): attributes saying
// "device", or a memory kind in the operand and result types, are fine.
!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m1_host = !mpmd.mesh_tensor<"m1", !t, memory_kind="pinned_host">
// CHECK-LABEL: func.func @transfers_to_and_from_host
// CHECK-NEXT:    %[[H:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, memory_kind="pinned_host">
// CHECK-NEXT:    mpmd.transfer {mhlo.memory_kind = "device"} %[[H]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>, memory_kind="pinned_host">) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func @transfers_to_and_from_host(%arg0: !m1 {mhlo.memory_kind = "device"}) -> !m1 {
  %0 = mpmd.transfer %arg0 : (!m1) -> !m1_host
  %1 = mpmd.transfer {mhlo.memory_kind = "device"} %0 : (!m1_host) -> !m1
  return %1 : !m1
}
