// RUN: mpmd-opt %s -split-input-file -verify-diagnostics

!t = tensor<4x8xf32>
func.func @named_computation_arg_count(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.named_computation' op expected 1 block arguments, got 2}}
  %0 = mpmd.named_computation<"f"> (%arg0) (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
func.func @named_computation_arg_type(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.named_computation' op block argument 0 has type 'tensor<4x8xf16>', expected 'tensor<4x8xf32>'}}
  %0 = mpmd.named_computation<"f"> (%arg0) (%a: tensor<4x8xf16>) {
    mpmd.return %arg0 : !t
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
func.func @named_computation_return_count(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.named_computation' op expected the body to return 1 values, got 2}}
  %0 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    mpmd.return %a, %a : !t, !t
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
func.func @named_computation_return_type(%arg0: !t, %arg1: tensor<2xf32>) -> !t {
  // expected-error @+1 {{'mpmd.named_computation' op returned value 0 has type 'tensor<2xf32>', expected 'tensor<4x8xf32>'}}
  %0 = mpmd.named_computation<"f"> (%arg0, %arg1) (%a: !t, %b: tensor<2xf32>) {
    mpmd.return %b : tensor<2xf32>
  } : (!t, tensor<2xf32>) -> !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
// expected-note @+1 {{prior use here}}
func.func @named_tensor_type_mismatch(%arg0: !t) -> tensor<4x8xf16> {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses}}
  %0 = mpmd.named_tensor %arg0 name="n" : tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
func.func @fragment_operand_on_other_mesh(%arg0: !mpmd.mesh_tensor<"m2", !t>) attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.fragment' op operand 0 must be on mesh "m1", but has type '!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>'}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!mpmd.mesh_tensor<"m2", !t>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
func.func @fragment_result_on_other_mesh(%arg0: !mpmd.mesh_tensor<"m1", !t>) attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.fragment' op result 0 must be on mesh "m1", but has type '!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>'}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!mpmd.mesh_tensor<"m1", !t>) -> !mpmd.mesh_tensor<"m2", !t>
  return
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @fragment_mesh_not_in_topology(%arg0: !mpmd.mesh_tensor<"m9", !t>) attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.fragment' op refers to mesh "m9", which is not in the topology}}
  %0 = mpmd.fragment<mesh="m9", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!mpmd.mesh_tensor<"m9", !t>) -> !mpmd.mesh_tensor<"m9", !t>
  return
}

// -----

// Mesh inference would turn this unassign into a transfer from a mesh the
// topology lacks (found by the import-pipeline fuzzer).
!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @unassign_mesh_not_in_topology(%arg0: !mpmd.mesh_tensor<"m9", !t>) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.unassign' op refers to mesh "m9", which is not in the topology}}
  %0 = mpmd.unassign %arg0 : (!mpmd.mesh_tensor<"m9", !t>) -> !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @sharding_unknown_axis(%arg0: !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"y"}, {}]>>) attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.fragment' op has an invalid sharding for mesh "m1" on type '!mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"y"}, {}]>>': unknown axis name: "y"}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"y"}, {}]>>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @sharding_rank_mismatch(%arg0: !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>) attributes {topology = #topology} {
  // expected-error @+1 {{sharding doesn't match tensor rank: 1 != 2}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<1x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=4]>>>
func.func @sharding_not_divisible(%arg0: !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}, {}]>>) attributes {topology = #topology} {
  // expected-error @+1 {{dim 0 with size 1 is not divisible by its sharded size 4}}
  %0 = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}, {}]>>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @inferred_fragment_with_stage(%arg0: !mpmd.mesh_tensor<"m1", !t>) attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.fragment' op only user fragments (non-empty origin) can have a stage}}
  %0 = mpmd.fragment<mesh="m1", origin=[], stage=0> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!mpmd.mesh_tensor<"m1", !t>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<4x8xf32>
