//===- StablehloCompoundOps.td - batch norm, linalg, tuples -*- tablegen -*-===//
//
// Ops whose meaning is a whole computation rather than one tensor
// primitive: batch normalization, Cholesky and triangular solve, map,
// composite, rng; infeed and outfeed; tuples; and the dynamic-shape ops
// whose result shape comes from operand values. Printed as upstream prints
// them: generic form unless upstream has a pretty form (cholesky, tuple,
// get_tuple_element, composite, rng, get_dimension_size and the dynamic ops
// but dynamic_gather and dynamic_conv).
//
// Their C++ classes are declared in StablehloCompoundOps.h, apart from
// StablehloOps.h, so that the many files that include the latter do not
// depend on these ops.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLOCOMPOUNDOPS_TD
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLOCOMPOUNDOPS_TD

include "mpmd/Dialect/StableHLO/IR/StablehloAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def HLO_Tuple : NestedTupleOf<[HLO_Tensor, Stablehlo_Token]>;
def HLO_TensorTokenOrTuple : AnyTypeOf<[HLO_Tensor, Stablehlo_Token, HLO_Tuple]>;
def HLO_1DFpTensor : 1DTensorOf<[HLO_Float]>;
def HLO_1DFpOrPerTensorQuantizedTensor
    : 1DTensorOf<[HLO_Float, HLO_PerTensorQuantizedInt]>;

//===----------------------------------------------------------------------===//
// Batch normalization
//===----------------------------------------------------------------------===//

def Stablehlo_BatchNormTrainingOp : Stablehlo_Op<"batch_norm_training",
    [Pure, HLO_InferTypeOp]> {
  let summary = "Normalizes with the batch's mean and variance per feature.";
  let arguments = (ins HLO_FpOrPerTensorQuantizedTensor:$operand,
                       HLO_1DFpOrPerTensorQuantizedTensor:$scale,
                       HLO_1DFpOrPerTensorQuantizedTensor:$offset,
                       F32Attr:$epsilon, I64Attr:$feature_index);
  let results = (outs HLO_FpOrPerTensorQuantizedTensor:$output,
                      HLO_1DFpOrPerTensorQuantizedTensor:$batch_mean,
                      HLO_1DFpOrPerTensorQuantizedTensor:$batch_var);
}

def Stablehlo_BatchNormInferenceOp : Stablehlo_Op<"batch_norm_inference",
    [Pure, HLO_InferTypeOp]> {
  let summary = "Normalizes with a given mean and variance per feature.";
  let arguments = (ins HLO_FpOrPerTensorQuantizedTensor:$operand,
                       HLO_1DFpOrPerTensorQuantizedTensor:$scale,
                       HLO_1DFpOrPerTensorQuantizedTensor:$offset,
                       HLO_1DFpOrPerTensorQuantizedTensor:$mean,
                       HLO_1DFpOrPerTensorQuantizedTensor:$variance,
                       F32Attr:$epsilon, I64Attr:$feature_index);
  let results = (outs HLO_FpOrPerTensorQuantizedTensor:$result);
}

