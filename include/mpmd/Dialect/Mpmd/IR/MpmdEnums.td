//===- MpmdEnums.td - mpmd enums ---------------------------*- tablegen -*-===//

#ifndef MPMD_DIALECT_MPMD_IR_MPMDENUMS_TD
#define MPMD_DIALECT_MPMD_IR_MPMDENUMS_TD

include "mlir/IR/EnumAttr.td"

def Mpmd_ReductionType : I32EnumAttr<"ReductionType",
    "How a cross-mesh reduction combines its operands", [
      I32EnumAttrCase<"kNone", 0, "none">,
      I32EnumAttrCase<"kAdd", 1, "add">,
      I32EnumAttrCase<"kMax", 2, "max">,
      I32EnumAttrCase<"kMin", 3, "min">,
      I32EnumAttrCase<"kMul", 4, "mul">,
      I32EnumAttrCase<"kOr", 5, "or">,
      I32EnumAttrCase<"kAnd", 6, "and">]> {
  let cppNamespace = "::mlir::mpmd";
  let genSpecializedAttr = 0;
}

#endif // MPMD_DIALECT_MPMD_IR_MPMDENUMS_TD
