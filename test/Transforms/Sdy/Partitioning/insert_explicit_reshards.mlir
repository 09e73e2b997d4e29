// RUN: mpmd-opt -sdy-insert-explicit-reshards="enable-full-version=true" -split-input-file %s | FileCheck %s

// The full version, op by op. Function results carry the sharding of the
// value returned, so that returns need no reshard.

// The operands of an add disagree on which dimension "x" shards: the
// candidate (dim 0, "x") agrees with the bigger share of the tensors (%a and
// the result), so %b is resharded.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @add_conflict
func.func @add_conflict(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                        %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg1 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %arg0, %[[R]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: return %[[ADD]]
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Compatible shardings are left alone, even open ones.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @compatible
func.func @compatible(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  // CHECK-NEXT: %[[M:.*]] = stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
  // CHECK-NEXT: return %[[M]]
  %0 = stablehlo.multiply %a, %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A reduce over a sharded dimension: partial sums, all-reduced after it.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @reduce_sharded_dim
func.func @reduce_sharded_dim(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %z: tensor<f32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  // CHECK-NEXT: %[[RED:.*]] = stablehlo.reduce(%arg0 init: %arg1)
  // CHECK-SAME: sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"x"} %[[RED]] out_sharding=<@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[AR]]
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Unary ops: the bigger tensor wins; on a tie the operand. Here the result
// of the transpose must move back to its own sharding.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @transpose_operand_wins_tie
func.func @transpose_operand_wins_tie(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  // CHECK-NEXT: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[T]] <@mesh, [{"y"}, {}]> : tensor<4x8xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = stablehlo.transpose %a, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// The broadcast result is bigger, so its sharding wins and the operand is
// resharded; the operand keeps no axis the result uses elsewhere.
// CHECK-LABEL: func.func @broadcast_result_wins
func.func @broadcast_result_wins(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %[[R]], dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
  // CHECK-NEXT: return %[[B]]
  %0 = stablehlo.broadcast_in_dim %a, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// A tensor that shards a permutation factor loses to one that does not,
// however large: the slice runs with the sliced dimension unsharded.
// CHECK-LABEL: func.func @slice_permutation_loses
func.func @slice_permutation_loses(%a: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<16x8xf32>
  // CHECK-NEXT: %[[S:.*]] = stablehlo.slice %[[R]] [2:10, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
  // CHECK-NEXT: return %[[S]]
  %0 = stablehlo.slice %a [2:10, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// dot_general with the contracting dimension sharded alike on both sides:
// the result holds partial sums and is all-reduced.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @dot_contracting_sharded
func.func @dot_contracting_sharded(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                                   %b: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"y"} %[[D]] out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x4xf32>
  // CHECK-NEXT: return %[[AR]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// "x" shards both non-contracting factors: the candidate the larger
// tensors agree with wins, first (k, "y") (lhs and rhs), then (i, "x")
// (lhs and result, larger than the rhs), so the rhs loses "x".
// CHECK-LABEL: func.func @dot_axis_conflict
func.func @dot_axis_conflict(%a: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                             %b: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg1 <@mesh, [{"y"}, {}]> : tensor<32x8xf32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %arg0, %[[R]], contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"y"} %[[D]] out_sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  // CHECK-NEXT: return %[[AR]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// Same, but the rhs is the largest tensor: its (j, "x") beats (i, "x"), so
// the lhs and the result lose "x" and the result is resharded back.
// CHECK-LABEL: func.func @dot_axis_conflict_rhs_wins
func.func @dot_axis_conflict_rhs_wins(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                                      %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  // CHECK-NEXT: %[[L:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x32xf32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %[[L]], %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"y"} %[[D]] out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x16xf32>
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[AR]] <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// Batching dims sharded differently: the batch factor is sharded in all
// three tensors by the winner, the result's own choice is restored after.
// CHECK-LABEL: func.func @dot_batching
func.func @dot_batching(%a: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
                        %b: tensor<4x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) -> (tensor<4x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}) {
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[D]] <@mesh, [{}, {"x"}, {}]> : tensor<4x8x8xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  return %0 : tensor<4x8x8xf32>
}

// -----

// Need-replication factors lose their axes, which go to the batching
// factors when they divide them: the sort dimension of a sort.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @sort_need_replication
func.func @sort_need_replication(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  // CHECK-NEXT: %[[S:.*]] = "stablehlo.sort"(%[[R]])
  // CHECK:      {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
  // CHECK:      %[[B:.*]] = sdy.reshard %[[S]] <@mesh, [{}, {"x"}]> : tensor<8x16xf32>
  // CHECK-NEXT: return %[[B]]
  %0 = "stablehlo.sort"(%a) <{dimension = 1 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A compound dimension: factor j of [ij] may only be sharded once i is
// fully sharded, so i is chosen first ("x":(1)2 from the operand), which
// cuts the result's candidate (j, "x") down to nothing; j then takes
// "x":(2)2.
sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func @reshape_split_dependency
func.func @reshape_split_dependency(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  // CHECK-NEXT: %[[S:.*]] = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {"x":(2)2}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[S]] <@mesh, [{}, {"x"}]> : tensor<2x4xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = stablehlo.reshape %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<8xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Overflow axes on a reshape: the result's "x" does not divide factor i
// (6) beyond its first half, so the more sharded side (the result) is
// redistributed over the factors of both sides.
sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func @reshape_overflow
func.func @reshape_overflow(%a: tensor<6x4xf32>) -> (tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // CHECK-NEXT: %[[O:.*]] = sdy.reshard %arg0 <@mesh, [{"x":(1)2}, {}]> : tensor<6x4xf32>
  // CHECK-NEXT: %[[S:.*]] = stablehlo.reshape %[[O]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[S]] <@mesh, [{"x"}]> : tensor<24xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = stablehlo.reshape %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<6x4xf32>) -> tensor<24xf32>
  return %0 : tensor<24xf32>
}

// -----

// Meshes that differ in device order only are one mesh for the op: the one
// most sharded tensors use is taken, the other operand is moved onto it.
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @reversed = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>

// CHECK-LABEL: func.func @mesh_device_order
func.func @mesh_device_order(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                             %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@reversed, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg1 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT: stablehlo.add %arg0, %[[R]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Meshes with different axes have no common mesh: nothing is done.
sdy.mesh @other = <["z"=4]>

// CHECK-LABEL: func.func @no_common_mesh
func.func @no_common_mesh(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                          %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@other, [{}, {"z"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  // CHECK-NEXT: stablehlo.add %arg0, %arg1
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Ops without a rule and ops with a custom rule are left alone.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @no_rule_or_custom_rule
func.func @no_rule_or_custom_rule(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  // CHECK-NEXT: stablehlo.custom_call @sdy_testonly(%arg0)
  // CHECK-NEXT: stablehlo.add %arg0, %arg0
  // CHECK-NOT:  sdy.reshard
  %0 = stablehlo.custom_call @sdy_testonly(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %a, %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}, custom>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
