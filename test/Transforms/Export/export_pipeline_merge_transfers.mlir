// RUN: mpmd-opt %s -mpmd-export-pipeline='apply-merge-transfers=true' | FileCheck %s
// RUN: mpmd-opt %s -mpmd-export-pipeline | FileCheck %s --check-prefix=DEFAULT

!s = tensor<f32>
!m1_s = !mpmd.mesh_tensor<"m1", tensor<f32>>
!m2_s = !mpmd.mesh_tensor<"m2", tensor<f32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// With apply-merge-transfers, the two scalars cross in one transfer and the
// producer's function returns only the concatenation (fragment-dce dropped
// the scalars). By default (upstream's too) each keeps its transfer.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[F:.*]] = mpmd.fragment_call<mesh="m1", origin=["f"]> @p0_f.main(%arg0) : (!mpmd.mesh_tensor<"m1", tensor<f32>>) -> !mpmd.mesh_tensor<"m1", tensor<2xf32>>
// CHECK-NEXT: %[[T:.*]] = mpmd.transfer {concat_transfer} %[[F]]
// CHECK-NEXT: %[[G:.*]] = mpmd.fragment_call<mesh="m2", origin=["g"]> @p1_g.main(%[[T]])
// CHECK-NEXT: return %[[G]]
// CHECK:      func.func @p0_f.main(%arg0: tensor<f32>) -> tensor<2xf32>
// CHECK:        stablehlo.concatenate
// CHECK:      func.func @p1_g.main(%arg0: tensor<2xf32>{{.*}}) -> tensor<f32>
// CHECK-COUNT-2: stablehlo.slice
// DEFAULT-LABEL: func.func @main
// DEFAULT-COUNT-2: mpmd.transfer %
// DEFAULT-NOT: concat_transfer
func.func @main(%arg0: !m1_s) -> !m2_s attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !s) {
    %n = stablehlo.negate %a : !s
    %e = stablehlo.exponential %a : !s
    mpmd.return %n, %e : !s, !s
  } : (!m1_s) -> (!m1_s, !m1_s)
  %1 = mpmd.transfer %0#0 : (!m1_s) -> !m2_s
  %2 = mpmd.transfer %0#1 : (!m1_s) -> !m2_s
  %3 = mpmd.fragment<mesh="m2", origin=["g"]> (%1, %2) (%p: !s, %q: !s) {
    %4 = stablehlo.add %p, %q : !s
    mpmd.return %4 : !s
  } : (!m2_s, !m2_s) -> !m2_s
  return %3 : !m2_s
}
