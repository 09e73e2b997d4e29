//===- SdyOps.td - sdy operations -------------------------*- tablegen -*-===//
//
// The sdy ops with upstream Shardy's pretty syntax. Shardings inside op
// syntax are printed without the `#sdy.sharding` prefix (`<@mesh, [...]>`),
// lists of shardings as `[<...>, <...>]`, and regions as
// `(%arg: type) { ... }` without a block label.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_SDY_IR_SDYOPS_TD
#define MPMD_DIALECT_SDY_IR_SDYOPS_TD

include "mpmd/Dialect/Sdy/IR/SdyAttrs.td"
include "mpmd/Dialect/Sdy/IR/SdyInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Sdy_MeshOp : Sdy_Op<"mesh", [HasParent<"ModuleOp">, Symbol]> {
  let summary = "Declares a named mesh: `sdy.mesh @mesh = <[\"x\"=2]>`.";
  let arguments = (ins SymbolNameAttr:$sym_name, Sdy_Mesh:$mesh);
  let assemblyFormat = "$sym_name `=` $mesh attr-dict";
}

//===----------------------------------------------------------------------===//
// Sharding annotations
//===----------------------------------------------------------------------===//

def Sdy_ShardingConstraintOp : Sdy_Op<"sharding_constraint",
    [Pure, SameOperandsAndResultType]> {
  let summary = "Constrains the sharding of an intermediate value.";
  let description = [{
    `%1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {?} ]> : tensor<8x8xf32>`.
    Propagation must give the result this sharding; open dimensions may
    still be extended.
  }];
  let arguments = (ins AnyShaped:$input, Sdy_TensorSharding:$sharding);
  let results = (outs AnyShaped:$result);
  let assemblyFormat = "$input $sharding attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Sdy_ReshardOp : Sdy_Op<"reshard", [Pure, SameOperandsAndResultType]> {
  let summary = "Reshards a tensor to the given sharding.";
  let description = [{
    `%1 = sdy.reshard %0 <@mesh, [{"a", ?}, {?} ]> : tensor<8x8xf32>`. The
    partitioner lowers it to collectives.
  }];
  let arguments = (ins AnyShaped:$input, Sdy_TensorSharding:$sharding);
  let results = (outs AnyShaped:$result);
  let assemblyFormat = "$input $sharding attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  // Patterns labelled `sdy-reshard` (-canonicalize=enable-patterns=...).
  let hasCanonicalizer = 1;
}

