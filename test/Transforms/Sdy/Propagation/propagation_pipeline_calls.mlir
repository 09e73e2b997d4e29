// -sdy-propagation-pipeline on programs whose @main calls private functions:
// by default every call gets its own copy of the callee (flatten, import
// as named computations, propagate, export, unflatten the copies that ended
// up alike, reshard call results that disagree with their callee); with
// dedup-functions-fully the functions keep one body, crossed through func
// data-flow edges.
// RUN: mpmd-opt -split-input-file -sdy-propagation-pipeline %s | FileCheck %s
// RUN: mpmd-opt -split-input-file -sdy-propagation-pipeline='dedup-functions-fully=true' %s | FileCheck %s --check-prefix=DEDUP

// Flattened, each call of @scale is propagated on its own: the calls on %x
// end up alike and share @scale again, the one on %y keeps its copy
// @scale_0. @project returns a value constrained to {"a"}, which the last
// call wants on {"b"}: the call takes the callee's sharding and a reshard
// gives its users theirs. The export's -sdy-insert-explicit-reshards
// reshards each call operand to its callee's argument sharding (calls
// always get the full version), right after the operand is defined.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>})
// CHECK-NEXT: %[[Y0:.*]] = sdy.reshard %arg1 <@mesh, [{"a"}, {"b"}]>
// CHECK-NEXT: %[[Y1:.*]] = sdy.reshard %arg1 <@mesh, [{"a"}, {"b"}]>
// CHECK-NEXT: %[[S0:.*]] = call @scale(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT: %[[S1:.*]] = call @scale_0(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
// CHECK-NEXT: %[[S2:.*]] = call @scale(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT: %[[P0:.*]] = call @project(%[[Y1]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT: %[[P1:.*]] = call @project(%[[Y0]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[P1]] <@mesh, [{"b"}, {}]>
// CHECK-NEXT: return %[[S0]], %[[S1]], %[[S2]], %[[P0]], %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @scale(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
// CHECK-NEXT: stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @scale_0(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
// CHECK-NEXT: stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @project(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
// CHECK-NEXT: %[[N:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT: %[[C:.*]] = sdy.reshard %[[N]] <@mesh, [{"a"}, {}]>
// CHECK-NEXT: return %[[C]]
// CHECK-NOT: func.func

// With dedup-functions-fully @scale keeps one body, whose argument takes
// what its calls' operands give ({"a"} from %x, {"b"} from %y); the
// reshard after the last call of @project is the same. Every call operand
// is resharded to {"a"}, {"b"} first.
// DEDUP-LABEL: func.func @main(
// DEDUP-NEXT: %[[Y0:.*]] = sdy.reshard %arg1 <@mesh, [{"a"}, {"b"}]>
// DEDUP-NEXT: %[[Y1:.*]] = sdy.reshard %arg1 <@mesh, [{"a"}, {"b"}]>
// DEDUP-NEXT: %[[X0:.*]] = sdy.reshard %arg0 <@mesh, [{"a"}, {"b"}]>
// DEDUP-NEXT: %[[Y2:.*]] = sdy.reshard %arg1 <@mesh, [{"a"}, {"b"}]>
// DEDUP-NEXT: %[[X1:.*]] = sdy.reshard %arg0 <@mesh, [{"a"}, {"b"}]>
// DEDUP-NEXT: call @scale(%[[X1]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>}
// DEDUP-NEXT: call @scale(%[[Y2]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>}
// DEDUP-NEXT: call @scale(%[[X0]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>}
// DEDUP-NEXT: call @project(%[[Y1]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// DEDUP-NEXT: %[[P1:.*]] = call @project(%[[Y0]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// DEDUP-NEXT: sdy.reshard %[[P1]] <@mesh, [{"b"}, {}]>
// DEDUP: func.func private @scale(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>})
// DEDUP: func.func private @project(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>})
// DEDUP-NOT: func.func

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func private @scale(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func private @project(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %x : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

func.func @main(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
                %y: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>})
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = func.call @scale(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = func.call @scale(%y) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = func.call @scale(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = func.call @project(%y) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %4 = func.call @project(%y) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1, %2, %3, %4 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
