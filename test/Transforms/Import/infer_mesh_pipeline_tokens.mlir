// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-pipeline | FileCheck %s --implicit-check-not=mpmd.assign --implicit-check-not=mpmd.unassign

// Token-typed values through mesh inference (G10). An op whose results are
// all tokens is placed like a result-less op: `create_token` (pure, no
// inputs) on the first mesh, `send` (side effects) once per mesh of its
// src_set. Tokens are passed to fragments as they are: no mpmd.assign of a
// token is ever built.

// CHECK-LABEL: func.func @send_of_created_token
// CHECK-NEXT:    %[[TOK:.*]] = mpmd.fragment<mesh="m1", origin=[]> () {mpmd.inferred_by = ["infer_mesh_wrap_resultless_ops"]} () {
// CHECK-NEXT:      %[[C:.*]] = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT:      mpmd.return %[[C]] : !stablehlo.token
// CHECK-NEXT:    } : () -> !stablehlo.token
// CHECK-NEXT:    %[[SEND:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%arg0, %[[TOK]]) {mpmd.inferred_by = ["infer_mesh_wrap_resultless_ops"]} (%[[X:.*]]: tensor<4xf32>, %[[T:.*]]: !stablehlo.token) {
// CHECK-NEXT:      %[[S:.*]] = "stablehlo.send"(%[[X]], %[[T]])
// CHECK-NEXT:      mpmd.return %[[S]] : !stablehlo.token
// CHECK-NEXT:    } : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>, !stablehlo.token) -> !stablehlo.token
// CHECK-NEXT:    %[[ADD:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%arg0)
// CHECK-NEXT:      stablehlo.add
// CHECK:         return %[[ADD]]

!t = tensor<4xf32>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topo = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @send_of_created_token(%arg0: !m2) -> !m2 attributes {topology = #topo} {
  %0 = mpmd.unassign %arg0 : (!m2) -> !t
  %tok = stablehlo.create_token : !stablehlo.token
  %sent = "stablehlo.send"(%0, %tok) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (!t, !stablehlo.token) -> !stablehlo.token
  %1 = stablehlo.add %0, %0 : !t
  %2 = mpmd.assign %1 : (!t) -> !m2
  return %2 : !m2
}

// -----

// A side-effecting token op whose inputs live on two meshes is copied onto
// both; the copies share the token, which needs no transfer.

// CHECK-LABEL: func.func @send_on_every_src_mesh
// CHECK-NEXT:    %[[TOK:.*]] = mpmd.fragment<mesh="m1", origin=[]> ()
// CHECK-NEXT:      stablehlo.create_token
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    } : () -> !stablehlo.token
// CHECK-NEXT:    mpmd.fragment<mesh="m1", origin=[]> (%arg0, %[[TOK]])
// CHECK-NEXT:      "stablehlo.send"
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !stablehlo.token) -> !stablehlo.token
// CHECK-NEXT:    mpmd.fragment<mesh="m2", origin=[]> (%arg1, %[[TOK]])
// CHECK-NEXT:      "stablehlo.send"
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    } : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>, !stablehlo.token) -> !stablehlo.token
// CHECK-NEXT:    return %arg0

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topo = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @send_on_every_src_mesh(%arg0: !m1, %arg1: !m2) -> !m1 attributes {topology = #topo} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = mpmd.unassign %arg1 : (!m2) -> !t
  %tok = stablehlo.create_token : !stablehlo.token
  %sent = "stablehlo.send"(%0, %tok) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (!t, !stablehlo.token) -> !stablehlo.token
  %sent1 = "stablehlo.send"(%1, %tok) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 2>, is_host_transfer = true} : (!t, !stablehlo.token) -> !stablehlo.token
  %2 = mpmd.assign %0 : (!t) -> !m1
  return %2 : !m1
}

// -----

// An op with tensor and token results: the tensor result is assigned as
// usual (here to m2, where its consumer is) and the used token comes out of
// the same fragment, straight into the send on m1.

// CHECK-LABEL: func.func @recv_tensor_and_token
// CHECK-NEXT:    %[[TOK:.*]] = mpmd.fragment<mesh="m1", origin=[]> ()
// CHECK-NEXT:      stablehlo.create_token
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    } : () -> !stablehlo.token
// CHECK-NEXT:    %[[RECV:.*]]:2 = mpmd.fragment<mesh="m2", origin=[]> (%[[TOK]]) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]} (%[[T:.*]]: !stablehlo.token) {
// CHECK-NEXT:      %[[R:.*]]:2 = "stablehlo.recv"(%[[T]])
// CHECK-NEXT:      mpmd.return %[[R]]#0, %[[R]]#1 : tensor<4xf32>, !stablehlo.token
// CHECK-NEXT:    } : (!stablehlo.token) -> (!mpmd.mesh_tensor<"m2", tensor<4xf32>>, !stablehlo.token)
// CHECK-NEXT:    mpmd.fragment<mesh="m1", origin=[]> (%arg0, %[[RECV]]#1) {mpmd.inferred_by = ["infer_mesh_wrap_resultless_ops"]}
// CHECK-NEXT:      "stablehlo.send"
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !stablehlo.token) -> !stablehlo.token
// CHECK-NEXT:    %[[ADD:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%[[RECV]]#0)
// CHECK-NEXT:      stablehlo.add
// CHECK:         return %[[ADD]]

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topo = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @recv_tensor_and_token(%arg0: !m1) -> !m2 attributes {topology = #topo} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %tok = stablehlo.create_token : !stablehlo.token
  %r, %rt = "stablehlo.recv"(%tok) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (!t, !stablehlo.token)
  %s = "stablehlo.send"(%0, %rt) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 2>, is_host_transfer = true} : (!t, !stablehlo.token) -> !stablehlo.token
  %1 = stablehlo.add %r, %r : !t
  %2 = mpmd.assign %1 : (!t) -> !m2
  return %2 : !m2
}
