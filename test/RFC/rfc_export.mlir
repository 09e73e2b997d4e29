// The RFC's second worked example (../shared/spec/mpmd-rfc.md, "Scheduling +
// merging + export for a 2 microbatch, 2 stage pipeline") from its Initial IR
// through optimize (1F1B, forward/backward merge), sharding propagation and
// export: the fragment calls, their order, the three deduplicated functions
// with upstream's names (`p0_stage1_fwd_calls0to1.main`, ...) and the
// donation marks are the RFC's Export IR, and so are the shardings:
// propagation spreads the input's batch sharding through the adds, the
// transfers and the other mesh, so every value is batch-sharded. Export
// also keeps call counters and stages on the calls, adds reserved memory
// and writes the shardings on the outlined functions' arguments and
// results, which the RFC's listing omits.
// RUN: mpmd-opt %s -mpmd-optimize-pipeline='pipeline-schedule=1F1B merge-forward-with-backward=true' -mpmd-sharding-propagation-pipeline -mpmd-export-pipeline | FileCheck %s

#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
#batch_shard = #sdy.sharding<@mesh, [{"x"}]>

!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
!m1_t_batch = !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>
!m2_t_batch = !mpmd.mesh_tensor<"m2", !t, sharding=<@mesh, [{"x"}]>>

module attributes {mpmd.fragments.global_view} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: !m1_t {sdy.sharding=#batch_shard}) -> (!m1_t, !m1_t) attributes {topology=#topology} {
    %0 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 0 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m1_t) -> !m1_t

    %1 = mpmd.transfer %0 : (!m1_t) -> !m2_t

    %2 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%1) {call_counter = 0 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m2_t) -> !m2_t


    %3 = mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> (%2) {call_counter = 0 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m2_t) -> !m2_t

    %4 = mpmd.transfer %3 : (!m2_t) -> !m1_t

    %5 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%4) {call_counter = 0 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m1_t) -> !m1_t


    %10 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 1 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m1_t) -> !m1_t

    %11 = mpmd.transfer %10 : (!m1_t) -> !m2_t

    %12 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%11) {call_counter = 1 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m2_t) -> !m2_t


    %13 = mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> (%12) {call_counter = 1 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m2_t) -> !m2_t

    %14 = mpmd.transfer %13 : (!m2_t) -> !m1_t

    %15 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%14) {call_counter = 1 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m1_t) -> !m1_t

    return %5, %15 : !m1_t, !m1_t
  }
}

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>) -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>)
// CHECK-NEXT: %[[F0:.*]] = mpmd.fragment_call<mesh="m1", origin=["layer1"]> @p0_stage1_fwd_calls0to1.main(%arg0) {call_counter = 0 : ui32, stage_id = 1 : i64}
// CHECK-NEXT: %[[T0:.*]] = mpmd.transfer %[[F0]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>
// CHECK-NEXT: %[[B0:.*]] = mpmd.fragment_call<mesh="m2", origin=["layer2", "layer2"(1)]> @p1_stage2_fwd_bwd_calls0to1.main(%[[T0]]) {call_counter = 0 : ui32, stage_id = 2 : i64}
// CHECK-NEXT: %[[R0:.*]] = mpmd.transfer %[[B0]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>
// CHECK-NEXT: %[[F1:.*]] = mpmd.fragment_call<mesh="m1", origin=["layer1"]> @p0_stage1_fwd_calls0to1.main(%arg0) {call_counter = 1 : ui32, stage_id = 1 : i64}
// CHECK-NEXT: %[[T1:.*]] = mpmd.transfer %[[F1]]
// CHECK-NEXT: %[[B1:.*]] = mpmd.fragment_call<mesh="m2", origin=["layer2", "layer2"(1)]> @p1_stage2_fwd_bwd_calls0to1.main(%[[T1]]) {call_counter = 1 : ui32, stage_id = 2 : i64}
// CHECK-NEXT: %[[R1:.*]] = mpmd.transfer %[[B1]]
// CHECK-NEXT: %[[G0:.*]] = mpmd.fragment_call<mesh="m1", origin=["layer1"(1)]> @p2_stage1_bwd_calls0to1.main(%[[R0]]) {call_counter = 0 : ui32, stage_id = 1 : i64}
// CHECK-NEXT: %[[G1:.*]] = mpmd.fragment_call<mesh="m1", origin=["layer1"(1)]> @p2_stage1_bwd_calls0to1.main(%[[R1]]) {call_counter = 1 : ui32, stage_id = 1 : i64}
// CHECK-NEXT: return %[[G0]], %[[G1]] : !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: func.func @p0_stage1_fwd_calls0to1.main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = {{[0-9]+}} : i64} {
// CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %arg0 : tensor<4xf32>
// CHECK-NEXT: return %[[A]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @p1_stage2_fwd_bwd_calls0to1.main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>, tf.aliasing_output = 0 : i32}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = {{[0-9]+}} : i64} {
// CHECK-NEXT: %[[C:.*]] = stablehlo.add %arg0, %arg0 : tensor<4xf32>
// CHECK-NEXT: %[[D:.*]] = stablehlo.add %[[C]], %[[C]] : tensor<4xf32>
// CHECK-NEXT: return %[[D]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @p2_stage1_bwd_calls0to1.main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>, tf.aliasing_output = 0 : i32}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = {{[0-9]+}} : i64} {
// CHECK-NEXT: %[[E:.*]] = stablehlo.add %arg0, %arg0 : tensor<4xf32>
// CHECK-NEXT: return %[[E]] : tensor<4xf32>
// CHECK-NEXT: }
