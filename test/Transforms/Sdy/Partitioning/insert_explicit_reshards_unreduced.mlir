// RUN: mpmd-opt -sdy-insert-explicit-reshards -split-input-file %s | FileCheck %s

// Unreduced axes are resolved with or without the full version.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// An operand holds partial sums over "x" that the result does not: it is
// all-reduced right before the op, once even when used twice.
// CHECK-LABEL: func.func @operand_all_reduced
func.func @operand_all_reduced(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}], unreduced={"x"}>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{"y"}]> : tensor<8xf32>
  // CHECK-NEXT: %[[M:.*]] = stablehlo.multiply %[[AR]], %[[AR]]
  %0 = stablehlo.multiply %a, %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Addition is linear: an unreduced result may take unreduced operands.
// CHECK-LABEL: func.func @unreduced_kept
func.func @unreduced_kept(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) {
  // CHECK-NEXT: stablehlo.add %arg0, %arg0
  // CHECK-NOT:  sdy.all_reduce
  %0 = stablehlo.add %a, %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A dot whose result is unreduced over "x" is all-reduced (without the
// full version) only over the other contracting axis "y".
// CHECK-LABEL: func.func @dot_partly_unreduced
func.func @dot_partly_unreduced(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>},
                                %b: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"y"} %[[D]] out_sharding=<@mesh, [{}, {}], unreduced={"x"}> : tensor<8x4xf32>
  // CHECK-NEXT: return %[[AR]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A data-flow source with unreduced axes its target lacks is all-reduced
// where it is defined.
// CHECK-LABEL: func.func @barrier_source_all_reduced
func.func @barrier_source_all_reduced(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x", "y"}>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  // CHECK-NEXT: stablehlo.optimization_barrier {{.*}} %[[AR]]
  %b = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>]>} %a : tensor<8xf32>
  return %b : tensor<8xf32>
}

// Results whose shardings add unreduced axes: replicated axes become
// unreduced with replicated_to_unreduced, sharding axes with
// sharded_to_unreduced; an axis that is not at the minor end of its
// dimension is moved there first.
// CHECK-LABEL: func.func @returns_become_unreduced
func.func @returns_become_unreduced(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>},
                                    %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                                    %c: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>},
        tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x", "y"}>},
        tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}], unreduced={"x"}>}) {
  // CHECK-DAG: %[[C0:.*]] = sdy.reshard %arg2 <@mesh, [{"y", "x"}]> : tensor<8xf32>
  // CHECK-DAG: %[[C1:.*]] = sdy.sharded_to_unreduced [{"x"}] %[[C0]] out_sharding=<@mesh, [{"y"}], unreduced={"x"}> : tensor<8xf32>
  // CHECK-DAG: %[[B0:.*]] = sdy.sharded_to_unreduced [{"x"}] %arg1 out_sharding=<@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  // CHECK-DAG: %[[B1:.*]] = sdy.replicated_to_unreduced {"y"} %[[B0]] out_sharding=<@mesh, [{}], unreduced={"x", "y"}> : tensor<8xf32>
  // CHECK-DAG: %[[A0:.*]] = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  // CHECK:     return %[[A0]], %[[B1]], %[[C1]]
  return %a, %b, %c : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// A returned value the function result does not have unreduced is
// all-reduced.
// CHECK-LABEL: func.func @return_all_reduced
func.func @return_all_reduced(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[AR]]
  return %a : tensor<8xf32>
}

// An existing reshard that adds unreduced axes is replaced by the ops that
// add them.
// CHECK-LABEL: func.func @reshard_to_unreduced
func.func @reshard_to_unreduced(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[S:.*]] = sdy.sharded_to_unreduced [{"x"}] %arg0 out_sharding=<@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[S]]
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"x"} %[[N]]
  %0 = sdy.reshard %a <@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// When the reshard changes more than the unreduced axes it stays for the
// rest, after the to-unreduced op.
// CHECK-LABEL: func.func @reshard_to_unreduced_and_more
func.func @reshard_to_unreduced_and_more(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[U:.*]] = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[U]] <@mesh, [{"y"}], unreduced={"x"}> : tensor<8xf32>
  %0 = sdy.reshard %a <@mesh, [{"y"}], unreduced={"x"}> : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A max reduce whose result stays max-unreduced over "x": the rest of its
// reduction axes are all-reduced with max, and so is "x" before an op whose
// result holds no partial values.
// CHECK-LABEL: func.func @reduce_max_partly_unreduced
func.func @reduce_max_partly_unreduced(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}, %z: tensor<f32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[RED:.*]] = stablehlo.reduce
  // CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce max {"y"} %[[RED]] out_sharding=<@mesh, [{}], unreduced=max{"x"}> : tensor<8xf32>
  // CHECK-NEXT: %[[AR2:.*]] = sdy.all_reduce max {"x"} %[[AR]] out_sharding=<@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[AR2]]
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"x"}>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
