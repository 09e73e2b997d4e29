// RUN: mpmd-opt -canonicalize -split-input-file %s | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @reshard_of_reshard_to_same_sharding
func.func @reshard_of_reshard_to_same_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"a"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// CHECK-LABEL: func.func @reshard_of_reshard
func.func @reshard_of_reshard(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"b"}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"b"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// The chain stays while something else uses the inner reshard.
// CHECK-LABEL: func.func @reshard_of_used_reshard
func.func @reshard_of_used_reshard(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
  // CHECK-NEXT: %[[B:.*]] = sdy.reshard %[[A]] <@mesh, [{"b"}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[A]], %[[B]]
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"b"}]> : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// Unused pure sdy ops are erased; sharding groups are kept.
// CHECK-LABEL: func.func @dead_ops
func.func @dead_ops(%arg0: tensor<8xf32>) {
  // CHECK-NEXT: sdy.sharding_group %arg0 group_id=3 : tensor<8xf32>
  // CHECK-NEXT: return
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
  %1 = sdy.all_reduce {"b"} %0 out_sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  %2 = sdy.constant dense<0.0> : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=3 : tensor<8xf32>
  return
}
