// stablehlo.send / stablehlo.recv: a send appends its inputs to the
// queue of its channel (channel_handle's handle), a recv on that channel
// takes the oldest payload, waiting until one arrives; its results are
// the payload's values, then a token.
// RUN: mpmd interpret %s --split-input-file | FileCheck %s
// CHECK-NOT: FAIL

// A pair: partition 0 sends, partition 1 receives.
func.func private @produce(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t = stablehlo.create_token : !stablehlo.token
  %s = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  return %x : tensor<2xf32>
}
func.func private @consume(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t = stablehlo.create_token : !stablehlo.token
  %r:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  %sum = stablehlo.add %r#0, %x : tensor<2xf32>
  return %sum : tensor<2xf32>
}
// CHECK: PASS: @pair
func.func @pair() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@produce, @consume]]}
      : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  check.expect_eq_const %r#0, dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<[11.0, 22.0]> : tensor<2xf32>
  func.return
}
// The receiver is listed first and waits for a sender that has work to do
// before it sends.
// CHECK: PASS: @receiver_first
func.func @receiver_first() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %r:2 = "interpreter.run_parallel"(%b, %a) {programs = [[@consume], [@produce]]}
      : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  check.expect_eq_const %r#0, dense<[11.0, 22.0]> : tensor<2xf32>
  func.return
}

// -----

// A chain around three processes on three channels: 0 -> 1 -> 2 -> 0,
// each hop adding the hop's partition id.
func.func private @hop(%x: tensor<ui32>) -> tensor<ui32> {
  %t = stablehlo.create_token : !stablehlo.token
  %id = stablehlo.partition_id : tensor<ui32>
  %zero = stablehlo.constant dense<0> : tensor<ui32>
  %is_first = stablehlo.compare EQ, %id, %zero : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
  %r = "stablehlo.if"(%is_first) ({
    %s = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (tensor<ui32>, !stablehlo.token) -> !stablehlo.token
    %back:2 = "stablehlo.recv"(%s) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>}> : (!stablehlo.token) -> (tensor<ui32>, !stablehlo.token)
    stablehlo.return %back#0 : tensor<ui32>
  }, {
    %one = stablehlo.constant dense<1> : tensor<ui32>
    %is_second = stablehlo.compare EQ, %id, %one : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %in = "stablehlo.if"(%is_second) ({
      %v:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (!stablehlo.token) -> (tensor<ui32>, !stablehlo.token)
      %w = stablehlo.add %v#0, %id : tensor<ui32>
      %s = "stablehlo.send"(%w, %v#1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}> : (tensor<ui32>, !stablehlo.token) -> !stablehlo.token
      stablehlo.return %w : tensor<ui32>
    }, {
      %v:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}> : (!stablehlo.token) -> (tensor<ui32>, !stablehlo.token)
      %w = stablehlo.add %v#0, %id : tensor<ui32>
      %s = "stablehlo.send"(%w, %v#1) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>}> : (tensor<ui32>, !stablehlo.token) -> !stablehlo.token
      stablehlo.return %w : tensor<ui32>
    }) : (tensor<i1>) -> tensor<ui32>
    stablehlo.return %in : tensor<ui32>
  }) : (tensor<i1>) -> tensor<ui32>
  return %r : tensor<ui32>
}
// CHECK: PASS: @chain_of_three
func.func @chain_of_three() {
  %x = stablehlo.constant dense<100> : tensor<ui32>
  %r:3 = "interpreter.run_parallel"(%x, %x, %x) {programs = [[@hop, @hop, @hop]]}
      : (tensor<ui32>, tensor<ui32>, tensor<ui32>) -> (tensor<ui32>, tensor<ui32>, tensor<ui32>)
  check.expect_eq_const %r#0, dense<103> : tensor<ui32>
  check.expect_eq_const %r#1, dense<101> : tensor<ui32>
  check.expect_eq_const %r#2, dense<103> : tensor<ui32>
  func.return
}

// -----

