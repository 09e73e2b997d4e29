// RUN: mpmd-opt -sdy-insert-explicit-reshards -split-input-file %s | FileCheck %s

// An op whose result is on a maximal mesh runs on that device: its
// operands are replicated on the global mesh (the first with axes) and
// moved to the device, its results come back replicated on the global mesh
// and then to their own sharding when that is not on the device.
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @single_device
func.func @single_device(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                         %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK-NEXT: %[[A0:.*]] = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[A1:.*]] = sdy.reshard %[[A0]] <@maximal_mesh_1, []> : tensor<8xf32>
  // CHECK-NEXT: %[[B1:.*]] = sdy.reshard %arg1 <@maximal_mesh_1, []> : tensor<8xf32>
  // CHECK-NEXT: %[[C:.*]]:2 = stablehlo.custom_call @sdy_testonly(%[[A1]], %[[B1]]) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>, <@maximal_mesh_1, []>]>}
  // CHECK-NEXT: %[[R0:.*]] = sdy.reshard %[[C]]#0 <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[R1:.*]] = sdy.reshard %[[C]]#1 <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[R2:.*]] = sdy.reshard %[[R1]] <@mesh, [{"x"}]> : tensor<8xf32>
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[R0]]
  %0:2 = stablehlo.custom_call @sdy_testonly(%a, %b) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>, <@mesh, [{"x"}]>]>} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %1 = stablehlo.negate %0#0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  // CHECK-NEXT: return %[[N]], %[[R2]]
  return %1, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// An operand already on the device stays.
// CHECK-LABEL: func.func @operand_on_device
func.func @operand_on_device(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@maximal_mesh_1, []> : tensor<8xf32>
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[A]] {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[N]] <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = sdy.reshard %a <@maximal_mesh_1, []> : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
