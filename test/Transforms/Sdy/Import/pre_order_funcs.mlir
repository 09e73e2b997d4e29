// -sdy-pre-order-funcs: functions move to the end of the module in
// pre-order of the call graph, callers before callees; meshes stay first.
// RUN: mpmd-opt -split-input-file -sdy-pre-order-funcs %s | FileCheck %s

// CHECK-LABEL: sdy.mesh @mesh
// CHECK-NEXT: func.func @main(
// CHECK: func.func private @a(
// CHECK: func.func private @c(
// CHECK: func.func private @b(
// CHECK-NOT: func.func
sdy.mesh @mesh = <["a"=2]>

func.func private @c(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

func.func private @b(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

func.func private @a(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @c(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @a(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @b(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Shared callees come once, at their first visit; functions nobody calls
// are roots in module order.
// CHECK-LABEL: func.func @entry(
// CHECK: func.func private @shared(
// CHECK: func.func private @other(
// CHECK: func.func private @unused(
// CHECK-NOT: func.func
func.func private @shared(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

func.func private @other(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @shared(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @entry(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @shared(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = func.call @other(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func private @unused(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
