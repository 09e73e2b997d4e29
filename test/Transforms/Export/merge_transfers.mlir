// RUN: mpmd-opt %s -mpmd-merge-transfers -split-input-file | FileCheck %s

!s = tensor<f32>
!v = tensor<1xf32>
!m1_s = !mpmd.mesh_tensor<"m1", tensor<f32>>
!m2_s = !mpmd.mesh_tensor<"m2", tensor<f32>>
!m1_v = !mpmd.mesh_tensor<"m1", tensor<1xf32>>
!m2_v = !mpmd.mesh_tensor<"m2", tensor<1xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Three scalars from f to g become one transfer of a tensor<3xf32>: f
// returns the concatenation of the values, each given a leading dimension
// of 1, and g slices each back out in the order of f's results. The
// tensor<1xf32> pair is a second group (another type): tensor<2x1xf32>.
// The old transfers and g's old operands stay, now unused by g's body.
// CHECK-LABEL: func.func @scalars_between_two_fragments
// CHECK:      %[[F:.*]]:7 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%[[A:.*]]: tensor<f32>) {
// CHECK-NEXT:   %[[N:.*]] = stablehlo.negate %[[A]]
// CHECK-NEXT:   %[[E:.*]] = stablehlo.exponential %[[A]]
// CHECK-NEXT:   %[[V0:.*]] = stablehlo.reshape %[[A]]
// CHECK-NEXT:   %[[V1:.*]] = stablehlo.reshape %[[N]]
// CHECK-NEXT:   %[[R0:.*]] = stablehlo.reshape %[[A]] : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:   %[[R1:.*]] = stablehlo.reshape %[[N]] : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:   %[[R2:.*]] = stablehlo.reshape %[[E]] : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:   %[[C:.*]] = stablehlo.concatenate %[[R0]], %[[R1]], %[[R2]], dim = 0 : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %[[L0:.*]] = stablehlo.reshape %[[V0]] : (tensor<1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:   %[[L1:.*]] = stablehlo.reshape %[[V1]] : (tensor<1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:   %[[CV:.*]] = stablehlo.concatenate %[[L0]], %[[L1]], dim = 0 : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:   mpmd.return %[[A]], %[[N]], %[[E]], %[[V0]], %[[V1]], %[[C]], %[[CV]] :
// CHECK-NEXT: } : (!mpmd.mesh_tensor<"m1", tensor<f32>>) -> ({{.*}}, !mpmd.mesh_tensor<"m1", tensor<3xf32>>, !mpmd.mesh_tensor<"m1", tensor<2x1xf32>>)
// CHECK-NEXT: %[[T:.*]] = mpmd.transfer {concat_transfer} %[[F]]#5 : (!mpmd.mesh_tensor<"m1", tensor<3xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<3xf32>>
// CHECK-NEXT: %[[T0:.*]] = mpmd.transfer %[[F]]#0
// CHECK-NEXT: %[[T1:.*]] = mpmd.transfer %[[F]]#1
// CHECK-NEXT: %[[TV:.*]] = mpmd.transfer {concat_transfer} %[[F]]#6 : (!mpmd.mesh_tensor<"m1", tensor<2x1xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<2x1xf32>>
// CHECK-NEXT: %[[T3:.*]] = mpmd.transfer %[[F]]#3
// CHECK-NEXT: %[[T2:.*]] = mpmd.transfer %[[F]]#2
// CHECK-NEXT: %[[T4:.*]] = mpmd.transfer %[[F]]#4
// CHECK-NEXT: %[[G:.*]] = mpmd.fragment<mesh="m2", origin=["g"]> (%[[T0]], %arg1, %[[T1]], %[[T2]], %[[T3]], %[[T4]], %[[T]], %[[TV]]) (%{{[^:]*}}: tensor<f32>, %[[X:[^:]*]]: tensor<f32>, {{.*}}, %[[CAT:[^:]*]]: tensor<3xf32>, %[[CATV:[^:]*]]: tensor<2x1xf32>) {
// CHECK-NEXT:   %[[S0:.*]] = stablehlo.slice %[[CATV]] [0:1, 0:1] : (tensor<2x1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:   %[[W0:.*]] = stablehlo.reshape %[[S0]] : (tensor<1x1xf32>) -> tensor<1xf32>
// CHECK-NEXT:   %[[S1:.*]] = stablehlo.slice %[[CATV]] [1:2, 0:1]
// CHECK-NEXT:   %[[W1:.*]] = stablehlo.reshape %[[S1]]
// CHECK-NEXT:   %[[P0:.*]] = stablehlo.slice %[[CAT]] [0:1]
// CHECK-NEXT:   %[[Q0:.*]] = stablehlo.reshape %[[P0]] : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:   %[[P1:.*]] = stablehlo.slice %[[CAT]] [1:2]
// CHECK-NEXT:   %[[Q1:.*]] = stablehlo.reshape %[[P1]] : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:   %[[P2:.*]] = stablehlo.slice %[[CAT]] [2:3]
// CHECK-NEXT:   %[[Q2:.*]] = stablehlo.reshape %[[P2]] : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:   %[[SUM:.*]] = stablehlo.add %[[Q0]], %[[Q1]]
// CHECK-NEXT:   %[[SUM2:.*]] = stablehlo.add %[[SUM]], %[[Q2]]
// CHECK-NEXT:   %[[SUM3:.*]] = stablehlo.add %[[SUM2]], %[[X]]
// CHECK-NEXT:   %[[W:.*]] = stablehlo.add %[[W0]], %[[W1]]
// CHECK-NEXT:   mpmd.return %[[SUM3]], %[[W]]
func.func @scalars_between_two_fragments(%arg0: !m1_s, %arg1: !m2_s) -> (!m2_s, !m2_v) attributes {topology = #topology} {
  %0:5 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !s) {
    %n = stablehlo.negate %a : !s
    %e = stablehlo.exponential %a : !s
    %v0 = stablehlo.reshape %a : (!s) -> !v
    %v1 = stablehlo.reshape %n : (!s) -> !v
    mpmd.return %a, %n, %e, %v0, %v1 : !s, !s, !s, !v, !v
  } : (!m1_s) -> (!m1_s, !m1_s, !m1_s, !m1_v, !m1_v)
  %1 = mpmd.transfer %0#0 : (!m1_s) -> !m2_s
  %2 = mpmd.transfer %0#1 : (!m1_s) -> !m2_s
  %3 = mpmd.transfer %0#3 : (!m1_v) -> !m2_v
  %4 = mpmd.transfer %0#2 : (!m1_s) -> !m2_s
  %5 = mpmd.transfer %0#4 : (!m1_v) -> !m2_v
  %6:2 = mpmd.fragment<mesh="m2", origin=["g"]> (%1, %arg1, %2, %4, %3, %5) (%p: !s, %x: !s, %q: !s, %r: !s, %u: !v, %w: !v) {
    %7 = stablehlo.add %p, %q : !s
    %8 = stablehlo.add %7, %r : !s
    %9 = stablehlo.add %8, %x : !s
    %10 = stablehlo.add %u, %w : !v
    mpmd.return %9, %10 : !s, !v
  } : (!m2_s, !m2_s, !m2_s, !m2_s, !m2_v, !m2_v) -> (!m2_s, !m2_v)
  return %6#0, %6#1 : !m2_s, !m2_v
}

