//===- StablehloBase.td - The stablehlo dialect definition -*- tablegen -*-===//
//
// Our own implementation of the subset of OpenXLA StableHLO that JAX emits
// for training steps. Names and printed syntax follow upstream so that IR
// moves between the two unchanged; the definitions here are ours.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLOBASE_TD
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLOBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Stablehlo_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::mlir::stablehlo";
  let summary = "The StableHLO operation set (the subset JAX training steps use).";
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // Quantized tensors use the quant dialect's `!quant.uniform` types.
  let dependentDialects = ["::mlir::quant::QuantDialect"];
  let extraClassDeclaration = [{
  private:
    // Defined next to the attribute/type storage classes, which only that
    // file sees.
    void registerAttributes();
    void registerTypes();
  public:
  }];
}

class Stablehlo_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Stablehlo_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class Stablehlo_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Stablehlo_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Stablehlo_Token : Stablehlo_Type<"Token", "token"> {
  let summary = "Token used to order side-effecting ops: `!stablehlo.token`.";
}

def Stablehlo_Future : Stablehlo_Type<"Future", "future"> {
  let summary = "The tensors an asynchronous op produces: `!stablehlo.future<tensor<8xf32>>`.";
  let parameters = (ins ArrayRefParameter<"::mlir::Type", "the tensors">:$types);
  let assemblyFormat = "`<` $types `>`";
  let genVerifyDecl = 1;
}

class Stablehlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stablehlo_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Result type inference
//===----------------------------------------------------------------------===//
//
// Ops that know their result types from operands, attributes or regions
// implement InferTypeOpInterface through one of the traits below, so that
// C++ builders need no result types (`AddOp::create(b, loc, lhs, rhs)`).
//
// Verification compares the given result types with the inferred ones
// (isCompatibleReturnTypes: same element type, compatible shapes, so dynamic
// dimensions are accepted where sizes may agree). refineReturnTypes reports
// why inference fails (malformed operands or attributes) or names the first
// result element type, rank or dimension that differs. The C++ trait
// HloInferTypeOp runs it when the verifier enters the op, so these messages
// come before those of the op's own verifier, and MLIR's generic interface
// check (which runs later and would add "failed to infer returned types")
// is never reached for an op that fails.
//
// The C++ side is in StablehloTypeInference.h (private to the library).

// Declarations every inferring op gets.
defvar HLO_InferTypeCommonDecls = [{
  static ::llvm::LogicalResult refineReturnTypes(
      ::mlir::MLIRContext *context, ::std::optional<::mlir::Location> location,
      ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
      ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
      ::llvm::SmallVectorImpl<::mlir::Type> &returnTypes);
  static bool isCompatibleReturnTypes(::mlir::TypeRange inferred,
                                      ::mlir::TypeRange actual);
}];

// Their definitions; `checkElementTypes` is false for ops whose result
// element type is free (dot products may accumulate in a wider type).
class HLO_InferTypeCommonDefs<bit checkElementTypes> {
  defvar check = !if(checkElementTypes, "true", "false");
  code value = [{
  ::llvm::LogicalResult $cppClass::refineReturnTypes(
      ::mlir::MLIRContext *context, ::std::optional<::mlir::Location> location,
      ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
      ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
      ::llvm::SmallVectorImpl<::mlir::Type> &returnTypes) {
    ::llvm::SmallVector<::mlir::Type, 4> inferred;
    if (::mlir::failed(inferReturnTypes(context, location, operands,
                                        attributes, properties, regions,
                                        inferred)))
      return ::mlir::failure();
    return ::mlir::stablehlo::verifyInferredTypes(
        location, getOperationName(),
        hasTrait<::mlir::OpTrait::OneResult>(), }] # check # [{, inferred,
        returnTypes);
  }
  bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange inferred,
                                          ::mlir::TypeRange actual) {
    return ::mlir::stablehlo::isCompatibleInferredTypes(inferred, actual, }]
      # check # [{);
  }
}];
}

