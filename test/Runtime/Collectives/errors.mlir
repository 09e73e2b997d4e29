// Collectives that cannot run are errors at the op; a process that fails
// stops every other process of its grid with the first error, and nothing
// hangs.
// RUN: not mpmd interpret %s --split-input-file 2>&1 | FileCheck %s

// Outside run_parallel the grid has one process: a group of two names a
// replica that does not exist.
func.func @group_larger_than_the_grid() {
  %x = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  // CHECK: errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: 'stablehlo.all_gather' op cross_replica groups on a grid of 1 replica(s) x 1 partition(s): replica id 1 is outside [0, 1)
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<1xf32>) -> tensor<2xf32>
  func.return
}
// CHECK: FAIL: @group_larger_than_the_grid: cannot be interpreted

// -----

// Groups must cover the grid: replicas 2 and 3 are in none.
func.func private @sum(%x: tensor<f32>) -> tensor<f32> {
  // CHECK: errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: 'stablehlo.all_reduce' op cross_replica groups on a grid of 4 replica(s) x 1 partition(s): replica id 2 is in no group
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @groups_not_covering_the_grid() {
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  // CHECK: :{{[0-9]+}}:{{[0-9]+}}: note: in process ({{[0-3]}}, 0) of this parallel run, which stopped the other processes
  %r:4 = "interpreter.run_parallel"(%x, %x, %x, %x) {programs = [[@sum], [@sum], [@sum], [@sum]]}
      : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
  func.return
}
// CHECK: FAIL: @groups_not_covering_the_grid: cannot be interpreted

// -----

// A process that cannot run its program stops the ones waiting for it.
func.func private @waits(%x: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @fails(%x: tensor<f32>) -> tensor<f32> {
  // CHECK: errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: 'stablehlo.custom_call' target @no_such_target is not supported by the interpreter
  %y = stablehlo.custom_call @no_such_target(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @failing_process() {
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  // CHECK: :{{[0-9]+}}:{{[0-9]+}}: note: in process (1, 0) of this parallel run, which stopped the other processes
  %r:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@waits], [@fails]]}
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return
}
// CHECK-NOT: could not complete
// CHECK: FAIL: @failing_process: cannot be interpreted

// -----

// Processes that reach different collectives on the same group and channel.
func.func private @gather_first(%x: tensor<1xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<1xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @broadcast_first(%x: tensor<1xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<1xf32>) -> tensor<1xf32>
  %1 = stablehlo.concatenate %0, %0, dim = 0 : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func @mismatched_collectives() {
  %x = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  // CHECK: error: 'stablehlo.{{all_gather|collective_broadcast}}' op could not complete: process ({{[01]}}, 0) reached 'stablehlo.{{all_gather|collective_broadcast}}' where the other members of {process (0, 0), process (1, 0)} reached 'stablehlo.{{all_gather|collective_broadcast}}' (channel 0)
  %r:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@gather_first], [@broadcast_first]]}
      : (tensor<1xf32>, tensor<1xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}
// CHECK: FAIL: @mismatched_collectives: cannot be interpreted

// -----

// Processes that wait for each other on different channels: neither can go
// on, which is reported instead of hanging.
func.func private @on_channel(%x: tensor<f32>, %channel_is_two: tensor<i1>) -> tensor<f32> {
  %0 = "stablehlo.if"(%channel_is_two) ({
    %a = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    stablehlo.return %a : tensor<f32>
  }, {
    %b = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    stablehlo.return %b : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @waiting_for_each_other() {
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  // CHECK: error: 'stablehlo.all_reduce' op could not complete: deadlock: every running participant is blocked (process (0, 0) in 'stablehlo.all_reduce' at loc({{[^)]*}}) waits for the group {process (0, 0), process (0, 1)} on channel 1, 1 of 2 members arrived; process (0, 1) in 'stablehlo.all_reduce' at loc({{[^)]*}}) waits for the group {process (0, 0), process (0, 1)} on channel 2, 1 of 2 members arrived)
  %r:2 = "interpreter.run_parallel"(%x, %f, %x, %t) {programs = [[@on_channel, @on_channel]]}
      : (tensor<f32>, tensor<i1>, tensor<f32>, tensor<i1>) -> (tensor<f32>, tensor<f32>)
  func.return
}
// CHECK: FAIL: @waiting_for_each_other: cannot be interpreted

// -----

// run_parallel inside a process of run_parallel.
func.func private @leaf() -> tensor<ui32> {
  %p = stablehlo.partition_id : tensor<ui32>
  return %p : tensor<ui32>
}
func.func private @nests() -> tensor<ui32> {
  // CHECK: error: 'interpreter.run_parallel' op cannot run inside another parallel run (process (0, 0))
  %r = "interpreter.run_parallel"() {programs = [[@leaf]]} : () -> tensor<ui32>
  return %r : tensor<ui32>
}
func.func @nested_run_parallel() {
  %r = "interpreter.run_parallel"() {programs = [[@nests]]} : () -> tensor<ui32>
  func.return
}
// CHECK: FAIL: @nested_run_parallel: cannot be interpreted