def Sdy_PropagationBarrierOp : Sdy_Op<"propagation_barrier",
    [Pure, SameOperandsAndResultType]> {
  let summary = "Identity that limits the direction shardings propagate through it.";
  let description = [{
    `%0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8xf32>`;
    the direction is `FORWARD`, `BACKWARD` or `NONE`.
  }];
  let arguments = (ins AnyRankedTensor:$input,
                       Sdy_PropagationDirection:$allowed_direction);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `allowed_direction` `` `=` `` $allowed_direction attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Sdy_ShardingGroupOp : Sdy_Op<"sharding_group"> {
  let summary = "Puts a value into a group whose members share one sharding.";
  let description = [{
    `sdy.sharding_group %arg0 group_id=21 : tensor<8xf32>`. No result; kept
    until propagation consumes it (it is not pure, so it is not erased).
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$group_id);
  let assemblyFormat = [{
    $input `group_id` `` `=` `` $group_id attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def Sdy_ConstantOp : Sdy_Op<"constant",
    [Pure, AllTypesMatch<["value", "output"]>]> {
  let summary = "A constant that is not folded or merged with other constants.";
  let description = [{
    `%0 = sdy.constant dense<1.0> : tensor<8xf32>`. Each use can get its own
    sharding.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyStaticShapeTensor:$output);
  let assemblyFormat = "attr-dict $value";
}

def Sdy_DataFlowEdgeOp : Sdy_Op<"data_flow_edge",
    [SameOperandsAndResultType]> {
  let summary = "Marks where a value flows into a region or result (propagation only).";
  let description = [{
    `%1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x"} ]> : tensor<8xf32>`;
    the sharding is optional.
  }];
  let arguments = (ins AnyShaped:$input,
                       OptionalAttr<Sdy_TensorSharding>:$sharding);
  let results = (outs AnyShaped:$result);
  let assemblyFormat = [{
    $input (`sharding` `` `=` `` $sharding^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Sdy_FuncDataFlowEdgeOp : Sdy_Op<"func_data_flow_edge",
    [SameOperandsAndResultType]> {
  let summary = "Data flow edge for a function argument or call result (propagation only).";
  let description = [{
    `%1 = sdy.func_data_flow_edge %0 : tensor<8xf32>`; a sharding, if any, is
    the usual `sdy.sharding` attribute.
  }];
  let arguments = (ins AnyShaped:$input);
  let results = (outs AnyShaped:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Sdy_ReturnOp : Sdy_Op<"return", [Pure, ReturnLike, Terminator]> {
  let summary = "Terminator of sdy regions: `sdy.return %0 : tensor<8xf32>`.";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
}

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

def Sdy_ManualComputationOp : Sdy_Op<"manual_computation",
    [RecursiveMemoryEffects, SingleBlock, IsolatedFromAbove]> {
  let summary = "A region computed per device on local shards (shard_map).";
  let description = [{
    ```mlir
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {} ]>]
        out_shardings=[<@mesh, [{"a"}, {} ]>] manual_axes={"a"}
        (%arg1: tensor<8x32xf32>) {
      sdy.return %arg1 : tensor<8x32xf32>
    } : (tensor<16x32xf32>) -> tensor<16x32xf32>
    ```
    Operands and results have global types; the body sees each value with
    every dimension divided by the sizes of the manual axes sharding it.
    Manual axes must precede free axes in every dimension sharding and must
    divide the dimension.
  }];
  let arguments = (ins Variadic<AnyType>:$tensors,
                       Sdy_TensorShardingPerValue:$in_shardings,
                       Sdy_TensorShardingPerValue:$out_shardings,
                       Sdy_ManualAxes:$manual_axes);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` operands `)`
    `in_shardings` `` `=` `` custom<StrippedShardings>($in_shardings)
    `out_shardings` `` `=` `` custom<StrippedShardings>($out_shardings)
    `manual_axes` `` `=` `` $manual_axes
    custom<SingleBlockRegionNoBlockId>($body)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Sdy_NamedComputationOp : Sdy_Op<"named_computation",
    [RecursiveMemoryEffects, SingleBlock, IsolatedFromAbove]> {
  let summary = "A named group of ops that propagation treats as inlined.";
  let description = [{
    ```mlir
    %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"b"} ]>]
        out_shardings=[<@mesh, [{"a"} ]>] (%arg1: tensor<8xf32>) {
      sdy.return %arg1 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    ```
    The shardings are optional; block arguments and returned values have
    the operand and result types.
  }];
  let arguments = (ins StrAttr:$name,
                       Variadic<AnyType>:$operands,
                       OptionalAttr<Sdy_TensorShardingPerValue>:$in_shardings,
                       OptionalAttr<Sdy_TensorShardingPerValue>:$out_shardings);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `<` $name `>` `` `(` $operands `)`
    (`in_shardings` `` `=` `` custom<StrippedShardings>($in_shardings)^)?
    (`out_shardings` `` `=` `` custom<StrippedShardings>($out_shardings)^)?
    custom<SingleBlockRegionNoBlockId>($body)
    attr-dict `:` functional-type($operands, results)
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

class Sdy_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Sdy_Op<mnemonic, traits # [Pure, SameOperandsAndResultType,
                                  Sdy_CollectiveOpInterface]> {
  let results = (outs AnyRankedTensor:$result);
  let hasVerifier = 1;
  // Patterns labelled `sdy-collective` (-canonicalize=enable-patterns=...).
  let hasCanonicalizer = 1;
}

def Sdy_AllGatherOp : Sdy_CollectiveOp<"all_gather"> {
  let summary = "Gathers the per-dimension axes off the minor end of the sharding.";
  let description = [{
    `%1 = sdy.all_gather [{"b"}, {} ] %0 out_sharding=<@mesh, [{"a"}, {} ]> : tensor<8x8xf32>`:
    each list must be a suffix of that dimension's axes in the operand
    sharding; `out_sharding` is the operand sharding without them.
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_ListOfAxisRefLists:$gathering_axes,
                       Sdy_TensorSharding:$out_sharding);
  let assemblyFormat = [{
    $gathering_axes $tensor `out_sharding` `` `=` `` $out_sharding attr-dict `:` type($result)
  }];
}

def Sdy_AllSliceOp : Sdy_CollectiveOp<"all_slice"> {
  let summary = "Slices along the per-dimension axes (no communication).";
  let description = [{
    `%1 = sdy.all_slice [{"b"}, {} ] %0 out_sharding=<@mesh, [{"a", "b"}, {} ]> : tensor<8x8xf32>`:
    `out_sharding` is the operand sharding with each list appended to its
    dimension.
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_ListOfAxisRefLists:$slicing_axes,
                       Sdy_TensorSharding:$out_sharding);
  let assemblyFormat = [{
    $slicing_axes $tensor `out_sharding` `` `=` `` $out_sharding attr-dict `:` type($result)
  }];
}

def Sdy_AllReduceOp : Sdy_CollectiveOp<"all_reduce"> {
  let summary = "Combines the partial values held along the reduction axes.";
  let description = [{
    `%1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {} ]> : tensor<8x16xf32>`
    sums; `sdy.all_reduce max {"y"} ...` / `min` take the maximum / minimum
    and must match the reduction kind of the operand's unreduced axes. The
    dimension shardings do not change, and no reduction axis may shard the
    tensor.
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_AxisRefList:$reduction_axes,
                       Sdy_TensorSharding:$out_sharding,
                       DefaultValuedAttr<Sdy_ReductionKind,
                                         "::mlir::sdy::ReductionKind::Sum">:$reduction_kind);
  let assemblyFormat = [{
    custom<ReductionKindKeyword>($reduction_kind) $reduction_axes $tensor `out_sharding` `` `=` `` $out_sharding attr-dict `:` type($result)
  }];
}

def Sdy_ReduceScatterOp : Sdy_CollectiveOp<"reduce_scatter"> {
  let summary = "An all-reduce followed by an all-slice over the same axes.";
  let description = [{
    `%1 = sdy.reduce_scatter [{"x"}, {} ] %0 out_sharding=<@mesh, [{"x"}, {} ]> : tensor<8x8xf32>`.
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_ListOfAxisRefLists:$reduce_scatter_axes,
                       Sdy_TensorSharding:$out_sharding);
  let assemblyFormat = [{
    $reduce_scatter_axes $tensor `out_sharding` `` `=` `` $out_sharding attr-dict `:` type($result)
  }];
}

def Sdy_AllToAllOp : Sdy_CollectiveOp<"all_to_all"> {
  let summary = "Moves axes from the minor end of one dimension to another.";
  let description = [{
    `%1 = sdy.all_to_all [{"b"}: 0->2] %0 out_sharding=<@mesh, [{"a"}, {}, {"b"} ]> : tensor<8x8x8xf32>`:
    each param's axes must be a suffix of its source dimension's axes; they
    are removed there and appended to the target dimension.
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_AllToAllParamList:$params,
                       Sdy_TensorSharding:$out_sharding);
  let assemblyFormat = [{
    $params $tensor `out_sharding` `` `=` `` $out_sharding attr-dict `:` type($result)
  }];
}

def Sdy_CollectivePermuteOp : Sdy_CollectiveOp<"collective_permute"> {
  let summary = "Changes which axes shard each dimension, keeping the shard counts.";
  let description = [{
    `%1 = sdy.collective_permute %0 out_sharding=<@mesh, [{"b"}, {"a"} ]> : tensor<8x8xf32>`:
    every dimension keeps its number of shards.
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_TensorSharding:$out_sharding);
  let assemblyFormat = [{
    $tensor `out_sharding` `` `=` `` $out_sharding attr-dict `:` type($result)
  }];
}

def Sdy_ReplicatedToUnreducedOp : Sdy_CollectiveOp<"replicated_to_unreduced"> {
  let summary = "Marks replicated axes as unreduced (no communication).";
  let description = [{
    `%1 = sdy.replicated_to_unreduced {"y"} %0 out_sharding=<@mesh, [{"x"}, {} ], unreduced={"y"}> : tensor<8x8xf32>`:
    the axes shard no dimension of the operand and are not yet unreduced;
    `out_sharding` keeps the dimension shardings and adds them to the
    unreduced axes (a sum: one device of each group keeps the value, the
    others hold zeros).
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_AxisRefList:$axes,
                       Sdy_TensorSharding:$out_sharding);
  let assemblyFormat = [{
    $axes $tensor `out_sharding` `` `=` `` $out_sharding attr-dict `:` type($result)
  }];
}

def Sdy_ShardedToUnreducedOp : Sdy_CollectiveOp<"sharded_to_unreduced"> {
  let summary = "Turns sharding axes into unreduced axes (no communication).";
  let description = [{
    `%1 = sdy.sharded_to_unreduced [{"y"}, {} ] %0 out_sharding=<@mesh, [{"x"}, {} ], unreduced={"y"}> : tensor<8x8xf32>`:
    each list must be a suffix of that dimension's axes in the operand
    sharding; `out_sharding` is the operand sharding without them, with
    them added to the unreduced axes (each device pads its shard with
    zeros to the gathered size).
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_ListOfAxisRefLists:$axes,
                       Sdy_TensorSharding:$out_sharding);
  let assemblyFormat = [{
    $axes $tensor `out_sharding` `` `=` `` $out_sharding attr-dict `:` type($result)
  }];
}

#endif // MPMD_DIALECT_SDY_IR_SDYOPS_TD
