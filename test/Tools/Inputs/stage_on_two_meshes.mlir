#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
func.func @main(%arg0: !m1_t, %arg1: !m2_t) -> () attributes {topology = #topology} {
    %m1_layer1_0_0 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=0> (%arg0) {call_counter = 0 : ui32} (%a: !t) {
      mpmd.return %a : !t
    } : (!m1_t) -> !m1_t
    %m2_layer2_0_0 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=0> (%arg1) {call_counter = 0 : ui32} (%a: !t) {
      mpmd.return %a : !t
    } : (!m2_t) -> !m2_t
    return
}
