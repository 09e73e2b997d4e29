// -sdy-unflatten-call-graph: clones of one function with the same
// shardings (or, with dedup-functions-fully, whatever their shardings) are
// merged.
// RUN: mpmd-opt -split-input-file -sdy-unflatten-call-graph %s | FileCheck %s --implicit-check-not=sdy.original_func_name --implicit-check-not=sdy.func_manual_axes
// RUN: mpmd-opt -split-input-file -sdy-unflatten-call-graph='dedup-functions-fully=true' %s | FileCheck %s --check-prefix=FULLY

sdy.mesh @mesh = <["a"=2]>

func.func private @f(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  return %x : tensor<8xf32>
}

func.func private @f_0(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) attributes {sdy.original_func_name = "f"} {
  return %x : tensor<8xf32>
}

func.func private @f_1(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) attributes {sdy.original_func_name = "f"} {
  return %x : tensor<8xf32>
}

func.func private @f_2(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) attributes {sdy.original_func_name = "f", sdy.func_manual_axes = ["a"]} {
  return %x : tensor<8xf32>
}

// Same key as @f_0: @f_1's call goes to @f_0; @f_2 runs under other manual
// axes and stays. The attributes go from every function; unused functions
// stay for symbol-dce.
// CHECK: func.func private @f_1(
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: call @f(%arg0)
// CHECK-NEXT: call @f_0(
// CHECK-NEXT: call @f_0(
// CHECK-NEXT: call @f_2(
// With dedup-functions-fully @f, @f_0 and @f_1 share a key and have one
// call each: the first wins.
// FULLY-LABEL: func.func @main(
// FULLY-NEXT: call @f(%arg0)
// FULLY-NEXT: call @f(
// FULLY-NEXT: call @f(
// FULLY-NEXT: call @f_2(
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @f_0(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = func.call @f_1(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = func.call @f_2(%2) : (tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// Without shardings @g and @g_0 have one key (the bodies are not
// compared): all calls go to the first. With dedup-functions-fully the
// function with the most calls wins.
// CHECK-LABEL: func.func @most(
// CHECK-NEXT: call @g(
// CHECK-NEXT: call @g(
// CHECK-NEXT: call @g(
// FULLY-LABEL: func.func @most(
// FULLY-NEXT: call @g_0(
// FULLY-NEXT: call @g_0(
// FULLY-NEXT: call @g_0(
func.func private @g(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

func.func private @g_0(%x: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "g"} {
  %0 = stablehlo.negate %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @most(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @g(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @g_0(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = func.call @g_0(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