func.func @fragment_in_shardings_count(%arg0: !mpmd.mesh_tensor<"m1", !t>) {
  // expected-error @+1 {{'mpmd.fragment' op has 2 in_shardings for 1 operands}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"], in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!mpmd.mesh_tensor<"m1", !t>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<4x8xf32>
func.func @fragment_out_shardings_count(%arg0: !mpmd.mesh_tensor<"m1", !t>) {
  // expected-error @+1 {{'mpmd.fragment' op has 0 out_shardings for 1 results}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"], out_shardings=[]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!mpmd.mesh_tensor<"m1", !t>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<4x8xf32>
func.func @fragment_block_arg_is_local_type(%arg0: !mpmd.mesh_tensor<"m1", !t>) {
  // expected-error @+1 {{'mpmd.fragment' op block argument 0 has type '!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>', expected 'tensor<4x8xf32>'}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !mpmd.mesh_tensor<"m1", !t>) {
    mpmd.return %arg0 : !mpmd.mesh_tensor<"m1", !t>
  } : (!mpmd.mesh_tensor<"m1", !t>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<4x8xf32>
func.func @fragment_operand_not_mesh_tensor(%arg0: !t) {
  // expected-error @+1 {{'mpmd.fragment' op operand #0 must be variadic of mesh tensor or token}}
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!t) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<4x8xf32>
func.func @fragment_outside_function(%arg0: !mpmd.mesh_tensor<"m1", !t>) {
  %0 = mpmd.named_computation<"f"> () () {
    // expected-error @+1 {{'mpmd.fragment' op expects parent op to be one of 'func.func, mpmd.for'}}
    %1 = mpmd.fragment<mesh="m1", origin=["f"]> () () {
      %c = arith.constant dense<1.0> : !t
      mpmd.return %c : !t
    } : () -> !mpmd.mesh_tensor<"m1", !t>
    %c = arith.constant dense<1.0> : !t
    mpmd.return %c : !t
  } : () -> !t
  return
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @main(%arg0: !mpmd.mesh_tensor<"m1", !t>) attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.fragment_call' op callee @missing is not a func.func in this module}}
  %0 = mpmd.fragment_call<mesh="m1", origin=["f"]> @missing(%arg0) : (!mpmd.mesh_tensor<"m1", !t>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @main(%arg0: !mpmd.mesh_tensor<"m1", !t>) attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.fragment_call' op callee @callee has type '(tensor<4x4xf32>) -> tensor<4x8xf32>', which does not match the global types of the call's operands and results}}
  %0 = mpmd.fragment_call<mesh="m1", origin=["f"]> @callee(%arg0) : (!mpmd.mesh_tensor<"m1", !t>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}
func.func @callee(%arg0: tensor<4x4xf32>) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %c = arith.constant dense<1.0> : !t
  return %c : !t
}

// -----

// A callee takes all global types or all shards, not a mix.
!t = tensor<4x8xf32>
!sharded = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
sdy.mesh @mesh = <["x"=2]>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @main(%arg0: !sharded) attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.fragment_call' op callee @callee has type '(tensor<2x8xf32>) -> tensor<4x8xf32>', which does not match the global types of the call's operands and results, nor their shards}}
  %0 = mpmd.fragment_call<mesh="m1", origin=["f"]> @callee(%arg0) : (!sharded) -> !sharded
  return
}
func.func @callee(%arg0: tensor<2x8xf32>) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
  %c = arith.constant dense<1.0> : !t
  return %c : !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @main(%arg0: !mpmd.mesh_tensor<"m1", !t>) attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.fragment_call' op callee @callee has mesh_shape #sdy.mesh<["x"=4]>, but mesh "m1" of the topology is #sdy.mesh<["x"=2]>}}
  %0 = mpmd.fragment_call<mesh="m1", origin=["f"]> @callee(%arg0) : (!mpmd.mesh_tensor<"m1", !t>) -> !mpmd.mesh_tensor<"m1", !t>
  return
}
func.func @callee(%arg0: !t) -> !t attributes {mesh_shape = #sdy.mesh<["x"=4]>} {
  return %arg0 : !t
}

