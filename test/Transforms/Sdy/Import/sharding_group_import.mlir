// -sdy-sharding-group-import: groups sharing a value merge; ids become
// 0..N-1; a value is in its group once.
// RUN: mpmd-opt -split-input-file -sdy-sharding-group-import -verify-diagnostics %s | FileCheck %s

// CHECK-LABEL: func.func @merge(
func.func @merge(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>) {
  // CHECK-NEXT: sdy.sharding_group %arg0 group_id=1
  // CHECK-NEXT: sdy.sharding_group %arg1 group_id=1
  // CHECK-NEXT: sdy.sharding_group %arg2 group_id=0
  // CHECK-NEXT: return
  sdy.sharding_group %a group_id=12 : tensor<8xf32>
  sdy.sharding_group %b group_id=12 : tensor<8xf32>
  sdy.sharding_group %c group_id=5 : tensor<8xf32>
  sdy.sharding_group %b group_id=40 : tensor<8xf32>
  sdy.sharding_group %a group_id=40 : tensor<8xf32>
  return
}

// -----

func.func @type_mismatch(%a: tensor<8xf32>, %b: tensor<4xf32>) {
  sdy.sharding_group %a group_id=0 : tensor<8xf32>
  // expected-error @+1 {{'sdy.sharding_group' op puts a value of type 'tensor<4xf32>' in a sharding group whose values have type 'tensor<8xf32>'}}
  sdy.sharding_group %b group_id=0 : tensor<4xf32>
  return
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @manual_mismatch(%a: tensor<8xf32>) -> tensor<8xf32> {
  sdy.sharding_group %a group_id=0 : tensor<8xf32>
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    // expected-error @+1 {{'sdy.sharding_group' op puts a value in a sharding group whose other values are in a different manual computation}}
    sdy.sharding_group %arg1 group_id=0 : tensor<8xf32>
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
