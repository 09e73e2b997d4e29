// Round trip of reduce, control flow, gather/scatter/sort, custom calls, tokens, rng and collectives.
// RUN: mpmd-opt %s | mpmd-opt | FileCheck %s
// RUN: mpmd-opt %s -mlir-print-op-generic | mpmd-opt | FileCheck %s

// CHECK-LABEL: func.func @regions(
// CHECK: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %cst_0 = stablehlo.constant dense<0xFC00> : tensor<f16>
// CHECK: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %c_1 = stablehlo.constant dense<true> : tensor<i1>
// CHECK: %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x4x32xf32>, tensor<f32>) -> tensor<2x4xf32>
// CHECK: %1 = stablehlo.reduce(%arg1 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<256x1000xf16>, tensor<f16>) -> tensor<256xf16>
// CHECK: %2 = stablehlo.reduce(%arg3 init: %c_1) applies stablehlo.and across dimensions = [2] : (tensor<8x2x1xi1>, tensor<i1>) -> tensor<8x2xi1>
// CHECK: %3:2 = stablehlo.reduce(%arg1 init: %cst_0), (%arg2 init: %c) across dimensions = [1] : (tensor<256x1000xf16>, tensor<256x1000xi32>, tensor<f16>, tensor<i32>) -> (tensor<256xf16>, tensor<256xi32>)
// CHECK: reducer(%arg4: tensor<f16>, %arg6: tensor<f16>) (%arg5: tensor<i32>, %arg7: tensor<i32>)  {
// CHECK: %6 = stablehlo.compare GT, %arg4, %arg6, FLOAT : (tensor<f16>, tensor<f16>) -> tensor<i1>
// CHECK: %7 = stablehlo.select %6, %arg4, %arg6 : tensor<i1>, tensor<f16>
// CHECK: %8 = stablehlo.select %6, %arg5, %arg7 : tensor<i1>, tensor<i32>
// CHECK: stablehlo.return %7, %8 : tensor<f16>, tensor<i32>
// CHECK: %4 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0] : (tensor<2x4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
// CHECK: reducer(%arg4: tensor<f32>, %arg5: tensor<f32>)  {
// CHECK: %6 = stablehlo.add %arg5, %arg4 : tensor<f32>
// CHECK: stablehlo.return %6 : tensor<f32>
// CHECK: %5 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.multiply across dimensions = [0] : (tensor<2x4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
// CHECK-LABEL: func.func @control(
// CHECK: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg2) : tensor<i32>, tensor<8xf32>
// CHECK: cond {
// CHECK: %5 = stablehlo.compare LT, %iterArg, %arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: stablehlo.return %5 : tensor<i1>
// CHECK: } do {
// CHECK: %5 = stablehlo.add %iterArg, %iterArg : tensor<i32>
// CHECK: %6 = stablehlo.exponential %iterArg_0 : tensor<8xf32>
// CHECK: stablehlo.return %5, %6 : tensor<i32>, tensor<8xf32>
// CHECK: %1 = "stablehlo.if"(%arg3) ({
// CHECK: stablehlo.return %arg2 : tensor<8xf32>
// CHECK: }, {
// CHECK: %5 = stablehlo.negate %arg2 : tensor<8xf32>
// CHECK: stablehlo.return %5 : tensor<8xf32>
// CHECK: }) : (tensor<i1>) -> tensor<8xf32>
// CHECK: %2 = "stablehlo.case"(%arg0) ({
// CHECK: stablehlo.return %arg2 : tensor<8xf32>
// CHECK: }, {
// CHECK: stablehlo.return %1 : tensor<8xf32>
// CHECK: }) : (tensor<i32>) -> tensor<8xf32>
// CHECK: %3:2 = stablehlo.optimization_barrier %2, %arg0 : tensor<8xf32>, tensor<i32>
// CHECK: %4 = stablehlo.while(%iterArg = %arg2) : tensor<8xf32>
// CHECK: cond {
// CHECK: stablehlo.return %arg3 : tensor<i1>
// CHECK: } do {
// CHECK: stablehlo.return %iterArg : tensor<8xf32>
// CHECK: return %3#0 : tensor<8xf32>
// CHECK-LABEL: func.func @gather_scatter_sort(
// CHECK: %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<2x4x1xi32>) -> tensor<2x4x32xbf16>
// CHECK: %1 = "stablehlo.gather"(%arg2, %arg3) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x4xf32>, tensor<8x2x1xi32>) -> tensor<8x2xf32>
// CHECK: %2 = "stablehlo.scatter"(%arg2, %arg3, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
// CHECK: ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
// CHECK: %5 = stablehlo.add %arg7, %arg8 : tensor<f32>
// CHECK: stablehlo.return %5 : tensor<f32>
// CHECK: }) : (tensor<8x4xf32>, tensor<8x2x1xi32>, tensor<8x2xf32>) -> tensor<8x4xf32>
// CHECK: %3:2 = "stablehlo.sort"(%arg5, %arg6) <{dimension = 0 : i64, is_stable = true}> ({
// CHECK: ^bb0(%arg7: tensor<i32>, %arg8: tensor<i32>, %arg9: tensor<i32>, %arg10: tensor<i32>):
// CHECK: %5 = stablehlo.compare LT, %arg7, %arg8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: stablehlo.return %5 : tensor<i1>
// CHECK: }) : (tensor<16xi32>, tensor<16xi32>) -> (tensor<16xi32>, tensor<16xi32>)
// CHECK: %4 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<2x4x1xi32>) -> tensor<2x4x32xbf16>
// CHECK-LABEL: func.func @windows(
// CHECK: %0 = "stablehlo.reduce_window"(%arg0, %arg2) <{padding = dense<{{\[\[}}0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>}> ({
// CHECK: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK: %2 = stablehlo.maximum %arg3, %arg4 : tensor<f32>
// CHECK: stablehlo.return %2 : tensor<f32>
// CHECK: }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK: %1 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
// CHECK: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK: %2 = stablehlo.compare GE, %arg3, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK: stablehlo.return %2 : tensor<i1>
// CHECK: }, {
// CHECK: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK: %2 = stablehlo.add %arg3, %arg4 : tensor<f32>
// CHECK: stablehlo.return %2 : tensor<f32>
// CHECK: }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
// CHECK-LABEL: func.func @side_effects(
// CHECK: %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<16x16xi32>) -> tensor<16x16xi32>
// CHECK: %1 = stablehlo.custom_call @foo(%arg0, %arg0) {api_version = 4 : i32, backend_config = {k = 1 : i32}, has_side_effect = true} : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi32>
// CHECK: %2 = stablehlo.custom_call @"weird name"() : () -> tensor<f32>
// CHECK: %3 = stablehlo.custom_call @bar(%arg0) {called_computations = [@side_effects], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<16x16xi32>) -> tensor<16x16xi32>
// CHECK: %4 = stablehlo.create_token : !stablehlo.token
// CHECK: %5 = stablehlo.after_all %4, %4 : !stablehlo.token
// CHECK: %6 = "stablehlo.send"(%arg2, %5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
// CHECK: %7:2 = "stablehlo.recv"(%6) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
// CHECK: %8 = stablehlo.partition_id : tensor<ui32>
// CHECK: %9 = stablehlo.replica_id : tensor<ui32>
// CHECK: %output_state, %output = stablehlo.rng_bit_generator %arg1, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<10x12xui32>)
// CHECK: stablehlo.optimization_barrier()
// CHECK-LABEL: func.func @collectives(
// CHECK: %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<4x16xf32>
// CHECK: %1 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>}> ({
// CHECK: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK: %6 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK: stablehlo.return %6 : tensor<f32>
// CHECK: }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %2 = "stablehlo.reduce_scatter"(%arg0) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
// CHECK: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK: %6 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK: stablehlo.return %6 : tensor<f32>
// CHECK: }) : (tensor<4x8xf32>) -> tensor<4x4xf32>
// CHECK: %3 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK: %4 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %5 = "stablehlo.collective_broadcast"(%arg0) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>