// -----

!t = tensor<4x8xf32>
func.func @transfer_changes_global_type(%arg0: !mpmd.mesh_tensor<"m1", !t>) {
  // expected-error @+1 {{'mpmd.transfer' op must keep the global type, but transfers 'tensor<4x8xf32>' to 'tensor<8x4xf32>'}}
  %0 = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", !t>) -> !mpmd.mesh_tensor<"m2", tensor<8x4xf32>>
  return
}

// -----

!t = tensor<4x8xf32>
func.func @transfer_bad_memory_kind(%arg0: !mpmd.mesh_tensor<"m1", !t>) {
  // expected-error @+1 {{'mpmd.transfer' op has memory kind "qwerty"; valid memory kinds are "pinned_host" and "device"}}
  %0 = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", !t>) -> !mpmd.mesh_tensor<"m1", !t, memory_kind="qwerty">
  return
}

// -----

// An assign becomes a transfer in mesh inference: same memory kinds (found by
// the import-pipeline fuzzer).
!t = tensor<4x8xf32>
func.func @assign_bad_memory_kind(%arg0: !t) {
  // expected-error @+1 {{'mpmd.assign' op has memory kind "qwerty"; valid memory kinds are "pinned_host" and "device"}}
  %0 = mpmd.assign %arg0 : (!t) -> !mpmd.mesh_tensor<"m1", !t, memory_kind="qwerty">
  return
}

// -----

