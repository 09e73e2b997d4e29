//===- StablehloElementwiseOps.cpp - elementwise ops ----------------------===//

#include "StablehloAsm.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::stablehlo;

#define GET_OP_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloElementwiseOps.cpp.inc"

void mlir::stablehlo::registerElementwiseOps(StablehloDialect &dialect) {
  insertOps<
#define GET_OP_LIST
#include "mpmd/Dialect/StableHLO/IR/StablehloElementwiseOps.cpp.inc"
      >(dialect);
}

namespace {

/// The element type of a complex element type's parts, or `type` itself.
Type realPartType(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return complex.getElementType();
  return type;
}

/// Checks that `a` and `b` have the same rank and compatible dimensions.
LogicalResult verifySameShape(Operation *op, RankedTensorType a,
                              RankedTensorType b, StringRef aName,
                              StringRef bName) {
  if (failed(verifyCompatibleShape(a, b)))
    return op->emitOpError() << aName << " shape " << shapeToString(a.getShape())
                             << " is incompatible with " << bName << " shape "
                             << shapeToString(b.getShape());
  return success();
}

} // namespace

LogicalResult
mlir::stablehlo::OpTrait::verifyCompatibleOperandsAndResultType(Operation *op) {
  Type reference = op->getNumResults() ? op->getResult(0).getType()
                                       : op->getOperand(0).getType();
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    if (getElementTypeOrSelf(type) != getElementTypeOrSelf(reference))
      return op->emitOpError()
             << "requires the same element type for all operands and results, "
                "but "
             << what << " #" << index << " has type " << type
             << " and the result has " << reference;
    if (failed(verifyCompatibleShape(type, reference)))
      return op->emitOpError()
             << "requires compatible shapes for all operands and results, but "
             << what << " #" << index << " has type " << type
             << " and the result has " << reference;
    return success();
  };
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", index)))
      return failure();
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", index)))
      return failure();
  return success();
}

LogicalResult AbsOp::verify() {
  Type operand = getElementTypeOrSelf(getOperand().getType());
  Type result = getElementTypeOrSelf(getResult().getType());
  if (realPartType(operand) != result)
    return emitOpError() << "result element type " << result
                         << " does not match expected " << realPartType(operand);
  return success();
}

static LogicalResult verifyComplexPart(Operation *op) {
  Type operand = getElementTypeOrSelf(op->getOperand(0).getType());
  Type result = getElementTypeOrSelf(op->getResult(0).getType());
  if (realPartType(operand) != result)
    return op->emitOpError() << "result element type " << result
                             << " does not match expected "
                             << realPartType(operand);
  return success();
}

LogicalResult RealOp::verify() { return verifyComplexPart(*this); }
LogicalResult ImagOp::verify() { return verifyComplexPart(*this); }

LogicalResult ClampOp::verify() {
  auto operandType = getOperand().getType();
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"min", getMin()}, {"max", getMax()}}) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getElementType() != operandType.getElementType())
      return emitOpError() << name << " element type " << type.getElementType()
                           << " does not match operand element type "
                           << operandType.getElementType();
    if (type.getRank() != 0 &&
        failed(verifySameShape(*this, type, operandType, name, "operand")))
      return failure();
  }
  if (failed(verifyCompatibleShape(getResult().getType(), operandType)) ||
      getResult().getType().getElementType() != operandType.getElementType())
    return emitOpError() << "result type " << getResult().getType()
                         << " does not match operand type " << operandType;
  return success();
}

LogicalResult SelectOp::verify() {
  auto predType = getPred().getType();
  auto trueType = getOnTrue().getType();
  auto falseType = getOnFalse().getType();
  if (trueType.getElementType() != falseType.getElementType() ||
      failed(verifyCompatibleShape(trueType, falseType)))
    return emitOpError() << "on_true type " << trueType
                         << " does not match on_false type " << falseType;
  if (predType.getRank() != 0 &&
      failed(verifySameShape(*this, predType, trueType, "pred", "on_true")))
    return failure();
  auto resultType = getResult().getType();
  if (resultType.getElementType() != trueType.getElementType() ||
      failed(verifyCompatibleShape(resultType, trueType)))
    return emitOpError() << "result type " << resultType
                         << " does not match on_true type " << trueType;
  return success();
}

LogicalResult CompareOp::verify() {
  auto lhsType = getLhs().getType();
  auto rhsType = getRhs().getType();
  if (lhsType.getElementType() != rhsType.getElementType())
    return emitOpError() << "lhs element type " << lhsType.getElementType()
                         << " does not match rhs element type "
                         << rhsType.getElementType();
  if (failed(verifySameShape(*this, lhsType, rhsType, "lhs", "rhs")) ||
      failed(verifySameShape(*this, getResult().getType(), lhsType, "result",
                             "lhs")))
    return failure();
  if (auto type = getCompareType()) {
    Type element = lhsType.getElementType();
    bool isFloat = isa<FloatType>(realPartType(element));
    bool ok = true;
    switch (*type) {
    case ComparisonType::FLOAT:
    case ComparisonType::TOTALORDER:
      ok = isFloat;
      break;
    case ComparisonType::SIGNED:
    case ComparisonType::UNSIGNED:
      ok = isa<IntegerType>(element);
      break;
    case ComparisonType::NOTYPE:
      break;
    }
    if (!ok)
      return emitOpError() << "compare type " << stringifyComparisonType(*type)
                           << " does not apply to element type " << element;
  }
  return success();
}

LogicalResult BitcastConvertOp::verify() {
  auto operandType = getOperand().getType();
  auto resultType = getResult().getType();
  Type inElement = operandType.getElementType();
  Type outElement = resultType.getElementType();
  if (isa<ComplexType>(inElement) || isa<ComplexType>(outElement))
    return emitOpError() << "does not support complex element types";
  unsigned inBits = inElement.getIntOrFloatBitWidth();
  unsigned outBits = outElement.getIntOrFloatBitWidth();
  ArrayRef<int64_t> inShape = operandType.getShape();
  ArrayRef<int64_t> outShape = resultType.getShape();
  if (inBits == outBits)
    return verifySameShape(*this, operandType, resultType, "operand", "result");
  // Narrowing adds a trailing dimension of inBits/outBits; widening drops one.
  ArrayRef<int64_t> smaller = inBits > outBits ? inShape : outShape;
  ArrayRef<int64_t> larger = inBits > outBits ? outShape : inShape;
  unsigned ratio = inBits > outBits ? inBits / outBits : outBits / inBits;
  if (larger.size() != smaller.size() + 1 ||
      !isCompatibleDim(larger.back(), ratio) ||
      failed(verifyCompatibleShape(smaller, larger.drop_back())))
    return emitOpError() << "cannot bitcast " << operandType << " to "
                         << resultType << ": the shapes must match up to a "
                         << "trailing dimension of size " << ratio;
  return success();
}
