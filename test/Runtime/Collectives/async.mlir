// stablehlo.async_start / async_done: the started collective or slice runs
// (synchronously) and the future hands its results to async_done.
// RUN: mpmd interpret %s --split-input-file | FileCheck %s
// CHECK-NOT: FAIL

func.func @gather_async(%x: tensor<1x2xf32>) -> tensor<2x2xf32> {
  %future = "stablehlo.async_start"(%x) ({
    %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<1x2xf32>) -> tensor<2x2xf32>
    "stablehlo.return"(%0) : (tensor<2x2xf32>) -> ()
  }) : (tensor<1x2xf32>) -> !stablehlo.future<tensor<2x2xf32>>
  %1 = "stablehlo.async_done"(%future) : (!stablehlo.future<tensor<2x2xf32>>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}
// CHECK: PASS: @two_replicas
func.func @two_replicas() {
  %a = stablehlo.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %b = stablehlo.constant dense<[[3.0, 4.0]]> : tensor<1x2xf32>
  %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@gather_async], [@gather_async]]}
      : (tensor<1x2xf32>, tensor<1x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  check.expect_eq_const %r#0, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  check.expect_eq_const %r#1, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// A slice started on one process; several results through one future.
// CHECK: PASS: @slice_and_all_to_all
func.func @slice_and_all_to_all() {
  %x = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %future = "stablehlo.async_start"(%x) ({
    %0 = "stablehlo.slice"(%x) <{start_indices = array<i64: 1>, limit_indices = array<i64: 6>, strides = array<i64: 2>}> : (tensor<6xi32>) -> tensor<3xi32>
    "stablehlo.return"(%0) : (tensor<3xi32>) -> ()
  }) : (tensor<6xi32>) -> !stablehlo.future<tensor<3xi32>>
  %y = "stablehlo.async_done"(%future) : (!stablehlo.future<tensor<3xi32>>) -> tensor<3xi32>
  check.expect_eq_const %y, dense<[2, 4, 6]> : tensor<3xi32>
  %pair = "stablehlo.async_start"(%x, %x) ({
    %0:2 = "stablehlo.all_to_all"(%x, %x) <{split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<6xi32>, tensor<6xi32>) -> (tensor<6xi32>, tensor<6xi32>)
    "stablehlo.return"(%0#0, %0#1) : (tensor<6xi32>, tensor<6xi32>) -> ()
  }) : (tensor<6xi32>, tensor<6xi32>) -> !stablehlo.future<tensor<6xi32>, tensor<6xi32>>
  %z:2 = "stablehlo.async_done"(%pair) : (!stablehlo.future<tensor<6xi32>, tensor<6xi32>>) -> (tensor<6xi32>, tensor<6xi32>)
  check.expect_eq_const %z#1, dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  func.return
}