// Memory kinds given by attributes (G6): a transfer from a value the
// attributes put in host memory, or one that says by attribute it goes to
// host, must have the memory kind in the type instead.
!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
func.func @transfer_from_host_argument(%arg0: !m1 {mhlo.memory_kind = "pinned_host"}) {
  // expected-error @+1 {{'mpmd.transfer' op transfers a value whose attributes put it in host memory (mhlo.memory_kind = "pinned_host"); a transfer from host needs the memory kind in the operand's type}}
  %0 = mpmd.transfer %arg0 : (!m1) -> !mpmd.mesh_tensor<"m2", !t>
  return
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
func.func @transfer_from_host_fragment_result(%arg0: !m1) {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {res_attrs = [{mhlo.memory_kind = "pinned_host"}]} (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  // expected-error @+1 {{'mpmd.transfer' op transfers a value whose attributes put it in host memory}}
  %1 = mpmd.transfer %0 : (!m1) -> !m1
  return
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
func.func @transfer_to_host_by_attribute(%arg0: !m1 {mhlo.memory_kind = "device"}) {
  // expected-error @+1 {{'mpmd.transfer' op has attribute mhlo.memory_kind = "pinned_host"; a transfer to host needs the memory kind in the result type}}
  %0 = mpmd.transfer {mhlo.memory_kind = "pinned_host"} %arg0 : (!m1) -> !m1
  return
}

// -----

!t = tensor<4x8xf32>
func.func @transfer_of_local_tensor(%arg0: !t) {
  // expected-error @+1 {{'mpmd.transfer' op operand #0 must be mesh tensor, but got 'tensor<4x8xf32>'}}
  %0 = mpmd.transfer %arg0 : (!t) -> !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<4x8xf32>
func.func @assign_type_mismatch(%arg0: !t) {
  // expected-error @+1 {{'mpmd.assign' op assigns 'tensor<4x8xf32>' to a mesh tensor of global type 'tensor<8xf32>'}}
  %0 = mpmd.assign %arg0 : (!t) -> !mpmd.mesh_tensor<"m1", tensor<8xf32>>
  return
}

// -----

!t = tensor<4x8xf32>
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @assign_sharded(%arg0: !t) {
    // expected-error @+1 {{'mpmd.assign' op must produce a fully replicated mesh tensor, got '!mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>'}}
    %0 = mpmd.assign %arg0 : (!t) -> !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}, {}]>>
    return
  }
}

// -----

!t = tensor<3x5xf32>
func.func @call_operand_type_mismatch(%arg0: tensor<3x6xf32>) -> !t {
  // expected-error @+1 {{'mpmd.call' op Type mismatch. Expected call operand 0 to have type 'tensor<3x5xf32>', but got 'tensor<3x6xf32>'}}
  %0 = mpmd.call @f(%arg0) : (tensor<3x6xf32>) -> !t
  return %0 : !t
}
func.func private @f(%arg0: !t) -> !t {
  return %arg0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @call_result_type_mismatch(%arg0: !t) -> tensor<3x6xf32> {
  // expected-error @+1 {{'mpmd.call' op Type mismatch. Expected call result 0 to have type 'tensor<3x5xf32>', but got 'tensor<3x6xf32>'}}
  %0 = mpmd.call @f(%arg0) : (!t) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}
func.func private @f(%arg0: !t) -> !t {
  return %arg0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @call_arity_mismatch(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.call' op Type mismatch. Expected 1 operands and 1 results as the callee, got 2 and 1}}
  %0 = mpmd.call @f(%arg0, %arg0) : (!t, !t) -> !t
  return %0 : !t
}
func.func private @f(%arg0: !t) -> !t {
  return %arg0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @call_counter_not_ui32(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.call' op call_counter must be an uint32, got 0 : i64}}
  %0 = mpmd.call @f(%arg0) {call_counter = 0 : i64} : (!t) -> !t
  return %0 : !t
}
func.func private @f(%arg0: !t) -> !t {
  return %arg0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @call_in_region(%arg0: !t) -> !t {
  %0 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    // expected-error @+1 {{'mpmd.call' op can only be used in a function or for_op block}}
    %1 = mpmd.call @f(%a) : (!t) -> !t
    mpmd.return %1 : !t
  } : (!t) -> !t
  return %0 : !t
}
func.func private @f(%arg0: !t) -> !t {
  return %arg0 : !t
}

// -----

!t = tensor<3x5xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func private @not_entry_point(%arg0: !t) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.call' op can only be used directly by the entrypoint function}}
  %0 = mpmd.call @f(%arg0) : (!t) -> !t
  return %0 : !t
}
func.func private @f(%arg0: !t) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}

// -----

!t = tensor<3x5xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{'mpmd.call' op callee @f has a topology and must be private}}
  %0 = mpmd.call @f(%arg0) : (!t) -> !t
  return %0 : !t
}
func.func @f(%arg0: !t) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}

// -----

// Found by mpmd-import-pipeline-fuzzer: a caller without the callee's
// topology (here misspelled) kept host tensors while mesh inference gave the
// callee mesh tensors, and the import pipeline left invalid IR.
!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @main(%arg0: !t) -> !t attributes {topohogy = #topology} {
  // expected-error @+1 {{'mpmd.call' op callee @k has topology #mpmd.topology<<"m1" : <["x"=2]>>>, but its caller has none}}
  %0 = mpmd.call @k(%arg0) : (!t) -> !t
  return %0 : !t
}
func.func private @k(%arg0: !t) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}

// -----