// -----

!s = tensor<f32>
!t = tensor<2xf32>
!m1_s = !mpmd.mesh_tensor<"m1", tensor<f32>>
!m2_s = !mpmd.mesh_tensor<"m2", tensor<f32>>
!m2_s_host = !mpmd.mesh_tensor<"m2", tensor<f32>, memory_kind="pinned_host">
!m1_t = !mpmd.mesh_tensor<"m1", tensor<2xf32>>
!m2_t = !mpmd.mesh_tensor<"m2", tensor<2xf32>>
!m1_z = !mpmd.mesh_tensor<"m1", tensor<0xf32>>
!m2_z = !mpmd.mesh_tensor<"m2", tensor<0xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Nothing merges: a single scalar per (producer, consumer) pair; scalars
// from two producers; transfers from function arguments; a transfer into
// host memory; more than one element.
// CHECK-LABEL: func.func @nothing_to_merge
// CHECK-NOT:   concat_transfer
// CHECK-NOT:   stablehlo.concatenate
func.func @nothing_to_merge(%arg0: !m1_s, %arg1: !m1_z) -> !m2_s attributes {topology = #topology} {
  %0:4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !s) {
    %b = stablehlo.broadcast_in_dim %a, dims = [] : (!s) -> !t
    mpmd.return %a, %a, %b, %b : !s, !s, !t, !t
  } : (!m1_s) -> (!m1_s, !m1_s, !m1_t, !m1_t)
  %1 = mpmd.fragment<mesh="m1", origin=["h"]> (%arg0) (%a: !s) {
    mpmd.return %a : !s
  } : (!m1_s) -> !m1_s
  %2 = mpmd.transfer %0#0 : (!m1_s) -> !m2_s
  %3 = mpmd.transfer %1 : (!m1_s) -> !m2_s
  %4 = mpmd.transfer %arg0 : (!m1_s) -> !m2_s
  %5 = mpmd.transfer %arg1 : (!m1_z) -> !m2_z
  %6 = mpmd.transfer %0#1 : (!m1_s) -> !m2_s_host
  %7 = mpmd.transfer %0#2 : (!m1_t) -> !m2_t
  %8 = mpmd.transfer %0#3 : (!m1_t) -> !m2_t
  %9 = mpmd.fragment<mesh="m2", origin=["g"]> (%2, %3, %4, %5, %6, %7, %8) (%p: !s, %q: !s, %r: !s, %z: tensor<0xf32>, %s: !s, %u: !t, %v: !t) {
    mpmd.return %p : !s
  } : (!m2_s, !m2_s, !m2_s, !m2_z, !m2_s_host, !m2_t, !m2_t) -> !m2_s
  return %9 : !m2_s
}

