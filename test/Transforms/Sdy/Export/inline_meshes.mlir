// -sdy-inline-meshes: mesh symbols in shardings become inlined meshes; the
// `sdy.mesh` ops go.
// RUN: mpmd-opt -sdy-inline-meshes %s | FileCheck %s
// RUN: mpmd-opt -sdy-inline-meshes -sdy-lift-inlined-meshes %s | FileCheck %s --check-prefix=ROUNDTRIP

sdy.mesh @mesh = <["a"=2]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
// CHECK-NOT: sdy.mesh
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2]>, [{"a"}]>}
// ROUNDTRIP: sdy.mesh @mesh = <["a"=2]>
// ROUNDTRIP-NEXT: sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
// ROUNDTRIP: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}
func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // CHECK: sdy.reshard %arg0 <mesh<[], device_ids=[1]>, []>
  // ROUNDTRIP: sdy.reshard %arg0 <@maximal_mesh_1, []>
  %0 = sdy.reshard %x <@maximal_mesh_1, []> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
