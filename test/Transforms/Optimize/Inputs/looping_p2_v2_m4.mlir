// generate_pipeline_program.py 2 2 4 looping 0
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
  %v4 = mpmd.transfer %v3 : (!m1) -> !m0
  %v5 = mpmd.fragment<mesh="m0", origin=["layer2"], stage=2> (%v4) {call_counter = 0 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v6 = mpmd.transfer %v5 : (!m0) -> !m1
  %v7 = mpmd.fragment<mesh="m1", origin=["layer3"], stage=3> (%v6) {call_counter = 0 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v8 = mpmd.fragment<mesh="m1", origin=["layer3"(1)], stage=3> (%v7, %v7) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v9 = mpmd.transfer %v8 : (!m1) -> !m0
  %v10 = mpmd.fragment<mesh="m0", origin=["layer2"(1)], stage=2> (%v9, %v5) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  %v11 = mpmd.transfer %v10 : (!m0) -> !m1
  %v12 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v11, %v3) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v13 = mpmd.transfer %v12 : (!m1) -> !m0
  %v14 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v13, %v1) {call_counter = 0 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  %v15 = mpmd.fragment<mesh="m0", origin=["layer0"], stage=0> (%arg1) {call_counter = 1 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v16 = mpmd.transfer %v15 : (!m0) -> !m1
  %v17 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%v16) {call_counter = 1 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v18 = mpmd.transfer %v17 : (!m1) -> !m0
  %v19 = mpmd.fragment<mesh="m0", origin=["layer2"], stage=2> (%v18) {call_counter = 1 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v20 = mpmd.transfer %v19 : (!m0) -> !m1
  %v21 = mpmd.fragment<mesh="m1", origin=["layer3"], stage=3> (%v20) {call_counter = 1 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v22 = mpmd.fragment<mesh="m1", origin=["layer3"(1)], stage=3> (%v21, %v21) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v23 = mpmd.transfer %v22 : (!m1) -> !m0
  %v24 = mpmd.fragment<mesh="m0", origin=["layer2"(1)], stage=2> (%v23, %v19) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  %v25 = mpmd.transfer %v24 : (!m0) -> !m1
  %v26 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v25, %v17) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v27 = mpmd.transfer %v26 : (!m1) -> !m0
  %v28 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v27, %v15) {call_counter = 1 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  %v29 = mpmd.fragment<mesh="m0", origin=["layer0"], stage=0> (%arg2) {call_counter = 2 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v30 = mpmd.transfer %v29 : (!m0) -> !m1
  %v31 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%v30) {call_counter = 2 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v32 = mpmd.transfer %v31 : (!m1) -> !m0
  %v33 = mpmd.fragment<mesh="m0", origin=["layer2"], stage=2> (%v32) {call_counter = 2 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v34 = mpmd.transfer %v33 : (!m0) -> !m1
  %v35 = mpmd.fragment<mesh="m1", origin=["layer3"], stage=3> (%v34) {call_counter = 2 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v36 = mpmd.fragment<mesh="m1", origin=["layer3"(1)], stage=3> (%v35, %v35) {call_counter = 2 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v37 = mpmd.transfer %v36 : (!m1) -> !m0
  %v38 = mpmd.fragment<mesh="m0", origin=["layer2"(1)], stage=2> (%v37, %v33) {call_counter = 2 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  %v39 = mpmd.transfer %v38 : (!m0) -> !m1
  %v40 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v39, %v31) {call_counter = 2 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v41 = mpmd.transfer %v40 : (!m1) -> !m0
  %v42 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v41, %v29) {call_counter = 2 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  %v43 = mpmd.fragment<mesh="m0", origin=["layer0"], stage=0> (%arg3) {call_counter = 3 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v44 = mpmd.transfer %v43 : (!m0) -> !m1
  %v45 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%v44) {call_counter = 3 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v46 = mpmd.transfer %v45 : (!m1) -> !m0
  %v47 = mpmd.fragment<mesh="m0", origin=["layer2"], stage=2> (%v46) {call_counter = 3 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v48 = mpmd.transfer %v47 : (!m0) -> !m1
  %v49 = mpmd.fragment<mesh="m1", origin=["layer3"], stage=3> (%v48) {call_counter = 3 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v50 = mpmd.fragment<mesh="m1", origin=["layer3"(1)], stage=3> (%v49, %v49) {call_counter = 3 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v51 = mpmd.transfer %v50 : (!m1) -> !m0
  %v52 = mpmd.fragment<mesh="m0", origin=["layer2"(1)], stage=2> (%v51, %v47) {call_counter = 3 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  %v53 = mpmd.transfer %v52 : (!m0) -> !m1
  %v54 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v53, %v45) {call_counter = 3 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m1, !m1) -> !m1
  %v55 = mpmd.transfer %v54 : (!m1) -> !m0
  %v56 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v55, %v43) {call_counter = 3 : ui32} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y : !t
  } : (!m0, !m0) -> !m0
  return
}
