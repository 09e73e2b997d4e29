// Shardings cross while loops, case ops and optimization barriers through
// their data-flow edges: each edge is an identity between its sources
// (operand i, the i-th returned value of the body or branches) and all its
// targets (result i, the while block arguments i).
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges -sdy-basic-propagate -sdy-sink-data-flow-edges %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-add-data-flow-edges -sdy-aggressive-propagate -sdy-sink-data-flow-edges %s | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>
// Forward: the argument's sharding reaches the body through the edge, the
// loop result, the barrier after it and the function's result.
// CHECK-LABEL: func.func @forward_through_while_and_barrier(
// CHECK-SAME:  -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>})
func.func @forward_through_while_and_barrier(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>},
                                             %t: !stablehlo.token) -> tensor<8x4xf32> {
  // CHECK:      %[[W:.*]]:2 = stablehlo.while
  // CHECK-SAME:   attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>, <@mesh, []>]>}
  // CHECK:        stablehlo.negate %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
  // CHECK:      %[[B:.*]] = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} %[[W]]#0
  // CHECK-NEXT: stablehlo.exponential %[[B]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
  // CHECK-NOT:  sdy.data_flow_edge
  %w:2 = stablehlo.while(%iter = %a, %tok = %t) : tensor<8x4xf32>, !stablehlo.token
    cond {
      %true = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %true : tensor<i1>
    } do {
      %n = stablehlo.negate %iter : tensor<8x4xf32>
      stablehlo.return %n, %tok : tensor<8x4xf32>, !stablehlo.token
    }
  %b = stablehlo.optimization_barrier %w#0 : tensor<8x4xf32>
  %e = stablehlo.exponential %b : tensor<8x4xf32>
  return %e : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// Backward: a use after the barrier shards the barrier's and the loop's
// results, the loop body, and the loop's operand, a function argument.
// CHECK-LABEL: func.func @backward_through_barrier_and_while(
// CHECK-SAME:  %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}
func.func @backward_through_barrier_and_while(%a: tensor<8x4xf32>,
    %y: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y"}]>}) -> tensor<8x4xf32> {
  // CHECK:      %[[W:.*]] = stablehlo.while
  // CHECK-SAME:   attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
  // CHECK:        stablehlo.negate %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
  // CHECK:      %[[B:.*]] = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>} %[[W]]
  // CHECK-NEXT: stablehlo.add %[[B]], %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
  %w = stablehlo.while(%iter = %a) : tensor<8x4xf32>
    cond {
      %true = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %true : tensor<i1>
    } do {
      %n = stablehlo.negate %iter : tensor<8x4xf32>
      stablehlo.return %n : tensor<8x4xf32>
    }
  %b = stablehlo.optimization_barrier %w : tensor<8x4xf32>
  %r = stablehlo.add %b, %y : tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// From inside the loop: a constraint in the body reaches the block
// arguments' users in `cond` and `body`, the loop operand and the result.
// The loop-invariant %inv, returned as is, is its own source.
// CHECK-LABEL: func.func @from_the_body(
// CHECK-SAME:  %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}
// CHECK-SAME:  -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}, tensor<8xf32>)
func.func @from_the_body(%a: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK:      stablehlo.while
  // CHECK-SAME:   attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>, <@mesh, [{?}]>]>}
  // CHECK:        stablehlo.compare {{.*}}{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>}
  // CHECK:        stablehlo.sine %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>}
  %w:2 = stablehlo.while(%iter = %a, %inv = %c) : tensor<8xf32>, tensor<8xf32>
    cond {
      %lt = stablehlo.compare LT, %iter, %iter : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
      %s = stablehlo.slice %lt [0:1] : (tensor<8xi1>) -> tensor<1xi1>
      %p = stablehlo.reshape %s : (tensor<1xi1>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.sine %iter : tensor<8xf32>
      %k = sdy.sharding_constraint %n <@mesh, [{"x", ?}]> : tensor<8xf32>
      stablehlo.return %k, %inv : tensor<8xf32>, tensor<8xf32>
    }
  return %w#0, %w#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// Case: one branch's value shards the result, which shards the other
// branch's value (its sources all take the edge's sharding).
// CHECK-LABEL: func.func @through_case(
// CHECK-SAME:  %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}]>}
func.func @through_case(%p: tensor<i32>, %a: tensor<8xf32>,
                        %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  // CHECK:      %[[C:.*]] = "stablehlo.case"
  // CHECK:        stablehlo.abs %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}]>]>}
  // CHECK:      }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}]>]>}
  // CHECK-NEXT: stablehlo.cosine %[[C]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}]>]>}
  %c = "stablehlo.case"(%p) ({
    stablehlo.return %a : tensor<8xf32>
  }, {
    %m = stablehlo.abs %b : tensor<8xf32>
    stablehlo.return %m : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  %r = stablehlo.cosine %c : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// Nested loops, backward from the result sharding: the inner loop's
// operand is a block argument of the outer one, i.e. the outer edge.
// CHECK-LABEL: func.func @nested_loops(
// CHECK-SAME:  %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}]>}
func.func @nested_loops(%a: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  // CHECK:      stablehlo.while
  // CHECK-SAME:   attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}]>]>}
  // CHECK:        stablehlo.while
  // CHECK-SAME:     attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}]>]>}
  // CHECK:          stablehlo.negate %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}]>]>}
  %w = stablehlo.while(%o = %a) : tensor<8xf32>
    cond {
      %true = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %true : tensor<i1>
    } do {
      %v = stablehlo.while(%i = %o) : tensor<8xf32>
        cond {
          %t = stablehlo.constant dense<true> : tensor<i1>
          stablehlo.return %t : tensor<i1>
        } do {
          %n = stablehlo.negate %i : tensor<8xf32>
          stablehlo.return %n : tensor<8xf32>
        }
      stablehlo.return %v : tensor<8xf32>
    }
  return %w : tensor<8xf32>
}
