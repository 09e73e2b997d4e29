// A module shaped like `jax.jit(f).lower(...).as_text()` with the Shardy partitioner and
// mpmd.jit's lowering of named computations: module attributes, a global `sdy.mesh`,
// a public @main whose arguments carry sdy.sharding, tf.aliasing_output and
// jax.buffer_donor and whose results carry jax.result_info, sharding constraints, a
// shard_map (manual computation), chlo ops, and private helpers reached by func.call.
// It parses, verifies, and prints back to itself (pretty and through the generic form).
// RUN: mpmd-opt %s > %t.pretty
// RUN: mpmd-opt %t.pretty > %t.again
// RUN: diff %t.pretty %t.again
// RUN: mpmd-opt %s -mlir-print-op-generic | mpmd-opt > %t.from_generic
// RUN: diff %t.pretty %t.from_generic
// RUN: FileCheck %s < %t.pretty

// CHECK: module @jit_train_step attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
module @jit_train_step attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  // CHECK-NEXT: sdy.mesh @mesh = <["data"=4, "model"=2]>
  sdy.mesh @mesh = <["data"=4, "model"=2]>
  // CHECK: func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>, tf.aliasing_output = 0 : i32}, %arg2: tensor<64xf32> {jax.buffer_donor = true, sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg3: tensor<i32>)
  // CHECK-SAME: -> (tensor<32x64xf32> {jax.result_info = "result[0].params.w", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<64xf32> {jax.result_info = "result[0].params.b"}, tensor<f32> {jax.result_info = "result[1]['train/loss']"})
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                         %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>, tf.aliasing_output = 0 : i32},
                         %arg2: tensor<64xf32> {jax.buffer_donor = true, sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>},
                         %arg3: tensor<i32>)
      -> (tensor<32x64xf32> {jax.result_info = "result[0].params.w", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
          tensor<64xf32> {jax.result_info = "result[0].params.b"},
          tensor<f32> {jax.result_info = "result[1]['train/loss']"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    // CHECK: mpmd.named_computation<"layer0"> (%arg0, %arg1, %arg2)
    %0:2 = mpmd.named_computation<"layer0"> (%arg0, %arg1, %arg2) (%x: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) {
      %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
      // CHECK: sdy.sharding_constraint %{{.*}} <@mesh, [{"data"}, {"model"}]> : tensor<16x64xf32>
      %hc = sdy.sharding_constraint %h <@mesh, [{"data"}, {"model"}]> : tensor<16x64xf32>
      %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
      %y = stablehlo.add %hc, %bb : tensor<16x64xf32>
      // CHECK: call @relu(%{{.*}}) : (tensor<16x64xf32>) -> tensor<16x64xf32>
      %r = func.call @relu(%y) : (tensor<16x64xf32>) -> tensor<16x64xf32>
      %sq = chlo.square %r : tensor<16x64xf32> -> tensor<16x64xf32>
      mpmd.return %r, %sq : tensor<16x64xf32>, tensor<16x64xf32>
    } : (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>)
    // CHECK: sdy.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%{{.*}}: tensor<4x64xf32>)
    %1 = sdy.manual_computation(%0#1) in_shardings=[<@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%local: tensor<4x64xf32>) {
      %n = stablehlo.negate %local : tensor<4x64xf32>
      sdy.return %n : tensor<4x64xf32>
    } : (tensor<16x64xf32>) -> tensor<16x64xf32>
    // CHECK: stablehlo.reduce(%{{.*}} init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<f32>
    %3 = stablehlo.convert %arg3 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.multiply %2, %3 : tensor<f32>
    %5 = mpmd.named_computation<"layer0"(1)> (%0#0, %arg0) (%g: tensor<16x64xf32>, %x: tensor<16x32xf32>) {
      %dw = stablehlo.dot_general %x, %g, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
      mpmd.return %dw : tensor<32x64xf32>
    } : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<32x64xf32>
    // CHECK: call @sgd(%arg1, %{{.*}}, %cst_0)
    %6 = call @sgd(%arg1, %5, %cst_0) : (tensor<32x64xf32>, tensor<32x64xf32>, tensor<f32>) -> tensor<32x64xf32>
    return %6, %arg2, %4 : tensor<32x64xf32>, tensor<64xf32>, tensor<f32>
  }
  // CHECK: func.func private @relu(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
  func.func private @relu(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x64xf32>
    return %1 : tensor<16x64xf32>
  }
  // CHECK: func.func private @sgd(
  func.func private @sgd(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xf32>, %arg2: tensor<f32>) -> tensor<32x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1 = stablehlo.multiply %arg1, %0 : tensor<32x64xf32>
    %2 = stablehlo.subtract %arg0, %1 : tensor<32x64xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{}, {"model"}]> : tensor<32x64xf32>
    return %3 : tensor<32x64xf32>
  }
}
