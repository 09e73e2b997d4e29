
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
#batch_shard = #sdy.sharding<@mesh, [{"x"}]>
!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>

module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: !m1_t {sdy.sharding = #batch_shard}) -> (!m1_t, !m1_t) attributes {topology = #topology} {
    %0 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 0 : ui32} (%arg1: !t) {
      %12 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %12 : !t
    } : (!m1_t) -> !m1_t
    %1 = mpmd.transfer %0 : (!m1_t) -> !m2_t
    %2 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%1) {call_counter = 0 : ui32} (%arg1: !t) {
      %12 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %12 : !t
    } : (!m2_t) -> !m2_t
    %3 = mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> (%2) {call_counter = 0 : ui32} (%arg1: !t) {
      %12 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %12 : !t
    } : (!m2_t) -> !m2_t
    %4 = mpmd.transfer %3 : (!m2_t) -> !m1_t
    %5 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 1 : ui32} (%arg1: !t) {
      %12 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %12 : !t
    } : (!m1_t) -> !m1_t
    %6 = mpmd.transfer %5 : (!m1_t) -> !m2_t
    %7 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%6) {call_counter = 1 : ui32} (%arg1: !t) {
      %12 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %12 : !t
    } : (!m2_t) -> !m2_t
    %8 = mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> (%7) {call_counter = 1 : ui32} (%arg1: !t) {
      %12 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %12 : !t
    } : (!m2_t) -> !m2_t
    %9 = mpmd.transfer %8 : (!m2_t) -> !m1_t
    %10 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%4) {call_counter = 0 : ui32} (%arg1: !t) {
      %12 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %12 : !t
    } : (!m1_t) -> !m1_t
    %11 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%9) {call_counter = 1 : ui32} (%arg1: !t) {
      %12 = stablehlo.add %arg1, %arg1 : !t
      mpmd.return %12 : !t
    } : (!m1_t) -> !m1_t
    return %10, %11 : !m1_t, !m1_t
  }
}
