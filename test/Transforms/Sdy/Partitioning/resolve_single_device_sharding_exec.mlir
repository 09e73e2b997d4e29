// RUN: %partition-and-run %s -sdy-resolve-single-device-sharding="partition-count=4" -sdy-convert-global-to-local="partition-count=4" -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL
// Single-device ops partitioned and run on 4 devices against the
// unpartitioned program (test/Utils/partition_and_run.py): only device 1
// computes, the all-reduce gives every device the result.
sdy.mesh @quad = <["x"=2, "y"=2]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>

// CHECK: PASS: @main_on_device_1
func.func @parallel_on_device_1(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@quad, [{}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@quad, [{}]>}) {
  %0 = sdy.reshard %arg0 <@maximal_mesh_1, []> : tensor<4xf32>
  %1 = stablehlo.multiply %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>]>} : tensor<4xf32>
  %2 = sdy.reshard %1 <@quad, [{}]> : tensor<4xf32>
  %3 = stablehlo.add %2, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@quad, [{}]>]>} : tensor<4xf32>
  return %3 : tensor<4xf32>
}
// The reference, without the reshards (identities on global values).
func.func @sequential_on_device_1(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
