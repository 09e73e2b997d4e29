//===- ChloOps.td - chlo operations -----------------------*- tablegen -*-===//
//
// Our own subset of StableHLO's "client HLO" dialect: the chlo ops JAX
// emits, with upstream's pretty syntax
// (`%1 = chlo.square %0 : tensor<4xf32> -> tensor<4xf32>`). Any other
// `chlo.*` op is rejected with an "unsupported chlo op" error.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_CHLO_IR_CHLOOPS_TD
#define MPMD_DIALECT_CHLO_IR_CHLOOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Chlo_Dialect : Dialect {
  let name = "chlo";
  let cppNamespace = "::mlir::chlo";
  let summary = "Client HLO ops that JAX emits (subset).";
  let extraClassDeclaration = [{
    /// Rejects every chlo op this dialect does not define with an error
    /// naming it (instead of MLIR's generic "unknown custom op").
    std::optional<ParseOpHook>
    getParseOperationHook(::llvm::StringRef opName) const override;
  }];
}

class Chlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Chlo_Dialect, mnemonic, traits>;

def Chlo_FpTensor : TensorOf<[AnyFloat]>;
def Chlo_FpOrComplexTensor : TensorOf<[AnyFloat, AnyComplex]>;
def Chlo_NumericTensor : TensorOf<[AnyFloat, AnyComplex, AnySignlessInteger,
                                   AnyUnsignedInteger]>;
def Chlo_PredTensor : TensorOf<[I1]>;

/// Elementwise `op %x : T -> T`: the result has the operand's shape and
/// element type.
class Chlo_UnaryOp<string mnemonic, TypeConstraint type, string desc>
    : Chlo_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultShape,
                         SameOperandsAndResultElementType]> {
  let summary = desc;
  let arguments = (ins type:$operand);
  let results = (outs type:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def Chlo_ErfOp : Chlo_UnaryOp<"erf", Chlo_FpTensor, "Error function.">;
def Chlo_ErfcOp : Chlo_UnaryOp<"erfc", Chlo_FpTensor, "Complementary error function.">;
def Chlo_ErfInvOp : Chlo_UnaryOp<"erf_inv", Chlo_FpTensor, "Inverse error function.">;
def Chlo_LgammaOp : Chlo_UnaryOp<"lgamma", Chlo_FpTensor, "Log of the absolute gamma function.">;
def Chlo_DigammaOp : Chlo_UnaryOp<"digamma", Chlo_FpTensor, "Derivative of lgamma.">;
def Chlo_BesselI1eOp : Chlo_UnaryOp<"bessel_i1e", Chlo_FpTensor,
    "Exponentially scaled modified Bessel function of order 1.">;
def Chlo_SquareOp : Chlo_UnaryOp<"square", Chlo_NumericTensor, "x * x.">;
def Chlo_ConjOp : Chlo_UnaryOp<"conj", Chlo_FpOrComplexTensor, "Complex conjugate.">;
def Chlo_TanOp : Chlo_UnaryOp<"tan", Chlo_FpOrComplexTensor, "Tangent.">;
def Chlo_SinhOp : Chlo_UnaryOp<"sinh", Chlo_FpOrComplexTensor, "Hyperbolic sine.">;
def Chlo_CoshOp : Chlo_UnaryOp<"cosh", Chlo_FpOrComplexTensor, "Hyperbolic cosine.">;
def Chlo_AsinOp : Chlo_UnaryOp<"asin", Chlo_FpOrComplexTensor, "Arcsine.">;
def Chlo_AcosOp : Chlo_UnaryOp<"acos", Chlo_FpOrComplexTensor, "Arccosine.">;
def Chlo_AtanOp : Chlo_UnaryOp<"atan", Chlo_FpOrComplexTensor, "Arctangent.">;
def Chlo_AsinhOp : Chlo_UnaryOp<"asinh", Chlo_FpOrComplexTensor, "Inverse hyperbolic sine.">;
def Chlo_AcoshOp : Chlo_UnaryOp<"acosh", Chlo_FpOrComplexTensor, "Inverse hyperbolic cosine.">;
def Chlo_AtanhOp : Chlo_UnaryOp<"atanh", Chlo_FpOrComplexTensor, "Inverse hyperbolic tangent.">;

/// `op %x : tensor<4xf32> -> tensor<4xi1>`: an elementwise float test.
class Chlo_PredicateOp<string mnemonic, string desc>
    : Chlo_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = desc;
  let arguments = (ins Chlo_FpTensor:$operand);
  let results = (outs Chlo_PredTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def Chlo_IsInfOp : Chlo_PredicateOp<"is_inf", "True where the value is +inf or -inf.">;
def Chlo_IsNegInfOp : Chlo_PredicateOp<"is_neg_inf", "True where the value is -inf.">;
def Chlo_IsPosInfOp : Chlo_PredicateOp<"is_pos_inf", "True where the value is +inf.">;

/// `op %a, %b : T, T -> T`: elementwise on operands of one shape.
class Chlo_BinaryOp<string mnemonic, string desc>
    : Chlo_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultShape,
                         SameOperandsAndResultElementType]> {
  let summary = desc;
  let arguments = (ins Chlo_FpTensor:$lhs, Chlo_FpTensor:$rhs);
  let results = (outs Chlo_FpTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def Chlo_PolygammaOp : Chlo_BinaryOp<"polygamma", "Polygamma function psi^(n)(x).">;
def Chlo_ZetaOp : Chlo_BinaryOp<"zeta", "Hurwitz zeta function zeta(x, q).">;
def Chlo_NextAfterOp : Chlo_BinaryOp<"next_after",
    "The next representable value after x in the direction of y.">;

def Chlo_TopKOp : Chlo_Op<"top_k", [Pure]> {
  let summary = "The k largest values of the last dimension and their indices.";
  let description = [{
    `%v, %i = chlo.top_k(%x, k = 2) : tensor<4x8xf32> -> (tensor<4x2xf32>, tensor<4x2xi32>)`.
    Both results have the operand's shape with the last dimension set to k;
    `values` has the operand's element type and `indices` is i32.
  }];
  let arguments = (ins TensorOf<[AnyFloat, AnySignlessInteger,
                                 AnyUnsignedInteger]>:$operand,
                       I64Attr:$k);
  let results = (outs AnyRankedTensor:$values, TensorOf<[I32]>:$indices);
  let assemblyFormat = [{
    `(` $operand `,` `k` `=` $k `)` attr-dict `:`
    type($operand) `->` `(` type($values) `,` type($indices) `)`
  }];
  let hasVerifier = 1;
}

#endif // MPMD_DIALECT_CHLO_IR_CHLOOPS_TD
