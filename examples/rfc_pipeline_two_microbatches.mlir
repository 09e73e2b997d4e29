#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>
#batch_shard = #sdy.sharding<@mesh, [{"x"}]>

!t = tensor<4xf32>
!m1_t = !mpmd.mesh_tensor<"m1", !t>
!m2_t = !mpmd.mesh_tensor<"m2", !t>
!m1_t_batch = !mpmd.mesh_tensor<"m1", !t, sharding=<@mesh, [{"x"}]>>
!m2_t_batch = !mpmd.mesh_tensor<"m2", !t, sharding=<@mesh, [{"x"}]>>

module attributes {mpmd.fragments.global_view} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: !m1_t {sdy.sharding=#batch_shard}) -> (!m1_t, !m1_t) attributes {topology=#topology} {
    %0 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 0 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m1_t) -> !m1_t

    %1 = mpmd.transfer %0 : (!m1_t) -> !m2_t

    %2 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%1) {call_counter = 0 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m2_t) -> !m2_t


    %3 = mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> (%2) {call_counter = 0 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m2_t) -> !m2_t

    %4 = mpmd.transfer %3 : (!m2_t) -> !m1_t

    %5 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%4) {call_counter = 0 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m1_t) -> !m1_t


    %10 = mpmd.fragment<mesh="m1", origin=["layer1"], stage=1> (%arg0) {call_counter = 1 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m1_t) -> !m1_t

    %11 = mpmd.transfer %10 : (!m1_t) -> !m2_t

    %12 = mpmd.fragment<mesh="m2", origin=["layer2"], stage=2> (%11) {call_counter = 1 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m2_t) -> !m2_t


    %13 = mpmd.fragment<mesh="m2", origin=["layer2"(1)], stage=2> (%12) {call_counter = 1 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m2_t) -> !m2_t

    %14 = mpmd.transfer %13 : (!m2_t) -> !m1_t

    %15 = mpmd.fragment<mesh="m1", origin=["layer1"(1)], stage=1> (%14) {call_counter = 1 : ui32} (%arg2: !t) {
      %30 = stablehlo.add %arg2, %arg2 : !t
      mpmd.return %30 : !t
    } : (!m1_t) -> !m1_t

    return %5, %15 : !m1_t, !m1_t
  }
}