// Several values of different types in one send, on a 2 x 1 grid
// (replicas).
func.func private @send_two(%x: tensor<2x2xi64>, %y: tensor<3xbf16>) -> tensor<2x2xi64> {
  %t = stablehlo.create_token : !stablehlo.token
  %s = "stablehlo.send"(%x, %y, %t) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>}> : (tensor<2x2xi64>, tensor<3xbf16>, !stablehlo.token) -> !stablehlo.token
  return %x : tensor<2x2xi64>
}
func.func private @receive_two(%x: tensor<2x2xi64>, %y: tensor<3xbf16>) -> tensor<2x2xi64> {
  %t = stablehlo.create_token : !stablehlo.token
  %r:3 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>}> : (!stablehlo.token) -> (tensor<2x2xi64>, tensor<3xbf16>, !stablehlo.token)
  check.expect_eq_const %r#1, dense<[0.5, -2.0, 3.0]> : tensor<3xbf16>
  return %r#0 : tensor<2x2xi64>
}
// CHECK: PASS: @several_values
func.func @several_values() {
  %x = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %y = stablehlo.constant dense<[0.5, -2.0, 3.0]> : tensor<3xbf16>
  %z = stablehlo.constant dense<0> : tensor<2x2xi64>
  %w = stablehlo.constant dense<0.0> : tensor<3xbf16>
  %r:2 = "interpreter.run_parallel"(%x, %y, %z, %w) {programs = [[@send_two], [@receive_two]]}
      : (tensor<2x2xi64>, tensor<3xbf16>, tensor<2x2xi64>, tensor<3xbf16>) -> (tensor<2x2xi64>, tensor<2x2xi64>)
  check.expect_eq_const %r#1, dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  func.return
}

// -----

// Two channels, each first in first out: three sends on channel 1 in a
// loop and one on channel 2; the receiver reads channel 2 first, then
// channel 1 three times, in the order of the sends.
func.func private @send_many() -> tensor<3xi32> {
  %t = stablehlo.create_token : !stablehlo.token
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %tok = %t) : tensor<i32>, !stablehlo.token
  cond {
    %lt = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %ten = stablehlo.constant dense<10> : tensor<i32>
    %v = stablehlo.multiply %i, %ten : tensor<i32>
    %s = "stablehlo.send"(%v, %tok) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (tensor<i32>, !stablehlo.token) -> !stablehlo.token
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %s : tensor<i32>, !stablehlo.token
  }
  %seven = stablehlo.constant dense<7> : tensor<i32>
  %s = "stablehlo.send"(%seven, %r#1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}> : (tensor<i32>, !stablehlo.token) -> !stablehlo.token
  %none = stablehlo.constant dense<0> : tensor<3xi32>
  return %none : tensor<3xi32>
}
func.func private @receive_many() -> tensor<3xi32> {
  %t = stablehlo.create_token : !stablehlo.token
  %c2:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}> : (!stablehlo.token) -> (tensor<i32>, !stablehlo.token)
  check.expect_eq_const %c2#0, dense<7> : tensor<i32>
  %a:2 = "stablehlo.recv"(%c2#1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (!stablehlo.token) -> (tensor<i32>, !stablehlo.token)
  %b:2 = "stablehlo.recv"(%a#1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (!stablehlo.token) -> (tensor<i32>, !stablehlo.token)
  %c:2 = "stablehlo.recv"(%b#1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> : (!stablehlo.token) -> (tensor<i32>, !stablehlo.token)
  %a1 = stablehlo.reshape %a#0 : (tensor<i32>) -> tensor<1xi32>
  %b1 = stablehlo.reshape %b#0 : (tensor<i32>) -> tensor<1xi32>
  %c1 = stablehlo.reshape %c#0 : (tensor<i32>) -> tensor<1xi32>
  %all = stablehlo.concatenate %a1, %b1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  return %all : tensor<3xi32>
}
// CHECK: PASS: @two_channels_in_order
func.func @two_channels_in_order() {
  %r:2 = "interpreter.run_parallel"() {programs = [[@receive_many, @send_many]]}
      : () -> (tensor<3xi32>, tensor<3xi32>)
  check.expect_eq_const %r#0, dense<[0, 10, 20]> : tensor<3xi32>
  func.return
}

// -----

// A program on its own has channels of its own: what it sends, it can
// receive later.
// CHECK: PASS: @one_program
func.func @one_program() {
  %t = stablehlo.create_token : !stablehlo.token
  %x = stablehlo.constant dense<[5, 6]> : tensor<2xui8>
  %s = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>}> : (tensor<2xui8>, !stablehlo.token) -> !stablehlo.token
  %r:2 = "stablehlo.recv"(%s) <{channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>}> : (!stablehlo.token) -> (tensor<2xui8>, !stablehlo.token)
  check.expect_eq_const %r#0, dense<[5, 6]> : tensor<2xui8>
  func.return
}
