// RUN: mpmd-opt -sdy-insert-explicit-reshards -split-input-file %s | FileCheck %s

// Without the full version, ordinary ops keep conflicting shardings (a
// later partitioner resolves them) ...
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// CHECK-LABEL: func.func @add_conflict_kept
func.func @add_conflict_kept(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                             %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %arg1
  // CHECK-NEXT: return %[[A]]
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// ... and so do returned values and data-flow edges ...
// CHECK-LABEL: func.func @return_and_barrier_kept
func.func @return_and_barrier_kept(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  // CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier {{.*}} %arg0
  // CHECK-NEXT: return %[[B]]
  %b = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}]>]>} %a : tensor<8xf32>
  return %b : tensor<8xf32>
}

// ... but a concatenate whose operands are sharded unlike its result is
// always made compatible ...
// CHECK-LABEL: func.func @concatenate
func.func @concatenate(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                       %b: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[B:.*]] = sdy.reshard %arg1 <@mesh, [{}, {"x"}]> : tensor<4x8xf32>
  // CHECK-NEXT: %[[C:.*]] = stablehlo.concatenate %arg0, %[[B]], dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
  // CHECK-NEXT: return %[[C]]
  %0 = stablehlo.concatenate %a, %b, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// ... and so are call operands, against the callee's argument shardings,
// or replicated when the callee has none.
func.func private @callee(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, %b: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// CHECK-LABEL: func.func @call
func.func @call(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[Y:.*]] = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<8xf32>
  // CHECK-NEXT: call @callee(%[[Y]], %[[R]])
  %0 = func.call @callee(%a, %a) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// The dot optimisation: the result is sharded along n by the contracting
// axis "y" while the rhs shards n by "z". Computing the dot with n sharded
// by "z" and resharding the (smaller) result afterwards avoids a
// reduce-scatter on the bigger rhs.
sdy.mesh @mesh = <["y"=2, "z"=2]>

// CHECK-LABEL: func.func @dot_result_follows_operand
func.func @dot_result_follows_operand(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                                      %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"z"}]>}) -> tensor<8x16xf32> {
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"z"}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[D]] <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// Not when the result is larger than that operand.
// CHECK-LABEL: func.func @dot_result_larger
func.func @dot_result_larger(%a: tensor<64x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                             %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"z"}]>}) -> tensor<64x16xf32> {
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>
  // CHECK-NEXT: return %[[D]]
  %0 = stablehlo.dot %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<64x8xf32>, tensor<8x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// Nor when lhs and rhs disagree on the contracting factor.
// CHECK-LABEL: func.func @dot_operands_disagree
func.func @dot_operands_disagree(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                                 %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"z"}]>}) -> tensor<8x16xf32> {
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>
  // CHECK-NEXT: return %[[D]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
