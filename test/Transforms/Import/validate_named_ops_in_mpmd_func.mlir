// RUN: mpmd-opt %s -mpmd-validate-named-ops-in-mpmd-func -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Named ops in functions with a topology are fine; functions without
// named ops need no topology.
// CHECK-LABEL: func.func @main
// CHECK:       mpmd.named_computation<"f">
// CHECK:       mpmd.named_tensor
// CHECK-LABEL: func.func @plain
func.func @main(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!t) -> !t
  %1 = mpmd.named_tensor %0 name="t" : !t
  return %1 : !t
}
func.func @plain(%arg0: !t) -> !t {
  %0 = stablehlo.negate %arg0 : !t
  return %0 : !t
}

// -----

!t = tensor<4xf32>

// Each named op outside an MPMD function is reported (one nested in a named
// computation is covered by its parent's error). The errors do not fail the
// pass: the module is still printed.
// CHECK-LABEL: func.func @no_topology
func.func @no_topology(%arg0: !t) -> !t {
  // expected-error @+1 {{named ops can only be used in MPMD functions (functions with a topology), but function 'no_topology' has no topology}}
  %0 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    %n = mpmd.named_tensor %a name="inner" : !t
    mpmd.return %n : !t
  } : (!t) -> !t
  // expected-error @+1 {{named ops can only be used in MPMD functions}}
  %1 = mpmd.named_tensor %0 name="t" : !t
  return %1 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// In an MPMD function, a named op whose parent is not an mpmd op (here a
// while body) is reported.
// CHECK-LABEL: func.func @in_while
func.func @in_while(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = stablehlo.while(%iter = %arg0) : !t
    cond {
      %c = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      // expected-error @+1 {{named ops must be directly in an MPMD function or in an mpmd op, but this one is in 'stablehlo.while'}}
      %1 = mpmd.named_computation<"f"> (%iter) (%a: !t) {
        mpmd.return %a : !t
      } : (!t) -> !t
      stablehlo.return %1 : !t
    }
  return %0 : !t
}
