//===- StablehloRegionOps.td - region, control and comm ops -*- tablegen -*-===//
//
// Reductions, scatter, sort, control flow, custom calls, tokens, send/recv,
// rng and collectives. Most of them print in generic form, as upstream.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLOREGIONOPS_TD
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLOREGIONOPS_TD

include "mpmd/Dialect/StableHLO/IR/StablehloAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"



def HLO_FlatSymbolRefArrayAttr
    : TypedArrayAttrBase<FlatSymbolRefAttr, "flat symbol ref array attribute"> {
  let constBuilderCall = "::mlir::ArrayAttr::get($_builder.getContext(), $0)";
}

def HLO_OutputOperandAliasArrayAttr
    : TypedArrayAttrBase<Stablehlo_OutputOperandAlias, "output operand aliases"> {
  let constBuilderCall = "::mlir::ArrayAttr::get($_builder.getContext(), $0)";
}

//===----------------------------------------------------------------------===//
// Reductions, scatter, sort
//===----------------------------------------------------------------------===//

def Stablehlo_ReduceOp : Stablehlo_Op<"reduce",
    [RecursiveMemoryEffects, SameVariadicOperandSize, HLO_InferTypeOp]> {
  let summary = "Reduces `inputs` along `dimensions` with the body.";
  let description = [{
    Compact form when the body is one binary op on its arguments:
    `stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1]`;
    otherwise `... across dimensions = [1] : (...) -> ... reducer(%a: T, %b: T) {...}`.
  }];
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       Variadic<HLO_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
}

def Stablehlo_ReduceWindowOp : Stablehlo_Op<"reduce_window",
    [RecursiveMemoryEffects, SameVariadicOperandSize, HLO_InferTypeOp]> {
  let summary = "Reduces each window of `inputs` with the body.";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       Variadic<HLO_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasRegionVerifier = 1;
}

def Stablehlo_SelectAndScatterOp : Stablehlo_Op<"select_and_scatter",
    [RecursiveMemoryEffects, HLO_InferTypeOp]> {
  let summary = "Scatters `source` to the element `select` picks in each window.";
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$source,
                       HLO_Tensor:$init_value,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs HLO_Tensor);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
  let hasRegionVerifier = 1;
}

def Stablehlo_ScatterOp : Stablehlo_Op<"scatter",
    [RecursiveMemoryEffects, SameVariadicOperandSize, HLO_InferTypeOp]> {
  let summary = "Combines `updates` into slices of `inputs` at `scatter_indices`.";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       HLO_IntTensor:$scatter_indices,
                       Variadic<HLO_Tensor>:$updates,
                       Stablehlo_ScatterDimensionNumbers:$scatter_dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$update_computation);
  let hasRegionVerifier = 1;
}

def Stablehlo_SortOp : Stablehlo_Op<"sort",
    [RecursiveMemoryEffects, SameOperandsAndResultShape,
     HLO_InferOperandTypes]> {
  let summary = "Sorts `inputs` along `dimension` with the comparator.";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       DefaultValuedOptionalAttr<I64Attr, "-1">:$dimension,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_stable);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$comparator);
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def Stablehlo_ReturnOp : Stablehlo_Op<"return", [Pure, Terminator, ReturnLike]> {
  let summary = "Returns values from the region of a stablehlo op.";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "$results attr-dict (`:` type($results)^)?";
}

def Stablehlo_WhileOp : Stablehlo_Op<"while",
    [RecursiveMemoryEffects, HLO_InferOperandTypes,
     DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "Runs `body` while `cond` holds; carries `operand` values.";
  let arguments = (ins Variadic<HLO_TensorOrToken>:$operand);
  let results = (outs Variadic<HLO_TensorOrToken>);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
}

def Stablehlo_IfOp
    : Stablehlo_Op<"if", [RecursiveMemoryEffects, HLO_InferTypeOp]> {
  let summary = "Runs `true_branch` or `false_branch` depending on `pred`.";
  let arguments = (ins HLO_ScalarPredTensor:$pred);
  let results = (outs Variadic<HLO_TensorOrToken>);
  let regions = (region SizedRegion<1>:$true_branch,
                        SizedRegion<1>:$false_branch);
  let hasRegionVerifier = 1;
}

