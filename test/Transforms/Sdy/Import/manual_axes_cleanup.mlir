// -sdy-manual-axes-cleanup: manual axes sorted in mesh order; the manual
// axes a sharding does not use become replicated.
// RUN: mpmd-opt -split-input-file -sdy-manual-axes-cleanup -verify-diagnostics %s | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
// CHECK-LABEL: func.func @cleanup(
func.func @cleanup(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: sdy.manual_computation(%arg0)
  // CHECK-SAME: in_shardings=[<@mesh, [{"c"}, {}], replicated={"a"}>]
  // CHECK-SAME: out_shardings=[<@mesh, [{}, {"a"}], replicated={"b", "c"}>]
  // CHECK-SAME: manual_axes={"a", "c"}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"c"}, {}]>] out_shardings=[<@mesh, [{}, {"a"}], replicated={"b"}>] manual_axes={"c", "a"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.concatenate %arg1, %arg1, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.slice %1 [0:8, 0:4] : (tensor<8x8xf32>) -> tensor<8x4xf32>
    sdy.return %2 : tensor<8x4xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Shardings on the empty mesh move to the mesh of the others.
sdy.mesh @mesh = <["a"=2]>
sdy.mesh @empty = <[]>
// CHECK-LABEL: func.func @empty_mesh(
func.func @empty_mesh(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: in_shardings=[<@mesh, [{"a"}]>, <@mesh, [{}], replicated={"a"}>]
  %0 = sdy.manual_computation(%x, %y) in_shardings=[<@mesh, [{"a"}]>, <@empty, [{}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>, %arg2: tensor<8xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @no_mesh() {
  // expected-error @+1 {{'sdy.manual_computation' op has manual axes but neither operands nor results, so its mesh is unknown}}
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    %0 = stablehlo.constant dense<0.0> : tensor<f32>
    sdy.return
  } : () -> ()
  return
}