// -----

!s = tensor<f32>
!z = tensor<0xf32>
!m1_s = !mpmd.mesh_tensor<"m1", tensor<f32>>
!m2_s = !mpmd.mesh_tensor<"m2", tensor<f32>>
!m1_z = !mpmd.mesh_tensor<"m1", tensor<0xf32>>
!m2_z = !mpmd.mesh_tensor<"m2", tensor<0xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Groups are per consumer: a transfer also used by another fragment and by
// the return joins the group of each fragment consumer (g merges both
// scalars; k gets only one of them: no group). Values with no element
// qualify too.
// CHECK-LABEL: func.func @per_consumer
// CHECK:      %[[F:.*]]:6 = mpmd.fragment<mesh="m1", origin=["f"]>
// CHECK:        stablehlo.concatenate {{.*}} -> tensor<2xf32>
// CHECK:        stablehlo.concatenate {{.*}} -> tensor<2x0xf32>
// CHECK:      %[[T:.*]] = mpmd.transfer {concat_transfer} %[[F]]#4
// CHECK:      %[[TZ:.*]] = mpmd.transfer {concat_transfer} %[[F]]#5
// CHECK:      mpmd.fragment<mesh="m2", origin=["g"]> ({{.*}}, %[[T]], %[[TZ]])
// CHECK:      mpmd.fragment<mesh="m2", origin=["k"]> (%{{[0-9]+}})
// CHECK-NOT:  concat_transfer
func.func @per_consumer(%arg0: !m1_s, %arg1: !m1_z) -> (!m2_s, !m2_s, !m2_s) attributes {topology = #topology} {
  %0:4 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !s, %b: !z) {
    mpmd.return %a, %a, %b, %b : !s, !s, !z, !z
  } : (!m1_s, !m1_z) -> (!m1_s, !m1_s, !m1_z, !m1_z)
  %1 = mpmd.transfer %0#0 : (!m1_s) -> !m2_s
  %2 = mpmd.transfer %0#1 : (!m1_s) -> !m2_s
  %3 = mpmd.transfer %0#2 : (!m1_z) -> !m2_z
  %4 = mpmd.transfer %0#3 : (!m1_z) -> !m2_z
  %5 = mpmd.fragment<mesh="m2", origin=["g"]> (%1, %2, %3, %4) (%p: !s, %q: !s, %y: !z, %z: !z) {
    mpmd.return %p : !s
  } : (!m2_s, !m2_s, !m2_z, !m2_z) -> !m2_s
  %6 = mpmd.fragment<mesh="m2", origin=["k"]> (%2) (%u: !s) {
    mpmd.return %u : !s
  } : (!m2_s) -> !m2_s
  return %5, %6, %2 : !m2_s, !m2_s, !m2_s
}

