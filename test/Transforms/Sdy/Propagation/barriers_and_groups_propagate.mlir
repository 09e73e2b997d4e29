// Propagation honours `sdy.propagation_barrier` (only its own direction,
// whatever the strategy or stage), keeps the members of an
// `sdy.sharding_group` identical, and propagates the results of every
// function no call reaches.
// RUN: mpmd-opt -split-input-file -sdy-aggressive-propagate -verify-diagnostics %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-user-priority-propagate -verify-diagnostics %s | FileCheck %s

sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @barrier_forward(
// CHECK-SAME: %arg1: tensor<8xf32>)
// CHECK-SAME: -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})
func.func @barrier_forward(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %y: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  // Forward: %x's sharding crosses.
  // CHECK: sdy.propagation_barrier %arg0 allowed_direction=FORWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>}
  %0 = sdy.propagation_barrier %x allowed_direction=FORWARD : tensor<8xf32>
  // Backward is not allowed: the result takes the function result's
  // sharding, %y stays unsharded.
  // CHECK: sdy.propagation_barrier %arg1 allowed_direction=FORWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>}
  %1 = sdy.propagation_barrier %y allowed_direction=FORWARD : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @barrier_none(
// CHECK-SAME: %arg0: tensor<8xf32>)
func.func @barrier_none(%x: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  // CHECK: sdy.propagation_barrier %arg0 allowed_direction=NONE {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>}
  %0 = sdy.propagation_barrier %x allowed_direction=NONE : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A sharding that reaches one member of a group reaches all of them.
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @group(
func.func @group(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %y: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: %[[N:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>}
  // CHECK: stablehlo.exponential %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>}
  %0 = stablehlo.negate %x : tensor<8xf32>
  %1 = stablehlo.exponential %y : tensor<8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// Members annotated differently: a warning, and each member is detached
// behind a fully open constraint (which is what the group then holds).
sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @group_conflict(
func.func @group_conflict(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>},
                          %y: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK-DAG: %[[C0:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"b", ?}]>
  // CHECK-DAG: %[[C1:.*]] = sdy.sharding_constraint %arg1 <@mesh, [{"b", ?}]>
  // CHECK-DAG: sdy.sharding_group %[[C0]] group_id=0
  // CHECK-DAG: sdy.sharding_group %[[C1]] group_id=0
  // expected-warning @+1 {{the members of sharding group 0 have different shardings; each is detached behind a fully open sharding constraint}}
  sdy.sharding_group %x group_id=0 : tensor<8xf32>
  sdy.sharding_group %y group_id=0 : tensor<8xf32>
  return %x, %y : tensor<8xf32>, tensor<8xf32>
}

// -----

// Several functions without a @main: the results of each seed it.
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @first(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}
func.func @first(%x: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  %0 = stablehlo.negate %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}
// CHECK-LABEL: func.func @second(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}
func.func @second(%x: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}) {
  %0 = stablehlo.abs %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
