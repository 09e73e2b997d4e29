// RUN: mpmd-opt %s -mpmd-copy-constants | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A constant returned by the producer is recreated in the consumers, also
// through a transfer; a computed value is not.
// CHECK-LABEL: func.func @main
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (%{{.*}}#0, %{{.*}}#1) (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[C:.*]] = stablehlo.constant dense<1.000000e+00>
// CHECK-NEXT:   stablehlo.add %[[C]], %[[B]]
// CHECK:      mpmd.fragment<mesh="m2", origin=["h"]> (%{{.*}}) (%{{.*}}: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[D:.*]] = stablehlo.constant dense<1.000000e+00>
// CHECK-NEXT:   stablehlo.abs %[[D]]
func.func @main(%arg0: !m1) -> (!m1, !m2) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %c = stablehlo.constant dense<1.0> : !t
    %1 = stablehlo.abs %a : !t
    mpmd.return %c, %1 : !t, !t
  } : (!m1) -> (!m1, !m1)
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0#0, %0#1) (%a: !t, %b: !t) {
    %3 = stablehlo.add %a, %b : !t
    mpmd.return %3 : !t
  } : (!m1, !m1) -> !m1
  %4 = mpmd.transfer %0#0 : (!m1) -> !m2
  %5 = mpmd.fragment<mesh="m2", origin=["h"]> (%4) (%a: !t) {
    %6 = stablehlo.abs %a : !t
    mpmd.return %6 : !t
  } : (!m2) -> !m2
  return %2, %5 : !m1, !m2
}
