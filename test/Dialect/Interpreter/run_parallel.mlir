// interpreter.run_parallel parses, verifies and prints (generic form, as
// StableHLO's interpreter tests write it).
// RUN: mpmd-opt %s | FileCheck %s
// RUN: mpmd-opt %s | mpmd-opt | FileCheck %s

func.func @f(%x: tensor<2xf32>) -> tensor<4xf32> {
  %0 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @g() -> tensor<ui32> {
  %0 = stablehlo.partition_id : tensor<ui32>
  return %0 : tensor<ui32>
}
func.func @feed() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
// CHECK-LABEL: func.func @main
// CHECK: %{{.*}}:4 = "interpreter.run_parallel"(%{{.*}}, %{{.*}}) <{infeed = [@feed], programs = {{\[\[}}@f, @g], [@f, @g]]}> : (tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<ui32>, tensor<4xf32>, tensor<ui32>)
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) {
  %r:4 = "interpreter.run_parallel"(%a, %b) {infeed = [@feed], programs = [[@f, @g], [@f, @g]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<ui32>, tensor<4xf32>, tensor<ui32>)
  func.return
}
