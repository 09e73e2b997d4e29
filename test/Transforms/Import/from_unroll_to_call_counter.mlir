// RUN: mpmd-opt %s -mpmd-from-unroll-to-call-counter | FileCheck %s
// RUN: mpmd-opt %s -mpmd-unroll-for-loops -mpmd-from-unroll-to-call-counter | FileCheck %s --check-prefix=UNROLL

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Only mpmd.call ops turn their unroll_counter into a call_counter (which
// replaces an existing one); other ops keep unroll_counter.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[C:.*]] = stablehlo.constant {unroll_counter = 1 : ui32}
// CHECK-NEXT:  mpmd.call @f(%arg0) {call_counter = 1 : ui32} :
// CHECK-NEXT:  mpmd.call @f(%{{.*}}) {call_counter = 2 : ui32} :
// CHECK-NEXT:  mpmd.call @f(%{{.*}}) {call_counter = 5 : ui32} :
// CHECK-NEXT:  stablehlo.add %{{.*}}, %[[C]] {unroll_counter = 1 : ui32}
func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  %c = stablehlo.constant {unroll_counter = 1 : ui32} dense<1.0> : !t
  %0 = mpmd.call @f(%arg0) {unroll_counter = 1 : ui32} : (!t) -> !t
  %1 = mpmd.call @f(%0) {call_counter = 0 : ui32, unroll_counter = 2 : ui32} : (!t) -> !t
  %2 = mpmd.call @f(%1) {call_counter = 5 : ui32} : (!t) -> !t
  %3 = stablehlo.add %2, %c {unroll_counter = 1 : ui32} : !t
  return %3 : !t
}
func.func private @f(%arg0: !t) -> !t attributes {topology = #topology} {
  return %arg0 : !t
}

// A loop of microbatch calls becomes one call per microbatch.
// UNROLL-LABEL: func.func @loop
// UNROLL:       mpmd.call @f(%arg0) {call_counter = 0 : ui32}
// UNROLL:       mpmd.call @f(%{{.*}}) {call_counter = 1 : ui32}
// UNROLL:       mpmd.call @f(%{{.*}}) {call_counter = 2 : ui32}
func.func @loop(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 3 : ui32, unroll_factor = 3 : ui32} (%x: !t, %index: tensor<ui32>) {
    %1 = mpmd.call @f(%x) : (!t) -> !t
    mpmd.return %1 : !t
  } : !t
  return %0 : !t
}
