// The import passes in the order of the import pipeline (up to mesh
// inference), on the RFC's first example and on the import scenarios.
// RUN: mpmd-opt %s -split-input-file -pass-pipeline='builtin.module(mpmd-copy-topology-from-main, func.func(mpmd-unroll-for-loops, mpmd-from-unroll-to-call-counter), mpmd-sink-negligible-ops-into-call-op, func.func(mpmd-insert-nameless-clone-of-negligible-ops, mpmd-simplify-named-computations), mpmd-map-input-output-to-mesh, func.func(mpmd-inline-nested-user-exposed-ops{assignment=layer1@m1,layer2@m2,f1@m1,f2@m2,c1@m1/0,c2@m2/0,c3@m1/1,n1@m1,n2@m2}, mpmd-validate-named-ops-in-mpmd-func, mpmd-map-named-ops-to-mpmd-ops{assignment=layer1@m1,layer2@m2,f1@m1,f2@m2,c1@m1/0,c2@m2/0,c3@m1/1,n1@m1,n2@m2}), mpmd-introduce-transfers, mpmd-erase-unused-callee-block-arguments)' | FileCheck %s
// RUN: mpmd-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(mpmd-simplify-named-computations), func.func(mpmd-map-named-ops-to-mpmd-ops{assignment=layer1@m1/1,layer2@m2/2,f1@m1,f2@m2,c1@m1/0,c2@m2/0,c3@m1/1,n1@m1,n2@m2}), mpmd-introduce-transfers)' | FileCheck %s --check-prefix=STAGES

