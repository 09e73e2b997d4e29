// An all_reduce whose body is not one elementwise op, in a fragment of a
// 2-device mesh (mpmd_run_spmd_collectives.mlir).
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
    -> !mpmd.mesh_tensor<"m1", tensor<4xf32>> attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["spmd"]> (%arg0) (%a: tensor<4xf32>) {
    %r = "stablehlo.all_reduce"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %difference = stablehlo.subtract %x, %y : tensor<f32>
      stablehlo.return %difference : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>,
        use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
    mpmd.return %r : tensor<4xf32>
  } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
  func.return %0 : !mpmd.mesh_tensor<"m1", tensor<4xf32>>
}
