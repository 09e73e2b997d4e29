// RUN: mpmd-opt %s -mpmd-absorb-inferred-fragments -split-input-file | FileCheck %s
// RUN: mpmd-opt %s -mpmd-absorb-inferred-fragments=absorb-on-entry-point-function=true -split-input-file | FileCheck %s --check-prefix=ENTRY

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A user fragment absorbs all its inferred consumers, also those reached
// through an absorbed one (fixed point), and keeps its call_counter.
// CHECK-LABEL: func.func private @consumers
// CHECK-NEXT: %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.negate %[[X]]
// CHECK-NEXT:   %[[W:.*]] = stablehlo.multiply %[[X]], %[[X]]
// CHECK-NEXT:   %[[Z:.*]] = stablehlo.abs %[[Y]]
// CHECK-NEXT:   mpmd.return %[[W]], %[[Z]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]#1, %[[F]]#0
func.func private @consumers(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=[]> (%0) (%a: !t) {
    %3 = stablehlo.negate %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=[]> (%2) (%a: !t) {
    %5 = stablehlo.abs %a : !t
    mpmd.return %5 : !t
  } : (!m1) -> !m1
  %6 = mpmd.fragment<mesh="m1", origin=[]> (%0) (%a: !t) {
    %7 = stablehlo.multiply %a, %a : !t
    mpmd.return %7 : !t
  } : (!m1) -> !m1
  return %4, %6 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// An inferred producer is absorbed by its closest consumer only: here "g",
// not "h". Entry points are left alone unless asked.
// CHECK-LABEL: func.func @entry
// CHECK-COUNT-3: mpmd.fragment
// ENTRY-LABEL: func.func @entry
// ENTRY-NEXT: %[[G:.*]]:2 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0)
// ENTRY-NEXT:   stablehlo.abs
// ENTRY-NEXT:   stablehlo.negate
// ENTRY-NEXT:   mpmd.return
// ENTRY-NEXT: }
// ENTRY-NEXT: %[[H:.*]] = mpmd.fragment<mesh="m1", origin=["h"]> (%[[G]]#0)
// ENTRY: return %[[G]]#1, %[[H]]
// CHECK-LABEL: func.func private @callee
// CHECK-NEXT: %[[G:.*]]:2 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0)
// CHECK-NEXT:   stablehlo.abs
// CHECK-NEXT:   stablehlo.negate
// CHECK-NEXT:   mpmd.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[H:.*]] = mpmd.fragment<mesh="m1", origin=["h"]> (%[[G]]#0)
// CHECK: return %[[G]]#1, %[[H]]
func.func @entry(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: !t) {
    %3 = stablehlo.negate %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["h"]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %2, %4 : !m1, !m1
}
func.func private @callee(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: !t) {
    %3 = stablehlo.negate %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["h"]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %2, %4 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Without user fragments, the roots are the fragments without fragment
// producers or users: a chain of inferred fragments becomes one.
// CHECK-LABEL: func.func private @inferred_chain
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK-NEXT:   stablehlo.abs
// CHECK-NEXT:   stablehlo.negate
// CHECK-NEXT:   stablehlo.sqrt
// CHECK-NEXT:   mpmd.return
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func private @inferred_chain(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=[]> (%0) (%a: !t) {
    %3 = stablehlo.negate %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=[]> (%2) (%a: !t) {
    %5 = stablehlo.sqrt %a : !t
    mpmd.return %5 : !t
  } : (!m1) -> !m1
  return %4 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Transfers are moved to make room. A transfer of the producer's result that
// lies before the root, and is only used after it, moves after the root; the
// merged fragment takes the root's place (after the transfer it needs).
// CHECK-LABEL: func.func private @move_transfer_after
// CHECK-NEXT: %[[IN:.*]] = mpmd.transfer %arg1
// CHECK-NEXT: %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %[[IN]])
// CHECK:      %[[OUT:.*]] = mpmd.transfer %[[F]]#0
// CHECK-NEXT: return %[[OUT]], %[[F]]#1
func.func private @move_transfer_after(%arg0: !m1, %arg1: !m2) -> (!m2, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.transfer %0 : (!m1) -> !m2
  %3 = mpmd.transfer %arg1 : (!m2) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["f"]> (%0, %3) (%a: !t, %b: !t) {
    %5 = stablehlo.add %a, %b : !t
    mpmd.return %5 : !t
  } : (!m1, !m1) -> !m1
  return %2, %4 : !m2, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// When the root's transfer feeds a fragment of another mesh before the
// consumer, the consumer is absorbed at the root's place instead, and the
// transfer it needs moves before the root.
// CHECK-LABEL: func.func private @move_transfer_before
// CHECK-NEXT: %[[IN:.*]] = mpmd.transfer %arg1
// CHECK-NEXT: %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %[[IN]])
// CHECK:      %[[T:.*]] = mpmd.transfer %[[F]]#0
// CHECK-NEXT: %[[G:.*]] = mpmd.fragment<mesh="m2", origin=["g"]> (%[[T]])
// CHECK:      return %[[G]], %[[F]]#1
func.func private @move_transfer_before(%arg0: !m1, %arg1: !m2) -> (!m2, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.transfer %0 : (!m1) -> !m2
  %3 = mpmd.fragment<mesh="m2", origin=["g"]> (%2) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %4 = mpmd.transfer %arg1 : (!m2) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=[]> (%0, %4) (%a: !t, %b: !t) {
    %6 = stablehlo.add %a, %b : !t
    mpmd.return %6 : !t
  } : (!m1, !m1) -> !m1
  return %3, %5 : !m2, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A cycle through another mesh cannot be merged away: nothing changes.
// CHECK-LABEL: func.func private @cycle
// CHECK-COUNT-3: mpmd.fragment
func.func private @cycle(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["g"]> (%1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %3 = mpmd.transfer %2 : (!m2) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=[]> (%0, %3) (%a: !t, %b: !t) {
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

// Before a producer is looked at, its transfers move to right before their
// first user and unused ones are erased, whether or not it is absorbed
// then: here the unused transfer goes, the used one moves after the root,
// and the root "f" is then the producer's first user.
// CHECK-LABEL: func.func private @producer_transfers
// CHECK-NEXT: %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0)
// CHECK-NEXT:   stablehlo.abs
// CHECK-NEXT:   stablehlo.negate
// CHECK-NEXT:   mpmd.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[T:.*]] = mpmd.transfer %[[F]]#0
// CHECK-NEXT: return %[[F]]#1, %[[T]]
func.func private @producer_transfers(%arg0: !m1) -> (!m1, !m2) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.transfer %0 : (!m1) -> !m2
  %3 = mpmd.transfer %0 : (!m1) -> !m2
  %4 = mpmd.fragment<mesh="m1", origin=["f"]> (%0) (%a: !t) {
    %5 = stablehlo.negate %a : !t
    mpmd.return %5 : !t
  } : (!m1) -> !m1
  return %4, %3 : !m1, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// A producer is absorbed only by its first user: "g" uses it before "f"
// does, so "f" does not absorb it; "g" does.
// CHECK-LABEL: func.func private @first_user_of_any_kind
// CHECK-NEXT: %[[G:.*]]:2 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0)
// CHECK-NEXT:   stablehlo.abs
// CHECK-NEXT:   stablehlo.sqrt
// CHECK-NEXT:   mpmd.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%[[G]]#0, %[[G]]#1)
func.func private @first_user_of_any_kind(%arg0: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: !t) {
    %3 = stablehlo.sqrt %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  %4 = mpmd.fragment<mesh="m1", origin=["f"]> (%0, %2) (%a: !t, %b: !t) {
    %5 = stablehlo.add %a, %b : !t
    mpmd.return %5 : !t
  } : (!m1, !m1) -> !m1
  return %4, %0 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// An absorbed consumer joins the root where the root is, ahead of the
// unrelated fragment "h" between them; the root keeps its own attributes
// where the two disagree.
// CHECK-LABEL: func.func private @consumer_at_root
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {tag = "root"}
// CHECK-NEXT:   stablehlo.abs
// CHECK-NEXT:   stablehlo.negate
// CHECK-NEXT:   mpmd.return
// CHECK-NEXT: }
// CHECK-NEXT: mpmd.fragment<mesh="m2", origin=["h"]>
func.func private @consumer_at_root(%arg0: !m1, %arg1: !m2) -> (!m1, !m2) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {tag = "root"} (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m2", origin=["h"]> (%arg1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %3 = mpmd.fragment<mesh="m1", origin=[]> (%0) {tag = "absorbed"} (%a: !t) {
    %4 = stablehlo.negate %a : !t
    mpmd.return %4 : !t
  } : (!m1) -> !m1
  return %3, %2 : !m1, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Between inferred fragments, `mpmd.inferred_by` lists the root's names
// first, then the absorbed fragment's; a user root drops it. Here the root
// is the last fragment (no fragment users); its producer cannot join "q"
// because it also needs the transfer from "x".
// CHECK-LABEL: func.func private @inferred_by_order
// CHECK:      mpmd.fragment<mesh="m1", origin=[]> (%{{.*}}, %{{.*}}) {mpmd.inferred_by = ["root", "absorbed"]}
// CHECK-LABEL: func.func private @inferred_by_user_root
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (
func.func private @inferred_by_order(%arg0: !m1, %arg1: !m2) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["q"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m2", origin=["x"]> (%arg1) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %2 = mpmd.transfer %1 : (!m2) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=[]> (%0, %2) {mpmd.inferred_by = ["absorbed"]} (%a: !t, %b: !t) {
    %4 = stablehlo.add %a, %b : !t
    mpmd.return %4 : !t
  } : (!m1, !m1) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=[]> (%3) {mpmd.inferred_by = ["root"]} (%a: !t) {
    %6 = stablehlo.negate %a : !t
    mpmd.return %6 : !t
  } : (!m1) -> !m1
  return %5 : !m1
}
func.func private @inferred_by_user_root(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {mpmd.inferred_by = ["absorbed"]} (%a: !t) {
    %1 = stablehlo.abs %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"]> (%0) (%a: !t) {
    %3 = stablehlo.negate %a : !t
    mpmd.return %3 : !t
  } : (!m1) -> !m1
  return %2 : !m1
}

// -----

!t = tensor<4x8xf32>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A token links the user fragment on m2 to inferred fragments on m1 (its
// producer and another consumer of the token): neither is absorbed into the
// root on m2. The two on m1 merge with each other, at the producer's place.
// ENTRY-LABEL: func.func @token_neighbours_on_another_mesh
// ENTRY-NEXT:    %[[TOK:.*]]:2 = mpmd.fragment<mesh="m1", origin=[]> () () {
// ENTRY-NEXT:      %[[C:.*]] = stablehlo.create_token
// ENTRY-NEXT:      mpmd.return %[[C]], %[[C]]
// ENTRY-NEXT:    } : () -> (!stablehlo.token, !stablehlo.token)
// ENTRY-NEXT:    %[[F:.*]] = mpmd.fragment<mesh="m2", origin=["x"]> (%arg0, %[[TOK]]#0)
// ENTRY-NEXT:      mpmd.return
// ENTRY-NEXT:    }
// ENTRY-NEXT:    return %[[F]]
func.func @token_neighbours_on_another_mesh(%arg0: !m2) -> !m2 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> () () {
    %1 = stablehlo.create_token : !stablehlo.token
    mpmd.return %1 : !stablehlo.token
  } : () -> !stablehlo.token
  %2 = mpmd.fragment<mesh="m2", origin=["x"]> (%arg0, %0) (%a: !t, %tok: !stablehlo.token) {
    mpmd.return %a : !t
  } : (!m2, !stablehlo.token) -> !m2
  %3 = mpmd.fragment<mesh="m1", origin=[]> (%0) (%tok: !stablehlo.token) {
    mpmd.return %tok : !stablehlo.token
  } : (!stablehlo.token) -> !stablehlo.token
  return %2 : !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// An absorbed trivial producer (one operand, one result used once) keeps the
// root's operand list, its operand in the place of its result; an absorbed
// producer with two operands lists them first.
// CHECK-LABEL: func.func private @absorbed_producers_operand_order
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg2, %arg1) (%[[A:.*]]: tensor<4x8xf32>, %[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[N:.*]] = stablehlo.negate %[[X]]
// CHECK-NEXT:   %[[S:.*]] = stablehlo.add %[[A]], %[[N]]
// CHECK-NEXT:   %[[M:.*]] = stablehlo.multiply %[[S]], %[[B]]
// CHECK-NEXT:   mpmd.return %[[M]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[G:.*]] = mpmd.fragment<mesh="m1", origin=["g"]> (%arg2, %arg3, %arg0)
// CHECK:      return %[[F]], %[[G]]
func.func private @absorbed_producers_operand_order(%arg0: !m1, %arg1: !m1, %arg2: !m1, %arg3: !m1) -> (!m1, !m1) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg2) (%a: !t) {
    %1 = stablehlo.negate %a : !t
    mpmd.return %1 : !t
  } : (!m1) -> !m1
  %2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %0, %arg1) (%a: !t, %b: !t, %c: !t) {
    %3 = stablehlo.add %a, %b : !t
    %4 = stablehlo.multiply %3, %c : !t
    mpmd.return %4 : !t
  } : (!m1, !m1, !m1) -> !m1
  %5 = mpmd.fragment<mesh="m1", origin=[]> (%arg2, %arg3) (%a: !t, %b: !t) {
    %6 = stablehlo.add %a, %b : !t
    mpmd.return %6 : !t
  } : (!m1, !m1) -> !m1
  %7 = mpmd.fragment<mesh="m1", origin=["g"]> (%arg0, %5) (%a: !t, %b: !t) {
    %8 = stablehlo.add %a, %b : !t
    mpmd.return %8 : !t
  } : (!m1, !m1) -> !m1
  return %2, %7 : !m1, !m1
}
