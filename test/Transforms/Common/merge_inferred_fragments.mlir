// RUN: mpmd-opt %s -mpmd-merge-inferred-fragments -split-input-file -verify-diagnostics | FileCheck %s
// RUN: mpmd-opt %s -mpmd-merge-inferred-fragments=merge-any-consumer=true -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=ANY
// RUN: mpmd-opt %s -mpmd-merge-inferred-fragments=merge-sideways=true -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=SIDE
// RUN: not mpmd-opt %s -mpmd-merge-inferred-fragments='merge-any-consumer=true merge-sideways=true' -split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

// The two modes are exclusive: an error on each function.
// ERR: merge_inferred_fragments.mlir:{{[0-9]+}}:1: error: mpmd-merge-inferred-fragments: merge-any-consumer and merge-sideways are mutually exclusive

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// An inferred consumer of a user fragment merges into it although a transfer
// of another result lies in between: the merge goes where the producer was.
// The user fragment's call_counter wins.
// CHECK-LABEL: func.func @inferred_consumer_after_transfer
// CHECK-NEXT: %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 1 : ui32} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.multiply %[[A]], %[[A]]
// CHECK-NEXT:   %[[Z:.*]] = stablehlo.negate %[[Y]]
// CHECK-NEXT:   mpmd.return %[[X]], %[[Z]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[T:.*]] = mpmd.transfer %[[F]]#0
// CHECK-NEXT: return %[[T]], %[[F]]#1
func.func @inferred_consumer_after_transfer(%arg0: !m1) -> (!m2, !m1) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 1 : ui32} (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    %2 = stablehlo.multiply %a, %a : !t
    mpmd.return %1, %2 : !t, !t
  } : (!m1) -> (!m1, !m1)
  %3 = mpmd.transfer %0#0 : (!m1) -> !m2
  %4 = mpmd.fragment<mesh="m1", origin=[]> (%0#1) {call_counter = 2 : ui32, mpmd.inferred_by = ["a"]} (%a: !t) {
    %5 = stablehlo.negate %a : !t
    mpmd.return %5 : !t
  } : (!m1) -> !m1
  return %3, %4 : !m2, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// An inferred producer merges into its user consumer (at the consumer); its
// result also used by the return is kept, first. Operands are deduplicated.
// CHECK-LABEL: func.func @inferred_producer
// CHECK-NEXT: %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["g"], stage=3> (%arg0, %arg1) (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.multiply %[[X]], %[[B]]
// CHECK-NEXT:   %[[Z:.*]] = stablehlo.subtract %[[Y]], %[[A]]
// CHECK-NEXT:   mpmd.return %[[X]], %[[Z]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]#1, %[[F]]#0
func.func @inferred_producer(%arg0: !m1, %arg1: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["g"], stage=3> (%0, %arg1, %arg0) (%a: !t, %b: !t, %c: !t) {
    %3 = stablehlo.multiply %a, %b : !t
    %4 = stablehlo.subtract %3, %c : !t
    mpmd.return %4 : !t
  } : (!m1, !m1, !m1) -> !m1
  return %2, %0 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A no-op inferred fragment merges away; a chain of inferred fragments merges
// into one, unioning `mpmd.inferred_by`; an unused pure fragment is erased.
// CHECK-LABEL: func.func @noop_and_chain
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {mpmd.inferred_by = ["a", "b"]} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.negate %[[A]]
// CHECK-NEXT:   mpmd.return %[[X]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @noop_and_chain(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {mpmd.inferred_by = ["a"]} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %unused = mpmd.fragment<mesh="m1", origin=["u"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=[]> (%0) {mpmd.inferred_by = ["b", "a"]} (%a: !t) {
    %2 = stablehlo.negate %a : !t
    mpmd.return %2 : !t
  } : (!m1) -> !m1
  return %1 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Two user fragments are never merged, nor a keep_transferred producer with
