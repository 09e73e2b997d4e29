// RUN: mpmd-opt %s -mpmd-infer-mesh-pipeline | FileCheck %s --implicit-check-not=mpmd.assign --implicit-check-not=mpmd.unassign

// Mesh inference per unit (G1): each entry point with the private callees it
// reaches through mpmd.call is inferred with its own topology -- its mesh
// names, and its first mesh for unused inputs ("a1" for @first, "b" for
// @second). A function without a topology is left alone.

// CHECK-LABEL: func.func @first
// CHECK-SAME:    (%arg0: !mpmd.mesh_tensor<"a2", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"a1", tensor<4xf32>>)
// CHECK-NEXT:    %[[C:.*]] = mpmd.call @helper(%arg0)
// CHECK-NEXT:    %[[F:.*]] = mpmd.fragment<mesh="a2", origin=["f"]>
// CHECK:         return %[[F]]
// CHECK-LABEL: func.func private @helper
// CHECK-SAME:    (%arg0: !mpmd.mesh_tensor<"a2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"a2", tensor<4xf32>>
// CHECK-NEXT:    mpmd.fragment<mesh="a2", origin=[]>
// CHECK-NEXT:      stablehlo.negate
// CHECK-LABEL: func.func @second
// CHECK-SAME:    (%arg0: !mpmd.mesh_tensor<"c", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"b", tensor<4xf32>>) -> !mpmd.mesh_tensor<"c", tensor<4xf32>>
// CHECK-NEXT:    mpmd.fragment<mesh="c", origin=[]>
// CHECK-NEXT:      stablehlo.abs
// CHECK-LABEL: func.func @plain
// CHECK-SAME:    (%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.abs

!t = tensor<4xf32>
!a2 = !mpmd.mesh_tensor<"a2", !t>
!c = !mpmd.mesh_tensor<"c", !t>
#topo_a = #mpmd.topology<<"a1": <["x"=2]>>, <"a2": <["x"=2]>>>
#topo_bc = #mpmd.topology<<"b": <["y"=4]>>, <"c": <["y"=4]>>>

func.func @first(%arg0: !t, %arg1: !t) -> !t attributes {topology = #topo_a} {
  %0 = mpmd.call @helper(%arg0) : (!t) -> !t
  %1 = mpmd.assign %0 : (!t) -> !a2
  %2 = mpmd.fragment<mesh="a2", origin=["f"]> (%1) (%x: !t) {
    mpmd.return %x : !t
  } : (!a2) -> !a2
  %3 = mpmd.unassign %2 : (!a2) -> !t
  return %3 : !t
}

func.func private @helper(%arg0: !t) -> !t attributes {topology = #topo_a} {
  %0 = stablehlo.negate %arg0 : !t
  return %0 : !t
}

func.func @second(%arg0: !t, %arg1: !t) -> !t attributes {topology = #topo_bc} {
  %0 = stablehlo.abs %arg0 : !t
  %1 = mpmd.assign %0 : (!t) -> !c
  %2 = mpmd.unassign %1 : (!c) -> !t
  return %2 : !t
}

func.func @plain(%arg0: !t) -> !t {
  %0 = stablehlo.abs %arg0 : !t
  return %0 : !t
}

