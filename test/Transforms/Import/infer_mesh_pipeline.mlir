// RUN: mpmd-opt %s -split-input-file -mpmd-infer-mesh-pipeline | FileCheck %s --implicit-check-not=mpmd.use_set --implicit-check-not=mpmd.src_set --implicit-check-not=mpmd.assign --implicit-check-not=mpmd.unassign

// The RFC's first example ("Mesh assignment" IR). Mesh inference alone puts
// every stablehlo op into a fragment: the multiply on m1 next to layer1, the
// divide on m2 next to layer2, as inferred fragments. The merge of inferred
// fragments into their user producers (the RFC's final form) is done by
// -mpmd-merge-inferred-fragments, which the import pipeline runs next.

!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:    %[[L1:.*]] = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0)
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %[[L1]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[L2:.*]] = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%[[T]])
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MUL:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[L1]]) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]}
// CHECK-NEXT:      stablehlo.multiply
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[DIV:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%[[L2]]) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]}
// CHECK-NEXT:      stablehlo.divide
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[MUL]], %[[DIV]]
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology=#topology} {
    %0 = mpmd.assign %arg0 : (!t) -> !m1_t
    %1 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%0) (%arg2: !t) {
      %8 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %8 : !t
    } : (!m1_t) -> !m1_t
    %2 = mpmd.unassign %1 : (!m1_t) -> !t
    %3 = mpmd.transfer %1 : (!m1_t) -> !m2_t
    %4 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%3) (%arg2: !t) {
      %8 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %8 : !t
    } : (!m2_t) -> !m2_t
    %5 = mpmd.unassign %4 : (!m2_t) -> !t
    %6 = stablehlo.multiply %2, %2 : !t
    %7 = stablehlo.divide %5, %5 : !t
    return %6, %7 : !t, !t
  }
}

// -----

// No labels at all: everything lands on the first mesh, in inferred
// fragments; every argument and result is typed onto m1. The multiply, used
// only by the dot's fragment, is absorbed into it.

!t = tensor<4x4xf32>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4x4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4x4xf32>>, %arg2: !mpmd.mesh_tensor<"m1", tensor<4x4xf32>>)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4x4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x4xf32>>)
// CHECK-NEXT:    %[[ADD:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0, %arg1)
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[DOT:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[ADD]], %arg1)
// CHECK-NEXT:      stablehlo.multiply
// CHECK-NEXT:      stablehlo.dot
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[DOT]], %[[ADD]]
func.func @main(%arg0: !t, %arg1: !t, %arg2: !t) -> (!t, !t) attributes {topology = #topology} {
  %0 = stablehlo.add %arg0, %arg1 : !t
  %1 = stablehlo.multiply %0, %arg1 : !t
  %2 = stablehlo.dot %1, %0 : (!t, !t) -> !t
  return %2, %0 : !t, !t
}

// -----

// Forward and backward pushing: the negate feeding an assign to m1 is pushed
// into the m1 fragment, the abs after it lands on m1, an argument used only
// by an m2 fragment is typed onto m2, and an unused one onto m1.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>, %arg2: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg3: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK-NEXT:    %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0)
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[ABS:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[F]])
// CHECK-NEXT:      stablehlo.abs
// CHECK:         mpmd.fragment<mesh="m2", origin=["g"]> (%arg1)
// CHECK:         %[[EXP:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg2)
// CHECK-NEXT:      stablehlo.exponential
// CHECK:         return %[[ABS]], %[[EXP]]
func.func @main(%arg0: !t, %arg1: !t, %arg2: !t, %arg3: !t) -> (!t, !m1) attributes {topology = #topology} {
  %n = stablehlo.negate %arg0 : !t
  %0 = mpmd.assign %n : (!t) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f"]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %2 = mpmd.unassign %1 : (!m1) -> !t
  %3 = stablehlo.abs %2 : !t
  %4 = mpmd.assign %arg1 : (!t) -> !m2
  %5 = mpmd.fragment<mesh="m2", origin=["g"]> (%4) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  %6 = stablehlo.exponential %arg2 : !t
  %7 = mpmd.assign %6 : (!t) -> !m1
  return %3, %7 : !t, !m1
}

// -----

