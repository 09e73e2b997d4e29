// The partitioner steps of -sdy-export-pipeline: by default explicit
// reshards only where upstream inserts them without the full version
// (unreduced values, calls, data-flow ops) and no collectives for reshards;
// with enable-insert-explicit-collectives every op is made compatible and
// reshards become sdy collectives (reshard chains folded first); cmv1 then
// drops the all-gather feeding a dot; per-instruction partitioning wraps
// each op in a manual computation; avoid-export-for-partitioning leaves the
// program as propagation left it.
// RUN: mpmd-opt -split-input-file -sdy-export-pipeline %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-export-pipeline='enable-insert-explicit-collectives=true' %s | FileCheck %s --check-prefix=COLL
// RUN: mpmd-opt -split-input-file -sdy-export-pipeline='enable-insert-explicit-collectives=true remove-all-gather-reduce-scatter-for-cmv1=true' %s | FileCheck %s --check-prefix=CMV1
// RUN: mpmd-opt -split-input-file -sdy-export-pipeline='remove-all-gather-reduce-scatter-for-cmv1=true' %s | FileCheck %s --check-prefix=CMV1-ALONE
// RUN: mpmd-opt -split-input-file -sdy-export-pipeline='enable-per-instruction-partitioning=true partition-count=4' %s | FileCheck %s --check-prefix=PER-OP
// RUN: mpmd-opt -split-input-file -sdy-export-pipeline='enable-per-instruction-partitioning=true partition-count=4 per-instruction-partitioning-filter=dot' %s | FileCheck %s --check-prefix=PER-DOT
// RUN: mpmd-opt -split-input-file -sdy-export-pipeline='avoid-export-for-partitioning=true' %s | FileCheck %s --check-prefix=AVOID
// RUN: mpmd-opt -split-input-file -sdy-propagation-pipeline='enable-insert-explicit-collectives=true' %s | FileCheck %s --check-prefix=PROP

// CHECK-LABEL: func.func @conflicts
// CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>]>}
// CHECK-NEXT: %[[DOT:.*]] = stablehlo.dot_general %arg2, %arg3
// CHECK-NEXT: %[[SUM:.*]] = sdy.all_reduce {"y"} %[[DOT]] out_sharding=<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>
// CHECK-NEXT: %[[R0:.*]] = sdy.reshard %[[SUM]] <mesh<["x"=2, "y"=2]>, [{"y"}, {}]>
// CHECK-NEXT: %[[R1:.*]] = sdy.reshard %[[R0]] <mesh<["x"=2, "y"=2]>, [{}, {"y"}]>
// CHECK-NEXT: return %[[ADD]], %[[R1]]

// The add's operands agree after an all-to-all; the two constraints and
// the reshard to the unsharded result fold into one reshard, an all-gather.
// COLL-LABEL: func.func @conflicts
// COLL-NEXT: %[[T:.*]] = sdy.all_to_all [{"x"}: 1->0] %arg1 out_sharding=<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>
// COLL-NEXT: %[[ADD:.*]] = stablehlo.add %arg0, %[[T]]
// COLL-NEXT: %[[G0:.*]] = sdy.all_gather [{"x"}, {}] %[[ADD]] out_sharding=<mesh<["x"=2, "y"=2]>, [{}, {}]>
// COLL-NEXT: %[[DOT:.*]] = stablehlo.dot_general %arg2, %arg3
// COLL-NEXT: %[[SUM:.*]] = sdy.all_reduce {"y"} %[[DOT]] out_sharding=<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>
// COLL-NEXT: %[[G1:.*]] = sdy.all_gather [{"x"}, {}] %[[SUM]] out_sharding=<mesh<["x"=2, "y"=2]>, [{}, {}]>
// COLL-NEXT: return %[[G0]], %[[G1]]

