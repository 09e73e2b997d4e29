// RUN: mpmd-opt %s -mpmd-fragment-dedup -split-input-file | FileCheck %s --check-prefix=DEDUP
// RUN: mpmd-opt %s -mpmd-fragment-dedup -mpmd-fragment-dce -split-input-file | FileCheck %s

// The pass only redirects uses (DEDUP): the repeated operands and results
// stay, unused, until -mpmd-fragment-dce removes them (CHECK).

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A repeated operand is passed once; its uses in the body use the first
// block argument.
// DEDUP-LABEL: func.func @repeated_operands
// DEDUP-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg0, %arg1, %arg0) (%[[A:.*]]: tensor<4x8xf32>, %{{.*}}: tensor<4x8xf32>, %[[C:.*]]: tensor<4x8xf32>, %{{.*}}: tensor<4x8xf32>) {
// DEDUP-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// DEDUP-NEXT:   %[[Y:.*]] = stablehlo.multiply %[[X]], %[[C]]
// DEDUP-NEXT:   stablehlo.subtract %[[Y]], %[[A]]
// CHECK-LABEL: func.func @repeated_operands
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.multiply %[[X]], %[[B]]
// CHECK-NEXT:   %[[Z:.*]] = stablehlo.subtract %[[Y]], %[[A]]
// CHECK-NEXT:   mpmd.return %[[Z]]
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
func.func @repeated_operands(%arg0: !m1, %arg1: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg0, %arg1, %arg0) (%a: !t, %b: !t, %c: !t, %d: !t) {
    %1 = stablehlo.add %a, %b : !t
    %2 = stablehlo.multiply %1, %c : !t
    %3 = stablehlo.subtract %2, %d : !t
    mpmd.return %3 : !t
  } : (!m1, !m1, !m1, !m1) -> !m1
  return %0 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Four identical results collapse to the first one at all uses.
// DEDUP-LABEL: func.func @identical_results
// DEDUP-NEXT: %[[F:.*]]:4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0)
// DEDUP:      mpmd.return %[[X:.*]], %[[X]], %[[X]], %[[X]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
// DEDUP:      %[[T:.*]] = mpmd.transfer %[[F]]#0
// DEDUP-NEXT: return %[[F]]#0, %[[F]]#0, %[[T]], %[[F]]#0
// CHECK-LABEL: func.func @identical_results
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%[[A:.*]]: tensor<4x8xf32>) {
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[A]], %[[A]]
// CHECK-NEXT:   mpmd.return %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK-NEXT: %[[T:.*]] = mpmd.transfer %[[F]]
// CHECK-NEXT: return %[[F]], %[[F]], %[[T]], %[[F]]
func.func @identical_results(%arg0: !m1) -> (!m1, !m1, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, !m1) attributes {topology = #topology} {
  %0:4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    %1 = stablehlo.add %a, %a : !t
    mpmd.return %1, %1, %1, %1 : !t, !t, !t, !t
  } : (!m1) -> (!m1, !m1, !m1, !m1)
  %2 = mpmd.transfer %0#2 : (!m1) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
  return %0#0, %0#1, %2, %0#3 : !m1, !m1, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m1_x = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Identical returned values with different (sharded) types are not merged;
// nor are results with different res_attrs or out_shardings. Per-value
// attributes follow the remaining operands and results.
// CHECK-LABEL: func.func @different_types
// CHECK-NEXT: %[[F:.*]]:4 = mpmd.fragment<mesh="m1", origin=["f"], in_shardings=[<@mesh, [{"x"}, {}]>], out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{?}, {}]>]> (%arg0)
// CHECK-SAME: {arg_attrs = [{a}], res_attrs = [{}, {}, {b}, {}]}
// CHECK:   mpmd.return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {}]>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>)
// CHECK-NEXT: return %[[F]]#0, %[[F]]#1, %[[F]]#0, %[[F]]#2, %[[F]]#3
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @different_types(%arg0: !m1) -> (!m1, !m1_x, !m1, !m1, !m1) attributes {topology = #topology} {
    %0:5 = mpmd.fragment<mesh="m1", origin=["f"], in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>], out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{}, {}]>, <@mesh, [{?}, {}]>]> (%arg0, %arg0) {arg_attrs = [{a}, {c}], res_attrs = [{}, {}, {}, {b}, {}]} (%a: !t, %b: !t) {
      %1 = stablehlo.add %a, %b : !t
      mpmd.return %1, %1, %1, %1, %1 : !t, !t, !t, !t, !t
    } : (!m1, !m1) -> (!m1, !m1_x, !m1, !m1, !m1)
    return %0#0, %0#1, %0#2, %0#3, %0#4 : !m1, !m1_x, !m1, !m1, !m1
  }
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Control operands: a control operand that repeats a data operand or another
// control operand is dropped; the start index follows. Different returned
// values are not merged. Fragments inside mpmd.for are deduplicated too.
// CHECK-LABEL: func.func @control_operands
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) {mpmd.control_operand_start_idx = 1 : i64}
// CHECK: mpmd.return %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK: mpmd.for
// CHECK-NEXT: mpmd.fragment<mesh="m1", origin=["g"]> (%{{.*}}) (%{{.*}}: tensor<4x8xf32>)
func.func @control_operands(%arg0: !m1, %arg1: !m1) -> (!m1, !m1, !m1) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg0, %arg1, %arg1) {mpmd.control_operand_start_idx = 1 : i64} (%a: !t, %b: !t, %c: !t, %d: !t) {
    %1 = stablehlo.negate %a : !t
    mpmd.return %a, %1 : !t, !t
  } : (!m1, !m1, !m1, !m1) -> (!m1, !m1)
  %2 = mpmd.for (%0#0) {iterations = 1 : ui32, unroll_factor = 1 : ui32} (%x: !m1, %index: tensor<ui32>) {
    %3 = mpmd.fragment<mesh="m1", origin=["g"]> (%x, %x) (%a: !t, %b: !t) {
      %4 = stablehlo.add %a, %b : !t
      mpmd.return %4 : !t
    } : (!m1, !m1) -> !m1
    mpmd.return %3 : !m1
  } : !m1
  return %0#0, %0#1, %2 : !m1, !m1, !m1
}