class HLO_InferTypeNativeTrait<code decls, code defs>
    : NativeOpTrait<"HloInferTypeOp", [], decls, defs> {
  let cppNamespace = "::mlir::stablehlo::OpTrait";
}

// The op defines `inferReturnTypes(context, location, Adaptor, types)` in C++.
class HLO_InferTypeWithAdaptor<bit checkElementTypes> : TraitList<[
  DeclareOpInterfaceMethods<InferTypeOpInterface>,
  HLO_InferTypeNativeTrait<HLO_InferTypeCommonDecls # [{
    static ::llvm::LogicalResult inferReturnTypes(
        ::mlir::MLIRContext *context,
        ::std::optional<::mlir::Location> location, Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes);
  }], HLO_InferTypeCommonDefs<checkElementTypes>.value # [{
  ::llvm::LogicalResult $cppClass::inferReturnTypes(
      ::mlir::MLIRContext *context, ::std::optional<::mlir::Location> location,
      ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
      ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
      ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
    Adaptor adaptor(operands, attributes, properties, regions);
    return inferReturnTypes(context, location, adaptor, inferredReturnTypes);
  }
  }]>]>;
def HLO_InferTypeOp : HLO_InferTypeWithAdaptor<1>;
def HLO_InferShapeOp : HLO_InferTypeWithAdaptor<0>;

// ODS itself defines inferReturnTypes: the result type is buildable
// (!stablehlo.token) or AllTypesMatch ties it to an operand.
def HLO_InferTypeFromTypeConstraints : TraitList<[
  DeclareOpInterfaceMethods<InferTypeOpInterface>,
  HLO_InferTypeNativeTrait<HLO_InferTypeCommonDecls,
                           HLO_InferTypeCommonDefs<1>.value>]>;

// Generic inferReturnTypes bodies: `body` sees the hook's arguments.
class HLO_InferTypeWithBody<code body> : TraitList<[
  DeclareOpInterfaceMethods<InferTypeOpInterface>,
  HLO_InferTypeNativeTrait<HLO_InferTypeCommonDecls,
    HLO_InferTypeCommonDefs<1>.value # [{
  ::llvm::LogicalResult $cppClass::inferReturnTypes(
      ::mlir::MLIRContext *context, ::std::optional<::mlir::Location> location,
      ::mlir::ValueRange operands, ::mlir::DictionaryAttr attributes,
      ::mlir::OpaqueProperties properties, ::mlir::RegionRange regions,
      ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
    }] # body # [{
  }
  }]>]>;

// Elementwise: the operand type, with the shape refined across operands.
def HLO_InferElementwiseType : HLO_InferTypeWithBody<[{
    return ::mlir::stablehlo::inferElementwiseTypes(
        location, getOperationName(), operands.getTypes(),
        inferredReturnTypes);
}]>;

// Result i has the type of operand i.
def HLO_InferOperandTypes : HLO_InferTypeWithBody<[{
    ::llvm::append_range(inferredReturnTypes, operands.getTypes());
    return ::mlir::success();
}]>;

// A fixed result type, built from `context`.
class HLO_InferFixedType<code type> : HLO_InferTypeWithBody<[{
    inferredReturnTypes.push_back(}] # type # [{);
    return ::mlir::success();
}]>;
def HLO_InferUI32ScalarType : HLO_InferFixedType<[{
    ::mlir::RankedTensorType::get({}, ::mlir::IntegerType::get(
        context, 32, ::mlir::IntegerType::Unsigned))}]>;

//===----------------------------------------------------------------------===//
// Element and tensor type constraints
//===----------------------------------------------------------------------===//

def HLO_Pred : TypeAlias<I1, "pred (i1)">;
def HLO_Int : AnyTypeOf<[I<2>, I<4>, I8, I16, I32, I64, UI<2>, UI<4>, UI8, UI16,
                          UI32, UI64],
                         "integer">;
// The spec's float types (not f80 or f128).
def HLO_Float : AnyTypeOf<[F4E2M1FN, F6E2M3FN, F6E3M2FN, F8E3M4, F8E4M3,
                           F8E4M3FN, F8E4M3FNUZ, F8E4M3B11FNUZ, F8E5M2,
                           F8E5M2FNUZ, F8E8M0FNU, BF16, F16, TF32, F32, F64],
                          "floating-point">;
