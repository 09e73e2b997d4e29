// RUN: mpmd-opt -split-input-file -sdy-per-instruction-partitioning='partition-count=4' %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-per-instruction-partitioning='filter=negate,exp,selectLow=1,selectHigh=3' %s | FileCheck %s --check-prefix=FILTER

// An op whose operands disagree runs in a manual computation over the axis
// it uses: the body reads local shards, and the all-to-all that makes %b
// row-sharded like %a is inside.
// CHECK-LABEL: func.func @conflicting_operands
// CHECK-NEXT: %[[M:.*]] = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@m, [{"x"}, {}]>, <@m, [{}, {"x"}]>] out_shardings=[<@m, [{"x"}, {}]>] manual_axes={"x"} (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x4xf32>) {
// CHECK-NEXT: %[[T:.*]] = "stablehlo.all_to_all"(%[[B]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = stablehlo.add %[[A]], %[[T]] : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %[[S]] : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[M]]
sdy.mesh @m = <["x"=2, "y"=2]>

func.func @conflicting_operands(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>},
                                %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A contraction over a sharded dimension: the partial products are summed
// over "y" inside the body; both axes are manual (in mesh order) since the
// shardings use both.
// CHECK-LABEL: func.func @contraction
// CHECK-NEXT: sdy.manual_computation(%arg0, %arg1) in_shardings=[<@m, [{"x"}, {"y"}]>, <@m, [{"y"}, {}]>] out_shardings=[<@m, [{"x"}, {}]>] manual_axes={"x", "y"} (%[[A:.*]]: tensor<4x2xf32>, %[[B:.*]]: tensor<2x6xf32>) {
// CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %[[A]], %[[B]], contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[R:.*]] = "stablehlo.all_reduce"(%[[D]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}>
// CHECK: sdy.return %[[R]] : tensor<4x6xf32>
// CHECK-NEXT: } : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
sdy.mesh @m = <["x"=2, "y"=2]>

func.func @contraction(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>},
                       %b: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) -> tensor<8x6xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

// Not candidates: an op whose shardings are all replicated and constants
// without a sharding; sdy ops (the reshard) stay. The unsharded constant
// operand of the reduce is replicated in the manual computation.
// CHECK-LABEL: func.func @not_candidates
// CHECK-NEXT: %[[C:.*]] = stablehlo.constant
// CHECK-NEXT: %[[R:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}]>]>}
// CHECK-NEXT: %[[Y:.*]] = sdy.reshard %[[R]] <@m, [{}, {"y"}]>
// CHECK-NEXT: sdy.manual_computation(%[[Y]], %[[C]]) in_shardings=[<@m, [{}, {"y"}]>, <@m, []>] out_shardings=[<@m, [{}]>] manual_axes={"y"} (%{{.*}}: tensor<8x4xf32>, %{{.*}}: tensor<f32>)
sdy.mesh @m = <["x"=2, "y"=2]>

func.func @not_candidates(%b: tensor<8x8xf32>) -> tensor<8xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.negate %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}]>]>} : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@m, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = stablehlo.reduce(%1 init: %zero) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// 7 rows over 2 shards: the operand is padded to 8 rows (zeros) before the
// manual computation and the result sliced back to 7 after it; inside, the
// padded rows are sliced off before the op and the result is padded again
// (-sdy-pad-for-divisibility turns these into masks on the local shards).
// CHECK-LABEL: func.func @padded
// CHECK-NEXT: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[P:.*]] = stablehlo.pad %arg0, %[[Z]], low = [0, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : (tensor<7x8xf32>, tensor<f32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[M:.*]] = sdy.manual_computation(%[[P]]) in_shardings=[<@m, [{"x"}, {}]>] out_shardings=[<@m, [{"x"}, {}]>] manual_axes={"x"} (%[[L:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT: stablehlo.slice %[[L]] [0:4, 0:8]
// CHECK-NEXT: stablehlo.negate
// CHECK: sdy.return %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[S:.*]] = stablehlo.slice %[[M]] [0:7, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<7x8xf32>
// CHECK-NEXT: return %[[S]]
sdy.mesh @m = <["x"=2, "y"=2]>

func.func @padded(%a: tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<7x8xf32> {
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<7x8xf32>
  return %0 : tensor<7x8xf32>
}

// -----

// Collectives of the new bodies take channel handles after the largest one
// in the module (7, in an existing manual computation, which is left alone).
// CHECK-LABEL: func.func @channels
// CHECK: channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>
// CHECK: sdy.manual_computation(%{{.*}}, %{{.*}}) in_shardings=[<@m, [{"x"}]>, <@m, []>] out_shardings=[<@m, []>] manual_axes={"x"}
// CHECK-NEXT: stablehlo.reduce
// CHECK-NEXT: "stablehlo.all_reduce"{{.*}}channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>
sdy.mesh @m = <["x"=2]>

func.func @channels(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<f32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{"x"}]>] out_shardings=[<@m, [{"x"}]>] manual_axes={"x"} (%l: tensor<4xf32>) {
    %r = "stablehlo.all_reduce"(%l) <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %r : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %zero) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, []>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// The filter: candidates are numbered 0 (first negate), 1 (abs), 2 (second
// negate), 3 (exponential), 4 (third negate); selectLow/selectHigh keep 1
// to 3 inclusive, and of those the names containing "negate" or "exp".
// FILTER-LABEL: func.func @filtered
// FILTER-NEXT: %[[N0:.*]] = stablehlo.negate %arg0 {sdy.sharding
// FILTER-NEXT: %[[A:.*]] = stablehlo.abs %[[N0]] {sdy.sharding
// FILTER-NEXT: %[[N1:.*]] = sdy.manual_computation(%[[A]])
// FILTER-NEXT: stablehlo.negate
// FILTER-NEXT: sdy.return
// FILTER-NEXT: }
// FILTER-NEXT: %[[E:.*]] = sdy.manual_computation(%[[N1]])
// FILTER-NEXT: stablehlo.exponential
// FILTER-NEXT: sdy.return
// FILTER-NEXT: }
// FILTER-NEXT: stablehlo.negate %[[E]] {sdy.sharding
sdy.mesh @m = <["x"=2, "y"=2]>

func.func @filtered(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %3 = stablehlo.exponential %2 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %4 = stablehlo.negate %3 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}
