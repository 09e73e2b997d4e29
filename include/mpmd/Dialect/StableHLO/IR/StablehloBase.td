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

def Stablehlo_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::mlir::stablehlo";
  let summary = "The StableHLO operation set (the subset JAX training steps use).";
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
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

class Stablehlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stablehlo_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Element and tensor type constraints
//===----------------------------------------------------------------------===//

def HLO_Pred : TypeAlias<I1, "pred (i1)">;
def HLO_Int : AnyTypeOf<[I<4>, I8, I16, I32, I64, UI<4>, UI8, UI16, UI32, UI64],
                         "integer">;
def HLO_Float : AnyTypeOf<[AnyFloat], "floating-point">;
def HLO_Complex : Complex<AnyTypeOf<[F32, F64]>>;

def HLO_Tensor : RankedTensorOf<[HLO_Float, HLO_Pred, HLO_Int, HLO_Complex]>;
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