!t = tensor<4xf32>
func.func @main(%arg0: !t) -> !t attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  // expected-error @+1 {{'mpmd.call' op callee @k has topology #mpmd.topology<<"m1" : <["x"=4]>>>, but its caller has topology #mpmd.topology<<"m1" : <["x"=2]>>>}}
  %0 = mpmd.call @k(%arg0) : (!t) -> !t
  return %0 : !t
}
func.func private @k(%arg0: !t) -> !t attributes {topology = #mpmd.topology<<"m1": <["x"=4]>>>} {
  return %arg0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @call_unknown_callee(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.call' op callee @nowhere is not a func.func in this module}}
  %0 = mpmd.call @nowhere(%arg0) : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @for_zero_iterations(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.for' op must have at least one iteration}}
  %0 = mpmd.for (%arg0) {iterations = 0 : ui32} (%x: !t, %i: tensor<ui32>) {
    mpmd.return %x : !t
  } : !t
  return %0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @for_unroll_not_dividing(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.for' op iterations (4) must be divisible by unroll_factor (3)}}
  %0 = mpmd.for (%arg0) {iterations = 4 : ui32, unroll_factor = 3 : ui32} (%x: !t, %i: tensor<ui32>) {
    mpmd.return %x : !t
  } : !t
  return %0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @for_zero_unroll(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.for' op unroll_factor must be positive}}
  %0 = mpmd.for (%arg0) {iterations = 4 : ui32, unroll_factor = 0 : ui32} (%x: !t, %i: tensor<ui32>) {
    mpmd.return %x : !t
  } : !t
  return %0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @for_mixed_operands(%arg0: !t, %arg1: !mpmd.mesh_tensor<"m1", !t>) {
  // expected-error @+1 {{'mpmd.for' op operands must all be tensors or all be mesh tensors}}
  %0:2 = mpmd.for (%arg0, %arg1) {iterations = 2 : ui32} (%x: !t, %y: !mpmd.mesh_tensor<"m1", !t>, %i: tensor<ui32>) {
    mpmd.return %x, %y : !t, !mpmd.mesh_tensor<"m1", !t>
  } : !t, !mpmd.mesh_tensor<"m1", !t>
  return
}

// -----

!t = tensor<3x5xf32>
func.func @for_missing_index(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.for' op expected 2 block arguments (operands and the index), got 1}}
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32} (%x: !t) {
    mpmd.return %x : !t
  } : !t
  return %0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @for_index_type(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.for' op the last block argument is the index and must be tensor<ui32>, got 'tensor<i32>'}}
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32} (%x: !t, %i: tensor<i32>) {
    mpmd.return %x : !t
  } : !t
  return %0 : !t
}

// -----

!t = tensor<3x5xf32>
func.func @for_return_type(%arg0: !t, %arg1: tensor<2xf32>) -> !t {
  // expected-error @+1 {{'mpmd.for' op returned value 0 has type 'tensor<2xf32>', expected 'tensor<3x5xf32>'}}
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32} (%x: !t, %i: tensor<ui32>) {
    %c = arith.constant dense<1.0> : tensor<2xf32>
    mpmd.return %c : tensor<2xf32>
  } : !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
func.func @reduce_none_two_operands(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.reduce' op reduction type none requires exactly one operand, got 2}}
  %0 = mpmd.reduce<none> %arg0, %arg0 : (!t, !t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4x8xf32>
func.func @reduce_mixed_types(%arg0: !t, %arg1: tensor<4x8xf16>) -> !t {
  // expected-error @+1 {{'mpmd.reduce' op requires the same type for all operands and results}}
  %0 = mpmd.reduce<add> %arg0, %arg1 : (!t, tensor<4x8xf16>) -> !t
  return %0 : !t
}

// -----

// expected-error @+1 {{'func.func' op expects 'mpmd.use_set' to be a #mpmd.meshes_with_origins attribute}}
func.func @bad_use_set() attributes {mpmd.use_set = "m1"} {
  return
}

// -----

!t = tensor<3x5xf32>
func.func @for_arg_attrs_size(%arg0: !t) -> !t {
  // expected-error @+1 {{'mpmd.for' op expected 1 arg_attrs entries (one per loop-carried value), got 2}}
  %0 = mpmd.for (%arg0) {arg_attrs = [{}, {}], iterations = 4 : ui32} (%x: !t, %i: tensor<ui32>) {
    mpmd.return %x : !t
  } : !t
  return %0 : !t
}
