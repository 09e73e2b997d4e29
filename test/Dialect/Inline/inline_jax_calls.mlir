// RUN: mpmd-opt %s -inline -split-input-file | FileCheck %s

// JAX emits nested jitted functions as private functions called with
// func.call, in the long and the short form: -inline inlines their stablehlo
// bodies into @main and erases them.
!t = tensor<4xf32>

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %arg0, %arg0
// CHECK-NEXT:    %[[T:.*]] = stablehlo.tanh %[[A]]
// CHECK-NEXT:    %[[A2:.*]] = stablehlo.add %[[T]], %[[T]]
// CHECK-NEXT:    %[[T2:.*]] = stablehlo.tanh %[[A2]]
// CHECK-NEXT:    return %[[T2]]
// CHECK-NOT:   func.func private @layer
func.func private @layer(%a: !t) -> !t {
  %0 = stablehlo.add %a, %a : !t
  %1 = stablehlo.tanh %0 : !t
  return %1 : !t
}
func.func @main(%a: !t) -> !t {
  %0 = func.call @layer(%a) : (!t) -> !t
  %1 = call @layer(%0) : (!t) -> !t
  return %1 : !t
}

// -----

// Calls inside the regions of our ops are inlined there: a named
// computation, a manual computation (shard_map) and a while body.
!t = tensor<4xf32>
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main
// CHECK:         mpmd.named_computation<"stage1">
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      mpmd.return
// CHECK:         sdy.manual_computation
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      sdy.return
// CHECK:         stablehlo.while
// CHECK:           stablehlo.negate
// CHECK-NEXT:      stablehlo.return
// CHECK-NOT:     call
// CHECK-NOT:   func.func private
func.func private @neg4(%a: !t) -> !t {
  %0 = stablehlo.negate %a : !t
  return %0 : !t
}
func.func private @neg2(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.negate %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @main(%a: !t) -> !t {
  %0 = mpmd.named_computation<"stage1"> (%a) (%b: !t) {
    %1 = func.call @neg4(%b) : (!t) -> !t
    %4 = call @neg4(%1) : (!t) -> !t
    mpmd.return %4 : !t
  } : (!t) -> !t
  %2 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%b: tensor<2xf32>) {
    %3 = func.call @neg2(%b) : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %3 : tensor<2xf32>
  } : (!t) -> !t
  %4 = stablehlo.while(%iter = %2) : !t
    cond {
      %c = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %5 = func.call @neg4(%iter) : (!t) -> !t
      stablehlo.return %5 : !t
    }
  return %4 : !t
}

// -----

// mpmd.call is never inlined by -inline: -mpmd-call-inline does that, with
// its call counters.
#topology = #mpmd.topology<<"m1": <["x"=1]>>>
!t = tensor<4xf32>

// CHECK-LABEL: func.func @main
// CHECK:         mpmd.call @microbatch(%arg0) {call_counter = 0 : ui32}
// CHECK:       func.func private @microbatch
func.func @main(%a: !t) -> !t attributes {topology = #topology} {
  %0 = mpmd.call @microbatch(%a) {call_counter = 0 : ui32} : (!t) -> !t
  return %0 : !t
}
func.func private @microbatch(%a: !t) -> !t attributes {topology = #topology} {
  %0 = stablehlo.negate %a : !t
  return %0 : !t
}
