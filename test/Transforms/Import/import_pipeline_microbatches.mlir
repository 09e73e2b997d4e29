// RUN: mpmd-opt %s -mpmd-import-pipeline='name-to-mesh-assignment=layer1@m1/1,layer2@m2/2 infer-transfers=true' | FileCheck %s
// Without transfer inference the tanh between the two layers cannot be placed:
// RUN: not mpmd-opt %s -mpmd-import-pipeline='name-to-mesh-assignment=layer1@m1/1,layer2@m2/2' 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: :[[@LINE+34]]:8: error: Mesh assignment is not possible for op as it is used in {"m2"["layer2"]} but it can only be placed on {"m1"["layer1"]} without introducing a transfer

// Two microbatches through mpmd.call, forward and backward of two layers:
// after import every fragment carries its microbatch's call_counter, the
// callee is gone, and the glue op (tanh) has joined layer2's fragment on m2,
// after an inferred transfer.
#topology = #mpmd.topology<<"m1": <["x"=1]>>, <"m2": <["x"=1]>>>
!t = tensor<4xf32>

// CHECK-LABEL: func.func @main
// CHECK-NOT: mpmd.call
// CHECK:      mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0, %arg1) {call_counter = 0 : ui32}
// CHECK:      mpmd.transfer
// CHECK:      mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> {{.*}}{call_counter = 0 : ui32}
// CHECK-NEXT:   stablehlo.tanh
// CHECK-NEXT:   stablehlo.sine
// CHECK:      mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> {{.*}}{call_counter = 0 : ui32}
// CHECK:      mpmd.transfer
// CHECK:      mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> {{.*}}{call_counter = 0 : ui32}
// CHECK:      mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0, %arg1) {call_counter = 1 : ui32}
// CHECK:      mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> {{.*}}{call_counter = 1 : ui32}
// CHECK:      mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> {{.*}}{call_counter = 1 : ui32}
// CHECK:      mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> {{.*}}{call_counter = 1 : ui32}
// CHECK-NOT:  func.func private @microbatch
func.func @main(%x: !t, %w: !t) -> (!t, !t) attributes {topology = #topology} {
  %g0 = mpmd.call @microbatch(%x, %w) {call_counter = 0 : ui32} : (!t, !t) -> !t
  %g1 = mpmd.call @microbatch(%x, %w) {call_counter = 1 : ui32} : (!t, !t) -> !t
  return %g0, %g1 : !t, !t
}
func.func @microbatch(%x: !t, %w: !t) -> !t {
  %a = mpmd.named_computation<"layer1"> (%x, %w) (%in: !t, %wi: !t) {
    %m = stablehlo.multiply %in, %wi : !t
    mpmd.return %m : !t
  } : (!t, !t) -> !t
  %h = stablehlo.tanh %a : !t
  %b = mpmd.named_computation<"layer2"> (%h) (%in: !t) {
    %s = stablehlo.sine %in : !t
    mpmd.return %s : !t
  } : (!t) -> !t
  %db = mpmd.named_computation<"layer2"(1)> (%b) (%in: !t) {
    %c = stablehlo.cosine %in : !t
    mpmd.return %c : !t
  } : (!t) -> !t
  %da = mpmd.named_computation<"layer1"(1)> (%db, %x) (%g: !t, %in: !t) {
    %dw = stablehlo.multiply %g, %in : !t
    mpmd.return %dw : !t
  } : (!t, !t) -> !t
  return %da : !t
}
