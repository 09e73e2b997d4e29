// RUN: mpmd-opt -sdy-convert-global-to-local -split-input-file %s | FileCheck %s
// RUN: mpmd-opt "-sdy-convert-global-to-local=per-dim-all-gather=true combine-multi-dimension-reduce-scatter=true replica-count=4" -split-input-file %s | FileCheck %s --check-prefix=OPTS

// Local types from the shardings; replica groups list device ids, one row
// per combination of the other axes; channels count on from the largest
// one in the module (7); global device ids.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @gather_one_dim(
// CHECK-SAME: %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
// CHECK-SAME: -> (tensor<8x4xf32>
func.func @gather_one_dim(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  // CHECK: "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>, replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<8x4xf32>
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @existing_channel
func.func @existing_channel(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Several gathered dimensions: one all-gather over all axes on a new
// leading dimension, whose factors move in front of their dimensions; or
// (per-dim-all-gather) one per dimension, the last first.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @gather_two_dims(
// OPTS-LABEL: func.func @gather_two_dims(
func.func @gather_two_dims(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  // CHECK: %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<4x4xf32>) -> tensor<1x4x4xf32>
  // CHECK: %[[G:.*]] = "stablehlo.all_gather"(%[[R]]) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<1x4x4xf32>) -> tensor<4x4x4xf32>
  // CHECK: %[[S:.*]] = stablehlo.reshape %[[G]] : (tensor<4x4x4xf32>) -> tensor<2x2x4x4xf32>
  // CHECK: %[[T:.*]] = stablehlo.transpose %[[S]], dims = [0, 2, 1, 3] : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>
  // CHECK: stablehlo.reshape %[[T]] : (tensor<2x4x2x4xf32>) -> tensor<8x8xf32>
  // OPTS: %[[G1:.*]] = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<4x8xf32>
  // OPTS: "stablehlo.all_gather"(%[[G1]]) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<8x8xf32>
  %0 = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// All-slice: a dynamic slice at offsets read from a table indexed by the
// device id (partition id, or replica id when replica-count > 1).
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @slice(
// CHECK-SAME: %arg0: tensor<8x8xf32>) -> (tensor<4x4xf32>
// OPTS-LABEL: func.func @slice(
func.func @slice(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  // CHECK: %[[PID:.*]] = stablehlo.partition_id : tensor<ui32>
  // CHECK: %[[ID:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i64>
  // CHECK: %[[ROWS:.*]] = stablehlo.constant dense<[0, 4, 0, 4]> : tensor<4xi64>
  // CHECK: %[[ROW:.*]] = stablehlo.dynamic_slice %[[ROWS]], %[[ID]], sizes = [1]
  // CHECK: %[[R:.*]] = stablehlo.reshape %[[ROW]] : (tensor<1xi64>) -> tensor<i64>
  // CHECK: %[[COLS:.*]] = stablehlo.constant dense<[0, 0, 4, 4]> : tensor<4xi64>
  // CHECK: %[[COL:.*]] = stablehlo.dynamic_slice %[[COLS]], %[[ID]], sizes = [1]
  // CHECK: %[[C:.*]] = stablehlo.reshape %[[COL]] : (tensor<1xi64>) -> tensor<i64>
  // CHECK: stablehlo.dynamic_slice %arg0, %[[R]], %[[C]], sizes = [4, 4] : (tensor<8x8xf32>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
  // OPTS: stablehlo.replica_id : tensor<ui32>
  // OPTS-NOT: stablehlo.partition_id
  %0 = sdy.all_slice [{"y"}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// All-reduce: an add body. A contracting dimension sharded on "x" is
// fine because an all-reduce over "x" follows.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @reduce(
func.func @reduce(%arg0: tensor<4x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                  %arg1: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x2xi32> {
  // CHECK: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {{.*}}: (tensor<4x4xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
  // CHECK: "stablehlo.all_reduce"(%[[D]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<i32>, %[[B:.*]]: tensor<i32>):
  // CHECK-NEXT: %[[S:.*]] = stablehlo.add %[[A]], %[[B]] : tensor<i32>
  // CHECK-NEXT: stablehlo.return %[[S]] : tensor<i32>
  // CHECK-NEXT: }) : (tensor<4x2xi32>) -> tensor<4x2xi32>
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<4x8xi32>, tensor<8x2xi32>) -> tensor<4x2xi32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<4x2xi32>
  return %1 : tensor<4x2xi32>
}

// -----

// Reduce-scatter over one dimension; over two: an all-reduce and a dynamic
// slice, or (combine-multi-dimension-reduce-scatter) one reduce-scatter on
// a leading dimension made of the scattered dimensions' factors.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @reduce_scatter(
// OPTS-LABEL: func.func @reduce_scatter(
func.func @reduce_scatter(%arg0: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  // CHECK: "stablehlo.reduce_scatter"(%arg0) <{{{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}>
  // CHECK: (tensor<8x8xf32>) -> tensor<8x4xf32>
  %0 = sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  // CHECK: %[[AR:.*]] = "stablehlo.all_reduce"(%arg0) <{{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}>
  // CHECK: stablehlo.dynamic_slice %[[AR]], {{.*}} sizes = [4, 4] : (tensor<8x8xf32>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
  // OPTS: %[[SPLIT:.*]] = stablehlo.reshape %arg0 : (tensor<8x8xf32>) -> tensor<2x4x2x4xf32>
  // OPTS: %[[FRONT:.*]] = stablehlo.transpose %[[SPLIT]], dims = [0, 2, 1, 3] : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>
  // OPTS: %[[MERGED:.*]] = stablehlo.reshape %[[FRONT]] : (tensor<2x2x4x4xf32>) -> tensor<4x4x4xf32>
  // OPTS: %[[RS:.*]] = "stablehlo.reduce_scatter"(%[[MERGED]]) <{{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}>
  // OPTS: (tensor<4x4x4xf32>) -> tensor<1x4x4xf32>
  // OPTS: stablehlo.reshape %[[RS]] : (tensor<1x4x4xf32>) -> tensor<4x4xf32>
  %1 = sdy.reduce_scatter [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// All-to-all: split along the target, concatenate along the source; two
// params: one all-to-all on a leading dimension.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @all_to_all(
func.func @all_to_all(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                      %arg1: tensor<4x4x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<4x4x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}, {"y"}]>}) {
  // CHECK: "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %0 = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
  // CHECK: %[[SPLIT:.*]] = stablehlo.reshape %arg1 : (tensor<2x2x4x4xf32>) -> tensor<2x2x2x2x2x2xf32>
  // CHECK: %[[FRONT:.*]] = stablehlo.transpose %[[SPLIT]], dims = [2, 4, 0, 1, 3, 5]
  // CHECK: %[[MERGED:.*]] = stablehlo.reshape %[[FRONT]] : (tensor<2x2x2x2x2x2xf32>) -> tensor<4x2x2x2x2xf32>
  // CHECK: %[[A2A:.*]] = "stablehlo.all_to_all"(%[[MERGED]]) <{{{.*}}concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}>
  // CHECK: %[[SENDERS:.*]] = stablehlo.reshape %[[A2A]] : (tensor<4x2x2x2x2xf32>) -> tensor<2x2x2x2x2x2xf32>
  // CHECK: %[[BACK:.*]] = stablehlo.transpose %[[SENDERS]], dims = [0, 2, 1, 3, 4, 5]
  // CHECK: stablehlo.reshape %[[BACK]] : (tensor<2x2x2x2x2x2xf32>) -> tensor<4x4x2x2xf32>
  %1 = sdy.all_to_all [{"x"}: 0->2, {"y"}: 1->3] %arg1 out_sharding=<@mesh, [{}, {}, {"x"}, {"y"}]> : tensor<4x4x4x4xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<4x4x4x4xf32>
}

// -----

// Collective permute: a pair for every device, self pairs included.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @permute(
func.func @permute(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  // CHECK: "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}0, 0], [1, 2], [2, 1], [3, 3]]> : tensor<4x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Sub-axes split an axis into pieces; a non-iota device order shows in the
// groups and in the tables.
sdy.mesh @mesh = <["x"=4], device_ids=[3, 2, 1, 0]>

// CHECK-LABEL: func.func @sub_axes(
func.func @sub_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2, "x":(1)2}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2, "x":(1)2}]>}) {
  // CHECK: "stablehlo.all_gather"(%arg0) <{{{.*}}replica_groups = dense<{{\[\[}}3, 1], [2, 0]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<4xf32>
  %0 = sdy.all_gather [{"x":(1)2}] %arg0 out_sharding=<@mesh, [{"x":(2)2}]> : tensor<8xf32>
  // CHECK: stablehlo.constant dense<[2, 2, 0, 0]> : tensor<4xi64>
  %1 = sdy.all_slice [{"x":(1)2}] %0 out_sharding=<@mesh, [{"x":(2)2, "x":(1)2}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Constants: replicated or splat ones become local constants; others are
// sliced at the device's offset. A sharded iota adds the device's offset.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @constants(
func.func @constants()
    -> (tensor<4xi32>, tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>},
        tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
        tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  // CHECK-DAG: stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = sdy.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  // CHECK-DAG: stablehlo.constant dense<5> : tensor<2xi32>
  %1 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} dense<5> : tensor<4xi32>
  // CHECK-DAG: %[[GLOBAL:.*]] = stablehlo.constant dense<[6, 7, 8, 9]> : tensor<4xi32>
  // CHECK-DAG: stablehlo.dynamic_slice %[[GLOBAL]], %{{.*}}, sizes = [2] : (tensor<4xi32>, tensor<i64>) -> tensor<2xi32>
  %2 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} dense<[6, 7, 8, 9]> : tensor<4xi32>
  // CHECK-DAG: %[[IOTA:.*]] = stablehlo.iota dim = 0 {{.*}}: tensor<2xi32>
  // CHECK-DAG: %[[OFFSETS:.*]] = stablehlo.constant dense<[0, 2, 0, 2]> : tensor<4xi64>
  // CHECK-DAG: %[[SPREAD:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<i32>) -> tensor<2xi32>
  // CHECK-DAG: stablehlo.add %[[IOTA]], %[[SPREAD]] : tensor<2xi32>
  %3 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<4xi32>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// A manual computation is inlined (its body already is per device, up to
// its free axes); a named computation is kept with local types; loops,
// calls and ops on unsharded dimensions only change types.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @manual(
// CHECK-SAME: %arg0: tensor<2x4xf32>
func.func @manual(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) {
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %arg0 {{.*}}: tensor<2x4xf32>
  // CHECK-NEXT: return %[[N]] : tensor<2x4xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x4xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<4x4xf32>
    sdy.return %1 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @named(
func.func @named(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // CHECK: sdy.named_computation<"foo">(%arg0) {{.*}} (%arg1: tensor<4xf32>) {
  // CHECK-NEXT: stablehlo.abs %arg1 {{.*}}: tensor<4xf32>
  // CHECK: } : (tensor<4xf32>) -> tensor<4xf32>
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] (%arg1: tensor<8xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @loop(
func.func @loop(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: stablehlo.while(%[[X:.*]] = %arg0, %{{.*}} = %{{.*}}) : tensor<4xi32>, tensor<i32>
  // CHECK: stablehlo.add %[[X]], %[[X]] {{.*}}: tensor<4xi32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %i = %c) : tensor<8xi32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, <@mesh, []>]>}
    cond {
    %lim = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %d = stablehlo.add %iterArg, %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xi32>
    stablehlo.return %d, %n : tensor<8xi32>, tensor<i32>
  }
  return %0#0 : tensor<8xi32>
}

// CHECK-LABEL: func.func @callee(
// CHECK-SAME: tensor<4xf32>
func.func @callee(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<8xf32>
}
// CHECK-LABEL: func.func @caller(
func.func @caller(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // CHECK: call @callee(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = func.call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @shape_ops(
func.func @shape_ops(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  // CHECK: stablehlo.slice %arg0 [0:4, 1:4] {{.*}}: (tensor<4x6xf32>) -> tensor<4x3xf32>
  %0 = stablehlo.slice %arg0 [0:8, 1:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: stablehlo.pad {{.*}}low = [0, 1], high = [0, 2], interior = [0, 0] {{.*}}: (tensor<4x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  %1 = stablehlo.pad %0, %z, low = [0, 1], high = [0, 2], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>, tensor<f32>) -> tensor<8x6xf32>
  // CHECK: stablehlo.concatenate {{.*}}dim = 1 {{.*}}: (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x6xf32>
  %2 = stablehlo.concatenate %0, %0, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>, tensor<8x3xf32>) -> tensor<8x6xf32>
  // CHECK: stablehlo.dynamic_slice {{.*}}sizes = [4, 2] {{.*}}: (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
  %i = stablehlo.constant dense<1> : tensor<i32>
  %3 = stablehlo.dynamic_slice %2, %i, %i, sizes = [8, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x2xf32>
  %4 = stablehlo.dynamic_update_slice %1, %3, %i, %i {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>, tensor<8x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  return %4 : tensor<8x6xf32>
}

// -----

// Windows that stay within a shard: stride >= window, no padding.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @windows(
func.func @windows(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: "stablehlo.reduce_window"
  // CHECK: (tensor<4x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %0 = "stablehlo.reduce_window"(%arg0, %z) <{window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Convolutions: a sharded feature dimension is a contraction followed by
// an all-reduce; grouped ones divide their group count instead.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @convolutions(
func.func @convolutions(%arg0: tensor<1x4x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {"x"}]>},
                        %arg1: tensor<1x1x8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}, {}]>},
                        %arg2: tensor<1x1x1x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {"x"}]>})
    -> (tensor<1x4x4x2xf32>, tensor<1x4x4x8xf32>) {
  // CHECK: stablehlo.convolution(%arg0, %arg1) {{.*}} : (tensor<1x4x4x4xf32>, tensor<1x1x4x2xf32>) -> tensor<1x4x4x2xf32>
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}, {}]>]>} : (tensor<1x4x4x8xf32>, tensor<1x1x8x2xf32>) -> tensor<1x4x4x2xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}, {}, {}]> : tensor<1x4x4x2xf32>
  // CHECK: stablehlo.convolution(%arg0, %arg2) {{.*}}feature_group_count = 4 : i64{{.*}} : (tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x4x4x4xf32>
  %2 = stablehlo.convolution(%arg0, %arg2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 8 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}, {"x"}]>]>} : (tensor<1x4x4x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x4x4x8xf32>
  %3 = sdy.all_gather [{}, {}, {}, {"x"}] %2 out_sharding=<@mesh, [{}, {}, {}, {}]> : tensor<1x4x4x8xf32>
  return %1, %3 : tensor<1x4x4x2xf32>, tensor<1x4x4x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// A sharded random-bit output: drawn whole from the replicated state, then
// each device's shard sliced at its offset.
// CHECK-LABEL: func.func @rng_sharded_output(
// CHECK-SAME:    %[[S:[^:]*]]: tensor<2xui64> {{.*}}-> (tensor<4x3xui32>
// CHECK:         %{{.*}}, %[[BITS:.*]] = stablehlo.rng_bit_generator %[[S]], algorithm = DEFAULT {{.*}}-> (tensor<2xui64>, tensor<8x3xui32>)
// CHECK:         %[[LOCAL:.*]] = stablehlo.dynamic_slice %[[BITS]], {{.*}} sizes = [4, 3] : (tensor<8x3xui32>, tensor<i64>, tensor<i64>) -> tensor<4x3xui32>
// CHECK:         return %[[LOCAL]]
func.func @rng_sharded_output(%state: tensor<2xui64> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})
    -> (tensor<8x3xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %next, %bits = stablehlo.rng_bit_generator %state, algorithm = DEFAULT {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"x"}, {}]>]>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x3xui32>)
  return %bits : tensor<8x3xui32>
}
