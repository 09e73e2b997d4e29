// A manual computation inlined by -sdy-convert-global-to-local, then ops
// reading its results, partitioned and run on four partitions against the
// unpartitioned program written out below (-sdy-drop-sharding-and-mesh
// cannot remove a manual computation's shardings).
// RUN: %partition-and-run %s -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The result keeps its out sharding for the ops that read it: the slice sees
// dimension 0 sharded on both sides.
// CHECK: PASS: @main_manual_then_slice
func.func @parallel_manual_then_slice(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%local: tensor<4x4xf32>) {
    %n = stablehlo.negate %local : tensor<4x4xf32>
    sdy.return %n : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.slice %0 [0:8, 1:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<8x2xf32>
  return %1 : tensor<8x2xf32>
}

func.func @sequential_manual_then_slice(%arg0: tensor<8x4xf32>) -> tensor<8x2xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x4xf32>
  %1 = stablehlo.slice %0 [0:8, 1:3] : (tensor<8x4xf32>) -> tensor<8x2xf32>
  return %1 : tensor<8x2xf32>
}