// a drop_transferred consumer.
// CHECK-LABEL: func.func @not_mergeable
// CHECK-COUNT-4: mpmd.fragment
func.func @not_mergeable(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {split_keep_transferred} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["h"(1)]> (%2) {split_drop_transferred} (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %1, %3 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The closest consumer of the user fragment is another user fragment: no
// merge by default; with merge-any-consumer the inferred consumer further
// down is merged. Neither placement works for the second pair (the consumer
// uses a value computed between the two from another result of the
// producer), so it is never merged.
// CHECK-LABEL: func.func @any_consumer
// CHECK-COUNT-3: mpmd.fragment
// CHECK-NOT: mpmd.fragment
// ANY-LABEL: func.func @any_consumer
// ANY-NEXT: %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0)
// ANY-NEXT:   stablehlo.negate
// ANY-NEXT:   stablehlo.abs
// ANY-NEXT:   mpmd.return
// ANY-NEXT: }
// ANY-NEXT: %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%[[F]]#0)
// ANY: return %[[G]], %[[F]]#1
func.func @any_consumer(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %n = stablehlo.negate %a : !t
    mpmd.return %n : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=[]> (%0) (%a: !t) {
    %3 = stablehlo.abs %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  return %1, %2 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Independent fragments: only merge-sideways merges an inferred fragment with
// the next fragment on the same mesh (skipping the m2 one), at the position
// of the second.
// CHECK-LABEL: func.func @sideways
// CHECK-COUNT-3: mpmd.fragment
// ANY-LABEL: func.func @sideways
// ANY-COUNT-3: mpmd.fragment
// SIDE-LABEL: func.func @sideways
// SIDE-NEXT: %[[G:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%arg1)
// SIDE:      %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["h"]> (%arg0) {call_counter = 0 : ui32}
// SIDE-NEXT:   stablehlo.abs
// SIDE-NEXT:   stablehlo.negate
// SIDE-NEXT:   mpmd.return
// SIDE: return %[[F]]#0, %[[G]], %[[F]]#1
func.func @sideways(%arg0: !m1, %arg1: !m2) -> (!m1, !m2, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m2", origin=[]> (%arg1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %3 = mpmd.fragment<mesh="m1", origin=["h"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %4 = stablehlo.negate %a : !t
    mpmd.return %4 : !t
  } : (!m1) -> !m1
  return %0, %2, %3 : !m1, !m2, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// No placement keeps the program valid: the consumer needs a value that is
// computed between the two from another result of the producer.
// CHECK-LABEL: func.func @no_placement
// CHECK-COUNT-3: mpmd.fragment
func.func @no_placement(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    mpmd.return %a, %a : !t, !t
  } : (!m1) -> (!m1, !m1)
  %1 = mpmd.transfer %0#0 : (!m1) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["x"]> (%1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %3 = mpmd.transfer %2 : (!m2) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["y"]> (%0#1, %3) (%a: !t, %b: !t) {
    %5 = stablehlo.add %a, %b : !t
    mpmd.return %5 : !t
  } : (!m1, !m1) -> !m1
  return %4 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A token is the one value a fragment on another mesh can use directly (as
// mesh inference leaves a token op's result). Its user is never a merge
// candidate: each fragment stays on its mesh, with every merge mode.
// CHECK-LABEL: func.func @token_user_on_another_mesh
// CHECK:         mpmd.fragment<mesh="m1", origin=[]>
// CHECK:         mpmd.fragment<mesh="m2", origin=["x"]>
// ANY-LABEL:   func.func @token_user_on_another_mesh
// ANY:           mpmd.fragment<mesh="m1", origin=[]>
// ANY:           mpmd.fragment<mesh="m2", origin=["x"]>
// SIDE-LABEL:  func.func @token_user_on_another_mesh
// SIDE:          mpmd.fragment<mesh="m1", origin=[]>
// SIDE:          mpmd.fragment<mesh="m2", origin=["x"]>
func.func @token_user_on_another_mesh(%arg0: !m2) -> !m2 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> () () {
    %1 = stablehlo.create_token : !stablehlo.token
    mpmd.return %1 : !stablehlo.token
  } : () -> !stablehlo.token
  %2 = mpmd.fragment<mesh="m2", origin=["x"]> (%arg0, %0) (%a: !t, %tok: !stablehlo.token) {
    mpmd.return %a : !t
  } : (!m2, !stablehlo.token) -> !m2
  return %2 : !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A trivial producer (one operand, one result used once, by the consumer)
// merges into the consumer's operand list: its operand takes the place of
// its result, the other operands keep their order.
// CHECK-LABEL: func.func @trivial_producer_keeps_consumer_operand_order
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg2, %arg1) (%[[A:.*]]: tensor<4x8xf32>, %[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[N:.*]] = stablehlo.negate %[[X]]
// CHECK-NEXT:   %[[S:.*]] = stablehlo.add %[[A]], %[[N]]
// CHECK-NEXT:   %[[M:.*]] = stablehlo.multiply %[[S]], %[[B]]
// CHECK-NEXT:   mpmd.return %[[M]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @trivial_producer_keeps_consumer_operand_order(%arg0: !m1, %arg1: !m1, %arg2: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg2) (%a: !t) {
    %1 = stablehlo.negate %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %0, %arg1) (%a: !t, %b: !t, %c: !t) {
    %3 = stablehlo.add %a, %b : !t
    %4 = stablehlo.multiply %3, %c : !t
    mpmd.return %4 : !t
  } : (!m1, !m1, !m1) -> !m1
  return %2 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Two trivial producers in a chain: the first one's operand ends up in the
// place of the second one's result.
// CHECK-LABEL: func.func @chain_of_trivial_producers
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg2, %arg1) (%[[A:.*]]: tensor<4x8xf32>, %[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[N:.*]] = stablehlo.negate %[[X]]
// CHECK-NEXT:   %[[E:.*]] = stablehlo.exponential %[[N]]
// CHECK-NEXT:   %[[S:.*]] = stablehlo.add %[[A]], %[[E]]
// CHECK-NEXT:   %[[M:.*]] = stablehlo.multiply %[[S]], %[[B]]
// CHECK-NEXT:   mpmd.return %[[M]]
func.func @chain_of_trivial_producers(%arg0: !m1, %arg1: !m1, %arg2: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg2) (%a: !t) {
    %1 = stablehlo.negate %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=[]> (%0) (%a: !t) {
    %3 = stablehlo.exponential %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %2, %arg1) (%a: !t, %b: !t, %c: !t) {
    %5 = stablehlo.add %a, %b : !t
    %6 = stablehlo.multiply %5, %c : !t
    mpmd.return %6 : !t
  } : (!m1, !m1, !m1) -> !m1
  return %4 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Not trivial producers: with two operands, with a result used twice by the
// consumer, with a result also returned. Each merge lists the producer's
// operands first, then the consumer's other operands.
// CHECK-LABEL: func.func @non_trivial_producers
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg2, %arg3, %arg0, %arg1)
// CHECK:      %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%arg3, %arg0, %arg1)
// CHECK:      %[[H:.*]]:2 = mpmd.fragment<mesh="m1", origin=["h"]> (%arg1, %arg0)
// CHECK:      return %[[F]], %[[G]], %[[H]]#1, %[[H]]#0
func.func @non_trivial_producers(%arg0: !m1, %arg1: !m1, %arg2: !m1, %arg3: !m1) -> (!m1, !m1, !m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg2, %arg3) (%a: !t, %b: !t) {
    %1 = stablehlo.add %a, %b : !t
    mpmd.return %1 : !t
  } : (!m1, !m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %0, %arg1) (%a: !t, %b: !t, %c: !t) {
    %3 = stablehlo.add %a, %b : !t
    %4 = stablehlo.multiply %3, %c : !t
    mpmd.return %4 : !t
  } : (!m1, !m1, !m1) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=[]> (%arg3) (%a: !t) {
    %6 = stablehlo.negate %a : !t
    mpmd.return %6 : !t
  } : (!m1) -> !m1
  %7 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0, %5, %5, %arg1) (%a: !t, %b: !t, %c: !t, %d: !t) {
    %8 = stablehlo.add %a, %b : !t
    %9 = stablehlo.multiply %c, %d : !t
    %10 = stablehlo.add %8, %9 : !t
    mpmd.return %10 : !t
  } : (!m1, !m1, !m1, !m1) -> !m1
  %11 = mpmd.fragment<mesh="m1", origin=[]> (%arg1) (%a: !t) {
    %12 = stablehlo.negate %a : !t
    mpmd.return %12 : !t
  } : (!m1) -> !m1
  %13 = mpmd.fragment<mesh="m1", origin=["h"]> (%arg0, %11) (%a: !t, %b: !t) {
    %14 = stablehlo.add %a, %b : !t
    mpmd.return %14 : !t
  } : (!m1, !m1) -> !m1
  return %2, %7, %13, %11 : !m1, !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A trivial producer whose operand the consumer already has: listed once,
// where it comes first in the consumer's list.
// CHECK-LABEL: func.func @trivial_producer_of_an_operand_already_listed
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg1, %arg0) (%[[B:.*]]: tensor<4x8xf32>, %[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[N:.*]] = stablehlo.negate %[[A]]
// CHECK-NEXT:   %[[S:.*]] = stablehlo.add %[[B]], %[[N]]
// CHECK-NEXT:   %[[M:.*]] = stablehlo.multiply %[[S]], %[[A]]
func.func @trivial_producer_of_an_operand_already_listed(%arg0: !m1, %arg1: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    %1 = stablehlo.negate %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg1, %0, %arg0) (%a: !t, %b: !t, %c: !t) {
    %3 = stablehlo.add %a, %b : !t
    %4 = stablehlo.multiply %3, %c : !t
    mpmd.return %4 : !t
  } : (!m1, !m1, !m1) -> !m1
  return %2 : !m1
}
