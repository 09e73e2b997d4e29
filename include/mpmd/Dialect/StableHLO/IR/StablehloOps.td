//===- StablehloOps.td - constants, shape and dot ops -----*- tablegen -*-===//
//
// Constants, iota, reshapes/broadcasts/transposes, slicing, padding,
// concatenation, dot products, gather. Region-carrying, control-flow,
// collective and side-effecting ops are in StablehloRegionOps.td; elementwise
// ops in StablehloElementwiseOps.td (split to keep each TU small).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLOOPS_TD
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLOOPS_TD

include "mpmd/Dialect/StableHLO/IR/StablehloAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// The element types are checked by the verifier, not inference: a quantized
// constant's value holds its storage integers (tensor<2xi8> for
// tensor<2x!quant.uniform<i8:f32, 0.5:-3>>).
def Stablehlo_ConstantOp : Stablehlo_Op<"constant",
    [ConstantLike, Pure, HLO_InferShapeOp,
     DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "A constant tensor: `stablehlo.constant dense<1> : tensor<i32>`.";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs HLO_Tensor:$output);
  let hasCustomAssemblyFormat = 1;
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Stablehlo_IotaOp : Stablehlo_Op<"iota", [Pure]> {
  let summary = "Counts up along `iota_dimension`: `stablehlo.iota dim = 0 : tensor<4xi32>`.";
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs HLO_IntFpComplexOrPerTensorQuantizedTensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
  let hasVerifier = 1;
}

def Stablehlo_ReshapeOp : Stablehlo_Op<"reshape", [Pure]> {
  let summary = "Changes the shape, keeping the elements in row-major order.";
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Stablehlo_BroadcastInDimOp : Stablehlo_Op<"broadcast_in_dim", [Pure]> {
  let summary = "Broadcasts `operand`; its dimension i becomes result dimension dims[i].";
  let arguments = (ins HLO_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` custom<Dims>($broadcast_dimensions)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_TransposeOp : Stablehlo_Op<"transpose", [Pure, HLO_InferTypeOp]> {
  let summary = "Permutes dimensions: result dimension i is operand dimension dims[i].";
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` custom<Dims>($permutation)
      attr-dict `:` functional-type(operands, results)
  }];
}

def Stablehlo_SliceOp : Stablehlo_Op<"slice", [Pure, HLO_InferTypeOp]> {
  let summary = "Static strided slice: `stablehlo.slice %x [1:3, 4:8:2]`.";
  let arguments = (ins HLO_Tensor:$operand,
                       DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides)
      attr-dict `:` functional-type(operands, results)
  }];
}

def Stablehlo_DynamicSliceOp
    : Stablehlo_Op<"dynamic_slice", [Pure, HLO_InferTypeOp]> {
  let summary = "Slice of static `sizes` at run-time start indices (clamped).";
  let arguments = (ins HLO_Tensor:$operand,
                       Variadic<HLO_ScalarIntTensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` custom<VariadicOperandWithAttribute>($start_indices)
      `sizes` `=` custom<Dims>($slice_sizes)
      attr-dict `:` functional-type(operands, results)
  }];
}

def Stablehlo_DynamicUpdateSliceOp
    : Stablehlo_Op<"dynamic_update_slice", [Pure, HLO_InferTypeOp]> {
  let summary = "Overwrites a slice of `operand` with `update` at run-time indices.";
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$update,
                       Variadic<HLO_ScalarIntTensor>:$start_indices);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Stablehlo_ConcatenateOp
    : Stablehlo_Op<"concatenate", [Pure, HLO_InferTypeOp]> {
  let summary = "Concatenates the inputs along `dimension`.";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension
      attr-dict `:` functional-type(operands, results)
  }];
}

def Stablehlo_PadOp : Stablehlo_Op<"pad", [Pure, HLO_InferTypeOp]> {
  let summary = "Pads at both edges and between elements with `padding_value`.";
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,`
      `low` `=` custom<Dims>($edge_padding_low) `,`
      `high` `=` custom<Dims>($edge_padding_high) `,`
      `interior` `=` custom<Dims>($interior_padding)
      attr-dict `:` functional-type(operands, results)
  }];
}

def Stablehlo_ReverseOp : Stablehlo_Op<"reverse",
    [Pure, AllTypesMatch<["operand", "result"]>,
     HLO_InferTypeFromTypeConstraints]> {
  let summary = "Reverses the order of elements along `dims`.";
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` custom<Dims>($dimensions) attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Stablehlo_DotOp : Stablehlo_Op<"dot", [Pure, HLO_InferShapeOp]> {
  let summary = "Vector/matrix dot product (legacy form of dot_general).";
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `` custom<PrecisionConfig>($precision_config)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_DotGeneralOp
    : Stablehlo_Op<"dot_general", [Pure, HLO_InferShapeOp]> {
  let summary = "Dot product with batching and contracting dimensions.";
  let description = [{
    `stablehlo.dot_general %a, %b, batching_dims = [0] x [0],
     contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT]`. The result
    dimensions are the batch dims, then the free lhs dims, then the free rhs
    dims.
  }];
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       Stablehlo_DotDimensionNumbers:$dot_dimension_numbers,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config,
                       OptionalAttr<Stablehlo_DotAlgorithm>:$algorithm);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers) ``
      custom<PrecisionAndAlgorithm>($precision_config, $algorithm)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_ConvolutionOp
    : Stablehlo_Op<"convolution", [Pure, HLO_InferShapeOp]> {
  let summary = "Dot products of the windows of `lhs` with the kernel `rhs`.";
  let description = [{
    `stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->
     [b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]],
     lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [0, 0]}
     {batch_group_count = 1 : i64, feature_group_count = 1 : i64}`.
    Window attributes left out mean stride 1, no padding, no dilation, no
    reversal. The result element type may differ from the operands' (an
    accumulation type, as JAX's `preferred_element_type` emits) if both are
    floats or both integers.
  }];
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       Stablehlo_ConvDimensionNumbers:$dimension_numbers,
                       I64Attr:$feature_group_count,
                       I64Attr:$batch_group_count,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    `(` $lhs `,` $rhs `)`
      `dim_numbers` `=` custom<ConvolutionDimensions>($dimension_numbers) `,`
      `window` `=` `{` custom<WindowAttributes>($window_strides, $padding,
                                                $lhs_dilation, $rhs_dilation,
                                                $window_reversal) `}`
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_GatherOp : Stablehlo_Op<"gather", [Pure, HLO_InferTypeOp]> {
  let summary = "Gathers slices of `operand` at the offsets in `start_indices`.";
  let arguments = (ins HLO_Tensor:$operand, HLO_IntTensor:$start_indices,
                       Stablehlo_GatherDimensionNumbers:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs HLO_Tensor:$result);
}

def Stablehlo_FftOp : Stablehlo_Op<"fft", [Pure]> {
  let summary = "Fourier transforms over the trailing dimensions: "
                "`stablehlo.fft %x, type = FFT, length = [8] : ...`.";
  let arguments = (ins HLO_FpOrComplexTensor:$operand,
                       Stablehlo_FftTypeAttr:$fft_type,
                       DenseI64ArrayAttr:$fft_length);
  let results = (outs HLO_FpOrComplexTensor:$result);
  let assemblyFormat = [{
    $operand `,` `type` `=` custom<FftType>($fft_type) `,`
      `length` `=` custom<Dims>($fft_length)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // MPMD_DIALECT_STABLEHLO_IR_STABLEHLOOPS_TD