// The RFC's "Simple example of mesh inference" (examples/
// rfc_simple_mesh_inference.mlir) with layer1@m1,layer2@m2 gives the RFC's
// "Mesh assignment" IR: unused operands are dropped, layer1's result goes
// to m2 through a transfer. The constant layer2 no longer uses is left to
// DCE, and assigns/unassigns carry their computation as origin.
// CHECK-LABEL: func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  %[[A:.*]] = mpmd.assign {origin = "layer1"} %arg0 : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:  %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=["layer1"]> (%[[A]]) (%[[X:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[S:.*]] = stablehlo.add %[[X]], %[[X]] : tensor<4xf32>
// CHECK-NEXT:    mpmd.return %[[S]] : tensor<4xf32>
// CHECK-NEXT:  } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:  %[[U1:.*]] = mpmd.unassign {origin = "layer1"} %[[F1]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> tensor<4xf32>
// CHECK-NEXT:  stablehlo.constant
// CHECK-NEXT:  %[[T:.*]] = mpmd.transfer %[[F1]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:  %[[F2:.*]] = mpmd.fragment<mesh="m2", origin=["layer2"]> (%[[T]]) (%[[Y:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[S2:.*]] = stablehlo.add %[[Y]], %[[Y]] : tensor<4xf32>
// CHECK-NEXT:    mpmd.return %[[S2]] : tensor<4xf32>
// CHECK-NEXT:  } : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:  %[[U2:.*]] = mpmd.unassign {origin = "layer2"} %[[F2]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> tensor<4xf32>
// CHECK-NEXT:  %[[M:.*]] = stablehlo.multiply %[[U1]], %[[U1]] : tensor<4xf32>
// CHECK-NEXT:  %[[D:.*]] = stablehlo.divide %[[U2]], %[[U2]] : tensor<4xf32>
// CHECK-NEXT:  return %[[M]], %[[D]] : tensor<4xf32>, tensor<4xf32>
// With stages (layer1@m1/1,layer2@m2/2), the fragments carry them as in
// the RFC.
// STAGES-LABEL: func.func @main
// STAGES:       mpmd.fragment<mesh="m1", origin=["layer1"], stage=1>
// STAGES:       mpmd.transfer
// STAGES:       mpmd.fragment<mesh="m2", origin=["layer2"], stage=2>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
!t = tensor<4xf32>

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

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// c1@m1/0, c2@m2/0, c3@m1/1: the fragments get stages 0, 0 and 1, with
// transfers m1 -> m2 -> m1 between them.
// CHECK-LABEL: func.func @stages
// CHECK:       %[[C1:.*]] = mpmd.fragment<mesh="m1", origin=["c1"], stage=0>
// CHECK:       %[[T1:.*]] = mpmd.transfer %[[C1]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:  %[[C2:.*]] = mpmd.fragment<mesh="m2", origin=["c2"], stage=0> (%[[T1]])
// CHECK:       %[[T2:.*]] = mpmd.transfer %[[C2]] : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[C3:.*]] = mpmd.fragment<mesh="m1", origin=["c3"], stage=1> (%[[T2]])
func.func @stages(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.named_computation<"c1"> (%arg0) (%x: !t) {
    %n = stablehlo.negate %x : !t
    mpmd.return %n : !t
  } : (!t) -> !t
  %1 = mpmd.named_computation<"c2"> (%0) (%x: !t) {
    %n = stablehlo.negate %x : !t
    mpmd.return %n : !t
  } : (!t) -> !t
  %2 = mpmd.named_computation<"c3"> (%1) (%x: !t) {
    %n = stablehlo.negate %x : !t
    mpmd.return %n : !t
  } : (!t) -> !t
  return %2 : !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Named tensors n1 (m1) -> n2 (m2) -> n1 (m1): two transfers, m1 -> m2
// then m2 -> m1. Unassigned names are erased, chains of them included.
// CHECK-LABEL: func.func @named_tensors
// CHECK-NEXT:  %[[A:.*]] = mpmd.assign {origin = "n1"} %arg0 : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[T1:.*]] = mpmd.transfer %[[A]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:  %[[T2:.*]] = mpmd.transfer %[[T1]] : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[U:.*]] = mpmd.unassign {origin = "n1"} %[[T2]]
// CHECK-NEXT:  return %[[U]]
func.func @named_tensors(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.named_tensor %arg0 name="n1" : !t
  %1 = mpmd.named_tensor %0 name="n2" : !t
  %2 = mpmd.named_tensor %1 name="n1" : !t
  %3 = mpmd.named_tensor %2 name="other" : !t
  %4 = mpmd.named_tensor %3 name="another" : !t
  return %4 : !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// (a) f1 takes %arg0 twice: one operand. (b) f1's duplicated result and
// the result returning its argument are gone. (c) %arg1, which f1 only
// passes through, reaches f2 directly: it is assigned to m2, no transfer.
// CHECK-LABEL: func.func @simplifications
// CHECK-NEXT:  %[[A:.*]] = mpmd.assign {origin = "f1"} %arg0 : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=["f1"]> (%[[A]]) (%{{.*}}: tensor<4x8xf32>) {
// CHECK:       } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  %[[U:.*]] = mpmd.unassign {origin = "f1"} %[[F1]]
// CHECK-NEXT:  %[[T:.*]] = mpmd.transfer %[[F1]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:  %[[B:.*]] = mpmd.assign {origin = "f2"} %arg1 : (tensor<4x8xf32>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:  mpmd.fragment<mesh="m2", origin=["f2"]> (%[[T]], %[[B]])
// CHECK-NOT:   mpmd.transfer
// CHECK:       return
func.func @simplifications(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  %0:3 = mpmd.named_computation<"f1"> (%arg0, %arg0, %arg1) (%x: !t, %x2: !t, %y: !t) {
    %s = stablehlo.add %x, %x2 : !t
    mpmd.return %s, %y, %s : !t, !t, !t
  } : (!t, !t, !t) -> (!t, !t, !t)
  %1 = mpmd.named_computation<"f2"> (%0#0, %0#1) (%a: !t, %b: !t) {
    %m = stablehlo.multiply %a, %b : !t
    mpmd.return %m : !t
  } : (!t, !t) -> !t
  return %1, %0#2 : !t, !t
}

// -----

!t = tensor<4x8xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// (d) An mpmd.call of a callee that returns an argument it does not
// otherwise use: the argument and result are removed, the caller uses the
// operand. Loop unrolling turns the loop's calls into call_counter 0 and 1,
// and the constant every call passes is sunk into the callee.
// (The unused index constants of the unrolled loop are left to DCE.)
// CHECK-LABEL: func.func @calls
// CHECK-NEXT:  stablehlo.constant {unroll_counter = 0 : ui32} dense<0> : tensor<ui32>
// CHECK-NEXT:  %[[C0:.*]] = mpmd.call @body(%arg0) {call_counter = 0 : ui32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  stablehlo.constant {unroll_counter = 1 : ui32} dense<1> : tensor<ui32>
// CHECK-NEXT:  %[[C1:.*]] = mpmd.call @body(%[[C0]]) {call_counter = 1 : ui32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[C1]], %arg1
// CHECK:       func.func private @body(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {topology
// CHECK-NEXT:  %[[K:.*]] = stablehlo.constant dense<1.000000e+00>
// CHECK-NEXT:  %[[X:.*]] = mpmd.assign {origin = "f1"} %arg0
// CHECK-NEXT:  %[[Y:.*]] = mpmd.assign {origin = "f1"} %[[K]]
// CHECK-NEXT:  mpmd.fragment<mesh="m1", origin=["f1"]> (%[[X]], %[[Y]])
func.func @calls(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  %c = stablehlo.constant dense<1.0> : !t
  %0:2 = mpmd.for (%arg0, %arg1) {iterations = 2 : ui32, unroll_factor = 2 : ui32} (%x: !t, %y: !t, %index: tensor<ui32>) {
    %1:2 = mpmd.call @body(%x, %y, %c) : (!t, !t, !t) -> (!t, !t)
    mpmd.return %1#0, %1#1 : !t, !t
  } : !t, !t
  return %0#0, %0#1 : !t, !t
}
func.func @body(%arg0: !t, %arg1: !t, %arg2: !t) -> (!t, !t) {
  %0 = mpmd.named_computation<"f1"> (%arg0, %arg2) (%x: !t, %c: !t) {
    %1 = stablehlo.add %x, %c : !t
    mpmd.return %1 : !t
  } : (!t, !t) -> !t
  return %0, %arg1 : !t, !t
}
