// RUN: mpmd-opt %s -mpmd-mark-input-output-with-layouts -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Input layouts reach the fragments using the inputs, output layouts the
// fragments producing the outputs. Input 1 ("auto") is used by two
// fragments: "default". Output 1 ("auto") is also used by g: "default".
// Input 2 is returned as output 2, which asks for "{0,1}": both get it.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "{1,0}"},
// CHECK-SAME:    %arg1: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "default"},
// CHECK-SAME:    %arg2: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "{0,1}"})
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "auto"}, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "default"}, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "{0,1}"})
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) {arg_attrs = [{mhlo.layout_mode = "{1,0}"}, {mhlo.layout_mode = "default"}], res_attrs = [{mhlo.layout_mode = "auto"}, {mhlo.layout_mode = "default"}]}
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (%{{.*}}#1, %arg1) {arg_attrs = [{}, {mhlo.layout_mode = "default"}]}
func.func @main(%arg0: !m1 {mhlo.layout_mode = "{1,0}"}, %arg1: !m1 {mhlo.layout_mode = "auto"}, %arg2: !m1)
    -> (!m1 {mhlo.layout_mode = "auto"}, !m1 {mhlo.layout_mode = "auto"}, !m1 {mhlo.layout_mode = "{0,1}"}) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) (%a: !t, %b: !t) {
    %1 = stablehlo.add %a, %b : !t
    mpmd.return %1, %1 : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %2 = mpmd.fragment<mesh="m1", origin=["g"]> (%0#1, %arg1) (%a: !t, %b: !t) {
    mpmd.return %a : !t
  } : (!m1, !m1) -> !m1
  return %0#0, %0#1, %arg2 : !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m/cpu": <["c"=1]>>>

// Values transferred to a CPU mesh take the default layout: the "auto"
// input and the "auto" output.
// CHECK-LABEL: func.func @to_cpu(
// CHECK-SAME:    {mhlo.layout_mode = "default"}) -> (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "default"}
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {arg_attrs = [{mhlo.layout_mode = "default"}], res_attrs = [{mhlo.layout_mode = "default"}]}
func.func @to_cpu(%arg0: !m1 {mhlo.layout_mode = "auto"}) -> (!m1 {mhlo.layout_mode = "auto"}, !cpu, !cpu) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  %1 = mpmd.transfer %0 : (!m1) -> !cpu
  %2 = mpmd.transfer %arg0 : (!m1) -> !cpu
  return %0, %1, %2 : !m1, !cpu, !cpu
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// No layouts: nothing is added.
// CHECK-LABEL: func.func @no_layouts
// CHECK-NOT:   layout_mode
func.func @no_layouts(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0 : !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// expected-error @+1 {{input 0 is returned as output 0 but has layout "{0,1}" there and "{1,0}" here}}
func.func @returned_input_two_layouts(%arg0: !m1 {mhlo.layout_mode = "{0,1}"}) -> (!m1 {mhlo.layout_mode = "{1,0}"}) attributes {topology = #topology} {
  return %arg0 : !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m/cpu": <["c"=1]>>>

// expected-error @+1 {{input 0 has layout "{0,1}" but it is transferred to a CPU mesh, which needs "default"}}
func.func @explicit_layout_to_cpu(%arg0: !m1 {mhlo.layout_mode = "{0,1}"}) -> !cpu attributes {topology = #topology} {
  %0 = mpmd.transfer %arg0 : (!m1) -> !cpu
  return %0 : !cpu
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// expected-error @+1 {{output 0 has mhlo.layout_mode 1 : i64; expected a string}}
func.func @not_a_string(%arg0: !m1) -> (!m1 {mhlo.layout_mode = 1}) attributes {topology = #topology} {
  return %arg0 : !m1
}
