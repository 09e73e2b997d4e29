// RUN: mpmd-opt %s -mpmd-inline-nested-user-exposed-ops='assignment=f@m1/0,g@m1/0,t@m1,u@m1#pinned_host,bad_mesh@m2,bad_stage@m1/1,bad_tensor@m2' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not mpmd-opt %s -split-input-file -mpmd-inline-nested-user-exposed-ops='assignment=f1' 2>&1 | FileCheck %s --check-prefix=BAD-OPTION

// BAD-OPTION: for the --assignment option: 'f1': expected 'name@mesh'

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Named computations (at any depth), named tensors, broadcasts and reduces
// nested in "f" are inlined into it: reduce<add> becomes adds,
// reduce<max> maxima, reduce<none> and the identities their operand.
// Nested names may be unassigned or assigned like the parent.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[F:.*]] = mpmd.named_computation<"f"> (%arg0, %arg1) (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>) {
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[A]]
// CHECK-NEXT:    %[[I:.*]] = stablehlo.abs %[[N]]
// CHECK-NEXT:    %[[G:.*]] = stablehlo.multiply %[[I]], %[[B]]
// CHECK-NEXT:    %[[S1:.*]] = stablehlo.add %[[G]], %[[B]]
// CHECK-NEXT:    %[[S2:.*]] = stablehlo.add %[[S1]], %[[A]]
// CHECK-NEXT:    %[[M:.*]] = stablehlo.maximum %[[S2]], %[[A]]
// CHECK-NEXT:    mpmd.return %[[M]] : tensor<4xf32>
// CHECK-NEXT:  } : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// Top-level named ops are left alone.
// CHECK-NEXT:  %[[T:.*]] = mpmd.named_tensor %[[F]] name="t"
// CHECK-NEXT:  %[[BR:.*]] = mpmd.broadcast %[[T]]
// CHECK-NEXT:  return %[[BR]]
func.func @main(%arg0: !t, %arg1: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.named_computation<"f"> (%arg0, %arg1) (%a: !t, %b: !t) {
    %1 = mpmd.named_computation<"g"> (%a, %b) (%x: !t, %y: !t) {
      %n = stablehlo.negate %x : !t
      %2 = mpmd.named_computation<"unassigned"(1)> (%n) (%z: !t) {
        %i = stablehlo.abs %z : !t
        mpmd.return %i : !t
      } : (!t) -> !t
      %m = stablehlo.multiply %2, %y : !t
      mpmd.return %m : !t
    } : (!t, !t) -> !t
    %3 = mpmd.named_tensor %1 name="t" : !t
    %4 = mpmd.named_tensor %3 name="unassigned_tensor" : !t
    %5 = mpmd.broadcast %4 : !t
    %6 = mpmd.reduce<add> %5, %b, %a : (!t, !t, !t) -> !t
    %7 = mpmd.reduce<none> %6 : (!t) -> !t
    %8 = mpmd.reduce<max> %7, %a : (!t, !t) -> !t
    mpmd.return %8 : !t
  } : (!t, !t) -> !t
  %9 = mpmd.named_tensor %0 name="t" : !t
  %10 = mpmd.broadcast %9 : !t
  return %10 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A named tensor with a memory kind on the parent's mesh is fine, a nested
// computation returning its argument is replaced by its operand, and an
// unassigned computation without nested named ops is left alone.
// CHECK-LABEL: func.func @memory_kind_and_unassigned
// CHECK:       mpmd.named_computation<"f"> (%arg0) (%[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[A]]
// CHECK-NEXT:    mpmd.return %[[N]], %[[A]]
// CHECK:       mpmd.named_computation<"nowhere">
// CHECK-NEXT:    stablehlo.abs
func.func @memory_kind_and_unassigned(%arg0: !t) -> (!t, !t) attributes {topology = #topology} {
  %0:2 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    %1 = mpmd.named_tensor %a name="u" : !t
    %2 = stablehlo.negate %1 : !t
    %p = mpmd.named_computation<"pass"> (%a) (%b: !t) {
      mpmd.return %b : !t
    } : (!t) -> !t
    mpmd.return %2, %p : !t, !t
  } : (!t) -> (!t, !t)
  %3 = mpmd.named_computation<"nowhere"> (%0#0) (%a: !t) {
    %4 = stablehlo.abs %a : !t
    mpmd.return %4 : !t
  } : (!t) -> !t
  return %3, %0#1 : !t, !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @parent_unassigned(%arg0: !t) -> !t attributes {topology = #topology} {
  // expected-error @+1 {{NamedComputation 'nowhere' is not assigned to a mesh, but it has nested user-exposed ops that must be inlined into it}}
  %0 = mpmd.named_computation<"nowhere"> (%arg0) (%a: !t) {
    %1 = mpmd.broadcast %a : !t
    mpmd.return %1 : !t
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @other_mesh(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    // expected-error @+1 {{NamedComputation 'bad_mesh' is assigned to mesh "m2", but it is nested in NamedComputation 'f', which is assigned to mesh "m1" (stage 0)}}
    %1 = mpmd.named_computation<"bad_mesh"> (%a) (%b: !t) {
      mpmd.return %b : !t
    } : (!t) -> !t
    mpmd.return %1 : !t
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @other_stage(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    // expected-error @+1 {{NamedComputation 'bad_stage' is assigned to mesh "m1" (stage 1), but it is nested in NamedComputation 'f', which is assigned to mesh "m1" (stage 0)}}
    %1 = mpmd.named_computation<"bad_stage"> (%a) (%b: !t) {
      mpmd.return %b : !t
    } : (!t) -> !t
    mpmd.return %1 : !t
  } : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @tensor_other_mesh(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.named_computation<"f"> (%arg0) (%a: !t) {
    // expected-error @+1 {{NamedTensor 'bad_tensor' is assigned to mesh "m2", but it is nested in NamedComputation 'f', which is assigned to mesh "m1"}}
    %1 = mpmd.named_tensor %a name="bad_tensor" : !t
    mpmd.return %1 : !t
  } : (!t) -> !t
  return %0 : !t
}
