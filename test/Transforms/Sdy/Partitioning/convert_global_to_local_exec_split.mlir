// The layout of upstream Shardy's executable tests: part1 is the sharded
// program, part2 a hand-written harness; @sequential_gather comes from
// part1 with the shardings dropped (test/Utils/partition_and_run.py).
// RUN: %partition-and-run %s -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS: @main

//--- part1.mlir
sdy.mesh @mesh = <["x"=2]>

func.func @parallel_gather(%arg0: tensor<2x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<2x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

//--- part2.mlir
func.func @main() {
  %global = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %expected = func.call @sequential_gather(%global) : (tensor<2x2xi32>) -> tensor<2x2xi32>
  %top = stablehlo.slice %global [0:1, 0:2] : (tensor<2x2xi32>) -> tensor<1x2xi32>
  %bottom = stablehlo.slice %global [1:2, 0:2] : (tensor<2x2xi32>) -> tensor<1x2xi32>
  %r:2 = "interpreter.run_parallel"(%top, %bottom) {programs = [[@parallel_gather, @parallel_gather]]}
      : (tensor<1x2xi32>, tensor<1x2xi32>) -> (tensor<2x2xi32>, tensor<2x2xi32>)
  check.expect_eq %r#0, %expected : tensor<2x2xi32>
  check.expect_eq %r#1, %expected : tensor<2x2xi32>
  check.expect_eq_const %expected, dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  func.return
}
