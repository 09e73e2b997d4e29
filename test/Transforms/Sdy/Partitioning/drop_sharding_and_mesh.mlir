// RUN: mpmd-opt -sdy-drop-sharding-and-mesh -split-input-file %s | FileCheck %s

// Shardings on arguments, results and ops go, and so do the meshes; every
// other attribute stays.
// CHECK-NOT: sdy.mesh
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %arg0: tensor<8x8xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<8xf32>)
// CHECK-SAME: -> (tensor<8x8xf32> {jax.result_info = "r"})
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, mhlo.layout_mode = "default"},
             %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>, jax.result_info = "r"}) {
  // CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %arg0 {mhlo.frontend_attributes = {a = "1"}} : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, mhlo.frontend_attributes = {a = "1"}} : tensor<8x8xf32>
  // CHECK-NEXT: return %[[A]]
  return %0 : tensor<8x8xf32>
}

// -----

// Shardings nested in regions are dropped too.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @nested
// CHECK-NOT: sdy.sharding
func.func @nested(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%arg1) ({
    %1 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A named computation keeps its body but loses its in/out shardings, which
// would otherwise name an erased mesh.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @named
func.func @named(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[N:.*]] = sdy.named_computation<"f">(%arg0) (%[[A:.*]]: tensor<4xf32>) {
  // CHECK-NEXT:   %[[B:.*]] = stablehlo.negate %[[A]] : tensor<4xf32>
  // CHECK-NEXT:   sdy.return %[[B]] : tensor<4xf32>
  // CHECK-NEXT: } : (tensor<4xf32>) -> tensor<4xf32>
  %0 = sdy.named_computation<"f">(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] (%a: tensor<4xf32>) {
    %1 = stablehlo.negate %a : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
