// RUN: mpmd-opt %s -mpmd-import-pipeline='name-to-mesh-assignment=f1@m1/1,f2@m1/2 merge-after-scheduling=true' -mpmd-optimize-pipeline='pipeline-schedule=Circular merge-after-scheduling=true' | FileCheck %s
// RUN: mpmd-opt %s -mpmd-import-pipeline='name-to-mesh-assignment=f1@m1/1,f2@m1/2' -mpmd-optimize-pipeline='pipeline-schedule=Circular' | FileCheck %s

// Import then optimize with the Circular schedule: two stages on one mesh,
// two microbatches through mpmd.call, and a meshless add of f2's result and
// the call's argument. The schedule runs stage 1 for both microbatches, then
// stage 2: a true circular order. Upstream's notes report that merging
// inferred fragments before scheduling can block this (the merged add ties
// f2 of one microbatch to f1 of the next); here the add is absorbed into f2,
// its producer, so both settings schedule circularly.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[A0:.*]] = mpmd.fragment<mesh="m1", origin=["f1"], stage=1> (%arg0) {call_counter = 0 : ui32}
// CHECK:      %[[A1:.*]] = mpmd.fragment<mesh="m1", origin=["f1"], stage=1> (%arg0) {call_counter = 1 : ui32}
// CHECK:      mpmd.fragment<mesh="m1", origin=["f2"], stage=2> (%[[A0]], %arg0) {call_counter = 0 : ui32}
// CHECK-NEXT:   stablehlo.multiply
// CHECK-NEXT:   stablehlo.add
// CHECK:      mpmd.fragment<mesh="m1", origin=["f2"], stage=2> (%[[A1]], %arg0) {call_counter = 1 : ui32}
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
!t = tensor<4xf32>

func.func @main(%x: !t) -> (!t, !t) attributes {topology = #topology} {
  %0 = mpmd.call @microbatch(%x) {call_counter = 0 : ui32} : (!t) -> !t
  %1 = mpmd.call @microbatch(%x) {call_counter = 1 : ui32} : (!t) -> !t
  return %0, %1 : !t, !t
}
func.func @microbatch(%x: !t) -> !t {
  %a = mpmd.named_computation<"f1"> (%x) (%in: !t) {
    %m = stablehlo.add %in, %in : !t
    mpmd.return %m : !t
  } : (!t) -> !t
  %b = mpmd.named_computation<"f2"> (%a) (%in: !t) {
    %m = stablehlo.multiply %in, %in : !t
    mpmd.return %m : !t
  } : (!t) -> !t
  %c = stablehlo.add %b, %x : !t
  return %c : !t
}