def Stablehlo_BatchNormGradOp : Stablehlo_Op<"batch_norm_grad",
    [Pure, HLO_InferTypeOp]> {
  let summary = "Gradients of batch_norm_training's operand, scale and offset.";
  let arguments = (ins HLO_FpOrPerTensorQuantizedTensor:$operand,
                       HLO_1DFpOrPerTensorQuantizedTensor:$scale,
                       HLO_1DFpOrPerTensorQuantizedTensor:$mean,
                       HLO_1DFpOrPerTensorQuantizedTensor:$variance,
                       HLO_FpOrPerTensorQuantizedTensor:$grad_output,
                       F32Attr:$epsilon, I64Attr:$feature_index);
  let results = (outs HLO_FpOrPerTensorQuantizedTensor:$grad_operand,
                      HLO_1DFpOrPerTensorQuantizedTensor:$grad_scale,
                      HLO_1DFpOrPerTensorQuantizedTensor:$grad_offset);
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def Stablehlo_CholeskyOp : Stablehlo_Op<"cholesky",
    [Pure, HLO_InferOperandTypes]> {
  let summary = "Cholesky factor of each matrix of a batch (lower or upper).";
  let arguments = (ins HLO_FpComplexOrPerTensorQuantizedTensor:$a,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$lower);
  let results = (outs HLO_FpComplexOrPerTensorQuantizedTensor:$result);
  let assemblyFormat = [{
    $a (`,` `lower` `=` $lower^)? attr-dict `:`
      custom<SameOperandsAndResultType>(type($a), type($result))
  }];
  let hasVerifier = 1;
}

def Stablehlo_TriangularSolveOp : Stablehlo_Op<"triangular_solve",
    [Pure, HLO_InferTypeOp]> {
  let summary = "Solves op(a) x = b or x op(a) = b with a triangular.";
  let arguments = (ins HLO_FpComplexOrPerTensorQuantizedTensor:$a,
                       HLO_FpComplexOrPerTensorQuantizedTensor:$b,
                       BoolAttr:$left_side, BoolAttr:$lower,
                       BoolAttr:$unit_diagonal,
                       Stablehlo_TransposeAttr:$transpose_a);
  let results = (outs HLO_FpComplexOrPerTensorQuantizedTensor:$result);
}

//===----------------------------------------------------------------------===//
// map, composite, rng
//===----------------------------------------------------------------------===//

def Stablehlo_MapOp : Stablehlo_Op<"map",
    [RecursiveMemoryEffects, SameOperandsAndResultShape, HLO_InferTypeOp]> {
  let summary = "Applies the region to the elements of the inputs, position by position.";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs HLO_Tensor:$result);
  let regions = (region SizedRegion<1>:$computation);
  let hasRegionVerifier = 1;
}

def Stablehlo_CompositeOp : Stablehlo_Op<"composite",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A named op whose meaning is its `decomposition` function.";
  let description = [{
    `stablehlo.composite "my.op" %x {composite_attributes = {k = 1 : i64},
     decomposition = @my_op, version = 1 : i32} : (T) -> R`.
  }];
  let arguments = (ins Variadic<HLO_TensorTokenOrTuple>:$inputs,
                       StrAttr:$name,
                       DefaultValuedOptionalAttr<DictionaryAttr, "{}">:$composite_attributes,
                       FlatSymbolRefAttr:$decomposition,
                       DefaultValuedOptionalAttr<I32Attr, "0">:$version);
  let results = (outs Variadic<HLO_TensorTokenOrTuple>);
  let assemblyFormat = [{
    $name $inputs attr-dict `:` functional-type(operands, results)
  }];
}

