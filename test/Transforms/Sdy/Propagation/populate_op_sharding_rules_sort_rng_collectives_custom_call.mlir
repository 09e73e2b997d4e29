// Sort, rng_bit_generator, collectives and the custom call targets with a
// rule.
// RUN: mpmd-opt -sdy-populate-op-sharding-rules %s | FileCheck %s

// CHECK-LABEL: func.func @sort(
// CHECK: stablehlo.sort
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j], [i, j]) {i=4, j=16} need_replication={j}>
// CHECK: stablehlo.sort
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=1, j=16} need_replication={j} blocked_propagation={j}>
func.func @sort(%a: tensor<4x16xf32>, %b: tensor<4x16xi32>, %c: tensor<1x16xf32>) {
  %0:2 = "stablehlo.sort"(%a, %b) <{dimension = 1 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %xi: tensor<i32>, %yi: tensor<i32>):
    %lt = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<4x16xf32>, tensor<4x16xi32>) -> (tensor<4x16xf32>, tensor<4x16xi32>)
  // Nothing else to shard: the sorted dimension is blocked. Dimension -1 is the last one.
  %1 = "stablehlo.sort"(%c) <{dimension = -1 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %lt = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return
}

// CHECK-LABEL: func.func @rng_bit_generator(
// CHECK: stablehlo.rng_bit_generator{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [j, k]) {i=2, j=10, k=12} need_replication={i} blocked_propagation={i}>
func.func @rng_bit_generator(%state: tensor<2xui64>) {
  %s:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<10x12xui32>)
  return
}

// CHECK-LABEL: func.func @collectives(
// CHECK: stablehlo.all_gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k]) {i=4, j=8, k=16} need_replication={j, k}>
// CHECK: stablehlo.all_reduce
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
// CHECK: stablehlo.reduce_scatter
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k])->([j, k]) {i=4, j=2, k=8} need_replication={i, j}>
// CHECK: stablehlo.all_to_all{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k])->([j, l]) {i=4, j=8, k=8, l=4} need_replication={i, j, k, l}>
// CHECK: stablehlo.collective_permute{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
// CHECK: stablehlo.collective_broadcast{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
func.func @collectives(%x: tensor<4x8xf32>) {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x16xf32>
  %1 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<2x8xf32>
  %3 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %4 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @custom_call_elementwise(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>
func.func @custom_call_elementwise(%a: tensor<4x8xf32>, %b: tensor<4x8xui32>) {
  %0 = stablehlo.custom_call @mhlo.erf(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.custom_call @MoveToHost(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = stablehlo.custom_call @X64Combine(%b, %b) : (tensor<4x8xui32>, tensor<4x8xui32>) -> tensor<4x8xui64>
  return
}

// Combined into an rng state, the halves stay whole.
// CHECK-LABEL: func.func @custom_call_x64_combine_into_rng(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=2} need_replication={i} blocked_propagation={i}>
// CHECK: stablehlo.rng_bit_generator{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [j]) {i=2, j=4} need_replication={i} blocked_propagation={i}>
func.func @custom_call_x64_combine_into_rng(%a: tensor<2xui32>) {
  %0 = stablehlo.custom_call @X64Combine(%a, %a) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui64>
  %s:2 = stablehlo.rng_bit_generator %0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return
}

// CHECK-LABEL: func.func @custom_call_linalg(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, k]) {i=3, j=8, k=8}>
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, l]) {i=3, j=8, k=6, l=6} need_replication={j, k, l}>
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l])->([i, j, k]) {i=3, j=8, k=6, l=6} need_replication={j, k, l}>
func.func @custom_call_linalg(%a: tensor<3x8x8xf32>, %q: tensor<3x8x6xf32>, %t: tensor<3x6xf32>) {
  %0:2 = stablehlo.custom_call @Eigh(%a) : (tensor<3x8x8xf32>) -> (tensor<3x8x8xf32>, tensor<3x8xf32>)
  %1:2 = stablehlo.custom_call @Qr(%q) : (tensor<3x8x6xf32>) -> (tensor<3x8x6xf32>, tensor<3x6xf32>)
  %2 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%q, %t) : (tensor<3x8x6xf32>, tensor<3x6xf32>) -> tensor<3x8x6xf32>
  return
}

// CHECK-LABEL: func.func @custom_call_top_k(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=4, j=32} need_replication={j} blocked_propagation={j}>
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, k], [i, k]) {i=4, j=32, k=8} need_replication={k} blocked_propagation={k}>
func.func @custom_call_top_k(%a: tensor<4x32xf32>, %i: tensor<4x32xi32>, %f: tensor<f32>, %z: tensor<i32>) {
  %0:2 = stablehlo.custom_call @mhlo.topk(%a) : (tensor<4x32xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  %1:2 = stablehlo.custom_call @ApproxTopK(%a, %i, %f, %z) : (tensor<4x32xf32>, tensor<4x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  return
}