def HLO_Complex : Complex<AnyTypeOf<[F32, F64]>>;

// Quantized element types (`!quant.uniform<i8:f32, 0.5:-3>`, per-axis
// `!quant.uniform<i8:f32:1, {0.1:-1, 0.2:2}>`) that satisfy the spec's
// constraints (StablehloQuantization.h). Ops list what the spec allows:
// "quantized tensor" (either kind) or "per-tensor quantized tensor".
def HLO_QuantizedInt
    : Type<CPred<"::mlir::stablehlo::isQuantizedElementType($_self)">,
           "quantized integer">;
def HLO_PerTensorQuantizedInt
    : Type<CPred<"::mlir::stablehlo::isPerTensorQuantizedElementType($_self)">,
           "per-tensor quantized integer">;
// A per-axis quantized tensor's quantization_dimension is one of its
// dimensions, whose size is the number of scales (C12, C13).
defvar HLO_QuantizationAxisFits =
    CPred<"::mlir::stablehlo::hasValidQuantizationAxis($_self)">;

// Any tensor of the spec: quantized ones included (the ops whose spec
// forbids those check it in their verifiers).
def HLO_Tensor : RankedTensorOf<[HLO_Float, HLO_Pred, HLO_Int, HLO_Complex,
                                 HLO_QuantizedInt], [HLO_QuantizationAxisFits]>;
def HLO_TensorOrPerTensorQuantized
    : RankedTensorOf<[HLO_Float, HLO_Pred, HLO_Int, HLO_Complex,
                      HLO_PerTensorQuantizedInt]>;
def HLO_QuantizedTensor
    : RankedTensorOf<[HLO_QuantizedInt], [HLO_QuantizationAxisFits]>;
def HLO_FpOrQuantizedTensor
    : RankedTensorOf<[HLO_Float, HLO_QuantizedInt], [HLO_QuantizationAxisFits]>;
// The elementwise ops whose spec allows per-tensor quantized tensors.
def HLO_FpOrPerTensorQuantizedTensor
    : RankedTensorOf<[HLO_Float, HLO_PerTensorQuantizedInt]>;
def HLO_FpComplexOrPerTensorQuantizedTensor
    : RankedTensorOf<[HLO_Float, HLO_Complex, HLO_PerTensorQuantizedInt]>;
def HLO_IntFpComplexOrPerTensorQuantizedTensor
    : RankedTensorOf<[HLO_Int, HLO_Float, HLO_Complex,
                      HLO_PerTensorQuantizedInt]>;
def HLO_IntFpOrPerTensorQuantizedTensor
    : RankedTensorOf<[HLO_Int, HLO_Float, HLO_PerTensorQuantizedInt]>;
def HLO_PredTensor : RankedTensorOf<[HLO_Pred]>;
def HLO_IntTensor : RankedTensorOf<[HLO_Int]>;
def HLO_PredOrIntTensor : RankedTensorOf<[HLO_Pred, HLO_Int]>;
def HLO_FpTensor : RankedTensorOf<[HLO_Float]>;
def HLO_FpOrComplexTensor : RankedTensorOf<[HLO_Float, HLO_Complex]>;
def HLO_IntFpOrComplexTensor : RankedTensorOf<[HLO_Int, HLO_Float, HLO_Complex]>;
def HLO_IntOrFpTensor : RankedTensorOf<[HLO_Int, HLO_Float]>;
def HLO_ScalarIntTensor : 0DTensorOf<[HLO_Int]>;
def HLO_ScalarPredTensor : 0DTensorOf<[HLO_Pred]>;
def HLO_DimensionTensor : 1DTensorOf<[HLO_Int]>;
def HLO_TensorOrToken : AnyTypeOf<[HLO_Tensor, Stablehlo_Token]>;

#endif // MPMD_DIALECT_STABLEHLO_IR_STABLEHLOBASE_TD