// Broadcast: the add and the multiply stay on m1 (no transfer for them); the
// broadcast value reaches m2 and m3 through chained transfers m1 -> m2 -> m3.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
!m3 = !mpmd.mesh_tensor<"m3", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>, <"m3": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK-NEXT:    %[[ADD:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK-NEXT:      stablehlo.add
// CHECK:         %[[T2:.*]] = mpmd.transfer %[[ADD]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[T3:.*]] = mpmd.transfer %[[T2]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m3", tensor<4xf32>>
// CHECK-NEXT:    %[[MUL:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[ADD]])
// CHECK-NEXT:      stablehlo.multiply
// CHECK:         return %[[MUL]], %[[T2]], %[[T3]]
// CHECK-NOT:     mpmd.broadcast
func.func @main(%arg0: !m1) -> (!m1, !m2, !m3) attributes {topology = #topology} {
  %0 = mpmd.unassign %arg0 : (!m1) -> !t
  %1 = stablehlo.add %0, %0 : !t
  %2 = mpmd.broadcast %1 : !t
  %3 = stablehlo.multiply %2, %2 : !t
  %4 = mpmd.assign %3 : (!t) -> !m1
  %5 = mpmd.assign %2 : (!t) -> !m2
  %6 = mpmd.assign %2 : (!t) -> !m3
  return %4, %5, %6 : !m1, !m2, !m3
}

// -----

// Calls: the assign inside the callee gives the callee argument its mesh
// (m1) at every call site; the transfer stays inside the callee, whose
// result is on m2. The abs is pushed into the user fragment.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m2", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:    %[[C0:.*]] = mpmd.call @f(%arg0) {call_counter = 0 : ui32} : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[C1:.*]] = mpmd.call @f(%arg1) {call_counter = 1 : ui32} : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    return %[[C0]], %[[C1]]
// CHECK-LABEL: func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0)
// CHECK-NEXT:      stablehlo.abs
// CHECK-NEXT:      stablehlo.multiply
// CHECK:         %[[T:.*]] = mpmd.transfer %[[F]]
// CHECK-NEXT:    return %[[T]]
func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {topology = #topology} {
  %0 = mpmd.call @f(%arg0) {call_counter = 0 : ui32} : (!t) -> !t
  %1 = mpmd.call @f(%arg1) {call_counter = 1 : ui32} : (!t) -> !t
  return %0, %1 : !t, !t
}
func.func private @f(%arg0: !t) -> !t attributes {topology = #topology} {
  %s = stablehlo.abs %arg0 : !t
  %0 = mpmd.assign %s : (!t) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["f1"]> (%0) (%a: !t) {
    %2 = stablehlo.multiply %a, %a : !t
    mpmd.return %2 : !t
  } : (!m1) -> !m1
  %3 = mpmd.transfer %1 : (!m1) -> !m2
  %4 = mpmd.unassign %3 : (!m2) -> !t
  return %4 : !t
}

// -----

// Calls: unassigns of m1 values at the call sites (here a chain of two
// microbatches) make the whole callee body one inferred fragment on m1.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    %[[C0:.*]] = mpmd.call @f(%arg0) {call_counter = 0 : ui32}
// CHECK-NEXT:    %[[C1:.*]] = mpmd.call @f(%[[C0]]) {call_counter = 1 : ui32}
// CHECK-NEXT:    return %[[C1]]
// CHECK-LABEL: func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    %[[F:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%arg0)
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      stablehlo.multiply
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[F]]
func.func @main(%arg0: !m1) -> !t attributes {topology = #topology} {
  %u = mpmd.unassign %arg0 : (!m1) -> !t
  %0 = mpmd.call @f(%u) {call_counter = 0 : ui32} : (!t) -> !t
  %1 = mpmd.call @f(%0) {call_counter = 1 : ui32} : (!t) -> !t
  return %1 : !t
}
func.func private @f(%arg0: !t) -> !t attributes {topology = #topology} {
  %0 = stablehlo.add %arg0, %arg0 : !t
  %1 = stablehlo.multiply %0, %0 : !t
  return %1 : !t
}

// -----

// A dead meshless chain (its result unused) is placed like any op, then
// dropped at the end: the pipeline leaves no unused inferred fragment. A
// dead op with side effects stays.
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @dead_meshless_ops
// CHECK-NEXT:    %[[L1:.*]] = mpmd.fragment<mesh="m1", origin=["layer1"]> (%arg0)
// CHECK:         mpmd.fragment<mesh="m1", origin=[]> (%[[L1]])
// CHECK-NEXT:      stablehlo.custom_call @keep_me
// CHECK-NOT:     stablehlo.negate
// CHECK-NOT:     stablehlo.abs
// CHECK:         return %[[L1]]
module {
  func.func @dead_meshless_ops(%arg0: !t) -> !t attributes {topology=#topology} {
    %0 = mpmd.assign %arg0 : (!t) -> !m1_t
    %1 = mpmd.fragment<mesh="m1", origin=["layer1"]> (%0) (%arg2: !t) {
      %5 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %5 : !t
    } : (!m1_t) -> !m1_t
    %2 = mpmd.unassign %1 : (!m1_t) -> !t
    %3 = stablehlo.negate %2 : !t
    %4 = stablehlo.abs %3 : !t
    %6 = stablehlo.custom_call @keep_me(%2) {has_side_effect = true} : (!t) -> !t
    return %2 : !t
  }
}

// -----

// A user reduce<none> after a negate of a cross-mesh maximum, without
// cross-mesh reductions: the maximum becomes a reduction (m2's value is
// transferred to m1, where the result is needed first), the negate runs
// there, and the reduce<none> is where the result crosses to m2.
// CHECK-LABEL: func.func @user_reduce_through_unary
// CHECK:         %[[A:.*]] = mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK:         %[[B:.*]] = mpmd.fragment<mesh="m2", origin=["g"]>
// CHECK:         %[[T:.*]] = mpmd.transfer %[[B]] : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:    %[[M:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[A]], %[[T]]) {mpmd.inferred_by = ["infer_mesh_convert_reduce_ops"]}
// CHECK-NEXT:      stablehlo.maximum
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[N:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[M]]) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]}
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[U:.*]] = mpmd.transfer %[[N]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    return %[[N]], %[[U]]

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

func.func @user_reduce_through_unary(%arg0: !m1, %arg1: !m2) -> (!m1, !m2) attributes {topology = #topology} {
  %a = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %b = mpmd.fragment<mesh="m2", origin=["g"]> (%arg1) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %0 = mpmd.unassign {origin = "f"} %a : (!m1) -> !t
  %1 = mpmd.unassign {origin = "g"} %b : (!m2) -> !t
  %2 = stablehlo.maximum %0, %1 : !t
  %3 = stablehlo.negate %2 : !t
  %4 = mpmd.reduce<none> %3 : (!t) -> !t
  %5 = mpmd.assign %4 : (!t) -> !m1
  %6 = mpmd.assign %4 : (!t) -> !m2
  return %5, %6 : !m1, !m2
}

// -----

// Callee values needed on several meshes (G3): the callee argument used on
// m1 and m2 gets a copy on m2 (argument 1), the abs result used on m1 and
// m2 gets a copy on m2 (result 1); the caller transfers its input to m2
// once for the copy, and each of its assigns reads the result copy of its
// mesh. The copies' unassign/assign pairs are folded by finalize, and the
// explicit transfer in the callee feeds the abs copy on m2.

!t = tensor<4xf32>
!m1 = !mpmd.mesh_tensor<"m1", !t>
!m2 = !mpmd.mesh_tensor<"m2", !t>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// CHECK-LABEL: func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[C:.*]]:3 = mpmd.call @f(%arg0, %[[T]]) {call_counter = 0 : ui32}
// CHECK-NEXT:    return %[[C]]#1, %[[C]]#0, %[[C]]#2
// CHECK-LABEL: func.func private @f(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>> {mpmd.copies = [1]}, %arg1: !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>> {mpmd.copies = [2]}, !mpmd.mesh_tensor<"m2", tensor<4xf32>>, !mpmd.mesh_tensor<"m2", tensor<4xf32>>)
// CHECK-NEXT:    %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=["f1"]> (%arg0)
// CHECK:         %[[F2:.*]] = mpmd.fragment<mesh="m2", origin=["f2"]> (%arg1)
// CHECK:         %[[X:.*]] = mpmd.transfer %[[F1]] : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4xf32>>
// CHECK-NEXT:    %[[A1:.*]] = mpmd.fragment<mesh="m1", origin=[]> (%[[F1]]) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]}
// CHECK-NEXT:      stablehlo.abs
// CHECK:         %[[A2:.*]] = mpmd.fragment<mesh="m2", origin=[]> (%[[X]]) {mpmd.inferred_by = ["infer_mesh_wrap_meshless_ops"]}
// CHECK-NEXT:      stablehlo.abs
// CHECK:         return %[[A1]], %[[F2]], %[[A2]]
func.func @main(%arg0: !t) -> (!m2, !m1, !m2) attributes {topology = #topology} {
  %0:2 = mpmd.call @f(%arg0) {call_counter = 0 : ui32} : (!t) -> (!t, !t)
  %1 = mpmd.assign %0#1 : (!t) -> !m2
  %2 = mpmd.assign %0#0 : (!t) -> !m1
  %3 = mpmd.assign %0#0 : (!t) -> !m2
  return %1, %2, %3 : !m2, !m1, !m2
}
func.func private @f(%arg0: !t) -> (!t, !t) attributes {topology = #topology} {
  %a = mpmd.assign %arg0 : (!t) -> !m1
  %b = mpmd.assign %arg0 : (!t) -> !m2
  %f1 = mpmd.fragment<mesh="m1", origin=["f1"]> (%a) (%x: !t) {
    mpmd.return %x : !t
  } : (!m1) -> !m1
  %f2 = mpmd.fragment<mesh="m2", origin=["f2"]> (%b) (%x: !t) {
    mpmd.return %x : !t
  } : (!m2) -> !m2
  %u1 = mpmd.unassign %f1 : (!m1) -> !t
  %t = mpmd.transfer %f1 : (!m1) -> !m2
  %u2 = mpmd.unassign %f2 : (!m2) -> !t
  %e = stablehlo.abs %u1 : !t
  return %e, %u2 : !t, !t
}
