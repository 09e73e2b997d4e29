// RUN: mpmd-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(func.func(mpmd-uniquify-function-inputs-outputs{use-transfer-instead-of-fragment=true},mpmd-enforce-user-shardings,mpmd-convert-sdy-shardings-to-mpmd-types,mpmd-convert-sdy-constants))' | FileCheck %s

// -mpmd-convert-sdy-shardings-to-mpmd-types, run in its pipeline without
// -mpmd-extract-reshards-from-inter-mesh-transfers: the user's shardings reach the boundary ops (enforce-user-shardings) and every
// sharding moves into the mesh tensor types (open dimensions close), ops in
// bodies lose theirs, and sdy.constant becomes stablehlo.constant. %arg1
// returned directly gets its own buffer (a transfer). Values without a
// sharding stay replicated. A transfer changing the sharding on the one sdy
// mesh (extract-reshards did not run) gets an error that does not fail the
// pass.
// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{}, {"y"}]>>, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>)
// CHECK-NEXT:  %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1)
// CHECK-NEXT:    %[[C:.*]] = stablehlo.constant dense<1.000000e+00>
// CHECK-NEXT:    stablehlo.add %{{.*}}, %{{.*}} : tensor<4x8xf32>
// CHECK:       } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{}, {"y"}]>>
// CHECK-NEXT:  %[[T:.*]] = mpmd.transfer %[[F]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{}, {"y"}]>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
// CHECK-NEXT:  %[[U:.*]] = mpmd.transfer %arg1 : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT:  return %[[F]], %[[T]], %[[U]]
// CHECK-NOT:   sdy.sharding =

sdy.mesh @mesh = <["x"=2, "y"=2]>
!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2, "y"=2]>>, <"m2": <["x"=2, "y"=2]>>>

func.func @main(%arg0: !m1 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: !m1)
    -> (!m1 {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, !m2 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !t, %b: !t) {
    %c = sdy.constant dense<1.0> : !t
    %s = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : !t
    %t = stablehlo.multiply %s, %c : !t
    mpmd.return %t : !t
  } : (!m1, !m1) -> !m1
  // expected-error @+1 {{transfers from #sdy.sharding<@mesh, [{}, {"y"}]> to #sdy.sharding<@mesh, [{"x"}, {}]> on one mesh: a reshard is not a transfer}}
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  return %0, %1, %arg1 : !m1, !m2, !m1
}

// -----

// A fragment asking for another sharding of its operand retypes the
// operand: the last consumer to ask wins over the producer and over earlier
// consumers.
sdy.mesh @mesh = <["x"=2]>
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// CHECK-LABEL: func.func @main
// CHECK:       %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0)
// CHECK:       } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]> (%[[F]])
// CHECK:       mpmd.fragment<mesh="m1", origin=["h"]> (%[[F]])
func.func @main(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"], out_shardings=[<@mesh, [{"x"}]>]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["g"], in_shardings=[<@mesh, [{"x"}]>]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["h"], in_shardings=[<@mesh, [{}]>]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %1, %2 : !m1, !m1
}

// -----

// A transfer that changes the sharding on one sdy mesh is a reshard, not a
// transfer: reported with an error that does not fail the pass.
sdy.mesh @mesh = <["x"=2]>
!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// An input returned as an output gets a transfer (its own buffer); asking
// for another sharding on the output makes it a reshard.
// expected-error @+1 {{transfers from #sdy.sharding<@mesh, [{"x"}]> to replicated on one mesh: a reshard is not a transfer}}
func.func @main(%arg0: !m1 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (!m1 {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) attributes {topology = #topology} {
  return %arg0 : !m1
}

// -----

// An mpmd.for is not unrolled (G5): each loop-carried value's operand,
// block argument and result take the entry of the loop's sdy.sharding for
// it, which is then dropped; the index keeps its type.
sdy.mesh @mesh = <["x"=2]>
!t = tensor<4x2xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// CHECK-LABEL: func.func @loop(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{"x"}, {}]>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{}, {"x"}]>>)
// CHECK-NEXT:    %[[L:.*]]:2 = mpmd.for (%arg0, %arg1) {iterations = 2 : ui32}
// CHECK-SAME:      (%[[A:.*]]: !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{"x"}, {}]>>, %[[B:.*]]: !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{}, {"x"}]>>, %index: tensor<ui32>)
// CHECK-NEXT:      mpmd.return %[[A]], %[[B]]
// CHECK-NEXT:    } : !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{"x"}, {}]>>, !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{}, {"x"}]>>
// CHECK-NOT:     sdy.sharding
func.func @loop(%arg0: !m1 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: !m1 {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (!m1, !m1)
    attributes {topology = #topology} {
  %0:2 = mpmd.for (%arg0, %arg1) {iterations = 2 : ui32, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"x"}]>]>} (%a: !m1, %b: !m1, %i: tensor<ui32>) {
    mpmd.return %a, %b : !m1, !m1
  } : !m1, !m1
  return %0#0, %0#1 : !m1, !m1
}

// -----

// A value that a loop carries and a later fragment asks for with another
// sharding keeps the loop's: the fragment reshards in its body, the loop
// cannot.
sdy.mesh @mesh = <["x"=2]>
!t = tensor<4x2xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// CHECK-LABEL: func.func @loop_then_fragment(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4x2xf32>, sharding=<@mesh, [{"x"}, {}]>>)
// CHECK:         mpmd.for (%arg0)
// CHECK:         mpmd.fragment<mesh="m1", origin=["f"]> (%arg0)
func.func @loop_then_fragment(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} (%a: !m1, %i: tensor<ui32>) {
    mpmd.return %a : !m1
  } : !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"], in_shardings=[<@mesh, [{}, {"x"}]>]> (%arg0) (%b: !t) {
    mpmd.return %b : !t
  } : (!m1) -> !m1
  return %0, %1 : !m1, !m1
}

// -----

// One value carried twice with different shardings cannot take both types.
sdy.mesh @mesh = <["x"=2]>
!t = tensor<4x2xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @carried_twice(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  // expected-error @+1 {{loop-carried value #0 is carried with sharding #sdy.sharding<@mesh, [{"x"}, {}]> but its operand has #sdy.sharding<@mesh, [{}, {"x"}]>}}
  %0:2 = mpmd.for (%arg0, %arg0) {iterations = 2 : ui32, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"x"}]>]>} (%a: !m1, %b: !m1, %i: tensor<ui32>) {
    mpmd.return %a, %b : !m1, !m1
  } : !m1, !m1
  return %0#0, %0#1 : !m1, !m1
}

// -----

// A sharding that does not divide its dimension makes no mesh tensor type:
// the pass fails with an error at the op holding the value (here @main, for
// its argument) instead of leaving invalid IR behind.
sdy.mesh @mesh = <["x"=2]>
!t = tensor<3x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// expected-error @+1 {{has an invalid sharding for mesh "m1" on type '!mpmd.mesh_tensor<"m1", tensor<3x8xf32>, sharding=<@mesh, [{"x"}, {}]>>': dim 0 with size 3 is not divisible by its sharded size 2}}
func.func @main(%arg0: !m1 {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0 : !m1
}
