// The RFC's second worked example (../shared/spec/mpmd-rfc.md, "Scheduling +
// merging + export for a 2 microbatch, 2 stage pipeline"): its Initial IR,
// scheduled with 1F1B, is exactly its "After scheduling" IR (layer1 of
// microbatch 1 moves before layer1(1) of microbatch 0); the optimize pipeline
// with merge-forward-with-backward gives exactly its "After merging" IR
// (layer2 and layer2(1) fused in each microbatch). Only the topology
// attribute is written in today's #mpmd.topology syntax.
// RUN: mpmd-opt %s -mpmd-pipeline-scheduler=must-happen-before=1F1B | FileCheck %s --check-prefix=SCHEDULED
// RUN: mpmd-opt %s -mpmd-optimize-pipeline='pipeline-schedule=1F1B merge-forward-with-backward=true' | FileCheck %s --check-prefix=MERGED

// SCHEDULED-LABEL: func.func @main
// SCHEDULED-NEXT: %[[V0:[a-z0-9]+]] = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 0 : ui32} (%[[A1:[a-z0-9]+]]: tensor<4xf32>) {
// SCHEDULED-NEXT: %[[V12:[a-z0-9]+]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// SCHEDULED-NEXT: mpmd.return %[[V12]] : tensor<4xf32>
// SCHEDULED-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V1:[a-z0-9]+]] = mpmd.transfer %[[V0]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V2:[a-z0-9]+]] = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%[[V1]]) {call_counter = 0 : ui32} (%[[A1]]: tensor<4xf32>) {
// SCHEDULED-NEXT: %[[V12]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// SCHEDULED-NEXT: mpmd.return %[[V12]] : tensor<4xf32>
// SCHEDULED-NEXT: } : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V3:[a-z0-9]+]] = mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> (%[[V2]]) {call_counter = 0 : ui32} (%[[A1]]: tensor<4xf32>) {
// SCHEDULED-NEXT: %[[V12]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// SCHEDULED-NEXT: mpmd.return %[[V12]] : tensor<4xf32>
// SCHEDULED-NEXT: } : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V4:[a-z0-9]+]] = mpmd.transfer %[[V3]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V5:[a-z0-9]+]] = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 1 : ui32} (%[[A1]]: tensor<4xf32>) {
// SCHEDULED-NEXT: %[[V12]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// SCHEDULED-NEXT: mpmd.return %[[V12]] : tensor<4xf32>
// SCHEDULED-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V6:[a-z0-9]+]] = mpmd.transfer %[[V5]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V7:[a-z0-9]+]] = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%[[V6]]) {call_counter = 1 : ui32} (%[[A1]]: tensor<4xf32>) {
// SCHEDULED-NEXT: %[[V12]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// SCHEDULED-NEXT: mpmd.return %[[V12]] : tensor<4xf32>
// SCHEDULED-NEXT: } : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V8:[a-z0-9]+]] = mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> (%[[V7]]) {call_counter = 1 : ui32} (%[[A1]]: tensor<4xf32>) {
// SCHEDULED-NEXT: %[[V12]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// SCHEDULED-NEXT: mpmd.return %[[V12]] : tensor<4xf32>
// SCHEDULED-NEXT: } : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V9:[a-z0-9]+]] = mpmd.transfer %[[V8]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V10:[a-z0-9]+]] = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%[[V4]]) {call_counter = 0 : ui32} (%[[A1]]: tensor<4xf32>) {
// SCHEDULED-NEXT: %[[V12]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// SCHEDULED-NEXT: mpmd.return %[[V12]] : tensor<4xf32>
// SCHEDULED-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// SCHEDULED-NEXT: %[[V11:[a-z0-9]+]] = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%[[V9]]) {call_counter = 1 : ui32} (%[[A1]]: tensor<4xf32>) {
// SCHEDULED-NEXT: %[[V12]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// SCHEDULED-NEXT: mpmd.return %[[V12]] : tensor<4xf32>
// SCHEDULED-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// SCHEDULED-NEXT: return %[[V10]], %[[V11]] : !mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// SCHEDULED-NEXT: }
// SCHEDULED-NEXT: }

// MERGED-LABEL: func.func @main
// MERGED-NEXT: %[[V0:[a-z0-9]+]] = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 0 : ui32} (%[[A1:[a-z0-9]+]]: tensor<4xf32>) {
// MERGED-NEXT: %[[V10:[a-z0-9]+]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// MERGED-NEXT: mpmd.return %[[V10]] : tensor<4xf32>
// MERGED-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// MERGED-NEXT: %[[V1:[a-z0-9]+]] = mpmd.transfer %[[V0]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// MERGED-NEXT: %[[V2:[a-z0-9]+]] = mpmd.fragment<mesh="m2", origin=["layer2", "layer2"(1)], stage=2> (%[[V1]]) {call_counter = 0 : ui32} (%[[A1]]: tensor<4xf32>) {
// MERGED-NEXT: %[[V10]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// MERGED-NEXT: %[[V11:[a-z0-9]+]] = stablehlo.add %[[V10]], %[[V10]] : tensor<4xf32>
// MERGED-NEXT: mpmd.return %[[V11]] : tensor<4xf32>
// MERGED-NEXT: } : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// MERGED-NEXT: %[[V3:[a-z0-9]+]] = mpmd.transfer %[[V2]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// MERGED-NEXT: %[[V4:[a-z0-9]+]] = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 1 : ui32} (%[[A1]]: tensor<4xf32>) {
// MERGED-NEXT: %[[V10]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// MERGED-NEXT: mpmd.return %[[V10]] : tensor<4xf32>
// MERGED-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// MERGED-NEXT: %[[V5:[a-z0-9]+]] = mpmd.transfer %[[V4]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// MERGED-NEXT: %[[V6:[a-z0-9]+]] = mpmd.fragment<mesh="m2", origin=["layer2", "layer2"(1)], stage=2> (%[[V5]]) {call_counter = 1 : ui32} (%[[A1]]: tensor<4xf32>) {
// MERGED-NEXT: %[[V10]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// MERGED-NEXT: %[[V11]] = stablehlo.add %[[V10]], %[[V10]] : tensor<4xf32>
// MERGED-NEXT: mpmd.return %[[V11]] : tensor<4xf32>
// MERGED-NEXT: } : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// MERGED-NEXT: %[[V7:[a-z0-9]+]] = mpmd.transfer %[[V6]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// MERGED-NEXT: %[[V8:[a-z0-9]+]] = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%[[V3]]) {call_counter = 0 : ui32} (%[[A1]]: tensor<4xf32>) {
// MERGED-NEXT: %[[V10]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// MERGED-NEXT: mpmd.return %[[V10]] : tensor<4xf32>
// MERGED-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// MERGED-NEXT: %[[V9:[a-z0-9]+]] = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%[[V7]]) {call_counter = 1 : ui32} (%[[A1]]: tensor<4xf32>) {
// MERGED-NEXT: %[[V10]] = stablehlo.add %[[A1]], %[[A1]] : tensor<4xf32>
// MERGED-NEXT: mpmd.return %[[V10]] : tensor<4xf32>
// MERGED-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// MERGED-NEXT: return %[[V8]], %[[V9]] : !mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// MERGED-NEXT: }
// MERGED-NEXT: }

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
