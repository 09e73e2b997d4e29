// -sdy-propagation-pipeline on a module in the form JAX exports it
// (jax.jit(...).lower(...).as_text() with Shardy): a public @main with
// `mhlo.layout_mode` and `jax.result_info` attributes, and a private
// function per nested jit, called with `call`, here each twice with
// differently sharded operands (a Megatron-style MLP: the first weight
// column-parallel, the second left to propagation).
// RUN: mpmd-opt -sdy-propagation-pipeline %s | FileCheck %s

// Each call gets its own function again: the first dense layer is
// column-parallel ({"model"} on the weight's output dimension), which makes
// the second row-parallel ({"model"} reaches its weight's input dimension
// through the contraction). The attributes of @main stay.
// CHECK: module @jit_mlp attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32}
// CHECK-LABEL: func.func public @main(
// CHECK-SAME: %arg0: tensor<8x16xf32> {mhlo.layout_mode = "default", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: %arg1: tensor<16x16xf32> {mhlo.layout_mode = "default", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}
// CHECK-SAME: %arg2: tensor<16x16xf32> {mhlo.layout_mode = "default", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}
// CHECK-SAME: -> (tensor<8x16xf32> {jax.result_info = "result", mhlo.layout_mode = "default", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
// CHECK-NEXT: %[[D0:.*]] = call @dense(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}
// CHECK-NEXT: %[[R0:.*]] = call @relu(%[[D0]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}
// CHECK-NEXT: %[[D1:.*]] = call @dense_0(%[[R0]], %arg2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK-NEXT: %[[R1:.*]] = call @relu_1(%[[D1]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK-NEXT: return %[[R1]]
// CHECK-LABEL: func.func private @dense(
// CHECK-SAME: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>})
// CHECK-LABEL: func.func private @relu(
// CHECK-SAME: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>})
// CHECK-NEXT: sdy.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: stablehlo.broadcast_in_dim {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>
// CHECK-NEXT: stablehlo.maximum {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>
// CHECK-LABEL: func.func private @dense_0(
// CHECK-SAME: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, %arg1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
// CHECK-LABEL: func.func private @relu_1(
// CHECK-SAME: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
// CHECK-NOT: func.func

module @jit_mlp attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=2]>
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.layout_mode = "default", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x16xf32> {mhlo.layout_mode = "default", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<16x16xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x16xf32> {jax.result_info = "result", mhlo.layout_mode = "default"}) {
    %0 = call @dense(%arg0, %arg1) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %1 = call @relu(%0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %2 = call @dense(%1, %arg2) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %3 = call @relu(%2) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %3 : tensor<8x16xf32>
  }
  func.func private @dense(%arg0: tensor<8x16xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<16x16xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x16xf32> {mhlo.layout_mode = "default"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @relu(%arg0: tensor<8x16xf32> {mhlo.layout_mode = "default"}) -> (tensor<8x16xf32> {mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}
