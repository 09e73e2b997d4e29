// RUN: mpmd-opt %s -mpmd-import-pipeline='name-to-mesh-assignment=c1@m0,c2@m1 infer-transfers=true' | FileCheck %s

// In an mpmd.call callee, c1's result is used by an unlabelled op (tanh) and
// by c2 on another mesh. The transfer made for c2 came after the copy of the
// tanh that mesh inference places on m1 and reuses that transfer: a use
// before its definition (mpmd-opt's verifier reported it after
// -mpmd-infer-mesh-finalize; without the verifier, the callee was inlined,
// erased and read after being freed). The reused transfer moves before it.

// CHECK-LABEL: func.func @main
// CHECK: %[[C1:.*]]:2 = mpmd.fragment<mesh="m0", origin=["c1"]> (%arg0) {call_counter = 0 : ui32}
// CHECK: mpmd.transfer %[[C1]]#0
// CHECK: %[[C1_1:.*]]:2 = mpmd.fragment<mesh="m0", origin=["c1"]> (%arg0) {call_counter = 1 : ui32}
// CHECK: %[[TRANSFER:.*]] = mpmd.transfer %[[C1_1]]#0
// CHECK: %[[C2:.*]] = mpmd.fragment<mesh="m1", origin=["c2"]> (%[[TRANSFER]]) {call_counter = 1 : ui32}
// CHECK-NEXT: stablehlo.tanh
// CHECK: return %[[C1]]#1, %[[C2]]
!t = tensor<4xf32>
func.func @main(%x: !t) -> (!t, !t) attributes {topology = #mpmd.topology<<"m0": <["x"=1]>>, <"m1": <["x"=1]>>>} {
  %r:2 = mpmd.call @f(%x) {call_counter = 0 : ui32} : (!t) -> (!t, !t)
  %q:2 = mpmd.call @f(%x) {call_counter = 1 : ui32} : (!t) -> (!t, !t)
  return %r#0, %q#1 : !t, !t
}
func.func @f(%x: !t) -> (!t, !t) {
  %a = mpmd.named_computation<"c1"> (%x) (%in: !t) {
    %m = stablehlo.negate %in : !t
    mpmd.return %m : !t
  } : (!t) -> !t
  %h = stablehlo.tanh %a : !t
  %b = mpmd.named_computation<"c2"> (%a, %h) (%in: !t, %in2: !t) {
    %s = stablehlo.add %in, %in2 : !t
    mpmd.return %s : !t
  } : (!t, !t) -> !t
  return %h, %b : !t, !t
}
