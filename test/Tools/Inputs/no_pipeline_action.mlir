// An exported module whose fragment call has no call_counter: nothing to
// simulate.
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>

module {
  func.func @main(%arg0: !m1_t) -> !m1_t attributes {topology = #topology} {
    %0 = mpmd.fragment_call<mesh="m1", origin=["update"]> @p0_update.main(%arg0) : (!m1_t) -> !m1_t
    return %0 : !m1_t
  }
  func.func @p0_update.main(%arg0: !t) -> !t attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
    return %arg0 : !t
  }
}
