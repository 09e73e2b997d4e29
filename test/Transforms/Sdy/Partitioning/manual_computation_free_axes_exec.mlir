// A manual computation whose operand is sharded on a free axis ("b") too:
// propagation carries "b" into the body through the block argument's edge
// and out through the result's, so after partitioning the body runs on
// 4x4 shards with no collective (before, the in_sharding kept "b" out and
// the operand was all-gathered over it). Run on 4 devices against the
// same math without the manual computation.
// RUN: %partition-and-run %s -sdy-propagation-pipeline -sdy-insert-explicit-reshards=enable-full-version=true -sdy-resolve-permutation-factors -sdy-reshard-to-collectives -sdy-pad-for-divisibility -sdy-resolve-single-device-sharding -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// RUN: mpmd-opt %s -sdy-propagation-pipeline -sdy-insert-explicit-reshards=enable-full-version=true -sdy-resolve-permutation-factors -sdy-reshard-to-collectives -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s --check-prefix=LOCAL
// CHECK-NOT: FAIL

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-DAG: PASS: @main_free_axis
// LOCAL-LABEL: func.func @parallel_free_axis(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32>
// LOCAL-NEXT: stablehlo.multiply %arg0, %arg0 : tensor<4x4xf32>
// LOCAL-NOT: stablehlo.all_gather
// LOCAL: return
func.func @parallel_free_axis(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%l: tensor<4x8xf32>) {
    %1 = stablehlo.multiply %l, %l : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.negate %0 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

func.func @sequential_free_axis(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %1 = stablehlo.multiply %x, %x : tensor<8x8xf32>
  %3 = stablehlo.negate %1 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
