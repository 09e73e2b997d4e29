// The three pipelines end to end: -sdy-import-pipeline,
// -sdy-propagation-pipeline, -sdy-export-pipeline.
// RUN: mpmd-opt -split-input-file -sdy-propagation-pipeline %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-import-pipeline %s | FileCheck %s --check-prefix=IMPORT
// RUN: mpmd-opt -split-input-file -sdy-import-pipeline -sdy-user-priority-propagate -sdy-export-pipeline %s | FileCheck %s --check-prefix=EXPORT

// Inlined meshes are lifted, size-1 axes removed, constants split per use,
// the closed constraint binds its input; after propagation every sharding
// is closed and the constraint is a reshard. The propagation pipeline keeps
// mesh symbols; the export pipeline alone inlines them.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}
// CHECK-SAME: -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>})
// CHECK-NEXT: %[[C:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} dense<1.000000e+00>
// CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %[[C]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT: %[[M:.*]] = stablehlo.multiply %[[A]], %[[C]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[M]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a"}]>]>}
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[N]] <@mesh, [{}, {"a"}]>
// CHECK-NEXT: return %[[R]], %[[M]]
// IMPORT: sdy.mesh @mesh = <["a"=2, "b"=1]>
// IMPORT: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}
// IMPORT-NEXT: sdy.constant dense<1.000000e+00>
// IMPORT-NEXT: stablehlo.add
// IMPORT-NEXT: sdy.constant dense<1.000000e+00>
// IMPORT-NEXT: stablehlo.multiply
// EXPORT-NOT: sdy.mesh
// EXPORT: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=1]>, [{"a"}, {}]>}
// EXPORT: sdy.reshard
func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=1]>, [{"a", "b"}, {}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8x16xf32>
  %0 = stablehlo.add %x, %c : tensor<8x16xf32>
  %1 = stablehlo.multiply %0, %c : tensor<8x16xf32>
  %2 = stablehlo.negate %1 : tensor<8x16xf32>
  %3 = sdy.sharding_constraint %2 <mesh<["a"=2, "b"=1]>, [{}, {"a"}]> : tensor<8x16xf32>
  return %3, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Priorities and loops (through data-flow edges): the open dimensions of
// both arguments are filled.
sdy.mesh @mesh = <["a"=4, "b"=2]>
// CHECK-LABEL: func.func @loop(
// CHECK-SAME: %arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>}
// CHECK-SAME: %arg1: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>}
// CHECK-SAME: -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>})
func.func @loop(%x: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a"}p1]>},
                %y: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}p0, {?}]>}) -> tensor<6x8xf32> {
  // CHECK: stablehlo.while(%iterArg = %arg0) : tensor<6x8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {"a"}]>]>}
  // CHECK-NOT: sdy.data_flow_edge
  %0 = stablehlo.while(%iterArg = %x) : tensor<6x8xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %y : tensor<6x8xf32>
    stablehlo.return %1 : tensor<6x8xf32>
  }
  return %0 : tensor<6x8xf32>
}
