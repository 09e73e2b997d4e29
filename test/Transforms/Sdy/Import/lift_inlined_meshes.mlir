// -sdy-lift-inlined-meshes: inlined meshes become `sdy.mesh` symbols and
// equal meshes are merged into the first.
// RUN: mpmd-opt -split-input-file -sdy-lift-inlined-meshes %s | FileCheck %s

// CHECK-LABEL: module @new_meshes
// CHECK-NEXT: sdy.mesh @mesh = <["a"=2]>
// CHECK-NEXT: sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
// CHECK-NEXT: sdy.mesh @empty_mesh = <[]>
// CHECK-NEXT: sdy.mesh @mesh_0 = <["b"=2]>
// CHECK: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}
// CHECK-SAME: %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}
// CHECK: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_3, []>]>}
// CHECK: sdy.sharding_constraint %arg1 <@empty_mesh, [{?}]>
// CHECK: sdy.sharding_constraint %arg1 <@mesh_0, [{"b"}]>
module @new_meshes {
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2]>, [{"a"}]>},
                  %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2]>, [{?}]>}) -> tensor<8xf32> {
    %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[3]>, []>]>} : tensor<8xf32>
    %1 = sdy.sharding_constraint %b <mesh<[]>, [{?}]> : tensor<8xf32>
    %2 = sdy.sharding_constraint %b <mesh<["b"=2]>, [{"b"}]> : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// An existing mesh is reused; a duplicate mesh is merged into the first and
// its references follow.
// CHECK-LABEL: module @existing_meshes
// CHECK-NEXT: sdy.mesh @first = <["x"=4]>
// CHECK-NEXT: sdy.mesh @other = <["y"=4]>
// CHECK-NOT: sdy.mesh
// CHECK: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@first, [{"x"}]>}
// CHECK-SAME: %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@first, [{}]>}
// CHECK-SAME: %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@other, [{"y"}]>}
module @existing_meshes {
  sdy.mesh @first = <["x"=4]>
  sdy.mesh @second = <["x"=4]>
  sdy.mesh @other = <["y"=4]>
  func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@second, [{"x"}]>},
                  %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=4]>, [{}]>},
                  %c: tensor<8xf32> {sdy.sharding = #sdy.sharding<@other, [{"y"}]>}) {
    return
  }
}
