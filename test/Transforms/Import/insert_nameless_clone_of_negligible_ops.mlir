// RUN: mpmd-opt %s -mpmd-insert-nameless-clone-of-negligible-ops | FileCheck %s

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The constant returned by "f" is cloned after it; the use by "g" and the
// add use the clone, the func.return keeps the computation's result. The
// non-negligible result 1 is untouched.
// CHECK-LABEL: func.func @main
// CHECK:       %[[F:.*]]:2 = mpmd.named_computation<"f">
// CHECK:         %[[IN:.*]] = stablehlo.constant dense<1.000000e+00>
// CHECK:         mpmd.return %[[IN]], %{{.*}}
// CHECK:       %[[CLONE:.*]] = stablehlo.constant dense<1.000000e+00>
// CHECK-NEXT:  %[[G:.*]] = mpmd.named_computation<"g"> (%[[CLONE]], %[[F]]#1)
// CHECK:       stablehlo.add %[[CLONE]], %[[G]]
// CHECK:       return %[[F]]#0,
func.func @main(%arg0: !t) -> (!t, !t) attributes {topology = #topology} {
  %0:2 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    %c = stablehlo.constant dense<1.0> : !t
    %n = stablehlo.negate %a : !t
    mpmd.return %c, %n : !t, !t
  } : (!t) -> (!t, !t)
  %1 = mpmd.named_computation<"g"> (%0#0, %0#1) (%a: !t, %b: !t) {
    %s = stablehlo.add %a, %b : !t
    mpmd.return %s : !t
  } : (!t, !t) -> !t
  %2 = stablehlo.add %0#0, %1 : !t
  return %0#0, %2 : !t, !t
}

// A constant only used by the func.return, or not used at all, is cloned
// all the same, as upstream does: the clones are unused, and the return
// keeps the computation's result.
// CHECK-LABEL: func.func @only_returned
// CHECK-NOT:   stablehlo.constant
// CHECK:       %[[F:.*]]:2 = mpmd.named_computation<"f">
// CHECK:         stablehlo.constant dense<1.000000e+00>
// CHECK:         stablehlo.constant dense<2.000000e+00>
// CHECK:       }
// CHECK-NEXT:  stablehlo.constant dense<1.000000e+00>
// CHECK-NEXT:  stablehlo.constant dense<2.000000e+00>
// CHECK-NEXT:  return %[[F]]#0 :
func.func @only_returned(%arg0: !t) -> !t attributes {topology = #topology} {
  %0:2 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    %c = stablehlo.constant dense<1.0> : !t
    %d = stablehlo.constant dense<2.0> : !t
    mpmd.return %c, %d : !t, !t
  } : (!t) -> (!t, !t)
  return %0#0 : !t
}
