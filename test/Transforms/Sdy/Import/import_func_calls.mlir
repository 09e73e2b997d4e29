// -sdy-import-func-calls: every call becomes a named computation holding
// the callee's body, with data-flow edges unless the option is off.
// RUN: mpmd-opt -split-input-file -sdy-import-func-calls -verify-diagnostics %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-import-func-calls='add-data-flow-edges-on-named-computations=false' %s 2>/dev/null | FileCheck %s --check-prefix=NOEDGES

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func private @callee(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}, %y: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) attributes {execution_thread = "main"} {
  %0 = stablehlo.add %x, %y : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// In_shardings come from the callee's arguments (missing ones fully open),
// out_shardings from the call; other discardable attributes of the call
// and the callee's execution_thread stay. The callee is erased.
// CHECK-NOT: func.func private @callee
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[NC:.*]] = sdy.named_computation<"callee">(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}, {?}]>, <@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{}, {"b"}]>] (%arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>) {
// CHECK-NEXT: %[[E0:.*]] = sdy.data_flow_edge %arg2 sharding=<@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: %[[E1:.*]] = sdy.data_flow_edge %arg3 sharding=<@mesh, [{?}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %[[E0]], %[[E1]]
// CHECK-NEXT: sdy.return %[[ADD]] : tensor<8x8xf32>
// CHECK-NEXT: } {execution_thread = "main", some.attr = "kept"} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[R:.*]] = sdy.data_flow_edge %[[NC]] sharding=<@mesh, [{}, {"b"}]> : tensor<8x8xf32>
// CHECK-NEXT: return %[[R]]
// NOEDGES-LABEL: func.func @main(
// NOEDGES-NEXT: sdy.named_computation<"callee">
// NOEDGES-NEXT: stablehlo.add %arg2, %arg3
// NOEDGES-NEXT: sdy.return
// NOEDGES-NOT: sdy.data_flow_edge
func.func @main(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = func.call @callee(%x, %y) {some.attr = "kept", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Nested calls become nested named computations, named after the original
// function of a clone. A function called twice: the second call copies the
// body (one warning per run), the function goes.
func.func private @leaf_0(%x: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "leaf"} {
  %0 = stablehlo.negate %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @outer(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @leaf_0(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @decl(tensor<8xf32>) -> tensor<8xf32>

// CHECK-LABEL: func.func @main(
// CHECK-NOT: func.func
// CHECK: sdy.named_computation<"outer">(%arg0) (%arg1: tensor<8xf32>) {
// CHECK: sdy.named_computation<"leaf">(
// CHECK: stablehlo.negate
// CHECK: sdy.named_computation<"outer">(
// CHECK: sdy.named_computation<"leaf">(
// CHECK: stablehlo.negate
// CHECK: call @decl(
// CHECK-NOT: func.func private @outer
// CHECK-NOT: func.func private @leaf_0
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @outer(%x) : (tensor<8xf32>) -> tensor<8xf32>
  // expected-warning @+1 {{@outer has several calls: each named computation gets a copy of its body (run -sdy-flatten-call-graph first to give each call its own function)}}
  %1 = func.call @outer(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = func.call @decl(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
