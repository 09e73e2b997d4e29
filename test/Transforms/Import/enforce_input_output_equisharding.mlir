// RUN: mpmd-opt %s -mpmd-enforce-input-output-equisharding='constraints=0:0,1:1,2:0' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not mpmd-opt %s -split-input-file -mpmd-enforce-input-output-equisharding='constraints=0-1' 2>&1 | FileCheck %s --check-prefix=BAD-OPTION

// BAD-OPTION: for the --constraints option: '0-1': expected 'input:output' with non-negative indices

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
!m1s = !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Output 0 is on m2 but input 0 on m1: it is transferred to m1 before the
// return. Output 1 differs from input 1 by its sharding only: an
// intra-mesh transfer. Constraint 2:0 then already holds (input 2 has the
// type output 0 now has).
// CHECK-LABEL: func.func @main
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>)
// CHECK-NEXT:  %[[T0:.*]] = mpmd.transfer %arg3 : (!mpmd.mesh_tensor<"m2", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// CHECK-NEXT:  %[[T1:.*]] = mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>
// CHECK-NEXT:  return %[[T0]], %[[T1]]
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: !m1, %arg1: !m1s, %arg2: !m1, %arg3: !m2) -> (!m2, !m1) attributes {topology = #topology} {
  return %arg3, %arg0 : !m2, !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// expected-error @+1 {{equisharding constraint 1:1 is out of range: the function has 3 inputs and 1 outputs}}
func.func @out_of_range(%arg0: !m1, %arg1: !m1, %arg2: !m1) -> !m1 attributes {topology = #topology} {
  return %arg0 : !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// expected-error @+1 {{equisharding constraint 0:0 needs mesh tensors, but input 0 has type 'tensor<4xf32>' and output 0 has type '!mpmd.mesh_tensor<"m2", tensor<4xf32>>'}}
func.func @not_mesh_tensor(%arg0: tensor<4xf32>, %arg1: !m1, %arg2: !m1) -> (!m2, !m1) attributes {topology = #topology} {
  %0 = mpmd.transfer %arg1 : (!m1) -> !m2
  return %0, %arg1 : !m2, !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// expected-error @+1 {{equisharding constraint 0:0: input 0 and output 0 have different global types 'tensor<4xf32>' and 'tensor<8xf32>'}}
func.func @global_type(%arg0: !m1, %arg1: !m1, %arg2: !m1, %arg3: !m2) -> (!m2, !m1) attributes {topology = #topology} {
  return %arg3, %arg1 : !m2, !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Only MPMD entry points are constrained.
// CHECK-LABEL: func.func private @not_entry_point
// CHECK-NEXT:  return %arg2, %arg0
func.func private @not_entry_point(%arg0: !m1, %arg1: !m1, %arg2: !m2) -> (!m2, !m1) attributes {topology = #topology} {
  return %arg2, %arg0 : !m2, !m1
}
