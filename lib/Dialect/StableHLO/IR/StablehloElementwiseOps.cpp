//===- StablehloElementwiseOps.cpp - elementwise ops ----------------------===//

#include "StablehloAsm.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloQuantization.h"

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

LogicalResult
mlir::stablehlo::OpTrait::verifyCompatibleOperandsAndResultType(Operation *op) {
  Type reference = op->getNumResults() ? op->getResult(0).getType()
                                       : op->getOperand(0).getType();
  Type referenceElement = getElementTypeOrSelf(reference);
  // add's operands may be per-tensor quantized where its result is per-axis
  // as long as one operand is per-axis (spec C5-C7 of add).
  bool allowsPerTensorOperands =
      isa<AddOp>(op) && llvm::any_of(op->getOperandTypes(), [&](Type type) {
        return haveSameBaselineElementType(getElementTypeOrSelf(type),
                                           referenceElement) &&
               isPerAxisQuantizedElementType(getElementTypeOrSelf(type));
      });
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    // Quantized operands may differ in scales and zero points.
    Type element = getElementTypeOrSelf(type);
    if (!haveSameBaselineElementType(element, referenceElement) &&
        !(allowsPerTensorOperands &&
          isPerTensorOfPerAxis(element, referenceElement)))
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

//===----------------------------------------------------------------------===//
// Result type inference of the non-uniform elementwise ops
//===----------------------------------------------------------------------===//

namespace {

/// `shape` of `element`, or an error if `operand` is not a ranked tensor.
LogicalResult inferWithElement(EmitErrorFn emitError, Type operand,
                               Type element, SmallVectorImpl<Type> &inferred) {
  auto tensor = dyn_cast<RankedTensorType>(operand);
  if (!tensor)
    return emitError() << "operand must be a ranked tensor, got " << operand;
  inferred.push_back(RankedTensorType::get(tensor.getShape(), element));
  return success();
}

/// abs, real, imag: the operand shape of the real part element type.
LogicalResult inferRealPart(std::optional<Location> loc, StringRef opName,
                            Value operand, SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(loc, opName);
  return inferWithElement(
      emitError, operand.getType(),
      realPartType(getElementTypeOrSelf(operand.getType())), inferred);
}

} // namespace

LogicalResult AbsOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  return inferRealPart(location, getOperationName(), adaptor.getOperand(),
                       inferred);
}

LogicalResult RealOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  return inferRealPart(location, getOperationName(), adaptor.getOperand(),
                       inferred);
}

LogicalResult ImagOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  return inferRealPart(location, getOperationName(), adaptor.getOperand(),
                       inferred);
}

LogicalResult IsFiniteOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  return inferWithElement(emitError, adaptor.getX().getType(),
                          IntegerType::get(context, 1), inferred);
}

LogicalResult ClampOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  auto operandType = dyn_cast<RankedTensorType>(adaptor.getOperand().getType());
  if (!operandType)
    return emitError() << "operand must be a ranked tensor";
  SmallVector<int64_t> shape(operandType.getShape());
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"min", adaptor.getMin()},
        {"max", adaptor.getMax()}}) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return emitError() << name << " must be a ranked tensor";
    if (!haveSameBaselineElementType(type.getElementType(),
                                     operandType.getElementType()))
      return emitError() << name << " element type " << type.getElementType()
                         << " does not match operand element type "
                         << operandType.getElementType();
    if (type.getRank() == 0)
      continue;
    if (failed(verifySameShape(emitError, type, operandType, name,
                               "operand")))
      return failure();
    (void)refineShape(shape, type.getShape());
  }
  inferred.push_back(RankedTensorType::get(
      shape, operandType.getElementType(), operandType.getEncoding()));
  return success();
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  auto predType = dyn_cast<RankedTensorType>(adaptor.getPred().getType());
  auto trueType = dyn_cast<RankedTensorType>(adaptor.getOnTrue().getType());
  auto falseType = dyn_cast<RankedTensorType>(adaptor.getOnFalse().getType());
  if (!predType || !trueType || !falseType)
    return emitError() << "operands must be ranked tensors";
  SmallVector<int64_t> shape(trueType.getShape());
  if (!haveSameBaselineElementType(trueType.getElementType(),
                                   falseType.getElementType()) ||
      failed(refineShape(shape, falseType.getShape())))
    return emitError() << "on_true type " << trueType
                       << " does not match on_false type " << falseType;
  if (predType.getRank() != 0) {
    if (failed(verifySameShape(emitError, predType, trueType, "pred",
                               "on_true")))
      return failure();
    (void)refineShape(shape, predType.getShape());
  }
  inferred.push_back(RankedTensorType::get(shape, trueType.getElementType(),
                                           trueType.getEncoding()));
  return success();
}

