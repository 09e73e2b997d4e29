// Every IR snippet of the MPMD RFC (../shared/spec/mpmd-rfc.md), verbatim except that
// `#sdy.topology` is now `#mpmd.topology`, the type/attribute aliases the RFC spreads
// over several snippets are repeated at the top of each, and the "After scheduling"
// snippet, which has no module, gets the `sdy.mesh @mesh` its `#batch_shard` refers to.
// (The IFRT lowering snippet is in the `ifrt` dialect, which mpmd does not implement;
// the two pseudo-IR snippets of the design section are not MLIR.)
//
// Each snippet parses and verifies, and printing is a fixed point: print(parse(print(x)))
// equals print(x).
// RUN: mpmd-opt %s -split-input-file > %t.once
// RUN: mpmd-opt %t.once -split-input-file > %t.twice
// RUN: diff %t.once %t.twice
// RUN: FileCheck %s < %t.once

// Simple example of mesh inference: Initial
#topology = #mpmd.topology<<"m1": <"x"=2>>, <"m2": <"x"=2>>>
#batch_shard = #sdy.sharding<@mesh, [{"x"}]>
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
!m1_t_batch = !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>
!m2_t_batch = !mpmd.mesh_tensor<"m2", !t, sharding=<@mesh, [{"x"}]>>

func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t)
  attributes {topology=#topology} {
  %1 = mpmd.named_computation<"layer1"> (%arg0, %arg1) (%arg2: !t, %arg3: !t) {
    %10 = stablehlo.add %arg2, %arg2 : !t
    mpmd.return %10 : !t
  } : (!t, !t) -> !t

  %c = stablehlo.constant dense<0.000000e+00> : !t
  %2 = mpmd.named_computation<"layer2"> (%1, %c) (%arg2: !t, %arg3: !t) {
    %10 = stablehlo.add %arg2, %arg2 : !t
    mpmd.return %10 : !t
  } : (!t, !t) -> !t

  %3 = stablehlo.multiply %1, %1 : !t
  %4 = stablehlo.divide %2, %2 : !t

  func.return %3, %4  : !t, !t
}

// CHECK: func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {topology = #mpmd.topology<<"m1" : <["x"=2]>>, <"m2" : <["x"=2]>>>}
// CHECK: %[[L1:.*]] = mpmd.named_computation<"layer1"> (%arg0, %arg1)
// CHECK: %[[C:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK: %[[L2:.*]] = mpmd.named_computation<"layer2"> (%[[L1]], %[[C]])
// CHECK: stablehlo.multiply %[[L1]], %[[L1]] : tensor<4xf32>
// CHECK: stablehlo.divide %[[L2]], %[[L2]] : tensor<4xf32>

// -----

// Simple example: Mesh assignment
#topology = #mpmd.topology<<"m1": <"x"=2>>, <"m2": <"x"=2>>>
#batch_shard = #sdy.sharding<@mesh, [{"x"}]>
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
!m1_t_batch = !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>
!m2_t_batch = !mpmd.mesh_tensor<"m2", !t, sharding=<@mesh, [{"x"}]>>

// Map layer1 -> m1, layer2 -> m2
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology=#topology} {
    %0 = mpmd.assign %arg0 : (!t) -> !m1_t
    %1 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%0) (%arg2: !t) {
      %8 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %8 : !t
    } : (!m1_t) -> !m1_t
    %2 = mpmd.unassign %1 : (!m1_t) -> !t

    // We introduce a cross-mesh transfer.
    %3 = mpmd.transfer %1 : (!m1_t) -> !m2_t
    %4 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%3) (%arg2: !t) {
      %8 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %8 : !t
    } : (!m2_t) -> !m2_t
    %5 = mpmd.unassign %4 : (!m2_t) -> !t
    %6 = stablehlo.multiply %2, %2 : !t
    %7 = stablehlo.divide %5, %5 : !t
    return %6, %7 : !t, !t
  }
}

// CHECK: // -----
// CHECK: %[[A:.*]] = mpmd.assign %arg0 : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK: %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%[[A]])
// CHECK: mpmd.unassign %[[F1]]
// CHECK: %[[T:.*]] = mpmd.transfer %[[F1]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK: mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%[[T]])

// -----

// Simple example: Mesh inference
#topology = #mpmd.topology<<"m1": <"x"=2>>, <"m2": <"x"=2>>>
#batch_shard = #sdy.sharding<@mesh, [{"x"}]>
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
!m1_t_batch = !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>
!m2_t_batch = !mpmd.mesh_tensor<"m2", !t, sharding=<@mesh, [{"x"}]>>

