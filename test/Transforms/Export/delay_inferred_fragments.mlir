// RUN: mpmd-opt %s -mpmd-delay-inferred-fragments | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// The chain of inferred fragments a -> b moves right before its first user
// "g"; user fragments and the unused inferred fragment stay in place.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=[]> (%arg0) {mpmd.inferred_by = ["unused"]}
// CHECK-NEXT:   stablehlo.negate
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK:      mpmd.fragment<mesh="m1", origin=[]> (%arg0) {mpmd.inferred_by = ["a"]}
// CHECK:      mpmd.fragment<mesh="m1", origin=[]> (%{{.*}}) {mpmd.inferred_by = ["b"]}
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]>
func.func @main(%arg0: !m1) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {mpmd.inferred_by = ["a"]} (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=[]> (%0) {mpmd.inferred_by = ["b"]} (%a: !t) {
    %3 = stablehlo.abs %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {mpmd.inferred_by = ["unused"]} (%a: !t) {
    %5 = stablehlo.negate %a : !t
    mpmd.return %5 : !t
  } : (!m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %7 = stablehlo.sine %a : !t
    mpmd.return %7 : !t
  } : (!m1) -> !m1
  %8 = mpmd.fragment<mesh="m1", origin=["g"]> (%2, %6) (%a: !t, %b: !t) {
    %9 = stablehlo.add %a, %b : !t
    mpmd.return %9 : !t
  } : (!m1, !m1) -> !m1
  return %8, %0, %6 : !m1, !m1, !m1
}
