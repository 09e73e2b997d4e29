// RUN: mpmd-opt -sdy-insert-explicit-reshards="enable-full-version=true" -split-input-file %s | FileCheck %s

// The sources of a data-flow edge are resharded to the sharding of its
// owner right where they are defined: the while operand at the start of
// the function, the value the body returns in the body.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @while
func.func @while(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<8xf32>
  // CHECK-NEXT: %[[W:.*]] = stablehlo.while(%[[I:.*]] = %[[A]])
  // CHECK:      do {
  // CHECK-NEXT:   %[[N:.*]] = stablehlo.custom_call @sdy_testonly(%[[I]])
  // CHECK-NEXT:   %[[R:.*]] = sdy.reshard %[[N]] <@mesh, [{"y"}]> : tensor<8xf32>
  // CHECK-NEXT:   stablehlo.return %[[R]]
  // CHECK:      return %[[W]]
  %w = stablehlo.while(%i = %a) : tensor<8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>}
    cond {
      %true = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %true : tensor<i1>
    } do {
      %n = stablehlo.custom_call @sdy_testonly(%i) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
      stablehlo.return %n : tensor<8xf32>
    }
  return %w : tensor<8xf32>
}

// Every branch of a case returns a source of the result's edge. Sources
// that are function arguments are resharded at the start of the function
// (so the last one handled comes first).
// CHECK-LABEL: func.func @case
func.func @case(%p: tensor<i32>, %a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK-NEXT: %[[A1:.*]] = sdy.reshard %arg1 <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[B1:.*]] = sdy.reshard %arg2 <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[B0:.*]] = sdy.reshard %arg2 <@mesh, [{"x"}]> : tensor<8xf32>
  // CHECK-NEXT: %[[C:.*]]:2 = "stablehlo.case"(%arg0) ({
  // CHECK-NEXT:   stablehlo.return %arg1, %[[B1]]
  // CHECK-NEXT: }, {
  // CHECK-NEXT:   stablehlo.return %[[B0]], %[[A1]]
  %c:2 = "stablehlo.case"(%p) ({
    stablehlo.return %a, %b : tensor<8xf32>, tensor<8xf32>
  }, {
    stablehlo.return %b, %a : tensor<8xf32>, tensor<8xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}]>]>} : (tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %c#0, %c#1 : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @optimization_barrier
func.func @optimization_barrier(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"x", "y"}]> : tensor<8xf32>
  // CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier {{.*}} %[[A]]
  %b = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}]>]>} %a : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// A manual computation: an operand against its global in-sharding; the
// value the body returns against the out-sharding seen from inside (without
// the manual axis "x").
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @manual_computation
func.func @manual_computation(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"x", "y"}]> : tensor<8xf32>
  // CHECK-NEXT: sdy.manual_computation(%[[A]])
  // CHECK-NEXT:   %[[N:.*]] = stablehlo.custom_call @sdy_testonly
  // CHECK-NEXT:   %[[R:.*]] = sdy.reshard %[[N]] <@mesh, [{"y"}]> : tensor<4xf32>
  // CHECK-NEXT:   sdy.return %[[R]]
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x", "y"}]>] out_shardings=[<@mesh, [{"x", "y"}]>] manual_axes={"x"} (%arg: tensor<4xf32>) {
    %n = stablehlo.custom_call @sdy_testonly(%arg) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %n : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A body argument already has the in-sharding without the manual axes, so
// returning it needs nothing.
// CHECK-LABEL: func.func @manual_computation_pass_through
func.func @manual_computation_pass_through(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-NEXT:   sdy.return %{{.*}} : tensor<4xf32>
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x", "y"}]>] out_shardings=[<@mesh, [{"x", "y"}]>] manual_axes={"x"} (%arg: tensor<4xf32>) {
    sdy.return %arg : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A named computation: operands against in_shardings, returned values
// against out_shardings; the body argument has its in-sharding.
// CHECK-LABEL: func.func @named_computation
func.func @named_computation(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<8xf32>
  // CHECK-NEXT: sdy.named_computation<"f">(%[[A]])
  // CHECK-NEXT:   %[[R:.*]] = sdy.reshard %arg1 <@mesh, [{"x"}]> : tensor<8xf32>
  // CHECK-NEXT:   sdy.return %[[R]]
  %0 = sdy.named_computation<"f">(%a) in_shardings=[<@mesh, [{"y"}]>] out_shardings=[<@mesh, [{"x"}]>] (%arg: tensor<8xf32>) {
    sdy.return %arg : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A target on a mesh with other axes gets a plain reshard: unreduced axes
// are only reconciled between shardings on the same axes.
sdy.mesh @other = <["z"=4]>

// CHECK-LABEL: func.func @other_mesh_target
func.func @other_mesh_target(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@other, [{"z"}]> : tensor<8xf32>
  // CHECK-NEXT: stablehlo.optimization_barrier {{.*}} %[[A]]
  %b = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@other, [{"z"}]>]>} %a : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// With the full version, returned values are resharded to the function's
// result shardings (replicated when there is none).
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @return
func.func @return(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, tensor<8xf32>) {
  // CHECK-NEXT: %[[R1:.*]] = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: %[[R0:.*]] = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[R0]], %[[R1]]
  return %a, %a : tensor<8xf32>, tensor<8xf32>
}

// A returned value without a sharding is replicated: a sharded result
// reshards it (a replicated one leaves it alone).
// CHECK-LABEL: func.func @return_unsharded
func.func @return_unsharded(%a: tensor<8xf32>)
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %arg0 : tensor<8xf32>
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[N]] <@mesh, [{"x", "y"}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[R]], %[[N]]
  %n = stablehlo.negate %a : tensor<8xf32>
  return %n, %n : tensor<8xf32>, tensor<8xf32>
}
