// RUN: mpmd-opt %s -mpmd-import-pipeline='calls-to-named-computations=true name-to-mesh-assignment=layer1@m1,layer2@m2' | FileCheck %s
// Without the option the layer calls are inlined like any other call: no
// user fragment, everything inferred onto the first mesh.
// RUN: mpmd-opt %s -mpmd-import-pipeline='name-to-mesh-assignment=layer1@m1,layer2@m2' | FileCheck %s --check-prefix=PLAIN

// A JAX step whose layers are jitted functions (forward and backward) and
// whose loss goes through a jitted helper that is no layer: the layer calls
// become fragments with their transpose counts, the helper is inlined and
// placed by mesh inference.
// CHECK-LABEL: func.func public @main
// CHECK-SAME:    (%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK:         mpmd.fragment<mesh="m1", origin=["layer1"]>
// CHECK:         mpmd.transfer
// CHECK:         mpmd.fragment<mesh="m2", origin=["layer2"]>
// CHECK:         mpmd.fragment<mesh="m2", origin=["layer2"(1)]>
// CHECK:         mpmd.transfer
// CHECK:         mpmd.fragment<mesh="m1", origin=["layer1"(1)]>
// CHECK-NOT:     call @
// CHECK-NOT:   func.func private

// PLAIN-LABEL: func.func public @main
// PLAIN-SAME:    (%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// PLAIN:         mpmd.fragment<mesh="m1", origin=[]>
// PLAIN-NOT:     mpmd.fragment
#topology = #mpmd.topology<<"m1": <["x"=1]>>, <"m2": <["x"=1]>>>
!t = tensor<4xf32>
func.func public @main(%arg0: !t, %arg1: !t) -> (!t {jax.result_info = "result[0]"}, !t {jax.result_info = "result[1]"}) attributes {topology = #topology} {
  %0 = call @layer1(%arg0) : (!t) -> !t
  %1 = call @layer2(%0, %arg1) : (!t, !t) -> !t
  %2 = call @square(%1) : (!t) -> !t
  %3:2 = call @"transpose(jvp(layer2))"(%0, %arg1, %2) : (!t, !t, !t) -> (!t, !t)
  %4 = call @"transpose(jvp(layer1))"(%0, %3#0) : (!t, !t) -> !t
  return %4, %3#1 : !t, !t
}
func.func private @layer1(%arg0: !t) -> !t {
  %0 = stablehlo.tanh %arg0 : !t
  return %0 : !t
}
func.func private @layer2(%arg0: !t, %arg1: !t) -> !t {
  %0 = stablehlo.multiply %arg0, %arg1 : !t
  return %0 : !t
}
func.func private @square(%arg0: !t) -> !t {
  %0 = stablehlo.multiply %arg0, %arg0 : !t
  return %0 : !t
}
func.func private @"transpose(jvp(layer2))"(%arg0: !t, %arg1: !t, %arg2: !t) -> (!t, !t) {
  %0 = stablehlo.multiply %arg2, %arg1 : !t
  %1 = stablehlo.multiply %arg2, %arg0 : !t
  return %0, %1 : !t, !t
}
func.func private @"transpose(jvp(layer1))"(%arg0: !t, %arg1: !t) -> !t {
  %0 = stablehlo.multiply %arg0, %arg0 : !t
  %cst = stablehlo.constant dense<1.000000e+00> : !t
  %1 = stablehlo.subtract %cst, %0 : !t
  %2 = stablehlo.multiply %arg1, %1 : !t
  return %2 : !t
}
