// -sdy-insert-func-call-reshards: a call result sharded unlike the
// callee's result is resharded after the call, and the call takes the
// callee's shardings.
// RUN: mpmd-opt -split-input-file -sdy-insert-func-call-reshards %s | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func private @callee(%x: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, tensor<8x8xf32>, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) {
  return %x, %x, %x, %x : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// Result 0 agrees (open/closed does not matter); result 1 is resharded to
// what the call said; result 2 is replicated in the callee and sharded at
// the call; result 3 is fully open (replicated) at the call.
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[C:.*]]:4 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{"a"}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{"b"}, {}]>]>}
// CHECK-NEXT: %[[R1:.*]] = sdy.reshard %[[C]]#1 <@mesh, [{"b"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %[[R2:.*]] = sdy.reshard %[[C]]#2 <@mesh, [{}, {"a"}]> : tensor<8x8xf32>
// CHECK-NEXT: %[[R3:.*]] = sdy.reshard %[[C]]#3 <@mesh, [{?}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: return %[[C]]#0, %[[R1]], %[[R2]], %[[R3]]
func.func @main(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:4 = func.call @callee(%x) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>, <@mesh, [{"b"}, {}]>, <@mesh, [{}, {"a"}]>, <@mesh, [{?}, {?}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A call without shardings of a sharded callee: its users expected
// replicated values.
sdy.mesh @mesh = <["a"=2]>

func.func private @callee(%x: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, tensor<8xf32>) {
  return %x, %x : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[C:.*]]:2 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{?}]>]>}
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[C]]#0 <@mesh, [{}]> : tensor<8xf32>
// CHECK-NEXT: return %[[R]], %[[C]]#1
func.func @main(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = func.call @callee(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A token result has no layout: it is never resharded and keeps the
// sharding the call gave it; the tensor beside it is resharded as usual.
sdy.mesh @mesh = <["a"=2]>

func.func private @callee(%x: tensor<8xf32>, %t: !stablehlo.token) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, !stablehlo.token) {
  return %x, %t : tensor<8xf32>, !stablehlo.token
}

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[C:.*]]:2 = call @callee(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, []>]>}
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[C]]#0 <@mesh, [{}]> : tensor<8xf32>
// CHECK-NEXT: return %[[R]], %[[C]]#1
func.func @main(%x: tensor<8xf32>, %t: !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token) {
  %0:2 = func.call @callee(%x, %t) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, []>]>} : (tensor<8xf32>, !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token)
  return %0#0, %0#1 : tensor<8xf32>, !stablehlo.token
}