// -----

!s = tensor<f32>
!t = tensor<2xf32>
!m1_t = !mpmd.mesh_tensor<"m1", tensor<2xf32>, sharding=<@mesh, [{"x"}]>>
!m2_t = !mpmd.mesh_tensor<"m2", tensor<2xf32>, sharding=<@mesh, [{"x"}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Sharded values keep their own transfers.
// CHECK-LABEL: func.func @sharded
// CHECK-NOT:   concat_transfer
sdy.mesh @mesh = <["x"=2]>
func.func @sharded(%arg0: !m1_t) -> !m2_t attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a, %a : !t, !t
  } : (!m1_t) -> (!m1_t, !m1_t)
  %1 = mpmd.transfer %0#0 : (!m1_t) -> !m2_t
  %2 = mpmd.transfer %0#1 : (!m1_t) -> !m2_t
  %3 = mpmd.fragment<mesh="m2", origin=["g"]> (%1, %2) (%p: !t, %q: !t) {
    mpmd.return %p : !t
  } : (!m2_t, !m2_t) -> !m2_t
  return %3 : !m2_t
}

// -----

!s = tensor<f32>
!m1_s = !mpmd.mesh_tensor<"m1", tensor<f32>>
!m2_s = !mpmd.mesh_tensor<"m2", tensor<f32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The producer's res_attrs and the consumer's arg_attrs get an empty entry
// for the new result and operand; a transfer used twice by the consumer
// gives each of its block arguments its own slice.
// CHECK-LABEL: func.func @attributes_and_repeated_use
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {res_attrs = [{a}, {b}, {}]}
// CHECK:      %[[T:.*]] = mpmd.transfer {concat_transfer}
// CHECK-NEXT: %[[T0:.*]] = mpmd.transfer %
// CHECK-NEXT: %[[T1:.*]] = mpmd.transfer %
// CHECK-NEXT: mpmd.fragment<mesh="m2", origin=["g"]> (%[[T0]], %[[T0]], %[[T1]], %[[T]]) {arg_attrs = [{}, {}, {}, {}]} ({{.*}}, %[[CAT:[^:]*]]: tensor<2xf32>) {
// CHECK-NEXT:   %[[P0:.*]] = stablehlo.slice %[[CAT]] [0:1]
// CHECK-NEXT:   %[[Q0:.*]] = stablehlo.reshape %[[P0]]
// CHECK-NEXT:   %[[P1:.*]] = stablehlo.slice %[[CAT]] [0:1]
// CHECK-NEXT:   %[[Q1:.*]] = stablehlo.reshape %[[P1]]
// CHECK-NEXT:   %[[P2:.*]] = stablehlo.slice %[[CAT]] [1:2]
// CHECK-NEXT:   %[[Q2:.*]] = stablehlo.reshape %[[P2]]
// CHECK-NEXT:   %[[X:.*]] = stablehlo.add %[[Q1]], %[[Q0]]
// CHECK-NEXT:   %[[Y:.*]] = stablehlo.add %[[X]], %[[Q2]]
func.func @attributes_and_repeated_use(%arg0: !m1_s) -> !m2_s attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {res_attrs = [{a}, {b}]} (%a: !s) {
    mpmd.return %a, %a : !s, !s
  } : (!m1_s) -> (!m1_s, !m1_s)
  %1 = mpmd.transfer %0#0 : (!m1_s) -> !m2_s
  %2 = mpmd.transfer %0#1 : (!m1_s) -> !m2_s
  %3 = mpmd.fragment<mesh="m2", origin=["g"]> (%1, %1, %2) {arg_attrs = [{}, {}, {}]} (%p: !s, %q: !s, %r: !s) {
    %4 = stablehlo.add %p, %q : !s
    %5 = stablehlo.add %4, %r : !s
    mpmd.return %5 : !s
  } : (!m2_s, !m2_s, !m2_s) -> !m2_s
  return %3 : !m2_s
}
