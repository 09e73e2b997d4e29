// RUN: mpmd-opt %s -sdy-remove-all-gather-reduce-scatter-for-cmv1 | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A gather used only by the dot is bypassed; one with another user stays.
// CHECK-LABEL: func.func @gathered_operands
// CHECK-NEXT:    %[[G:.*]] = sdy.all_gather [{}, {"y"}] %arg1
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %arg0, %[[G]]
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[G]]
// CHECK-NEXT:    return %[[D]], %[[N]]
func.func @gathered_operands(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                             %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %ga = sdy.all_gather [{"x"}, {}] %a out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %gb = sdy.all_gather [{}, {"y"}] %b out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %d = stablehlo.dot_general %ga, %gb, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %n = stablehlo.negate %gb : tensor<8x8xf32>
  return %d, %n : tensor<8x8xf32>, tensor<8x8xf32>
}

// A dot whose only user is a reduce-scatter takes its sharding.
// CHECK-LABEL: func.func @reduce_scattered_result
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// CHECK-NEXT:    return %[[D]]
func.func @reduce_scattered_result(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %rs = sdy.reduce_scatter [{"y"}, {}] %d out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %rs : tensor<8x8xf32>
}

// Kept: a reduce-scatter after a dot whose operand was gathered, after a
// dot with unreduced axes, and after a dot with another user.
// CHECK-LABEL: func.func @kept_reduce_scatters
// CHECK-COUNT-3: sdy.reduce_scatter
func.func @kept_reduce_scatters(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ga = sdy.all_gather [{"x"}, {}] %a out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %d0 = stablehlo.dot_general %ga, %b, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %rs0 = sdy.reduce_scatter [{"y"}, {}] %d0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  %d1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %rs1 = sdy.reduce_scatter [{"y"}, {}] %d1 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<8x8xf32>
  %d2 = stablehlo.dot_general %b, %b, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %rs2 = sdy.reduce_scatter [{"y"}, {}] %d2 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %rs0, %rs1, %rs2, %d2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