func.func @regions(%x: tensor<2x4x32xf32>, %h: tensor<256x1000xf16>, %iota: tensor<256x1000xi32>, %m: tensor<8x2x1xi1>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFC00> : tensor<f16>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %0 = stablehlo.reduce(%x init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x4x32xf32>, tensor<f32>) -> tensor<2x4xf32>
  %1 = stablehlo.reduce(%h init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<256x1000xf16>, tensor<f16>) -> tensor<256xf16>
  %2 = stablehlo.reduce(%m init: %t) applies stablehlo.and across dimensions = [2] : (tensor<8x2x1xi1>, tensor<i1>) -> tensor<8x2xi1>
  %3:2 = stablehlo.reduce(%h init: %ninf), (%iota init: %c) across dimensions = [1] : (tensor<256x1000xf16>, tensor<256x1000xi32>, tensor<f16>, tensor<i32>) -> (tensor<256xf16>, tensor<256xi32>)
   reducer(%a1: tensor<f16>, %a3: tensor<f16>) (%a2: tensor<i32>, %a4: tensor<i32>)  {
    %p = stablehlo.compare GT, %a1, %a3, FLOAT : (tensor<f16>, tensor<f16>) -> tensor<i1>
    %v = stablehlo.select %p, %a1, %a3 : tensor<i1>, tensor<f16>
    %i = stablehlo.select %p, %a2, %a4 : tensor<i1>, tensor<i32>
    stablehlo.return %v, %i : tensor<f16>, tensor<i32>
  }
  %4 = "stablehlo.reduce"(%x, %cst) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %b, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
  %5 = "stablehlo.reduce"(%x, %cst) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x4x32xf32>, tensor<f32>) -> tensor<4x32xf32>
  return
}

