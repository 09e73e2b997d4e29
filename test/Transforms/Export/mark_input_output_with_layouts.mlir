// RUN: mpmd-opt %s -mpmd-mark-input-output-with-layouts -split-input-file -verify-diagnostics | FileCheck %s

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Input 0's explicit layout reaches its fragment operand. Input 1 ("auto")
// is used by two fragments: default, written as no attribute anywhere.
// Input 2 ("auto") is returned as output 2, which asks for "{0,1}": the
// output refines the input. Output 0 ("auto") is only returned: "auto" on
// the fragment result. Output 1 ("auto") is also used by g: default. g's
// unused result gets "auto"; every fragment carries both arrays.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "{1,0}"},
// CHECK-SAME:    %arg1: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>,
// CHECK-SAME:    %arg2: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "{0,1}"})
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "auto"}, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "{0,1}"})
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1) {arg_attrs = [{mhlo.layout_mode = "{1,0}"}, {}], res_attrs = [{mhlo.layout_mode = "auto"}, {}]}
// CHECK:      mpmd.fragment<mesh="m1", origin=["g"]> (%{{.*}}#1, %arg1) {arg_attrs = [{}, {}], res_attrs = [{mhlo.layout_mode = "auto"}]}
func.func @main(%arg0: !m1 {mhlo.layout_mode = "{1,0}"}, %arg1: !m1 {mhlo.layout_mode = "auto"}, %arg2: !m1 {mhlo.layout_mode = "auto"})
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
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// An "auto" input used once keeps "auto" on its fragment operand; an unused
// input keeps its attribute, even "default". A fragment result returned at
// two outputs takes their common layout ("auto" agrees with "{1,0}"), and
// both outputs get it.
// CHECK-LABEL: func.func @single_use(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "auto"},
// CHECK-SAME:    %arg1: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "default"})
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "{1,0}"}, !mpmd.mesh_tensor<"m1", tensor<4x8xf32>> {mhlo.layout_mode = "{1,0}"})
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {arg_attrs = [{mhlo.layout_mode = "auto"}], res_attrs = [{mhlo.layout_mode = "{1,0}"}]}
func.func @single_use(%arg0: !m1 {mhlo.layout_mode = "auto"}, %arg1: !m1 {mhlo.layout_mode = "default"})
    -> (!m1 {mhlo.layout_mode = "auto"}, !m1 {mhlo.layout_mode = "{1,0}"}) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0, %0 : !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A layout travels through transfers to the transfer's users: the
// fragment on m2 and the output returning the transfer.
// CHECK-LABEL: func.func @through_transfer(
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m2", tensor<4x8xf32>> {mhlo.layout_mode = "{0,1}"}, !mpmd.mesh_tensor<"m2", tensor<4x8xf32>> {mhlo.layout_mode = "auto"})
// CHECK:      mpmd.fragment<mesh="m2", origin=["g"]> (%{{.*}}) {arg_attrs = [{mhlo.layout_mode = "{0,1}"}], res_attrs = [{mhlo.layout_mode = "auto"}]}
func.func @through_transfer(%arg0: !m1 {mhlo.layout_mode = "{0,1}"}) -> (!m2, !m2 {mhlo.layout_mode = "auto"}) attributes {topology = #topology} {
  %0 = mpmd.transfer %arg0 : (!m1) -> !m2
  %1 = mpmd.fragment<mesh="m2", origin=["g"]> (%0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m2) -> !m2
  return %0, %1 : !m2, !m2
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
!cpu = !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m/cpu": <["c"=1]>>>

// Values transferred to a CPU mesh take the default layout, with a warning
// when something else was asked for: the explicit input and the "auto"
// output.
// CHECK-LABEL: func.func @to_cpu(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m/cpu", tensor<4x8xf32>>)
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {arg_attrs = [{}], res_attrs = [{}]}
// expected-warning @+1 {{input 0 has layout "{0,1}" but is transferred to a CPU mesh: using "default"}}
func.func @to_cpu(%arg0: !m1 {mhlo.layout_mode = "{0,1}"}) -> (!m1 {mhlo.layout_mode = "auto"}, !cpu, !cpu) attributes {topology = #topology} {
  // expected-warning @+1 {{result 0 has layout "auto" but is transferred to a CPU mesh: using "default"}}
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

// No layouts anywhere: the default everywhere, written as absence, and
// "auto" on results nobody uses.
// CHECK-LABEL: func.func @no_layouts
// CHECK-SAME:    (%arg0: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
// CHECK:      mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {arg_attrs = [{}], res_attrs = [{}, {mhlo.layout_mode = "auto"}]}
func.func @no_layouts(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a, %a : !t, !t
  } : (!m1) -> (!m1, !m1)
  return %0#0 : !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// Only the entry point is marked.
// CHECK-LABEL: func.func private @callee
// CHECK-NOT:   arg_attrs
func.func private @callee(%arg0: !m1 {mhlo.layout_mode = "{0,1}"}) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  return %0 : !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// expected-error @+1 {{input 0 (layout "{0,1}") is returned at outputs whose layouts do not agree: output 0 "{1,0}";}}
func.func @returned_input_two_layouts(%arg0: !m1 {mhlo.layout_mode = "{0,1}"}) -> (!m1 {mhlo.layout_mode = "{1,0}"}) attributes {topology = #topology} {
  return %arg0 : !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// An output without a layout asks for the default, which an explicit input
// layout does not agree with; "auto" outputs agree with anything.
// expected-error @+1 {{input 0 (layout "auto") is returned at outputs whose layouts do not agree: output 0 "{1,0}"; output 1 "auto"; output 2 "default";}}
func.func @returned_input_default_output(%arg0: !m1 {mhlo.layout_mode = "auto"}) -> (!m1 {mhlo.layout_mode = "{1,0}"}, !m1 {mhlo.layout_mode = "auto"}, !m1) attributes {topology = #topology} {
  return %arg0, %arg0, %arg0 : !m1, !m1, !m1
}

// -----

!t = tensor<4x8xf32>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

func.func @returned_result_two_layouts(%arg0: !m1) -> (!m1 {mhlo.layout_mode = "{0,1}"}, !m1 {mhlo.layout_mode = "{1,0}"}) attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: !t) {
    mpmd.return %a : !t
  } : (!m1) -> !m1
  // expected-error @+1 {{result 0 of fragment m1 (layout "auto") is returned at outputs whose layouts do not agree: output 0 "{0,1}"; output 1 "{1,0}";}}
  return %0, %0 : !m1, !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// expected-error @+1 {{output 0 has mhlo.layout_mode 1 : i64; expected a string}}
func.func @not_a_string(%arg0: !m1) -> (!m1 {mhlo.layout_mode = 1}) attributes {topology = #topology} {
  return %arg0 : !m1
}
