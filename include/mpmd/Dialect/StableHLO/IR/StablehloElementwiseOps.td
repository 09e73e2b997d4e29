//===- StablehloElementwiseOps.td - elementwise ops -------*- tablegen -*-===//
//
// Unary and binary elementwise ops, clamp, select, compare and conversions.
// Printed as `stablehlo.add %a, %b : tensor<4xf32>` when all types agree,
// with a functional type otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLOELEMENTWISEOPS_TD
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLOELEMENTWISEOPS_TD

include "mpmd/Dialect/StableHLO/IR/StablehloAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Operands and results have compatible shapes and one element type.
def HLO_CompatibleOperandsAndResultType
    : NativeOpTrait<"CompatibleOperandsAndResultType"> {
  let cppNamespace = "::mlir::stablehlo::OpTrait";
}

class HLO_UnaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : Stablehlo_Op<mnemonic,
                   traits # [Pure, HLO_CompatibleOperandsAndResultType,
                             HLO_InferElementwiseType]> {
  let arguments = (ins type:$operand);
  let results = (outs type:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

def Stablehlo_AbsOp : Stablehlo_Op<"abs",
    [Pure, SameOperandsAndResultShape, HLO_InferTypeOp]> {
  let summary = "Absolute value (complex operands give their modulus).";
  let arguments = (ins HLO_IntFpComplexOrPerTensorQuantizedTensor:$operand);
  let results = (outs HLO_IntFpOrPerTensorQuantizedTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}
def Stablehlo_CbrtOp : HLO_UnaryOp<"cbrt", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_CeilOp : HLO_UnaryOp<"ceil", HLO_FpOrPerTensorQuantizedTensor>;
def Stablehlo_FloorOp : HLO_UnaryOp<"floor", HLO_FpOrPerTensorQuantizedTensor>;
def Stablehlo_CosineOp : HLO_UnaryOp<"cosine", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_SineOp : HLO_UnaryOp<"sine", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_TanOp : HLO_UnaryOp<"tan", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_TanhOp : HLO_UnaryOp<"tanh", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_ExpOp : HLO_UnaryOp<"exponential", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_Expm1Op : HLO_UnaryOp<"exponential_minus_one", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_LogOp : HLO_UnaryOp<"log", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_Log1pOp : HLO_UnaryOp<"log_plus_one", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_LogisticOp : HLO_UnaryOp<"logistic", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_NegOp : HLO_UnaryOp<"negate", HLO_IntFpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_NotOp : HLO_UnaryOp<"not", HLO_PredOrIntTensor>;
def Stablehlo_PopulationCountOp : HLO_UnaryOp<"popcnt", HLO_IntTensor>;
def Stablehlo_RoundOp : HLO_UnaryOp<"round_nearest_afz", HLO_FpOrPerTensorQuantizedTensor>;
def Stablehlo_RoundNearestEvenOp : HLO_UnaryOp<"round_nearest_even", HLO_FpOrPerTensorQuantizedTensor>;
def Stablehlo_RsqrtOp : HLO_UnaryOp<"rsqrt", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_SqrtOp : HLO_UnaryOp<"sqrt", HLO_FpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_SignOp : HLO_UnaryOp<"sign", HLO_IntFpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_ClzOp : HLO_UnaryOp<"count_leading_zeros", HLO_IntTensor>;

def Stablehlo_IsFiniteOp
    : Stablehlo_Op<"is_finite",
                   [Pure, SameOperandsAndResultShape, HLO_InferTypeOp]> {
  let summary = "Whether each element is finite (not inf or NaN).";
  let arguments = (ins HLO_FpOrPerTensorQuantizedTensor:$x);
  let results = (outs HLO_PredTensor:$y);
  let assemblyFormat = [{
    $x attr-dict `:` custom<SameOperandsAndResultType>(type($x), type($y))
  }];
}

class HLO_ComplexPartOp<string mnemonic>
    : Stablehlo_Op<mnemonic,
                   [Pure, SameOperandsAndResultShape, HLO_InferTypeOp]> {
  let arguments = (ins HLO_FpOrComplexTensor:$operand);
  let results = (outs HLO_FpTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}
def Stablehlo_RealOp : HLO_ComplexPartOp<"real">;
def Stablehlo_ImagOp : HLO_ComplexPartOp<"imag">;

def Stablehlo_ComplexOp : Stablehlo_Op<"complex",
    [Pure, SameOperandsAndResultShape]> {
  let summary = "Complex numbers from real (`lhs`) and imaginary (`rhs`) "
                "parts: `stablehlo.complex %re, %im : tensor<2xcomplex<f32>>`.";
  let arguments = (ins RankedTensorOf<[F32, F64]>:$lhs,
                       RankedTensorOf<[F32, F64]>:$rhs);
  let results = (outs RankedTensorOf<[HLO_Complex]>:$result);
  // The parts' type follows from the result's; a functional type is
  // accepted too.
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict
      `:` custom<ComplexOpType>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
}

class HLO_BinaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : Stablehlo_Op<mnemonic,
                   traits # [Pure, HLO_CompatibleOperandsAndResultType,
                             HLO_InferElementwiseType]> {
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict
      `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))
  }];
}

def Stablehlo_AddOp : HLO_BinaryOp<"add", HLO_Tensor, [Commutative]>;
def Stablehlo_SubtractOp : HLO_BinaryOp<"subtract", HLO_IntFpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_MulOp : HLO_BinaryOp<"multiply", HLO_TensorOrPerTensorQuantized, [Commutative]>;
def Stablehlo_DivOp : HLO_BinaryOp<"divide", HLO_IntFpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_RemOp : HLO_BinaryOp<"remainder", HLO_IntFpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_PowOp : HLO_BinaryOp<"power", HLO_IntFpComplexOrPerTensorQuantizedTensor>;
def Stablehlo_MaxOp : HLO_BinaryOp<"maximum", HLO_TensorOrPerTensorQuantized, [Commutative]>;
def Stablehlo_MinOp : HLO_BinaryOp<"minimum", HLO_TensorOrPerTensorQuantized, [Commutative]>;
def Stablehlo_AndOp : HLO_BinaryOp<"and", HLO_PredOrIntTensor, [Commutative]>;
def Stablehlo_OrOp : HLO_BinaryOp<"or", HLO_PredOrIntTensor, [Commutative]>;
def Stablehlo_XorOp : HLO_BinaryOp<"xor", HLO_PredOrIntTensor, [Commutative]>;
def Stablehlo_ShiftLeftOp : HLO_BinaryOp<"shift_left", HLO_IntTensor>;
def Stablehlo_ShiftRightArithmeticOp
    : HLO_BinaryOp<"shift_right_arithmetic", HLO_IntTensor>;
def Stablehlo_ShiftRightLogicalOp
    : HLO_BinaryOp<"shift_right_logical", HLO_IntTensor>;
def Stablehlo_Atan2Op : HLO_BinaryOp<"atan2", HLO_FpComplexOrPerTensorQuantizedTensor>;

def Stablehlo_ClampOp : Stablehlo_Op<"clamp", [Pure, HLO_InferTypeOp]> {
  let summary = "Clamps `operand` between `min` and `max` (scalars or same shape).";
  let arguments = (ins HLO_TensorOrPerTensorQuantized:$min,
                       HLO_TensorOrPerTensorQuantized:$operand,
                       HLO_TensorOrPerTensorQuantized:$max);
  let results = (outs HLO_TensorOrPerTensorQuantized:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict
      `:` custom<SameOperandsAndResultType>(type($min), type($operand), type($max), type($result))
  }];
}

def Stablehlo_SelectOp : Stablehlo_Op<"select", [Pure, HLO_InferTypeOp]> {
  let summary = "Picks `on_true` where `pred` holds, else `on_false`.";
  let arguments = (ins HLO_PredTensor:$pred,
                       HLO_TensorOrPerTensorQuantized:$on_true,
                       HLO_TensorOrPerTensorQuantized:$on_false);
  let results = (outs HLO_TensorOrPerTensorQuantized:$result);
  let assemblyFormat = [{
    operands attr-dict `:`
      custom<SelectOpType>(type($pred), type($on_true), type($on_false), type($result))
  }];
}

def Stablehlo_CompareOp : Stablehlo_Op<"compare", [Pure, HLO_InferTypeOp]> {
  let summary = "Elementwise comparison: `stablehlo.compare LT, %a, %b, FLOAT`.";
  let arguments = (ins HLO_TensorOrPerTensorQuantized:$lhs,
                       HLO_TensorOrPerTensorQuantized:$rhs,
                       Stablehlo_ComparisonDirectionAttr:$comparison_direction,
                       OptionalAttr<Stablehlo_ComparisonTypeAttr>:$compare_type);
  let results = (outs HLO_PredTensor:$result);
  let assemblyFormat = [{
    custom<ComparisonDirection>($comparison_direction) `,` $lhs `,` $rhs
      (`,` custom<ComparisonType>($compare_type)^)?
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_ReducePrecisionOp : Stablehlo_Op<"reduce_precision",
    [Pure, HLO_CompatibleOperandsAndResultType, HLO_InferElementwiseType]> {
  let summary = "Rounds each element as if converted to a float format with "
                "`exponent_bits` and `mantissa_bits`, and back.";
  let arguments = (ins HLO_FpOrPerTensorQuantizedTensor:$operand,
                       ConfinedAttr<I32Attr, [IntPositive]>:$exponent_bits,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$mantissa_bits);
  let results = (outs HLO_FpOrPerTensorQuantizedTensor:$output);
  // `stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>`.
  let assemblyFormat = [{
    $operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, $mantissa_bits)
    attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($output))
  }];
}

def Stablehlo_ConvertOp : Stablehlo_Op<"convert", [Pure, SameOperandsAndResultShape]> {
  let summary = "Converts each element to the result element type.";
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
  let hasVerifier = 1;
}

def Stablehlo_BitcastConvertOp : Stablehlo_Op<"bitcast_convert", [Pure]> {
  let summary = "Reinterprets the bits of each element as the result element type.";
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Stablehlo_UniformQuantizeOp : Stablehlo_Op<"uniform_quantize",
    [Pure, SameOperandsAndResultShape]> {
  let summary = "Quantizes floats, or requantizes a quantized tensor, to the "
                "result's quantized type: `stablehlo.uniform_quantize %x : "
                "(tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-3>>`.";
  let arguments = (ins HLO_FpOrQuantizedTensor:$operand);
  let results = (outs HLO_QuantizedTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
  let hasVerifier = 1;
}

def Stablehlo_UniformDequantizeOp : Stablehlo_Op<"uniform_dequantize",
    [Pure, SameOperandsAndResultShape, HLO_InferTypeOp]> {
  let summary = "The floats a quantized tensor stands for (its expressed "
                "type): `stablehlo.uniform_dequantize %q : "
                "(tensor<2x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2xf32>`.";
  let arguments = (ins HLO_QuantizedTensor:$operand);
  let results = (outs HLO_FpTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

#endif // MPMD_DIALECT_STABLEHLO_IR_STABLEHLOELEMENTWISEOPS_TD
