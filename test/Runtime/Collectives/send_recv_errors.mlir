// stablehlo.send / recv that cannot run: a deadlock (every running
// process blocked on an empty channel or in a collective that cannot
// complete) aborts the run, naming where each process waits; nothing hangs.
// RUN: not mpmd interpret %s --split-input-file 2>&1 | FileCheck %s

// Each process waits for the other's send, which follows its recv.
func.func private @receive_then_send(%x: tensor<f32>) -> tensor<f32> {
  %t = stablehlo.create_token : !stablehlo.token
  %r:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (!stablehlo.token) -> (tensor<f32>, !stablehlo.token)
  %s = "stablehlo.send"(%x, %r#1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (tensor<f32>, !stablehlo.token) -> !stablehlo.token
  return %r#0 : tensor<f32>
}
func.func @both_receive_first() {
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  // CHECK: error: 'stablehlo.recv' op could not complete: deadlock: every running participant is blocked (process (0, 0) in 'stablehlo.recv' at loc({{[^)]*}}) waits on channel 1, which is empty; process (0, 1) in 'stablehlo.recv' at loc({{[^)]*}}) waits on channel 1, which is empty)
  // CHECK: note: in process (0, {{[01]}}) of this parallel run, which stopped the other processes
  %r:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@receive_then_send, @receive_then_send]]}
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return
}
// CHECK: FAIL: @both_receive_first: cannot be interpreted

// -----

// One process waits on a channel, the other in an all_reduce that needs
// the first.
func.func private @receive(%x: tensor<f32>) -> tensor<f32> {
  %t = stablehlo.create_token : !stablehlo.token
  %r:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>}> : (!stablehlo.token) -> (tensor<f32>, !stablehlo.token)
  return %r#0 : tensor<f32>
}
func.func private @reduce(%x: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @recv_and_collective() {
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  // CHECK: could not complete: deadlock: every running participant is blocked (process (0, 0) in 'stablehlo.recv' at loc({{[^)]*}}) waits on channel 5, which is empty; process (0, 1) in 'stablehlo.all_reduce' at loc({{[^)]*}}) waits for the group {process (0, 0), process (0, 1)} on channel 2, 1 of 2 members arrived)
  %r:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@receive, @reduce]]}
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return
}
// CHECK: FAIL: @recv_and_collective: cannot be interpreted

// -----

// The only process that could send ends its program.
func.func private @returns(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func private @waits(%x: tensor<f32>) -> tensor<f32> {
  %t = stablehlo.create_token : !stablehlo.token
  %r:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>}> : (!stablehlo.token) -> (tensor<f32>, !stablehlo.token)
  return %r#0 : tensor<f32>
}
func.func @sender_ended() {
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  // CHECK: error: 'stablehlo.recv' op could not complete: deadlock: every running participant is blocked (process (1, 0) in 'stablehlo.recv' at loc({{[^)]*}}) waits on channel 3, which is empty)
  %r:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@returns], [@waits]]}
      : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return
}
// CHECK: FAIL: @sender_ended: cannot be interpreted

// -----

// Outside run_parallel a recv nobody sends to is the same deadlock.
func.func @no_sender() {
  %t = stablehlo.create_token : !stablehlo.token
  // CHECK: send_recv_errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:10: error: 'stablehlo.recv' op could not complete: deadlock: every running participant is blocked (the program in 'stablehlo.recv' at loc({{[^)]*}}) waits on channel 1, which is empty)
  %r:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (!stablehlo.token) -> (tensor<f32>, !stablehlo.token)
  func.return
}
// CHECK: FAIL: @no_sender: cannot be interpreted
// A payload an earlier function left does not reach the next one.
func.func @leftover() {
  %t = stablehlo.create_token : !stablehlo.token
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  %s = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (tensor<f32>, !stablehlo.token) -> !stablehlo.token
  func.return
}
// CHECK: PASS: @leftover
// CHECK: FAIL: @next_run: cannot be interpreted
func.func @next_run() {
  %t = stablehlo.create_token : !stablehlo.token
  %r:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (!stablehlo.token) -> (tensor<f32>, !stablehlo.token)
  func.return
}

// -----

// The payload does not have the recv's result types.
func.func @mismatched_payload() {
  %t = stablehlo.create_token : !stablehlo.token
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %s = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  // CHECK: offset :{{[0-9]+}}:10: error: 'stablehlo.recv' op received tensor<2xi32> on channel 1 for result #0 of type 'tensor<2xf32>'
  %r:2 = "stablehlo.recv"(%s) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  func.return
}
// CHECK: FAIL: @mismatched_payload

// -----

func.func @payload_count() {
  %t = stablehlo.create_token : !stablehlo.token
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %s = "stablehlo.send"(%x, %x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (tensor<2xi32>, tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  // CHECK: offset :{{[0-9]+}}:10: error: 'stablehlo.recv' op received 2 values on channel 1 but has 1 payload results
  %r:2 = "stablehlo.recv"(%s) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  func.return
}
// CHECK: FAIL: @payload_count

// -----

// There is no host.
func.func @to_host() {
  %t = stablehlo.create_token : !stablehlo.token
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  // CHECK: offset :{{[0-9]+}}:8: error: 'stablehlo.send' op has is_host_transfer = true, but the interpreter has no host to send to
  %s = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
  func.return
}
// CHECK: FAIL: @to_host
func.func @from_host() {
  %t = stablehlo.create_token : !stablehlo.token
  // CHECK: offset :{{[0-9]+}}:10: error: 'stablehlo.recv' op has is_host_transfer = true, but the interpreter has no host to receive from
  %r:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
  func.return
}
// CHECK: FAIL: @from_host