LogicalResult CompareOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  auto lhsType = dyn_cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rhsType = dyn_cast<RankedTensorType>(adaptor.getRhs().getType());
  if (!lhsType || !rhsType)
    return emitError() << "operands must be ranked tensors";
  if (!haveSameBaselineElementType(lhsType.getElementType(),
                                   rhsType.getElementType()))
    return emitError() << "lhs element type " << lhsType.getElementType()
                       << " does not match rhs element type "
                       << rhsType.getElementType();
  SmallVector<int64_t> shape(lhsType.getShape());
  if (failed(verifySameShape(emitError, lhsType, rhsType, "lhs", "rhs")))
    return failure();
  (void)refineShape(shape, rhsType.getShape());
  inferred.push_back(
      RankedTensorType::get(shape, IntegerType::get(context, 1)));
  return success();
}

LogicalResult CompareOp::verify() {
  if (auto type = getCompareType()) {
    // Quantized operands are compared as their dequantized floats.
    Type element = getExpressedTypeOrSelf(getLhs().getType());
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
  // C2: complex only to or from complex; a complex type has the bits of its
  // two parts.
  if (isa<ComplexType>(inElement) != isa<ComplexType>(outElement))
    return emitOpError() << "cannot bitcast between complex and non-complex "
                            "element types ("
                         << inElement << " to " << outElement << ")";
  // C1: a quantized type has the bits of its storage type.
  auto bitWidth = [](Type element) {
    if (isQuantized(element))
      return getQuantizedStorageBitWidth(element);
    if (auto complex = dyn_cast<ComplexType>(element))
      return 2 * complex.getElementType().getIntOrFloatBitWidth();
    return element.getIntOrFloatBitWidth();
  };
  unsigned inBits = bitWidth(inElement);
  unsigned outBits = bitWidth(outElement);
  if (inBits != outBits && (inBits > outBits ? inBits % outBits : outBits % inBits))
    return emitOpError() << "cannot bitcast " << inElement << " to "
                         << outElement << ": " << inBits << " and " << outBits
                         << " bits are not multiples of one another";
  ArrayRef<int64_t> inShape = operandType.getShape();
  ArrayRef<int64_t> outShape = resultType.getShape();
  if (inBits == outBits)
    return verifySameShape([&] { return emitOpError(); }, operandType,
                           resultType, "operand", "result");
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

LogicalResult ConvertOp::verify() {
  // The spec leaves (de)quantization to uniform_quantize and
  // uniform_dequantize.
  for (Type type : {getOperand().getType(), getResult().getType()})
    if (isQuantized(type))
      return emitOpError() << "does not convert quantized tensors (" << type
                           << "): use stablehlo.uniform_quantize or "
                              "stablehlo.uniform_dequantize";
  return success();
}

LogicalResult UniformQuantizeOp::verify() {
  // C2: the result stands for floats of the operand's (expressed) type.
  Type expressed = getExpressedTypeOrSelf(getOperand().getType());
  Type resultExpressed = getExpressedTypeOrSelf(getResult().getType());
  if (expressed != resultExpressed)
    return emitOpError() << "requires the result's expressed type ("
                         << resultExpressed << ") to be "
                         << (isQuantized(getOperand().getType())
                                 ? "the operand's expressed type ("
                                 : "the operand's element type (")
                         << expressed << ") (C2)";
  return success();
}

LogicalResult UniformDequantizeOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  // C2: the result has the operand's expressed type.
  Type operand = adaptor.getOperand().getType();
  if (!isa<RankedTensorType>(operand) || !isQuantized(operand))
    return OpErrorEmitter(location, getOperationName())()
           << "operand must be a quantized tensor, got " << operand;
  inferred.push_back(getExpressedTensorType(operand));
  return success();
}

LogicalResult ComplexOp::verify() {
  Type part = getLhs().getType().getElementType();
  if (getRhs().getType().getElementType() != part)
    return emitOpError() << "requires the real and imaginary parts to have "
                            "one element type, got "
                         << part << " and " << getRhs().getType().getElementType();
  Type expected = ComplexType::get(part);
  if (getResult().getType().getElementType() != expected)
    return emitOpError() << "requires a result of element type " << expected
                         << " for parts of " << part << ", got "
                         << getResult().getType().getElementType();
  return success();
}