def Stablehlo_CaseOp
    : Stablehlo_Op<"case", [RecursiveMemoryEffects, HLO_InferTypeOp]> {
  let summary = "Runs branch `index` (the last one if out of range).";
  let arguments = (ins 0DTensorOf<[I32]>:$index);
  let results = (outs Variadic<HLO_TensorOrToken>);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let hasRegionVerifier = 1;
}

def Stablehlo_OptimizationBarrierOp : Stablehlo_Op<"optimization_barrier",
    [Pure, HLO_InferOperandTypes]> {
  let summary = "Keeps the compiler from moving ops across it (remat).";
  let arguments = (ins Variadic<HLO_TensorOrToken>:$operand);
  let results = (outs Variadic<HLO_TensorOrToken>:$result);
  let assemblyFormat = [{
    attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result))):(`(` `)`)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Custom calls, tokens, send/recv, ids, rng
//===----------------------------------------------------------------------===//

def Stablehlo_CustomCallOp : Stablehlo_Op<"custom_call",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Calls a backend-defined target: `stablehlo.custom_call @f(%x)`.";
  let arguments = (ins
      Variadic<HLO_TensorOrToken>:$inputs,
      StrAttr:$call_target_name,
      DefaultValuedOptionalAttr<BoolAttr, "false">:$has_side_effect,
      OptionalAttr<AnyAttrOf<[StrAttr, DictionaryAttr]>>:$backend_config,
      DefaultValuedOptionalAttr<Stablehlo_CustomCallApiVersionAttr,
          "::mlir::stablehlo::CustomCallApiVersion::API_VERSION_ORIGINAL">:$api_version,
      DefaultValuedOptionalAttr<HLO_FlatSymbolRefArrayAttr, "{}">:$called_computations,
      OptionalAttr<ArrayAttr>:$operand_layouts,
      OptionalAttr<ArrayAttr>:$result_layouts,
      DefaultValuedOptionalAttr<HLO_OutputOperandAliasArrayAttr, "{}">:$output_operand_aliases);
  let results = (outs Variadic<HLO_TensorOrToken>);
  let assemblyFormat = [{
    custom<CustomCallTarget>($call_target_name) `(` $inputs `)`
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_CreateTokenOp : Stablehlo_Op<"create_token",
    [Pure, HLO_InferTypeFromTypeConstraints]> {
  let summary = "Creates a fresh token.";
  let results = (outs Stablehlo_Token:$output);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def Stablehlo_AfterAllOp : Stablehlo_Op<"after_all",
    [Pure, HLO_InferTypeFromTypeConstraints]> {
  let summary = "A token that follows all `inputs` tokens.";
  let arguments = (ins Variadic<Stablehlo_Token>:$inputs);
  let results = (outs Stablehlo_Token:$result);
  let assemblyFormat = "$inputs attr-dict `:` type(results)";
}

def Stablehlo_SendOp : Stablehlo_Op<"send",
    [MemoryEffects<[MemWrite]>, HLO_InferTypeFromTypeConstraints]> {
  let summary = "Sends `inputs` over a channel; ordered by `token`.";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, Stablehlo_Token:$token,
                       Stablehlo_ChannelHandle:$channel_handle,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer,
                       OptionalAttr<I64ElementsAttr>:$source_target_pairs);
  let results = (outs Stablehlo_Token);
  let hasVerifier = 1;
}

def Stablehlo_RecvOp : Stablehlo_Op<"recv", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Receives values over a channel; the last result is a token.";
  let arguments = (ins Stablehlo_Token:$token,
                       Stablehlo_ChannelHandle:$channel_handle,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer,
                       OptionalAttr<I64ElementsAttr>:$source_target_pairs);
  let results = (outs Variadic<HLO_TensorOrToken>);
  let hasVerifier = 1;
}

def Stablehlo_PartitionIdOp
    : Stablehlo_Op<"partition_id", [Pure, HLO_InferUI32ScalarType]> {
  let summary = "Id of the partition running this program.";
  let results = (outs 0DTensorOf<[UI32]>);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def Stablehlo_ReplicaIdOp
    : Stablehlo_Op<"replica_id", [Pure, HLO_InferUI32ScalarType]> {
  let summary = "Id of the replica running this program.";
  let results = (outs 0DTensorOf<[UI32]>);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def Stablehlo_RngBitGeneratorOp : Stablehlo_Op<"rng_bit_generator", [Pure]> {
  let summary = "Random bits and the next generator state.";
  let arguments = (ins HLO_IntOrFpTensor:$initial_state,
                       Stablehlo_RngAlgorithmAttr:$rng_algorithm);
  let results = (outs HLO_IntOrFpTensor:$output_state, HLO_IntOrFpTensor:$output);
  let assemblyFormat = [{
    $initial_state `,` `algorithm` `=` custom<RngAlgorithm>($rng_algorithm) attr-dict
      `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

def Stablehlo_AllGatherOp : Stablehlo_Op<"all_gather", []> {
  let summary = "Concatenates the operands of a replica group along `all_gather_dim`.";
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       I64Attr:$all_gather_dim,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<HLO_Tensor>);
  let hasVerifier = 1;
}

def Stablehlo_AllReduceOp
    : Stablehlo_Op<"all_reduce", [HLO_InferOperandTypes]> {
  let summary = "Reduces the operands over each replica group with the body.";
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$computation);
  let hasRegionVerifier = 1;
}

def Stablehlo_ReduceScatterOp : Stablehlo_Op<"reduce_scatter", []> {
  let summary = "All-reduce followed by a scatter along `scatter_dimension`.";
  let arguments = (ins HLO_Tensor:$operand,
                       I64Attr:$scatter_dimension,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs HLO_Tensor);
  let regions = (region SizedRegion<1>:$computation);
  let hasRegionVerifier = 1;
}

def Stablehlo_AllToAllOp : Stablehlo_Op<"all_to_all", [Pure]> {
  let summary = "Splits along `split_dimension`, exchanges, concatenates along `concat_dimension`.";
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       I64Attr:$split_dimension,
                       I64Attr:$concat_dimension,
                       I64Attr:$split_count,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle);
  let results = (outs Variadic<HLO_Tensor>);
  let hasVerifier = 1;
}

def Stablehlo_CollectivePermuteOp
    : Stablehlo_Op<"collective_permute", [HLO_InferOperandTypes]> {
  let summary = "Sends the operand from each source to its target process.";
  let arguments = (ins HLO_Tensor:$operand,
                       I64ElementsAttr:$source_target_pairs,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle);
  let results = (outs HLO_Tensor);
  let hasVerifier = 1;
}

def Stablehlo_CollectiveBroadcastOp : Stablehlo_Op<"collective_broadcast",
    [HLO_InferOperandTypes]> {
  let summary = "Broadcasts the operand of the first process of each group.";
  let arguments = (ins HLO_Tensor:$operand,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle);
  let results = (outs HLO_Tensor);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Asynchronous ops
//===----------------------------------------------------------------------===//

def Stablehlo_AsyncStartOp : Stablehlo_Op<"async_start",
    [RecursiveMemoryEffects]> {
  let summary = "Starts a collective or a slice, whose results a future holds.";
  let description = [{
    The body holds one collective (all_reduce, all_gather, all_to_all,
    collective_permute, reduce_scatter, collective_broadcast) or slice
    (slice, dynamic_slice, dynamic_update_slice) applied to exactly the
    operands of `async_start`, and returns its results; the result is a
    `!stablehlo.future` of their types. We run it synchronously, which the
    spec allows.
  }];
  let arguments = (ins Variadic<HLO_Tensor>:$operands);
  let results = (outs Stablehlo_Future:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasRegionVerifier = 1;
}

def Stablehlo_AsyncDoneOp : Stablehlo_Op<"async_done", [Pure]> {
  let summary = "Waits for a future and returns its tensors.";
  let arguments = (ins Stablehlo_Future:$operand);
  let results = (outs Variadic<HLO_Tensor>:$results);
  let hasVerifier = 1;
}

#endif // MPMD_DIALECT_STABLEHLO_IR_STABLEHLOREGIONOPS_TD
