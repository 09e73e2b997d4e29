// -sdy-flatten-call-graph: every later call of a function calls a clone of
// it (nested callees cloned too), so that each function has one call.
// RUN: mpmd-opt -split-input-file -sdy-flatten-call-graph -verify-diagnostics %s | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

func.func private @leaf(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @inner(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = func.call @leaf(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @leaf(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @inner(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @inner(%0) {some.attr = 1 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// @inner's second call of @leaf gets @leaf_0; @main's second call of @inner
// gets @inner_1, whose two calls (of @leaf and @leaf_0) then get clones of
// their own. A clone is named after its callee, with the symbol table's
// `_<n>` suffix.
// Clones are private, go to the end of the module and remember where they
// came from; the originals are untouched.
// CHECK-LABEL: func.func private @leaf(
// CHECK-NOT: sdy.original_func_name
// CHECK-LABEL: func.func private @inner(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}
// CHECK-NEXT: call @leaf(%arg0)
// CHECK-NEXT: call @leaf_0(
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: call @inner(%arg0)
// CHECK-NEXT: call @inner_1(%0) {some.attr = 1 : i64}
// CHECK-LABEL: func.func private @leaf_0(
// CHECK-SAME: attributes {sdy.original_func_name = "leaf"}
// CHECK-NEXT: stablehlo.negate
// CHECK-LABEL: func.func private @inner_1(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}
// CHECK-SAME: attributes {sdy.original_func_name = "inner"}
// CHECK-NEXT: call @leaf_2(%arg0)
// CHECK-NEXT: call @leaf_0_3(
// CHECK-LABEL: func.func private @leaf_2(
// CHECK-SAME: attributes {sdy.original_func_name = "leaf"}
// CHECK-LABEL: func.func private @leaf_0_3(
// CHECK-SAME: attributes {sdy.original_func_name = "leaf"}

// -----

// A clone of a clone keeps the first original name; declarations are not
// cloned.
func.func private @decl(tensor<8xf32>) -> tensor<8xf32>

func.func private @f_0(%x: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "f"} {
  return %x : tensor<8xf32>
}

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: call @f_0(%arg0)
// CHECK-NEXT: call @f_0_0(
// CHECK-NEXT: call @decl(
// CHECK-NEXT: call @decl(
// CHECK-LABEL: func.func private @f_0_0(
// CHECK-SAME: attributes {sdy.original_func_name = "f"}
// CHECK-NOT: func.func
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @f_0(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @f_0(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = func.call @decl(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = func.call @decl(%2) : (tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// Recursion cannot be flattened.
func.func private @ping(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @pong(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @pong(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{cannot flatten a recursive call graph: @ping calls itself through this call}}
  %0 = func.call @ping(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @ping(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