// All stablehlo ops are now in some fragment.

module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: !m1_t, %arg1: !m1_t) -> (!m1_t, !m2_t) attributes {topology=#topology} {
    %0:2 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) (%arg2: tensor<4xf32>) {
      %3 = stablehlo.add %arg2, %arg2 : tensor<4xf32>
      %4 = stablehlo.multiply %3, %3 : tensor<4xf32>
      mpmd.return %3, %4 : tensor<4xf32>, tensor<4xf32>
    } : (!m1_t) -> (!m1_t, !m1_t)
    %1 = mpmd.transfer %0#0 : (!m1_t) -> !m2_t
    %2 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%1) (%arg2: tensor<4xf32>) {
      %3 = stablehlo.add %arg2, %arg2 : tensor<4xf32>
      %4 = stablehlo.divide %3, %3 : tensor<4xf32>
      mpmd.return %4 : tensor<4xf32>
    } : (!m2_t) -> !m2_t
    return %0#1, %2 : !m1_t, !m2_t
  }
}

// CHECK: // -----
// CHECK: %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0)
// CHECK: stablehlo.multiply
// CHECK: mpmd.transfer %[[F]]#0
// CHECK: stablehlo.divide
// CHECK: return %[[F]]#1

// -----

// 1F1B example: Initial
#topology = #mpmd.topology<<"m1": <"x"=2>>, <"m2": <"x"=2>>>
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

// CHECK: // -----
// CHECK: module attributes {mpmd.fragments.global_view}
// CHECK: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
// CHECK-COUNT-2: mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2>

// -----

// 1F1B example: After scheduling
#topology = #mpmd.topology<<"m1": <"x"=2>>, <"m2": <"x"=2>>>
#batch_shard = #sdy.sharding<@mesh, [{"x"}]>
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
!m1_t_batch = !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>
!m2_t_batch = !mpmd.mesh_tensor<"m2", !t, sharding=<@mesh, [{"x"}]>>

sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: !m1_t {sdy.sharding = #batch_shard}) -> (!m1_t, !m1_t) attributes {topology = #topology} {

  %0 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 0 : ui32} (%arg1: !t) {
    %12 = stablehlo.add %arg1, %arg1 : !t
    mpmd.return %12 : !t
  } : (!m1_t) -> !m1_t
  %1 = mpmd.transfer %0 : (!m1_t) -> !m2_t

  %2 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%1) {call_counter = 0 : ui32} (%arg1: !t) {
    %12 = stablehlo.add %arg1, %arg1 : !t
    mpmd.return %12 : !t
  } : (!m2_t) -> !m2_t
  %3 = mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> (%2) {call_counter = 0 : ui32} (%arg1: !t) {
    %12 = stablehlo.add %arg1, %arg1 : !t
    mpmd.return %12 : !t
  } : (!m2_t) -> !m2_t
  %4 = mpmd.transfer %3 : (!m2_t) -> !m1_t

  // "layer1" at call_counter `1` is now before "layer1"(1) at call_counter `0`
  %5 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 1 : ui32} (%arg1: !t) {
    %12 = stablehlo.add %arg1, %arg1 : !t
    mpmd.return %12 : !t
  } : (!m1_t) -> !m1_t
  %6 = mpmd.transfer %5 : (!m1_t) -> !m2_t
  %7 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%6) {call_counter = 1 : ui32} (%arg1: !t) {
    %12 = stablehlo.add %arg1, %arg1 : !t
    mpmd.return %12 : !t
  } : (!m2_t) -> !m2_t
  %8 = mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> (%7) {call_counter = 1 : ui32} (%arg1: !t) {
    %12 = stablehlo.add %arg1, %arg1 : !t
    mpmd.return %12 : !t
  } : (!m2_t) -> !m2_t
  %9 = mpmd.transfer %8 : (!m2_t) -> !m1_t

  // "layer1"(1) at call_counter `0` is pushed to the back.
  %10 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%4) {call_counter = 0 : ui32} (%arg1: !t) {
    %12 = stablehlo.add %arg1, %arg1 : !t
    mpmd.return %12 : !t
  } : (!m1_t) -> !m1_t
  %11 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%9) {call_counter = 1 : ui32} (%arg1: !t) {
    %12 = stablehlo.add %arg1, %arg1 : !t
    mpmd.return %12 : !t
  } : (!m1_t) -> !m1_t

  return %10, %11 : !m1_t, !m1_t
}

