// -sdy-export-named-computations: every named computation becomes a call
// of a new private function holding its body.
// RUN: mpmd-opt -split-input-file -sdy-export-named-computations %s | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The edge shardings win over the op's own (missing ones fully open); the
// edges go. A function @foo exists already, so the new one is @foo_0.
// CHECK-LABEL: func.func private @foo(
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[C:.*]] = call @foo_0(%arg0, %arg0) {other.attr = 3 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[C]]
// CHECK-NEXT: return %[[N]]
// CHECK-LABEL: func.func private @foo_0(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}) -> tensor<8xf32>
// CHECK-SAME: attributes {execution_thread = "t", sdy.original_func_name = "foo"}
// CHECK-NEXT: %[[A:.*]] = stablehlo.add %arg0, %arg1
// CHECK-NEXT: return %[[A]] : tensor<8xf32>
func.func private @foo(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"foo">(%x, %x) in_shardings=[<@mesh, [{"b"}]>, <@mesh, [{"b"}]>] out_shardings=[<@mesh, [{"b"}]>] (%arg1: tensor<8xf32>, %arg2: tensor<8xf32>) {
    %e1 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"a", ?}]> : tensor<8xf32>
    %e2 = sdy.data_flow_edge %arg2 : tensor<8xf32>
    %1 = stablehlo.add %e1, %e2 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } {execution_thread = "t", other.attr = 3 : i64} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", ?}]> : tensor<8xf32>
  %3 = stablehlo.negate %2 : tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// Without edges the op's shardings are used; nested computations become
// nested calls; without shardings the function has no attributes on its
// arguments and the call no sdy.sharding.
sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: call @outer(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
// CHECK-LABEL: func.func private @inner(
// CHECK-SAME: %arg0: tensor<8xf32>) -> tensor<8xf32>
// CHECK-SAME: attributes {sdy.original_func_name = "inner"}
// CHECK-NEXT: stablehlo.abs
// CHECK-LABEL: func.func private @outer(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32>
// CHECK-NEXT: %[[I:.*]] = call @inner(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[I]]
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"outer">(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] (%arg1: tensor<8xf32>) {
    %1 = sdy.named_computation<"inner">(%arg1) (%arg2: tensor<8xf32>) {
      %2 = stablehlo.abs %arg2 : tensor<8xf32>
      sdy.return %2 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
