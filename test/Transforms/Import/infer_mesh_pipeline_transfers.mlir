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
