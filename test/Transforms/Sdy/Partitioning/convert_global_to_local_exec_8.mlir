// Every sdy collective on meshes of eight devices, with sub-axes and a
// non-iota device order, partitioned and run on eight partitions, against
// the unpartitioned program (test/Utils/partition_and_run.py).
// RUN: %partition-and-run %s -sdy-convert-global-to-local -sdy-drop-sharding-and-mesh | FileCheck %s
// RUN: %partition-and-run %s "-sdy-convert-global-to-local=per-dim-all-gather=true combine-multi-dimension-reduce-scatter=true" -sdy-drop-sharding-and-mesh | FileCheck %s
// CHECK-NOT: FAIL

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @shuffled = <["a"=4, "b"=2], device_ids=[3, 6, 0, 5, 2, 7, 4, 1]>

// CHECK-DAG: PASS: @main_gather_sub_axis
func.func @parallel_gather_sub_axis(%arg0: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y":(2)2}, {"y":(1)2}]>})
    -> (tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.all_gather [{"y":(2)2}, {"y":(1)2}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x4xi32>
  return %0 : tensor<8x4xi32>
}

// CHECK-DAG: PASS: @main_gather_everything
func.func @parallel_gather_everything(%arg0: tensor<4x8x2xf32> {sdy.sharding = #sdy.sharding<@shuffled, [{"b"}, {"a"}, {}]>})
    -> tensor<4x8x2xf32> {
  %0 = sdy.all_gather [{"b"}, {"a"}, {}] %arg0 out_sharding=<@shuffled, [{}, {}, {}]> : tensor<4x8x2xf32>
  return %0 : tensor<4x8x2xf32>
}

// CHECK-DAG: PASS: @main_slice_sub_axes
func.func @parallel_slice_sub_axes(%arg0: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(2)2}, {"x", "y":(1)2}]>}) {
  %0 = sdy.all_slice [{"y":(2)2}, {"y":(1)2}] %arg0 out_sharding=<@mesh, [{"y":(2)2}, {"x", "y":(1)2}]> : tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}

// CHECK-DAG: PASS: @main_reduce_sub_axis
func.func @parallel_reduce_sub_axis(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}, {"x", "y":(2)2}]>},
                                    %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y":(2)2}, {}]>})
    -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y":(1)2}, {}]>]>} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = sdy.all_reduce {"x", "y":(2)2} %0 out_sharding=<@mesh, [{"y":(1)2}, {}]> : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// CHECK-DAG: PASS: @main_reduce_scatter_two_dims
func.func @parallel_reduce_scatter_two_dims(%arg0: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@shuffled, [{}, {"a", "b"}]>},
                                            %arg1: tensor<16x4xi32> {sdy.sharding = #sdy.sharding<@shuffled, [{"a", "b"}, {}]>})
    -> (tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@shuffled, [{"a"}, {"b"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@shuffled, [{}, {}]>]>} : (tensor<8x16xi32>, tensor<16x4xi32>) -> tensor<8x4xi32>
  %1 = sdy.reduce_scatter [{"a"}, {"b"}] %0 out_sharding=<@shuffled, [{"a"}, {"b"}]> : tensor<8x4xi32>
  return %1 : tensor<8x4xi32>
}

// CHECK-DAG: PASS: @main_all_to_all_sub_axis
func.func @parallel_all_to_all_sub_axis(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(2)2}, {"x"}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y":(2)2}]>}) {
  %0 = sdy.all_to_all [{"y":(2)2}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x", "y":(2)2}]> : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-DAG: PASS: @main_all_to_all_two_params
func.func @parallel_all_to_all_two_params(%arg0: tensor<8x2x4x2xi32> {sdy.sharding = #sdy.sharding<@shuffled, [{"a"}, {"b"}, {}, {}]>})
    -> (tensor<8x2x4x2xi32> {sdy.sharding = #sdy.sharding<@shuffled, [{}, {}, {"a"}, {"b"}]>}) {
  %0 = sdy.all_to_all [{"a"}: 0->2, {"b"}: 1->3] %arg0 out_sharding=<@shuffled, [{}, {}, {"a"}, {"b"}]> : tensor<8x2x4x2xi32>
  return %0 : tensor<8x2x4x2xi32>
}

// CHECK-DAG: PASS: @main_permute
func.func @parallel_permute(%arg0: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>})
    -> (tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y":(1)2}, {"y":(2)2}]>}) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x", "y":(1)2}, {"y":(2)2}]> : tensor<8x4xi32>
  return %0 : tensor<8x4xi32>
}

// CHECK-DAG: PASS: @main_permute_shuffled
func.func @parallel_permute_shuffled(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@shuffled, [{"a"}, {}]>})
    -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@shuffled, [{}, {"a"}]>}) {
  %0 = sdy.all_to_all [{"a"}: 0->1] %arg0 out_sharding=<@shuffled, [{}, {"a"}]> : tensor<4x4xf32>
  %1 = sdy.collective_permute %0 out_sharding=<@shuffled, [{}, {"a"}]> : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
