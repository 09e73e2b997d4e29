// RUN: mpmd-opt %s -mpmd-import-pipeline='name-to-mesh-assignment=layer1@m1,layer2@m2 infer-transfers=true' | FileCheck %s

// A JAX training step: @main calls the step, a private function (short
// `call` form), and the step calls each layer's function with func.call
// inside the named computations. The import pipeline's inliner flattens the
// call graph first, so every input gets a mesh and no call is left.
#topology = #mpmd.topology<<"m1": <["x"=1]>>, <"m2": <["x"=1]>>>
!t = tensor<4xf32>

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg2: !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NOT:     call
// CHECK:         mpmd.fragment<mesh="m1", origin=["layer1"]>
// CHECK-NEXT:      stablehlo.multiply
// CHECK-NEXT:      stablehlo.tanh
// CHECK:         mpmd.transfer
// CHECK:         mpmd.fragment<mesh="m2", origin=["layer2"]>
// CHECK-NEXT:      stablehlo.multiply
// CHECK-NEXT:      stablehlo.tanh
// CHECK-NOT:   func.func private
func.func @main(%x: !t, %w1: !t, %w2: !t) -> !t attributes {topology = #topology} {
  %0 = call @train_step(%x, %w1, %w2) : (!t, !t, !t) -> !t
  return %0 : !t
}
func.func private @train_step(%x: !t, %w1: !t, %w2: !t) -> !t {
  %0 = mpmd.named_computation<"layer1"> (%x, %w1) (%a: !t, %w: !t) {
    %1 = func.call @dense(%a, %w) : (!t, !t) -> !t
    mpmd.return %1 : !t
  } : (!t, !t) -> !t
  %2 = mpmd.named_computation<"layer2"> (%0, %w2) (%a: !t, %w: !t) {
    %3 = func.call @dense(%a, %w) : (!t, !t) -> !t
    mpmd.return %3 : !t
  } : (!t, !t) -> !t
  return %2 : !t
}
func.func private @dense(%a: !t, %w: !t) -> !t {
  %0 = stablehlo.multiply %a, %w : !t
  %1 = stablehlo.tanh %0 : !t
  return %1 : !t
}