// CHECK: // -----
// CHECK: mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 1 : ui32}
// CHECK: mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%{{.*}}) {call_counter = 0 : ui32}

// -----

// 1F1B example: After merging
#topology = #mpmd.topology<<"m1": <"x"=2>>, <"m2": <"x"=2>>>
#batch_shard = #sdy.sharding<@mesh, [{"x"}]>
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
!m1_t_batch = !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>
!m2_t_batch = !mpmd.mesh_tensor<"m2", !t, sharding=<@mesh, [{"x"}]>>

module attributes {mpmd.fragments.global_view} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: !m1_t {sdy.sharding = #batch_shard}) -> (!m1_t, !m1_t) attributes {topology = #topology} {

    %0 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 0 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %10 : !t
    } : (!m1_t) -> !m1_t
    %1 = mpmd.transfer %0 : (!m1_t) -> !m2_t

    // "layer2" and "layer2"(1) are merged together.
    %2 = mpmd.fragment<mesh="m2", origin=["layer2", "layer2"(1)], stage=2> (%1) {call_counter = 0 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      %11 = stablehlo.add %10, %10 : !t
      mpmd.return %11 : !t
    } : (!m2_t) -> !m2_t
    %3 = mpmd.transfer %2 : (!m2_t) -> !m1_t

    %4 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 1 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %10 : !t
    } : (!m1_t) -> !m1_t
    %5 = mpmd.transfer %4 : (!m1_t) -> !m2_t

    // "layer2" and "layer2"(1) are merged together.
    %6 = mpmd.fragment<mesh="m2", origin=["layer2", "layer2"(1)], stage=2> (%5) {call_counter = 1 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      %11 = stablehlo.add %10, %10 : !t
      mpmd.return %11 : !t
    } : (!m2_t) -> !m2_t
    %7 = mpmd.transfer %6 : (!m2_t) -> !m1_t

    %8 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%3) {call_counter = 0 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %10 : !t
    } : (!m1_t) -> !m1_t
    %9 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%7) {call_counter = 1 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %10 : !t
    } : (!m1_t) -> !m1_t

    return %8, %9 : !m1_t, !m1_t
  }
}

// CHECK: // -----
// CHECK-COUNT-2: mpmd.fragment<mesh="m2", origin=["layer2", "layer2"(1)], stage=2>

// -----

// 1F1B example: After sharding propagation
#topology = #mpmd.topology<<"m1": <"x"=2>>, <"m2": <"x"=2>>>
#batch_shard = #sdy.sharding<@mesh, [{"x"}]>
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
!m1_t_batch = !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>
!m2_t_batch = !mpmd.mesh_tensor<"m2", !t, sharding=<@mesh, [{"x"}]>>

module attributes {mpmd.fragments.global_view} {
  sdy.mesh @mesh = <["x"=2]>

  // The args and results are now sharded mesh tensors.
  func.func @main(%arg0: !m1_t_batch) -> (!m1_t_batch, !m1_t_batch) attributes {topology = #topology} {
    %0 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 0 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %10 : !t
    } : (!m1_t_batch) -> !m1_t_batch
    %1 = mpmd.transfer %0 : (!m1_t_batch) -> !m2_t_batch
    %2 = mpmd.fragment<mesh="m2", origin=["layer2", "layer2"(1)], stage=2> (%1) {call_counter = 0 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      %11 = stablehlo.add %10, %10 : !t
      mpmd.return %11 : !t
    } : (!m2_t_batch) -> !m2_t_batch
    %3 = mpmd.transfer %2 : (!m2_t_batch) -> !m1_t_batch

    %4 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 1 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %10 : !t
    } : (!m1_t_batch) -> !m1_t_batch
    %5 = mpmd.transfer %4 : (!m1_t_batch) -> !m2_t_batch
    %6 = mpmd.fragment<mesh="m2", origin=["layer2", "layer2"(1)], stage=2> (%5) {call_counter = 1 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      %11 = stablehlo.add %10, %10 : !t
      mpmd.return %11 : !t
    } : (!m2_t_batch) -> !m2_t_batch
    %7 = mpmd.transfer %6 : (!m2_t_batch) -> !m1_t_batch

    %8 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%3) {call_counter = 0 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %10 : !t
    } : (!m1_t_batch) -> !m1_t_batch
    %9 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%7) {call_counter = 1 : ui32} (%arg1: !t) {
      %10 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %10 : !t
    } : (!m1_t_batch) -> !m1_t_batch

    return %8, %9 : !m1_t_batch, !m1_t_batch
  }
}

