// RUN: mpmd-opt %s -mpmd-split-bwd-fragments -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Result 0 is transferred, result 1 is not. The keep part computes result 0
// and returns the residual %x the rest needs; the drop part takes the residual
// and the operand %arg1 it uses directly (the keep part no longer takes it).
// CHECK-LABEL: func.func @split
// CHECK-NEXT: %[[K:.*]]:2 = mpmd.fragment<mesh="m2", origin=["block"(1)], stage=1> (%arg0) {call_counter = 0 : ui32, split_keep_transferred} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.multiply %[[A]], %[[A]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.negate %[[X]]
// CHECK-NEXT:   mpmd.return %[[Y]], %[[X]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>)
// CHECK-NEXT: %[[D:.*]] = mpmd.fragment<mesh="m2", origin=["block"(1)], stage=1> (%[[K]]#1, %arg1) {call_counter = 0 : ui32, split_drop_transferred} (%[[R:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[Z:.*]] = stablehlo.add %[[R]], %[[B]]
// CHECK-NEXT:   mpmd.return %[[Z]] : tensor<4x8xf32>
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT: %[[T:.*]] = mpmd.transfer %[[K]]#0
// CHECK-NEXT: return %[[T]], %[[D]]
func.func @split(%arg0: !m2, %arg1: !m2) -> (!m1, !m2) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m2", origin=["block"(1)], stage=1> (%arg0, %arg1) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    %x = stablehlo.multiply %a, %a : !t
    %y = stablehlo.negate %x : !t
    %z = stablehlo.add %x, %b : !t
    mpmd.return %y, %z : !t, !t
  } : (!m2, !m2) -> (!m2, !m2)
  %1 = mpmd.transfer %0#0 : (!m2) -> !m1
  return %1, %0#1 : !m1, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The remaining computation sits inside a stablehlo.while region and uses the
// keep part's value from there: it moves to the drop part with the while, and
// the captured value becomes a residual. A residual that is also a kept
// result is passed through that result. A result used both by a transfer and
// by another op counts as transferred.
// CHECK-LABEL: func.func @while_region
// CHECK-NEXT: %[[K:.*]] = mpmd.fragment<mesh="m2", origin=["block"(1)]> (%arg0) {split_keep_transferred}
// CHECK-NEXT:   %[[X:.*]] = stablehlo.multiply
// CHECK-NEXT:   mpmd.return %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT: %[[D:.*]] = mpmd.fragment<mesh="m2", origin=["block"(1)]> (%[[K]]) {split_drop_transferred} (%[[R:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   stablehlo.constant
// CHECK-NEXT:   %[[W:.*]]:2 = stablehlo.while
// CHECK:          stablehlo.add %{{.*}}, %[[R]]
// CHECK:        mpmd.return %[[W]]#1
// CHECK:      %[[T:.*]] = mpmd.transfer %[[K]]
// CHECK-NEXT: %[[G:.*]] = mpmd.fragment<mesh="m2", origin=["g"]> (%[[K]])
// CHECK:      return %[[T]], %[[D]], %[[G]]
func.func @while_region(%arg0: !m2) -> (!m1, !m2, !m2) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m2", origin=["block"(1)]> (%arg0) (%a: !t) {
    %x = stablehlo.multiply %a, %a : !t
    %c = stablehlo.constant dense<0> : tensor<i32>
    %w:2 = stablehlo.while(%i = %c, %acc = %x) : tensor<i32>, !t
    cond {
      %lim = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      %s = stablehlo.add %acc, %x : !t
      stablehlo.return %n, %s : tensor<i32>, !t
    }
    mpmd.return %x, %w#1 : !t, !t
  } : (!m2) -> (!m2, !m2)
  %1 = mpmd.transfer %0#0 : (!m2) -> !m1
  %2 = mpmd.fragment<mesh="m2", origin=["g"]> (%0#0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  return %1, %0#1, %2 : !m1, !m2, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// An op with side effects stays in the keep part with what it depends on (its
// order relative to other side effects is kept); its result becomes a
// residual of the drop part.
// CHECK-LABEL: func.func @side_effect_stays
// CHECK-NEXT: %[[K:.*]]:2 = mpmd.fragment<mesh="m2", origin=["b"(1)]> (%arg0) {split_keep_transferred}
// CHECK-NEXT:   %[[N:.*]] = stablehlo.negate
// CHECK-NEXT:   %[[C:.*]] = stablehlo.custom_call @log(%[[N]]) {has_side_effect = true}
// CHECK-NEXT:   %[[X:.*]] = stablehlo.abs
// CHECK-NEXT:   mpmd.return %[[X]], %[[C]]
// CHECK:      mpmd.fragment<mesh="m2", origin=["b"(1)]> (%[[K]]#1) {split_drop_transferred}
// CHECK-NEXT:   stablehlo.multiply
// CHECK-NEXT:   mpmd.return
func.func @side_effect_stays(%arg0: !m2) -> (!m1, !m2) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m2", origin=["b"(1)]> (%arg0) (%a: !t) {
    %n = stablehlo.negate %a : !t
    %c = stablehlo.custom_call @log(%n) {has_side_effect = true} : (!t) -> !t
    %x = stablehlo.abs %a : !t
    %m = stablehlo.multiply %c, %c : !t
    mpmd.return %x, %m : !t, !t
  } : (!m2) -> (!m2, !m2)
  %1 = mpmd.transfer %0#0 : (!m2) -> !m1
  return %1, %0#1 : !m1, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {?}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Shardings and attributes follow their values. The residual %x is also a
