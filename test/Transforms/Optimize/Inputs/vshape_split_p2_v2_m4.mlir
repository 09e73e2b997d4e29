// generate_pipeline_program.py 2 2 4 v 1
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
  %v4 = mpmd.fragment<mesh="m1", origin=["layer2"], stage=2> (%v3) {call_counter = 0 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v5 = mpmd.transfer %v4 : (!m1) -> !m0
  %v6 = mpmd.fragment<mesh="m0", origin=["layer3"], stage=3> (%v5) {call_counter = 0 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v7:2 = mpmd.fragment<mesh="m0", origin=["layer3"(1)], stage=3> (%v6, %v6) {call_counter = 0 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m0, !m0) -> (!m0, !m0)
  %v8 = mpmd.fragment<mesh="m0", origin=["layer3"(1)], stage=3> (%v7#1) {call_counter = 0 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v9 = mpmd.transfer %v7#0 : (!m0) -> !m1
  %v10:2 = mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> (%v9, %v4) {call_counter = 0 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %v11 = mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> (%v10#1) {call_counter = 0 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v12:2 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v10#0, %v3) {call_counter = 0 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %v13 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v12#1) {call_counter = 0 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v14 = mpmd.transfer %v12#0 : (!m1) -> !m0
  %v15:2 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v14, %v1) {call_counter = 0 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m0, !m0) -> (!m0, !m0)
  %v16 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v15#1) {call_counter = 0 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v17 = mpmd.fragment<mesh="m0", origin=["layer0"], stage=0> (%arg1) {call_counter = 1 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v18 = mpmd.transfer %v17 : (!m0) -> !m1
  %v19 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%v18) {call_counter = 1 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v20 = mpmd.fragment<mesh="m1", origin=["layer2"], stage=2> (%v19) {call_counter = 1 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v21 = mpmd.transfer %v20 : (!m1) -> !m0
  %v22 = mpmd.fragment<mesh="m0", origin=["layer3"], stage=3> (%v21) {call_counter = 1 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v23:2 = mpmd.fragment<mesh="m0", origin=["layer3"(1)], stage=3> (%v22, %v22) {call_counter = 1 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m0, !m0) -> (!m0, !m0)
  %v24 = mpmd.fragment<mesh="m0", origin=["layer3"(1)], stage=3> (%v23#1) {call_counter = 1 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v25 = mpmd.transfer %v23#0 : (!m0) -> !m1
  %v26:2 = mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> (%v25, %v20) {call_counter = 1 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %v27 = mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> (%v26#1) {call_counter = 1 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v28:2 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v26#0, %v19) {call_counter = 1 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %v29 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v28#1) {call_counter = 1 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v30 = mpmd.transfer %v28#0 : (!m1) -> !m0
  %v31:2 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v30, %v17) {call_counter = 1 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m0, !m0) -> (!m0, !m0)
  %v32 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v31#1) {call_counter = 1 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v33 = mpmd.fragment<mesh="m0", origin=["layer0"], stage=0> (%arg2) {call_counter = 2 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v34 = mpmd.transfer %v33 : (!m0) -> !m1
  %v35 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%v34) {call_counter = 2 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v36 = mpmd.fragment<mesh="m1", origin=["layer2"], stage=2> (%v35) {call_counter = 2 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v37 = mpmd.transfer %v36 : (!m1) -> !m0
  %v38 = mpmd.fragment<mesh="m0", origin=["layer3"], stage=3> (%v37) {call_counter = 2 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v39:2 = mpmd.fragment<mesh="m0", origin=["layer3"(1)], stage=3> (%v38, %v38) {call_counter = 2 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m0, !m0) -> (!m0, !m0)
  %v40 = mpmd.fragment<mesh="m0", origin=["layer3"(1)], stage=3> (%v39#1) {call_counter = 2 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v41 = mpmd.transfer %v39#0 : (!m0) -> !m1
  %v42:2 = mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> (%v41, %v36) {call_counter = 2 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %v43 = mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> (%v42#1) {call_counter = 2 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v44:2 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v42#0, %v35) {call_counter = 2 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %v45 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v44#1) {call_counter = 2 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v46 = mpmd.transfer %v44#0 : (!m1) -> !m0
  %v47:2 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v46, %v33) {call_counter = 2 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m0, !m0) -> (!m0, !m0)
  %v48 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v47#1) {call_counter = 2 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v49 = mpmd.fragment<mesh="m0", origin=["layer0"], stage=0> (%arg3) {call_counter = 3 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v50 = mpmd.transfer %v49 : (!m0) -> !m1
  %v51 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%v50) {call_counter = 3 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v52 = mpmd.fragment<mesh="m1", origin=["layer2"], stage=2> (%v51) {call_counter = 3 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v53 = mpmd.transfer %v52 : (!m1) -> !m0
  %v54 = mpmd.fragment<mesh="m0", origin=["layer3"], stage=3> (%v53) {call_counter = 3 : ui32} (%a: !t) {
    %y = stablehlo.add %a, %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v55:2 = mpmd.fragment<mesh="m0", origin=["layer3"(1)], stage=3> (%v54, %v54) {call_counter = 3 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m0, !m0) -> (!m0, !m0)
  %v56 = mpmd.fragment<mesh="m0", origin=["layer3"(1)], stage=3> (%v55#1) {call_counter = 3 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  %v57 = mpmd.transfer %v55#0 : (!m0) -> !m1
  %v58:2 = mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> (%v57, %v52) {call_counter = 3 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %v59 = mpmd.fragment<mesh="m1", origin=["layer2"(1)], stage=2> (%v58#1) {call_counter = 3 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v60:2 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v58#0, %v51) {call_counter = 3 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m1, !m1) -> (!m1, !m1)
  %v61 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%v60#1) {call_counter = 3 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m1) -> !m1
  %v62 = mpmd.transfer %v60#0 : (!m1) -> !m0
  %v63:2 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v62, %v49) {call_counter = 3 : ui32, split_keep_transferred} (%a: !t, %b: !t) {
    %y = stablehlo.multiply %a, %b : !t
    mpmd.return %y, %b : !t, !t
  } : (!m0, !m0) -> (!m0, !m0)
  %v64 = mpmd.fragment<mesh="m0", origin=["layer0"(1)], stage=0> (%v63#1) {call_counter = 3 : ui32, split_drop_transferred} (%a: !t) {
    %y = stablehlo.negate %a : !t
    mpmd.return %y : !t
  } : (!m0) -> !m0
  return
}
