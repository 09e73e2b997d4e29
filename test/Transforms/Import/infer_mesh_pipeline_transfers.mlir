// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-pipeline='infer-transfers=true' | FileCheck %s --implicit-check-not=mpmd.assign --implicit-check-not=mpmd.unassign --implicit-check-not=mpmd.reduce

// An add of an m3 input and an m2 input that is returned is a cross-mesh
// reduction: it lands on m2 (the first mesh of the union of its sources),
// with a transfer m3 -> m2.

!t = tensor<4xf32>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m3", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m3", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[R:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%arg1, %[[T]]) {mpmd.inferred_by = ["infer_mesh_convert_reduce_ops"]}
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
func.func @main(%arg0: !m3, %arg1: !m2) -> !t attributes {topology = #topology} {
  %0 = mpmd.unassign {origin = "user_in"} %arg0 : (!m3) -> !t
  %1 = mpmd.unassign {origin = "user_in"} %arg1 : (!m2) -> !t
  %2 = stablehlo.add %0, %1 : !t
  return %2 : !t
}

// -----

// A chain of adds over three inputs flattens into one reduction: a local add
// on m3, a transfer to m2 and the final add on m2.

!t = tensor<4xf32>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[L:.*]] = mpmd.fragment<mesh="m3", origin=[]> (%arg0, %arg2) {mpmd.inferred_by = ["infer_mesh_convert_reduce_ops"]}
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %[[L]] : (!mpmd.mesh_tensor<"m3", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[R:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%arg1, %[[T]])
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
func.func @main(%arg0: !m3, %arg1: !m2, %arg2: !m3) -> !t attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m3) -> !t
  %1 = mpmd.unassign %arg1 : (!m2) -> !t
  %2 = mpmd.unassign %arg2 : (!m3) -> !t
  %3 = stablehlo.add %0, %1 : !t
  %4 = stablehlo.add %3, %2 : !t
  return %4 : !t
}

// -----

// Intermediate chain: an add on m1 and an add on m2 feed a final add, which
// lands on m1; the m2 fragment's result is transferred to m1.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main
// CHECK-DAG:     %[[A:.*]] = mpmd.fragment<mesh="m1", origin=["a"]>
// CHECK-DAG:     %[[B:.*]] = mpmd.fragment<mesh="m2", origin=["b"]>
// CHECK:         %[[T:.*]] = mpmd.transfer %[[B]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK:         %[[R:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[A]], %[[T]])
// CHECK-NEXT:      stablehlo.add
// CHECK:         return %[[R]] : !mpmd.mesh_tensor<"m1", tensor<4xf32>>
func.func @main(%arg0: !m1, %arg1: !m2) -> !t attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) (%x: !t) {
    %1 = stablehlo.add %x, %x : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m2", origin=["b"]> (%arg1) (%x: !t) {
    %3 = stablehlo.add %x, %x : !t
    mpmd.return %3 : !t
  } : (!m2) -> !m2
  %4 = mpmd.unassign %0 : (!m1) -> !t
  %5 = mpmd.unassign %2 : (!m2) -> !t
  %6 = stablehlo.add %4, %5 : !t
  return %6 : !t
}

// -----

// Without a reduction, infer-transfers creates the transfer where the value
// is needed: the multiply of an m1 value and an m2 value is placed on m1.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main
// CHECK:         %[[F:.*]] = mpmd.fragment<mesh="m2", origin=["g"]>
// CHECK:         %[[T:.*]] = mpmd.transfer %[[F]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK:         mpmd.fragment<mesh="m1", origin=[]> (%arg0, %[[T]])
// CHECK-NEXT:      stablehlo.divide
func.func @main(%arg0: !m1, %arg1: !m2) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %1 = mpmd.unassign %arg0 : (!m1) -> !t
  %2 = mpmd.unassign %0 : (!m2) -> !t
  %3 = stablehlo.divide %1, %2 : !t
  %4 = mpmd.assign %3 : (!t) -> !m1
  return %4 : !m1
}

// -----

// The per-call-site program of infer_mesh_pipeline_errors.mlir, with
// transfers: the first call's operand is used on both meshes (on m2 from a
// transfer of the m1 input); the second call's only on m2 (G7), and the
// callee argument's m1 copy gets it from a transfer of the m2 input.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @call_sites_differ(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-DAG:     %[[X1M1:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK-DAG:     %[[T0:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-DAG:     %[[X1M2:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%[[T0]])
// CHECK-DAG:     %[[T1:.*]] = mpmd.transfer %arg1 : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-DAG:     %[[X2M1:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[T1]])
// CHECK-DAG:     %[[X2M2:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%arg1)
// CHECK:         %[[R1:.*]]:2 = mpmd.call @f(%[[X1M1]], %[[X1M2]])
// CHECK-NEXT:    %[[R2:.*]]:2 = mpmd.call @f(%[[X2M1]], %[[X2M2]])
// CHECK-NEXT:    return %[[R1]]#0, %[[R2]]#1
// CHECK-LABEL: func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>> {mpmd.copies = [1]}, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
func.func @call_sites_differ(%arg0: !m1, %arg1: !m2) -> (!m1, !m2) attributes {topology = #topology} {
  %u0 = mpmd.unassign %arg0 : (!m1) -> !t
  %x1 = stablehlo.abs %u0 : !t
  %u1 = mpmd.unassign %arg1 : (!m2) -> !t
  %x2 = stablehlo.abs %u1 : !t
  %r1 = mpmd.call @f(%x1) : (!t) -> !t
  %r2 = mpmd.call @f(%x2) : (!t) -> !t
  %a1 = mpmd.assign %r1 : (!t) -> !m1
  %a2 = mpmd.assign %r2 : (!t) -> !m2
  return %a1, %a2 : !m1, !m2
}
func.func private @f(%a: !t) -> !t attributes {topology = #topology} {
  %b = stablehlo.negate %a : !t
  return %b : !t
}
