// -sdy-update-non-divisible-input-output-shardings: I/O dimensions keep the
// longest prefix of axes that divides them.
// RUN: mpmd-opt -split-input-file -sdy-update-non-divisible-input-output-shardings %s | FileCheck %s

sdy.mesh @mesh = <["a"=4, "b"=2]>

// CHECK-LABEL: func.func private @callee(
// CHECK-SAME: %arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}
// CHECK-SAME: %arg1: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}]>}
// CHECK-SAME: %arg2: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}p1]>}
// CHECK-SAME: %arg3: tensor<6x7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {}]>}
// CHECK-SAME: -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>})
func.func private @callee(%a: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a"}]>},
                          %b: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>},
                          %c: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}p1]>},
                          %d: tensor<6x7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a", ?}p2, {}]>})
    -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a"}]>}) {
  return %a : tensor<6xf32>
}

// CHECK-LABEL: func.func @main(
func.func @main(%a: tensor<6xf32>, %d: tensor<6x7xf32>, %c: tensor<16xf32>) -> tensor<6xf32> {
  // CHECK: call @callee({{.*}}) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)2}]>]>}
  %0 = func.call @callee(%a, %a, %c, %d) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<6xf32>, tensor<6xf32>, tensor<16xf32>, tensor<6x7xf32>) -> tensor<6xf32>
  // Other ops keep their shardings.
  // CHECK: stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<6xf32>
  // CHECK: sdy.manual_computation(%1) in_shardings=[<@mesh, [{"b"}]>] out_shardings=[<@mesh, [{"b"}]>]
  %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"b", "a"}]>] out_shardings=[<@mesh, [{"b", "a"}]>] manual_axes={"b"} (%arg1: tensor<3xf32>) {
    sdy.return %arg1 : tensor<3xf32>
  } : (tensor<6xf32>) -> tensor<6xf32>
  return %2 : tensor<6xf32>
}

// -----

// A collective keeps reading the sharding it was written against: its
// operand's cut sharding is resharded back right before it (the partitioner
// pads that value), in a function and after a call.
sdy.mesh @mesh = <["x"=2, "y"=3]>

// CHECK-LABEL: func.func @gather_of_argument(
// CHECK-SAME: %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
func.func @gather_of_argument(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8x4xf32> {
  // CHECK-NEXT: %[[RESHARD:.*]] = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]>
  // CHECK-NEXT: %[[GATHER:.*]] = sdy.all_gather [{"x"}, {"y"}] %[[RESHARD]]
  // CHECK-NEXT: %[[NEGATE:.*]] = stablehlo.negate %arg0
  %0 = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
  %1 = stablehlo.negate %arg0 : tensor<8x4xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

func.func private @identity(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %arg0 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @gather_of_call(
func.func @gather_of_call(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK-NEXT: %[[CALL:.*]] = call @identity(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
  // CHECK-NEXT: %[[RESHARD:.*]] = sdy.reshard %[[CALL]] <@mesh, [{"y"}, {"x"}]>
  // CHECK-NEXT: sdy.all_gather [{"y"}, {}] %[[RESHARD]] out_sharding=<@mesh, [{}, {"x"}]>
  %0 = func.call @identity(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = sdy.all_gather [{"y"}, {}] %0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