func.func @control(%c0: tensor<i32>, %n: tensor<i32>, %x: tensor<8xf32>, %p: tensor<i1>) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%iterArg = %c0, %iterArg_0 = %x) : tensor<i32>, tensor<8xf32>
   cond {
    %1 = stablehlo.compare LT, %iterArg, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg : tensor<i32>
    %2 = stablehlo.exponential %iterArg_0 : tensor<8xf32>
    stablehlo.return %1, %2 : tensor<i32>, tensor<8xf32>
  }
  %1 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<8xf32>
  }, {
    %2 = stablehlo.negate %x : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  %2 = "stablehlo.case"(%c0) ({
    stablehlo.return %x : tensor<8xf32>
  }, {
    stablehlo.return %1 : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  %3:2 = stablehlo.optimization_barrier %2, %c0 : tensor<8xf32>, tensor<i32>
  %4 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<8xf32>):
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<8xf32>):
    stablehlo.return %a : tensor<8xf32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %3#0 : tensor<8xf32>
}

func.func @gather_scatter_sort(%table: tensor<64x32xbf16>, %idx: tensor<2x4x1xi32>, %x: tensor<8x4xf32>, %i: tensor<8x2x1xi32>, %upd: tensor<8x2xf32>, %keys: tensor<16xi32>, %vals: tensor<16xi32>) {
  %0 = "stablehlo.gather"(%table, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xbf16>, tensor<2x4x1xi32>) -> tensor<2x4x32xbf16>
  %1 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x4xf32>, tensor<8x2x1xi32>) -> tensor<8x2xf32>
  %2 = "stablehlo.scatter"(%x, %i, %upd) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<8x2x1xi32>, tensor<8x2xf32>) -> tensor<8x4xf32>
  %3:2 = "stablehlo.sort"(%keys, %vals) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<16xi32>, tensor<16xi32>) -> (tensor<16xi32>, tensor<16xi32>)
  %4 = "stablehlo.gather"(%table, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 32>} : (tensor<64x32xbf16>, tensor<2x4x1xi32>) -> tensor<2x4x32xbf16>
  return
}

func.func @windows(%x: tensor<4x6xf32>, %s: tensor<2x3xf32>, %f: tensor<f32>) {
  %0 = "stablehlo.reduce_window"(%x, %f) <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = "stablehlo.select_and_scatter"(%x, %s, %f) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  return
}

func.func @side_effects(%x: tensor<16x16xi32>, %state: tensor<2xui64>, %f: tensor<4xf32>) {
  %0 = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<16x16xi32>) -> tensor<16x16xi32>
  %1 = stablehlo.custom_call @foo(%x, %x) {api_version = 4 : i32, backend_config = {k = 1 : i32}, has_side_effect = true} : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi32>
  %2 = stablehlo.custom_call @"weird name"() {output_operand_aliases = []} : () -> tensor<f32>
  %3 = stablehlo.custom_call @bar(%x) {api_version = 1 : i32, called_computations = [@side_effects], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<16x16xi32>) -> tensor<16x16xi32>
  %t = stablehlo.create_token : !stablehlo.token
  %t1 = stablehlo.after_all %t, %t : !stablehlo.token
  %t2 = "stablehlo.send"(%f, %t1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  %r:2 = "stablehlo.recv"(%t2) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  %pid = stablehlo.partition_id : tensor<ui32>
  %rid = stablehlo.replica_id : tensor<ui32>
  %s:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<10x12xui32>)
  stablehlo.optimization_barrier()
  return
}

func.func @collectives(%x: tensor<4x8xf32>) {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<4x16xf32>
  %1 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<4x4xf32>
  %3 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %4 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// index_vector_dim = 0 is what a missing one means, and is not printed.
// CHECK-LABEL: func.func @index_vector_dim_zero(
// CHECK: #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0]>
// CHECK: #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>
func.func @index_vector_dim_zero(%arg0: tensor<4x3xf32>, %arg1: tensor<1x2xi32>, %arg2: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4x3xf32>) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<1x2xi32>) -> tensor<2x3xf32>
  %1 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    stablehlo.return %new : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<1x2xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<4x3xf32>
}