// CHECK: // -----
// CHECK: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>)
// CHECK: mpmd.transfer %{{.*}} : (!mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>

// -----

// 1F1B example: Export
#topology = #mpmd.topology<<"m1": <"x"=2>>, <"m2": <"x"=2>>>
#batch_shard = #sdy.sharding<@mesh, [{"x"}]>
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
!m1_t_batch = !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>
!m2_t_batch = !mpmd.mesh_tensor<"m2", !t, sharding=<@mesh, [{"x"}]>>

module attributes {mpmd.fragments.global_view} {
  func.func @main(%arg0: !m1_t_batch) -> (!m1_t_batch, !m1_t_batch) attributes {topology = #topology} {

    // `mpmd.fragment` has been extracted to a `func.func` and a `mpmd.fragment_call`
    // where several `fragment_call`s share the same func op.
    %0 = mpmd.fragment_call<mesh="m1", origin=["layer1"]> @p0_stage1_fwd_calls0to1.main(%arg0) : (!m1_t_batch) -> !m1_t_batch
    %1 = mpmd.transfer %0 : (!m1_t_batch) -> !m2_t_batch
    %2 = mpmd.fragment_call<mesh="m2", origin=["layer2", "layer2"(1)]> @p1_stage2_fwd_bwd_calls0to1.main(%1) : (!m2_t_batch) -> !m2_t_batch
    %3 = mpmd.transfer %2 : (!m2_t_batch) -> !m1_t_batch

    %4 = mpmd.fragment_call<mesh="m1", origin=["layer1"]> @p0_stage1_fwd_calls0to1.main(%arg0) : (!m1_t_batch) -> !m1_t_batch
    %5 = mpmd.transfer %4 : (!m1_t_batch) -> !m2_t_batch
    %6 = mpmd.fragment_call<mesh="m2", origin=["layer2", "layer2"(1)]> @p1_stage2_fwd_bwd_calls0to1.main(%5) : (!m2_t_batch) -> !m2_t_batch
    %7 = mpmd.transfer %6 : (!m2_t_batch) -> !m1_t_batch

    %8 = mpmd.fragment_call<mesh="m1", origin=["layer1"(1)]> @p2_stage1_bwd_calls0to1.main(%3) : (!m1_t_batch) -> !m1_t_batch
    %9 = mpmd.fragment_call<mesh="m1", origin=["layer1"(1)]> @p2_stage1_bwd_calls0to1.main(%7) : (!m1_t_batch) -> !m1_t_batch

    return %8, %9 : !m1_t_batch, !m1_t_batch
  }
  func.func @p0_stage1_fwd_calls0to1.main(%arg0: !t) -> !t attributes {mesh_shape = #sdy.mesh<"x"=2>} {
    %0 = stablehlo.add %arg0, %arg0 : !t
    return %0 : !t
  }
  func.func @p1_stage2_fwd_bwd_calls0to1.main(%arg0: !t {tf.aliasing_output = 0 : i32}) -> !t attributes {mesh_shape = #sdy.mesh<"x"=2>} {
    %0 = stablehlo.add %arg0, %arg0 : !t
    %1 = stablehlo.add %0, %0 : !t
    return %1 : !t
  }
  func.func @p2_stage1_bwd_calls0to1.main(%arg0: !t {tf.aliasing_output = 0 : i32}) -> !t attributes {mesh_shape = #sdy.mesh<"x"=2>} {
    %0 = stablehlo.add %arg0, %arg0 : !t
    return %0 : !t
  }
}

// CHECK: // -----
// CHECK-COUNT-2: mpmd.fragment_call<mesh="m1", origin=["layer1"]> @p0_stage1_fwd_calls0to1.main(%arg0)
// CHECK: mpmd.fragment_call<mesh="m1", origin=["layer1"(1)]> @p2_stage1_bwd_calls0to1.main
// CHECK: func.func @p0_stage1_fwd_calls0to1.main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {mesh_shape = #sdy.mesh<["x"=2]>}
// CHECK: func.func @p1_stage2_fwd_bwd_calls0to1.main(%arg0: tensor<4xf32> {tf.aliasing_output = 0 : i32})