def Stablehlo_RngOp : Stablehlo_Op<"rng", []> {
  let summary = "Random numbers of a uniform or normal distribution.";
  let description = [{
    `stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>,
     tensor<f32>, tensor<2xi64>) -> tensor<3x3xf32>`: uniform in [a, b), or
    normal with mean a and standard deviation b. The result shape is the
    value of `shape`.
  }];
  let arguments = (ins 0DTensorOf<[HLO_Pred, HLO_Int, HLO_Float]>:$a,
                       0DTensorOf<[HLO_Pred, HLO_Int, HLO_Float]>:$b,
                       HLO_DimensionTensor:$shape,
                       Stablehlo_RngDistributionAttr:$rng_distribution);
  let results = (outs RankedTensorOf<[HLO_Pred, HLO_Int, HLO_Float]>:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $shape `,` `distribution` `=`
      custom<RngDistribution>($rng_distribution)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Host transfers
//===----------------------------------------------------------------------===//

def Stablehlo_InfeedOp : Stablehlo_Op<"infeed", []> {
  let summary = "Reads values from the infeed; the last result is a token.";
  let arguments = (ins Stablehlo_Token:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$infeed_config,
                       OptionalAttr<ArrayAttr>:$layout);
  let results = (outs Variadic<HLO_TensorOrToken>);
  let hasVerifier = 1;
}

def Stablehlo_OutfeedOp : Stablehlo_Op<"outfeed",
    [HLO_InferTypeFromTypeConstraints]> {
  let summary = "Writes `inputs` to the outfeed.";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, Stablehlo_Token:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$outfeed_config);
  let results = (outs Stablehlo_Token);
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

def Stablehlo_TupleOp : Stablehlo_Op<"tuple", [Pure, HLO_InferTypeOp]> {
  let summary = "Packs its operands into a tuple.";
  let arguments = (ins Variadic<HLO_TensorTokenOrTuple>:$val);
  let results = (outs HLO_Tuple:$result);
  let assemblyFormat = [{
    $val attr-dict `:` custom<TupleOpType>(type($val), type($result))
  }];
}

def Stablehlo_GetTupleElementOp : Stablehlo_Op<"get_tuple_element",
    [Pure, HLO_InferTypeOp]> {
  let summary = "Element `index` of a tuple.";
  let arguments = (ins HLO_Tuple:$operand, I32Attr:$index);
  let results = (outs HLO_TensorTokenOrTuple:$result);
  let assemblyFormat = [{
    $operand `[` $index `]` attr-dict `:`
      custom<GetTupleElementType>(type($operand), type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Dynamic shapes: the result shape is the value of a shape operand
//===----------------------------------------------------------------------===//

def Stablehlo_GetDimensionSizeOp : Stablehlo_Op<"get_dimension_size",
    [Pure, HLO_InferTypeOp]> {
  let summary = "Size of dimension `dimension` of the operand, as an i32.";
  let arguments = (ins HLO_Tensor:$operand, I64Attr:$dimension);
  let results = (outs 0DTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)
  }];
}

def Stablehlo_DynamicIotaOp : Stablehlo_Op<"dynamic_iota", [Pure]> {
  let summary = "iota whose result shape is the value of `output_shape`.";
  let arguments = (ins HLO_DimensionTensor:$output_shape,
                       I64Attr:$iota_dimension);
  let results = (outs HLO_IntOrFpTensor:$result);
  let assemblyFormat = [{
    $output_shape `,` `dim` `=` $iota_dimension attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_DynamicReshapeOp : Stablehlo_Op<"dynamic_reshape", [Pure]> {
  let summary = "reshape whose result shape is the value of `output_shape`.";
  let arguments = (ins HLO_Tensor:$operand, HLO_DimensionTensor:$output_shape);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Stablehlo_DynamicBroadcastInDimOp
    : Stablehlo_Op<"dynamic_broadcast_in_dim", [Pure]> {
  let summary = "broadcast_in_dim whose result shape is the value of `output_dimensions`.";
  let arguments = (ins HLO_Tensor:$operand,
                       HLO_DimensionTensor:$output_dimensions,
                       DenseI64ArrayAttr:$broadcast_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$known_expanding_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$known_nonexpanding_dimensions);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $output_dimensions `,` `dims` `=` custom<Dims>($broadcast_dimensions)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_DynamicGatherOp : Stablehlo_Op<"dynamic_gather", [Pure]> {
  let summary = "gather whose slice sizes are the value of `slice_sizes`.";
  let arguments = (ins HLO_Tensor:$operand, HLO_IntTensor:$start_indices,
                       HLO_DimensionTensor:$slice_sizes,
                       Stablehlo_GatherDimensionNumbers:$dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs HLO_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_DynamicPadOp : Stablehlo_Op<"dynamic_pad", [Pure]> {
  let summary = "pad whose paddings are the values of operands.";
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$padding_value,
                       HLO_DimensionTensor:$edge_padding_low,
                       HLO_DimensionTensor:$edge_padding_high,
                       HLO_DimensionTensor:$interior_padding);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Stablehlo_DynamicConvOp : Stablehlo_Op<"dynamic_conv", [Pure]> {
  let summary = "convolution whose padding is the value of `padding`.";
  let description = [{
    `padding` is [N - 2, 2]: the low and high padding of each spatial
    dimension. The other attributes are convolution's.
  }];
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       HLO_IntTensor:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       Stablehlo_ConvDimensionNumbers:$dimension_numbers,
                       I64Attr:$feature_group_count,
                       I64Attr:$batch_group_count,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor:$result);
  let hasVerifier = 1;
}

#endif // MPMD_DIALECT_STABLEHLO_IR_STABLEHLOCOMPOUNDOPS_TD
