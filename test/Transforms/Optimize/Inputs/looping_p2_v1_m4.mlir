// generate_pipeline_program.py 2 1 4 looping 0
!t = tensor<4xf32>
!m0 = !mpmd.mesh_tensor<"m0", !t>
!m1 = !mpmd.mesh_tensor<"m1", !t>
#topology = #mpmd.topology<<"m0": <["x"=2]>>, <"m1": <["x"=2]>>>
func.func @main(%arg0: !m0, %arg1: !m0, %arg2: !m0, %arg3: !m0) attributes {topology = #topology} {
  %v1 = mpmd.fragment<mesh="m0", origin=["layer0"], stage=0> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v2 = mpmd.transfer %v1 : (!m0) -> !m1
  %v3 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%v2) {call_counter = 0 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v4 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v3, %v3) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v5 = mpmd.transfer %v4 : (!m1) -> !m0
  %v6 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v5, %v1) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  %v7 = mpmd.fragment<mesh="m0", origin=["layer0"], stage=0> (%arg1) {call_counter = 1 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v8 = mpmd.transfer %v7 : (!m0) -> !m1
  %v9 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%v8) {call_counter = 1 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v10 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v9, %v9) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v11 = mpmd.transfer %v10 : (!m1) -> !m0
  %v12 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v11, %v7) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  %v13 = mpmd.fragment<mesh="m0", origin=["layer0"], stage=0> (%arg2) {call_counter = 2 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v14 = mpmd.transfer %v13 : (!m0) -> !m1
  %v15 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%v14) {call_counter = 2 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v16 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v15, %v15) {call_counter = 2 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v17 = mpmd.transfer %v16 : (!m1) -> !m0
  %v18 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v17, %v13) {call_counter = 2 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  %v19 = mpmd.fragment<mesh="m0", origin=["layer0"], stage=0> (%arg3) {call_counter = 3 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v20 = mpmd.transfer %v19 : (!m0) -> !m1
  %v21 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%v20) {call_counter = 3 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v22 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v21, %v21) {call_counter = 3 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v23 = mpmd.transfer %v22 : (!m1) -> !m0
  %v24 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v23, %v19) {call_counter = 3 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  return
}
