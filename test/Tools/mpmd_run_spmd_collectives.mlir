// The fragments of a mesh of several devices run as partition d of a 1 x N
// grid on device d: partition_id is the device's index in its mesh and the
// StableHLO collectives of a fragment body go over the mesh's devices
// through the executor's transport (docs/runtime.md, SPMD meshes).
// RUN: mpmd run %s --random-inputs 7 | FileCheck %s
// The transport reduces with one elementwise kind; any other body is an
// error naming the op, on the device that ran it (no hang on the other).
// RUN: not mpmd run %S/Inputs/spmd_reduction_body.mlir --random-inputs 7 2>&1 | FileCheck %s --check-prefix=BODY
// BODY: spmd_reduction_body.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'stablehlo.all_reduce' op has a reduction body the executor's collectives cannot run: it must be one stablehlo add, multiply, maximum, minimum, and or or of its two arguments
// BODY: mpmd run: error: fragment 'spmd' failed on device m1:{{[01]}} (see the error above)

// all_reduce of a * (partition_id + 1) over 2 devices is a * (1 + 2): the
// difference from a * 3 is exactly zero (both round the same exact value).
// CHECK:      output 0: tensor<4xf32> min 0 max 0 mean 0
// The partition ids gathered in group order.
// CHECK-NEXT: output 1: tensor<2xf32> min 0 max 1 mean 0.5 [0, 1]
// Every device of a 4-device mesh: 0 + 1 + 2 + 3.
// CHECK-NEXT: output 2: tensor<ui32> min 6 max 6 mean 6 [6]
// Device 0's view of the other collectives, w = iota + 10 * partition_id
// ([0, 1, 2, 3] on device 0, [10, 11, 12, 13] on device 1):
// reduce_scatter (max) over the group [1, 0], where device 0 is second and
// gets the second half;
// CHECK-NEXT: output 3: tensor<2xf32> min 12 max 13 mean 12.5 [12, 13]
// all_to_all: the first halves of both devices, in group order;
// CHECK-NEXT: output 4: tensor<4xf32> min 0 max 11 mean 5.5 [0, 1, 10, 11]
// collective_permute from device 1 to device 0;
// CHECK-NEXT: output 5: tensor<4xf32> min 10 max 13 mean 11.5 [10, 11, 12, 13]
// collective_broadcast from the root of the group [1, 0], device 1.
// CHECK-NEXT: output 6: tensor<4xf32> min 10 max 13 mean 11.5 [10, 11, 12, 13]
// CHECK-NOT:  output

#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["y"=4]>>>
func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
    -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<2xf32>>,
        !mpmd.mesh_tensor<"m2", tensor<ui32>>, !mpmd.mesh_tensor<"m1", tensor<2xf32>>,
        !mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>,
        !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
    attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["spmd"]> (%arg0) (%a: tensor<4xf32>) {
    %p = stablehlo.partition_id : tensor<ui32>
    %pf = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %w = stablehlo.add %pf, %one : tensor<f32>
    %wb = stablehlo.broadcast_in_dim %w, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %s = stablehlo.multiply %a, %wb : tensor<4xf32>
    %r = "stablehlo.all_reduce"(%s) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %sum = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>,
        use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
    %three = stablehlo.constant dense<3.0> : tensor<4xf32>
    %a3 = stablehlo.multiply %a, %three : tensor<4xf32>
    %d = stablehlo.subtract %r, %a3 : tensor<4xf32>
    %p1 = stablehlo.reshape %pf : (tensor<f32>) -> tensor<1xf32>
    %g = "stablehlo.all_gather"(%p1) {all_gather_dim = 0 : i64,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 2, type = 0>,
        use_global_device_ids} : (tensor<1xf32>) -> tensor<2xf32>
    mpmd.return %d, %g : tensor<4xf32>, tensor<2xf32>
  } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>)
      -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<2xf32>>)
  %1 = mpmd.fragment<mesh="m2", origin=["ids"]> () () {
    %p = stablehlo.partition_id : tensor<ui32>
    %r = "stablehlo.all_reduce"(%p) ({
    ^bb0(%x: tensor<ui32>, %y: tensor<ui32>):
      %sum = stablehlo.add %y, %x : tensor<ui32>
      stablehlo.return %sum : tensor<ui32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>,
        use_global_device_ids} : (tensor<ui32>) -> tensor<ui32>
    mpmd.return %r : tensor<ui32>
  } : () -> !mpmd.mesh_tensor<"m2", tensor<ui32>>
  %2:4 = mpmd.fragment<mesh="m1", origin=["others"]> () () {
    %x = stablehlo.iota dim = 0 : tensor<4xf32>
    %p = stablehlo.partition_id : tensor<ui32>
    %pf = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
    %ten = stablehlo.constant dense<10.0> : tensor<f32>
    %tp = stablehlo.multiply %pf, %ten : tensor<f32>
    %tpb = stablehlo.broadcast_in_dim %tp, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %w = stablehlo.add %x, %tpb : tensor<4xf32>
    %rs = "stablehlo.reduce_scatter"(%w) <{replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>,
        scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %m = stablehlo.maximum %l, %r : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<2xf32>
    %a2a = "stablehlo.all_to_all"(%w) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>,
        split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64}>
        : (tensor<4xf32>) -> tensor<4xf32>
    %cp = "stablehlo.collective_permute"(%w) <{source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>}> : (tensor<4xf32>) -> tensor<4xf32>
    %cb = "stablehlo.collective_broadcast"(%w) <{replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>}> : (tensor<4xf32>) -> tensor<4xf32>
    mpmd.return %rs, %a2a, %cp, %cb : tensor<2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  } : () -> (!mpmd.mesh_tensor<"m1", tensor<2xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>,
             !mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
  func.return %0#0, %0#1, %1, %2#0, %2#1, %2#2, %2#3 : !mpmd.mesh_tensor<"m1", tensor<4xf32>>,
      !mpmd.mesh_tensor<"m1", tensor<2xf32>>, !mpmd.mesh_tensor<"m2", tensor<ui32>>,
      !mpmd.mesh_tensor<"m1", tensor<2xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>,
      !mpmd.mesh_tensor<"m1", tensor<4xf32>>, !mpmd.mesh_tensor<"m1", tensor<4xf32>>
}