// dropped result: it takes that result's type (with its sharding) and
// `out_shardings` entry. The operand only the drop part uses keeps its
// in_sharding and arg_attrs there.
// CHECK-LABEL: func.func @shardings_follow_values
// CHECK-NEXT: %[[K:.*]]:2 = mpmd.fragment<mesh="m2", origin=["b"(1)], in_shardings=[<@mesh, [{?}, {?}]>], out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {?}]>]> (%arg0) {arg_attrs = [{}], res_attrs = [{a = 0 : i64}, {}], split_keep_transferred}
// CHECK:      } : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {?}]>>)
// CHECK-NEXT: %[[D:.*]]:2 = mpmd.fragment<mesh="m2", origin=["b"(1)], in_shardings=[<@mesh, [{"x"}, {?}]>, <@mesh, [{"x"}, {}]>], out_shardings=[<@mesh, [{"x"}, {?}]>, <@mesh, [{"x"}, {?}]>]> (%[[K]]#1, %arg1) {arg_attrs = [{}, {b = 1 : i64}], res_attrs = [{c = 2 : i64}, {}], split_drop_transferred}
func.func @shardings_follow_values(%arg0: !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, %arg1: !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> (!m1, !m2, !m2) attributes {topology = #topology} {
  %0:3 = mpmd.fragment<mesh="m2", origin=["b"(1)], in_shardings=[<@mesh, [{?}, {?}]>, <@mesh, [{"x"}, {}]>], out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {?}]>, <@mesh, [{"x"}, {?}]>]> (%arg0, %arg1) {arg_attrs = [{}, {b = 1 : i64}], res_attrs = [{a = 0 : i64}, {c = 2 : i64}, {}]} (%a: !t, %b: !t) {
    %x = stablehlo.multiply %a, %a : !t
    %y = stablehlo.negate %x : !t
    %z = stablehlo.add %x, %b : !t
    mpmd.return %y, %x, %z : !t, !t, !t
  } : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, !m2, !m2)
  %1 = mpmd.transfer %0#0 : (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>>) -> !m1
  return %1, %0#1, %0#2 : !m1, !m2, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Unchanged: a fragment already split; a backward fragment with no
// transferred result; one with only transferred results; a forward fragment.
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT: mpmd.fragment<mesh="m2", origin=["a"(1)]> (%arg0) {split_keep_transferred}
// CHECK:      mpmd.fragment<mesh="m2", origin=["b"(1)]> (%arg0) (
// CHECK:      mpmd.fragment<mesh="m2", origin=["c"(1)]> (%arg0) (
// CHECK:      mpmd.fragment<mesh="m2", origin=["d"]> (%arg0) (
// CHECK-NOT:  split_
func.func @unchanged(%arg0: !m2) -> (!m1, !m2, !m2, !m2, !m1, !m1, !m1) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m2", origin=["a"(1)]> (%arg0) {split_keep_transferred} (%a: !t) {
    %1 = stablehlo.negate %a : !t
    mpmd.return %1, %a : !t, !t
  } : (!m2) -> (!m2, !m2)
  %2 = mpmd.transfer %0#0 : (!m2) -> !m1
  %3:2 = mpmd.fragment<mesh="m2", origin=["b"(1)]> (%arg0) (%a: !t) {
    %4 = stablehlo.negate %a : !t
    mpmd.return %4, %a : !t, !t
  } : (!m2) -> (!m2, !m2)
  %5:2 = mpmd.fragment<mesh="m2", origin=["c"(1)]> (%arg0) (%a: !t) {
    %6 = stablehlo.negate %a : !t
    mpmd.return %6, %a : !t, !t
  } : (!m2) -> (!m2, !m2)
  %7 = mpmd.transfer %5#0 : (!m2) -> !m1
  %8 = mpmd.transfer %5#1 : (!m2) -> !m1
  %9:2 = mpmd.fragment<mesh="m2", origin=["d"]> (%arg0) (%a: !t) {
    %10 = stablehlo.negate %a : !t
    mpmd.return %10, %a : !t, !t
  } : (!m2) -> (!m2, !m2)
  %11 = mpmd.transfer %9#0 : (!m2) -> !m1
  return %2, %0#1, %3#0, %3#1, %7, %8, %11 : !m1, !m2, !m2, !m2, !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A residual that cannot be a fragment result (an unranked tensor): the
// fragment is left whole, with a warning.
// CHECK-LABEL: func.func @unsplittable_residual
// CHECK-NEXT: mpmd.fragment<mesh="m2", origin=["b"(1)]> (%arg0) (
// CHECK-NOT:  split_
func.func @unsplittable_residual(%arg0: !m2) -> (!m1, !m2) attributes {topology = #topology} {
  // expected-warning @+1 {{backward fragment not split: a value of type 'tensor<*xf32>' would have to pass from one part to the other, and only ranked tensors and tokens can}}
  %0:2 = mpmd.fragment<mesh="m2", origin=["b"(1)]> (%arg0) (%a: !t) {
    %u = tensor.cast %a : !t to tensor<*xf32>
    %r = tensor.cast %u : tensor<*xf32> to !t
    %x = stablehlo.negate %r : !t
    %y = tensor.cast %u : tensor<*xf32> to !t
    %z = stablehlo.abs %y : !t
    mpmd.return %x, %z : !t, !t
  } : (!m2) -> (!m2, !m2)
  %1 = mpmd.transfer %0#0 : (!m2) -> !m1
  return %1, %0#1 : !m1, !m2
}