// PER-OP-LABEL: func.func @conflicts
// PER-OP-NEXT: %[[B:.*]] = sdy.reshard %arg1 <mesh<["x"=2, "y"=2]>, [{"x"}, {}]>
// PER-OP-NEXT: %[[ADD:.*]] = sdy.manual_computation(%arg0, %[[B]]) in_shardings=[<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>, <mesh<["x"=2, "y"=2]>, [{"x"}, {}]>] out_shardings=[<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>] manual_axes={"x"} (%[[L0:.*]]: tensor<4x8xf32>, %[[L1:.*]]: tensor<4x8xf32>) {
// PER-OP-NEXT: %[[LOCAL:.*]] = stablehlo.add %[[L0]], %[[L1]] : tensor<4x8xf32>
// PER-OP-NEXT: sdy.return %[[LOCAL]]
// PER-OP-NEXT: }
// PER-OP-NEXT: sdy.reshard %[[ADD]] <mesh<["x"=2, "y"=2]>, [{}, {}]>
// The unreduced dot stays with its all-reduce.
// PER-OP-NEXT: stablehlo.dot_general %arg2, %arg3

// AVOID-LABEL: func.func @conflicts
// AVOID-NEXT: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>}
// AVOID-NEXT: %[[DOT:.*]] = stablehlo.dot_general %arg2, %arg3
// AVOID-NEXT: %[[C:.*]] = sdy.sharding_constraint %[[DOT]] <@m, [{"y"}, {}]>
// AVOID-NEXT: sdy.sharding_constraint %[[C]] <@m, [{}, {"y"}]>
// The propagation pipeline passes enable-insert-explicit-collectives on
// (meshes stay symbols there). Propagation gives the second result {"y"} on
// its columns: the all-reduce of the dot and the all-slice to that sharding
// fuse into a reduce-scatter.
// PROP-LABEL: func.func @conflicts
// PROP-NEXT: %[[T:.*]] = sdy.all_to_all [{"x"}: 1->0] %arg1 out_sharding=<@m, [{"x"}, {}]>
// PROP-NEXT: stablehlo.add %arg0, %[[T]]
// PROP-NEXT: %[[DOT:.*]] = stablehlo.dot_general %arg2, %arg3
// PROP-NEXT: %[[RS:.*]] = sdy.reduce_scatter [{}, {"y"}] %[[DOT]] out_sharding=<@m, [{"x"}, {"y"}]>
// PROP-NEXT: sdy.all_gather [{"x"}, {}] %[[RS]] out_sharding=<@m, [{}, {"y"}]>
sdy.mesh @m = <["x"=2, "y"=2]>

func.func @conflicts(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>},
                     %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>},
                     %c: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>},
                     %d: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>})
    -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@m, [{"y"}, {}]> : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@m, [{}, {"y"}]> : tensor<8x8xf32>
  return %0, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// The dot's right operand is gathered before it; cmv1 (only together with
// explicit collectives) lets the dot read the sharded operand.
// CHECK-LABEL: func.func @gather_into_dot
// CHECK-NEXT: stablehlo.dot_general %arg0, %arg1

// COLL-LABEL: func.func @gather_into_dot
// COLL-NEXT: %[[G:.*]] = sdy.all_gather [{}, {"x"}] %arg1 out_sharding=<mesh<["x"=2, "y"=2]>, [{}, {}]>
// COLL-NEXT: stablehlo.dot_general %arg0, %[[G]]

// CMV1-LABEL: func.func @gather_into_dot
// CMV1-NEXT: stablehlo.dot_general %arg0, %arg1
// CMV1-NOT: sdy.all_gather

// CMV1-ALONE-LABEL: func.func @gather_into_dot
// CMV1-ALONE-NEXT: stablehlo.dot_general %arg0, %arg1

// PER-DOT-LABEL: func.func @gather_into_dot
// PER-DOT-NEXT: %[[B:.*]] = sdy.reshard %arg1 <mesh<["x"=2, "y"=2]>, [{}, {}]>
// PER-DOT-NEXT: sdy.manual_computation(%arg0, %[[B]]) {{.*}} manual_axes={"x"} (%{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x8xf32>) {
// PER-DOT-NEXT: stablehlo.dot_general {{.*}} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
sdy.mesh @m = <["x"=2, "y"=2]>

func.func @gather_into_dot(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>},
                           %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A no-op collective left by earlier passes goes with the sdy-collective
// canonicalizer, which runs by default.
// CHECK-LABEL: func.func @no_op_collective
// CHECK-NEXT: return %arg0
sdy.mesh @m = <["x"=2, "y"=2]>

func.func @no_op_collective(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  %0 = sdy.all_gather [{}, {}] %a out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
