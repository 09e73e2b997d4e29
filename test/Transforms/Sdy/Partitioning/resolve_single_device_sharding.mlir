// RUN: mpmd-opt -sdy-resolve-single-device-sharding -split-input-file %s | FileCheck %s
// RUN: mpmd-opt -sdy-resolve-single-device-sharding="replica-count=4" -split-input-file %s | FileCheck %s --check-prefix=REPLICA

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>

// The op runs under `device id == 1`; the other devices contribute zeros to
// an all-reduce over every axis of the global mesh, whose result replaces
// the reshard back to replicated. The reshard onto the device is bypassed
// and erased.
// CHECK-LABEL: func.func @custom_call_on_device_1
// CHECK-SAME: (%[[ARG:.*]]: tensor<8x8xf32>
// CHECK-NEXT:   %[[PID:.*]] = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT:   %[[ID:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT:   %[[REP:.*]] = sdy.reshard %[[ARG]] <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT:   %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<i64>
// CHECK-NEXT:   %[[HERE:.*]] = stablehlo.compare EQ, %[[ID]], %[[ONE]], SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:   %[[IF:.*]] = "stablehlo.if"(%[[HERE]]) ({
// CHECK-NEXT:     %[[CALL:.*]] = stablehlo.custom_call @foo(%[[REP]]) {has_side_effect = true} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:     stablehlo.return %[[CALL]] : tensor<8x8xf32>
// CHECK-NEXT:   }, {
// CHECK-NEXT:     %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT:     stablehlo.return %[[ZERO]] : tensor<8x8xf32>
// CHECK-NEXT:   }) : (tensor<i1>) -> tensor<8x8xf32>
// CHECK-NEXT:   %[[SUM:.*]] = sdy.all_reduce {"x", "y"} %[[IF]] out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT:   %[[OUT:.*]] = sdy.reshard %[[SUM]] <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT:   return %[[OUT]]
// REPLICA-LABEL: func.func @custom_call_on_device_1
// REPLICA-NEXT:   %[[RID:.*]] = stablehlo.replica_id : tensor<ui32>
// REPLICA-NEXT:   stablehlo.convert %[[RID]] : (tensor<ui32>) -> tensor<i64>
func.func @custom_call_on_device_1(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@maximal_mesh_1, []> : tensor<8x8xf32>
  %2 = stablehlo.custom_call @foo(%1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x8xf32>
  %4 = sdy.reshard %3 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}

// Several results: a token (create_token elsewhere, no all-reduce), an
// integer tensor and a result already replicated on the global mesh. Users
// other than reshards read the all-reduced value; the device id is computed
// once per function.
// CHECK-LABEL: func.func @several_results
// CHECK-COUNT-1: stablehlo.partition_id
// CHECK:        %[[IF:.*]]:3 = "stablehlo.if"
// CHECK:          %[[CALL:.*]]:3 = stablehlo.custom_call @bar()
// CHECK-NEXT:     stablehlo.return %[[CALL]]#0, %[[CALL]]#1, %[[CALL]]#2 : !stablehlo.token, tensor<4xi32>, tensor<2xf32>
// CHECK-NEXT:   }, {
// CHECK-NEXT:     %[[TOKEN:.*]] = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT:     %[[ZI:.*]] = stablehlo.constant dense<0> : tensor<4xi32>
// CHECK-NEXT:     %[[ZF:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:     stablehlo.return %[[TOKEN]], %[[ZI]], %[[ZF]]
// CHECK-NEXT:   })
// CHECK-NEXT:   %[[I:.*]] = sdy.all_reduce {"x", "y"} %[[IF]]#1 out_sharding=<@mesh, [{}]> : tensor<4xi32>
// CHECK-NEXT:   %[[F:.*]] = sdy.all_reduce {"x", "y"} %[[IF]]#2 out_sharding=<@mesh, [{}]> : tensor<2xf32>
// CHECK-NEXT:   %[[NEG:.*]] = stablehlo.negate %[[F]] : tensor<2xf32>
// CHECK-NEXT:   return %[[IF]]#0, %[[I]], %[[NEG]]
func.func @several_results() -> (!stablehlo.token, tensor<4xi32>, tensor<2xf32>) {
  %0:3 = stablehlo.custom_call @bar() {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>, <@maximal_mesh_1, []>, <@mesh, [{}]>]>} : () -> (!stablehlo.token, tensor<4xi32>, tensor<2xf32>)
  %1 = sdy.reshard %0#1 <@mesh, [{}]> : tensor<4xi32>
  %2 = stablehlo.negate %0#2 : tensor<2xf32>
  return %0#0, %1, %2 : !stablehlo.token, tensor<4xi32>, tensor<2xf32>
}

// An op with a region is moved whole; ops sharded elsewhere, and sdy ops,
// are left alone.
// CHECK-LABEL: func.func @region_op
// CHECK:        "stablehlo.if"
// CHECK-NEXT:     stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
// CHECK:        stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
func.func @region_op(%arg0: tensor<8xf32>) -> (tensor<f32>, tensor<8xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %zero) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0, %1 : tensor<f32>, tensor<8xf32>
}

// -----

// Without a mesh that has axes there is nothing to all-reduce over: users
// read the if's result.
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// CHECK-LABEL: func.func @only_maximal_meshes
// CHECK:        %[[IF:.*]] = "stablehlo.if"
// CHECK-NOT:    sdy.all_reduce
// CHECK:        return %[[IF]]
func.func @only_maximal_meshes(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
