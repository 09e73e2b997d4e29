// The "Simple example of mesh inference" of the MPMD RFC: two named layers and
// unlabelled ops between them, on a topology of two meshes.
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
!t = tensor<4xf32>

func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t)
  attributes {topology=#topology} {
  %1 = mpmd.named_computation<"layer1"> (%arg0, %arg1) (%arg2: !t, %arg3: !t) {
    %10 = stablehlo.add %arg2, %arg2 : !t
    mpmd.return %10 : !t
  } : (!t, !t) -> !t

  %c = stablehlo.constant dense<0.000000e+00> : !t
  %2 = mpmd.named_computation<"layer2"> (%1, %c) (%arg2: !t, %arg3: !t) {
    %10 = stablehlo.add %arg2, %arg2 : !t
    mpmd.return %10 : !t
  } : (!t, !t) -> !t

  %3 = stablehlo.multiply %1, %1 : !t
  %4 = stablehlo.divide %2, %2 : !t

  func.return %3, %4  : !t, !t
}
