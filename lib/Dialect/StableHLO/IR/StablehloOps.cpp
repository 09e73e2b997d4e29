//===- StablehloOps.cpp - constants, shape and dot ops --------------------===//

#include "StablehloAsm.h"

#include "mpmd/Support/CheckedArithmetic.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::stablehlo;

#define GET_OP_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.cpp.inc"

void mlir::stablehlo::registerShapeOps(StablehloDialect &dialect) {
  insertOps<
#define GET_OP_LIST
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.cpp.inc"
      >(dialect);
}

namespace {

/// `value`'s type as a ranked tensor, or an error naming `what`.
FailureOr<RankedTensorType> getTensorType(EmitErrorFn emitError, Value value,
                                          StringRef what) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type) {
    (void)(emitError() << what << " must be a ranked tensor, got "
                       << value.getType());
    return failure();
  }
  return type;
}

/// Appends `shape` of the element type of `like` (and its encoding).
void pushTensor(SmallVectorImpl<Type> &inferred, ArrayRef<int64_t> shape,
                RankedTensorType like) {
  inferred.push_back(
      RankedTensorType::get(shape, like.getElementType(), like.getEncoding()));
}

} // namespace

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  // Accepts `stablehlo.constant dense<1> : tensor<i32>` and the older
  // `stablehlo.constant {value = dense<1> : tensor<i32>}`.
  // Upstream prints constants whose value type is not the result type
  // (quantized ones) as `stablehlo.constant() <{value = ...}> : () -> T`.
  if (succeeded(parser.parseOptionalLParen())) {
    if (parser.parseRParen())
      return failure();
    if (succeeded(parser.parseOptionalLess())) {
      DictionaryAttr properties;
      if (parser.parseAttribute(properties) || parser.parseGreater())
        return failure();
      result.attributes.append(properties.getValue());
    }
  }
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  Attribute value = result.attributes.get("value");
  if (value) {
    result.attributes.erase("value");
  } else if (parser.parseAttribute(value)) {
    return failure();
  }
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(parser.getCurrentLocation())
           << "expected a dense elements attribute, got " << value;
  // Upstream also prints `: (tensor<...>) -> tensor<...>` when the result type
  // differs from the value's; accept it.
  Type resultType = elements.getType();
  if (succeeded(parser.parseOptionalColon())) {
    FunctionType fn;
    if (parser.parseType(fn))
      return failure();
    if (fn.getNumResults() != 1)
      return parser.emitError(parser.getCurrentLocation())
             << "expected one result type";
    resultType = fn.getResult(0);
  }
  result.getOrAddProperties<Properties>().value = elements;
  result.addTypes(resultType);
  return success();
}

void ConstantOp::print(OpAsmPrinter &p) {
  // `stablehlo.constant dense<...> : T`; a quantized constant, whose value
  // holds storage integers, as `... : () -> T` (which the parser accepts).
  p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  p << ' ';
  p.printAttribute(getValue());
  if (getValue().getType() != getType()) {
    p << " : ";
    p.printFunctionalType(TypeRange(), TypeRange(getType()));
  }
}

LogicalResult ConstantOp::verify() {
  Type valueType = getValue().getType();
  if (valueType == getType())
    return success();
  // A quantized constant lists its storage integers (C1 of "Quantized
  // tensor constants"): an integer tensor of the storage width and the
  // result's shape.
  auto resultType = cast<RankedTensorType>(getType());
  auto valueTensor = dyn_cast<RankedTensorType>(valueType);
  if (isQuantized(resultType)) {
    auto storage = valueTensor
                       ? dyn_cast<IntegerType>(valueTensor.getElementType())
                       : IntegerType();
    if (!storage ||
        storage.getWidth() != getQuantizedStorageBitWidth(resultType) ||
        valueTensor.getShape() != resultType.getShape())
      return emitOpError() << "value type " << valueType
                           << " must be the storage type of result type "
                           << getType() << " (integers of "
                           << getQuantizedStorageBitWidth(resultType)
                           << " bits, same shape)";
    return success();
  }
  return emitOpError() << "value type " << valueType
                       << " does not match result type " << getType();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) {
  // A quantized constant's value is not an attribute of the result type.
  if (getValue().getType() != getType())
    return {};
  return getValue();
}

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  auto value = dyn_cast_or_null<ElementsAttr>(adaptor.getValue());
  if (!value)
    return OpErrorEmitter(location, getOperationName())()
           << "expects a `value` elements attribute";
  inferred.push_back(value.getType());
  return success();
}

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  Type element = getElementTypeOrSelf(getType());
  setNameFn(getResult(), isa<IntegerType>(element) ? "c" : "cst");
}

//===----------------------------------------------------------------------===//
// IotaOp, ReshapeOp, BroadcastInDimOp, TransposeOp, ReverseOp
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  if (type.getRank() == 0)
    return emitOpError() << "does not support scalar results";
  int64_t dim = getIotaDimension();
  if (dim < 0 || dim >= type.getRank())
    return emitOpError() << "iota_dimension " << dim
                         << " is out of range [0, " << type.getRank() << ")";
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto operandType = getOperand().getType();
  auto resultType = getResult().getType();
  // (C1): a per-axis quantized result may have its axis elsewhere.
  std::optional<int64_t> operandAxis = getQuantizationDimension(operandType);
  std::optional<int64_t> resultAxis = getQuantizationDimension(resultType);
  Type expected = getElementTypeOrSelf(operandType);
  if (operandAxis && resultAxis)
    expected = withQuantizationDimension(expected, *resultAxis);
  if (failed(verifySameElementType(*this, RankedTensorType::get({}, expected),
                                   resultType, "operand", "result")))
    return failure();
  if (!operandType.hasStaticShape() || !resultType.hasStaticShape())
    return success();
  // (C3): the axis keeps its size and the elements before it their count,
  // so that every slice along it keeps its scale.
  if (operandAxis && resultAxis) {
    auto countBefore = [](RankedTensorType type, int64_t axis) {
      return mpmd::checkedProduct(type.getShape().take_front(axis));
    };
    if (operandType.getDimSize(*operandAxis) !=
            resultType.getDimSize(*resultAxis) ||
        countBefore(operandType, *operandAxis) !=
            countBefore(resultType, *resultAxis))
      return emitOpError()
             << "quantization dimension " << *resultAxis << " of the result "
             << "does not keep the elements of dimension " << *operandAxis
             << " of the operand together (its size and the number of "
                "elements before it must match)";
  }
  // Counts that overflow would compare equal after wrapping.
  std::optional<int64_t> operandElements =
      mpmd::checkedProduct(operandType.getShape());
  std::optional<int64_t> resultElements =
      mpmd::checkedProduct(resultType.getShape());
  for (auto [type, elements] : {std::pair{operandType, operandElements},
                                std::pair{resultType, resultElements}})
    if (!elements)
      return emitOpError() << "the element count of " << type
                           << " does not fit in 64 bits";
  if (*operandElements != *resultElements)
    return emitOpError() << "result has " << *resultElements
                         << " elements but the operand has "
                         << *operandElements;
  return success();
}

LogicalResult BroadcastInDimOp::verify() {
  auto operandType = getOperand().getType();
  auto resultType = getResult().getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  std::optional<int64_t> axis =
      getQuantizationDimension(operandType.getElementType());
  if (!axis && failed(verifySameElementType(*this, operandType, resultType,
                                            "operand", "result")))
    return failure();
  if (static_cast<int64_t>(dims.size()) != operandType.getRank())
    return emitOpError() << "broadcast_dimensions size " << dims.size()
                         << " does not match operand rank "
                         << operandType.getRank();
  if (failed(verifyDimsInRange(*this, dims, resultType.getRank(),
                               "broadcast_dimensions")))
    return failure();
  // (C1, C6) a per-axis quantized operand: the result is quantized along
  // the dimension its axis goes to, with its scales (repeated if the axis
  // had size 1).
  if (axis && !isBroadcastOfPerAxisType(operandType.getElementType(),
                                        resultType.getElementType(),
                                        dims[*axis],
                                        operandType.getDimSize(*axis)))
    return emitOpError() << "result element type "
                         << resultType.getElementType()
                         << " must be the operand's "
                         << operandType.getElementType()
                         << " quantized along dimension " << dims[*axis]
                         << " (C6)";
  for (auto [i, dim] : llvm::enumerate(dims)) {
    int64_t operandSize = operandType.getDimSize(i);
    int64_t resultSize = resultType.getDimSize(dim);
    if (operandSize != 1 && !isCompatibleDim(operandSize, resultSize))
      return emitOpError() << "operand dimension " << i << " of size "
                           << operandSize << " cannot broadcast to result "
                           << "dimension " << dim << " of size " << resultSize;
  }
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  FailureOr<RankedTensorType> operand =
      getTensorType(emitError, adaptor.getOperand(), "operand");
  SmallVector<int64_t> shape;
  if (failed(operand) ||
      failed(inferTransposeShape(emitError, *operand,
                                 adaptor.getPermutation(), shape)))
    return failure();
  // A per-axis quantized operand's dimension moves with the permutation
  // (C1, C4).
  Type element = operand->getElementType();
  if (std::optional<int64_t> axis = getQuantizationDimension(element)) {
    ArrayRef<int64_t> permutation = adaptor.getPermutation();
    element = withQuantizationDimension(
        element, llvm::find(permutation, *axis) - permutation.begin());
  }
  inferred.push_back(
      RankedTensorType::get(shape, element, operand->getEncoding()));
  return success();
}

LogicalResult ReverseOp::verify() {
  return verifyDimsInRange(*this, getDimensions(),
                           getOperand().getType().getRank(), "dimensions");
}

//===----------------------------------------------------------------------===//
// Slicing, padding, concatenation
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  FailureOr<RankedTensorType> operand =
      getTensorType(emitError, adaptor.getOperand(), "operand");
  SmallVector<int64_t> shape;
  if (failed(operand) ||
      failed(inferSliceShape(emitError, *operand, adaptor.getStartIndices(),
                             adaptor.getLimitIndices(), adaptor.getStrides(),
                             shape)))
    return failure();
  pushTensor(inferred, shape, *operand);
  return success();
}

LogicalResult DynamicSliceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  FailureOr<RankedTensorType> operand =
      getTensorType(emitError, adaptor.getOperand(), "operand");
  SmallVector<int64_t> shape;
  if (failed(operand) ||
      failed(inferDynamicSliceShape(emitError, *operand,
                                    adaptor.getStartIndices().getTypes(),
                                    adaptor.getSliceSizes(), shape)))
    return failure();
  pushTensor(inferred, shape, *operand);
  return success();
}

LogicalResult DynamicUpdateSliceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  inferred.push_back(adaptor.getOperand().getType());
  return success();
}

LogicalResult DynamicUpdateSliceOp::verify() {
  auto operandType = getOperand().getType();
  auto updateType = getUpdate().getType();
  int64_t rank = operandType.getRank();
  if (updateType.getRank() != rank)
    return emitOpError() << "update rank " << updateType.getRank()
                         << " does not match operand rank " << rank;
  if (failed(verifyStartIndices([&] { return emitOpError(); },
                                getStartIndices().getTypes(), rank)) ||
      failed(verifySameElementType(*this, updateType, operandType, "update",
                                   "operand")))
    return failure();
  for (int64_t i = 0; i < rank; ++i) {
    int64_t u = updateType.getDimSize(i), o = operandType.getDimSize(i);
    if (!ShapedType::isDynamic(u) && !ShapedType::isDynamic(o) && u > o)
      return emitOpError() << "update dimension " << i << " of size " << u
                           << " exceeds operand size " << o;
  }
  return success();
}

LogicalResult ConcatenateOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  SmallVector<int64_t> shape;
  if (failed(inferConcatenateShape(emitError, adaptor.getInputs().getTypes(),
                                   adaptor.getDimension(), shape)))
    return failure();
  pushTensor(inferred, shape,
             cast<RankedTensorType>(adaptor.getInputs().front().getType()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  FailureOr<RankedTensorType> operand =
      getTensorType(emitError, adaptor.getOperand(), "operand");
  if (failed(operand))
    return failure();
  FailureOr<RankedTensorType> paddingValue =
      getTensorType(emitError, adaptor.getPaddingValue(), "padding_value");
  SmallVector<int64_t> shape;
  if (failed(paddingValue) ||
      failed(inferPadShape(emitError, *operand, *paddingValue,
                           adaptor.getEdgePaddingLow(),
                           adaptor.getEdgePaddingHigh(),
                           adaptor.getInteriorPadding(), shape)))
    return failure();
  pushTensor(inferred, shape, *operand);
  return success();
}

//===----------------------------------------------------------------------===//
// Dot products
//===----------------------------------------------------------------------===//

static LogicalResult verifyPrecisionConfig(Operation *op,
                                           std::optional<ArrayAttr> config) {
  if (config && config->size() > 2)
    return op->emitOpError() << "precision_config has " << config->size()
                             << " entries, expected at most 2";
  return success();
}

namespace {

/// Dot results take the lhs element type when built without a result type;
/// a given result type may use any element type (HLO_InferShapeOp).
template <typename InferShape>
LogicalResult inferDotType(std::optional<Location> location, StringRef opName,
                           Value lhs, Value rhs,
                           SmallVectorImpl<Type> &inferred,
                           InferShape inferShape) {
  OpErrorEmitter emitError(location, opName);
  FailureOr<RankedTensorType> lhsType = getTensorType(emitError, lhs, "lhs");
  if (failed(lhsType))
    return failure();
  FailureOr<RankedTensorType> rhsType = getTensorType(emitError, rhs, "rhs");
  SmallVector<int64_t> shape;
  if (failed(rhsType) || failed(inferShape(emitError, *lhsType, *rhsType,
                                           shape)))
    return failure();
  inferred.push_back(RankedTensorType::get(shape, lhsType->getElementType()));
  return success();
}

/// The quantization constraints dot_general and convolution share (C14-C20
/// of dot_general, C28-C34 of convolution): a quantized rhs (with zero
/// points 0), and either a quantized lhs and result (same storage and
/// expressed types; a per-tensor rhs gives a per-tensor result) or, for
/// weight-only ("hybrid") quantization, a float lhs and result of the rhs's
/// expressed type. `checkRhsAxis` adds the op's own rule on a per-axis rhs.
LogicalResult verifyQuantizedDotTypes(
    Operation *op, Value lhs, Value rhs, Value result,
    llvm::function_ref<LogicalResult(int64_t rhsAxis)> checkRhsAxis) {
  Type lhsElement = getElementTypeOrSelf(lhs.getType());
  Type rhsElement = getElementTypeOrSelf(rhs.getType());
  Type resultElement = getElementTypeOrSelf(result.getType());
  bool lhsQuantized = isQuantized(lhsElement);
  bool rhsQuantized = isQuantized(rhsElement);
  bool resultQuantized = isQuantized(resultElement);
  if (!lhsQuantized && !rhsQuantized && !resultQuantized)
    return success();
  if (!rhsQuantized || lhsQuantized != resultQuantized)
    return op->emitOpError()
           << "with quantized tensors requires a quantized rhs and either a "
              "quantized lhs and result or float ones, got "
           << lhsElement << ", " << rhsElement << " -> " << resultElement;
  if (lhsQuantized && !isPerTensorQuantizedElementType(lhsElement))
    return op->emitOpError() << "requires a per-tensor quantized lhs, got "
                             << lhsElement;
  if (!hasZeroZeroPoints(rhsElement))
    return op->emitOpError() << "requires the rhs zero points to be 0, got "
                             << rhsElement;
  if (std::optional<int64_t> axis = getQuantizationDimension(rhsElement))
    if (failed(checkRhsAxis(*axis)))
      return failure();
  Type expressed = getExpressedTypeOrSelf(rhsElement);
  if (!lhsQuantized) {
    if (lhsElement != expressed || resultElement != expressed)
      return op->emitOpError()
             << "with a float lhs requires the lhs and result element types "
                "to be the rhs's expressed type "
             << expressed << ", got " << lhsElement << " and "
             << resultElement;
    return success();
  }
  if (getQuantizedStorageBitWidth(lhsElement) !=
          getQuantizedStorageBitWidth(rhsElement) ||
      isUnsignedQuantizedStorage(lhsElement) !=
          isUnsignedQuantizedStorage(rhsElement))
    return op->emitOpError()
           << "requires the lhs and rhs storage types to match, got "
           << lhsElement << " and " << rhsElement;
  if (getExpressedTypeOrSelf(lhsElement) != expressed ||
      getExpressedTypeOrSelf(resultElement) != expressed)
    return op->emitOpError()
           << "requires the lhs, rhs and result expressed types to match, got "
           << lhsElement << ", " << rhsElement << " -> " << resultElement;
  if (isPerTensorQuantizedElementType(rhsElement) &&
      !isPerTensorQuantizedElementType(resultElement))
    return op->emitOpError()
           << "requires a per-tensor quantized result for a per-tensor "
              "quantized rhs, got "
           << resultElement;
  return success();
}

} // namespace

LogicalResult DotOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  return inferDotType(location, getOperationName(), adaptor.getLhs(),
                      adaptor.getRhs(), inferred, inferDotShape);
}

LogicalResult DotOp::verify() {
  return verifyPrecisionConfig(*this, getPrecisionConfig());
}

LogicalResult DotGeneralOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> location,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  DotDimensionNumbersAttr dims = adaptor.getDotDimensionNumbers();
  return inferDotType(
      location, getOperationName(), adaptor.getLhs(), adaptor.getRhs(),
      inferred,
      [&](EmitErrorFn emitError, RankedTensorType lhs, RankedTensorType rhs,
          SmallVectorImpl<int64_t> &shape) {
        return inferDotGeneralShape(emitError, lhs, rhs, dims, shape);
      });
}

LogicalResult DotGeneralOp::verify() {
  ArrayRef<int64_t> contracting =
      getDotDimensionNumbers().getRhsContractingDimensions();
  if (failed(verifyQuantizedDotTypes(
          *this, getLhs(), getRhs(), getResult(),
          [&](int64_t axis) -> LogicalResult {
            // C16
            if (llvm::is_contained(contracting, axis))
              return emitOpError()
                     << "requires the rhs quantization dimension " << axis
                     << " not to be a contracting dimension";
            return success();
          })))
    return failure();
  return verifyPrecisionConfig(*this, getPrecisionConfig());
}

//===----------------------------------------------------------------------===//
// ConvolutionOp
//===----------------------------------------------------------------------===//

LogicalResult ConvolutionOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  ConvolutionWindow window;
  window.strides = adaptor.getWindowStrides();
  window.padding = adaptor.getPadding();
  window.lhsDilation = adaptor.getLhsDilation();
  window.rhsDilation = adaptor.getRhsDilation();
  window.reversal = adaptor.getWindowReversal();
  return inferDotType(
      location, getOperationName(), adaptor.getLhs(), adaptor.getRhs(),
      inferred,
      [&](EmitErrorFn emitError, RankedTensorType lhs, RankedTensorType rhs,
          SmallVectorImpl<int64_t> &shape) {
        return inferConvolutionShape(
            emitError, lhs, rhs, window, adaptor.getDimensionNumbers(),
            adaptor.getFeatureGroupCount(), adaptor.getBatchGroupCount(),
            shape);
      });
}

LogicalResult ConvolutionOp::verify() {
  // (C27) allows no other result type; like upstream we accept a wider
  // accumulation type of the same kind, which JAX emits.
  Type operand = getElementTypeOrSelf(getLhs().getType());
  Type result = getElementTypeOrSelf(getResult().getType());
  if (isQuantized(operand) || isQuantized(getRhs().getType()) ||
      isQuantized(result)) {
    ConvDimensionNumbersAttr dims = getDimensionNumbers();
    if (failed(verifyQuantizedDotTypes(
            *this, getLhs(), getRhs(), getResult(),
          [&](int64_t axis) -> LogicalResult {
              // C29
              if (axis != dims.getKernelOutputFeatureDimension())
                return emitOpError()
                       << "requires the rhs quantization dimension " << axis
                       << " to be the kernel output feature dimension "
                       << dims.getKernelOutputFeatureDimension();
              return success();
            })))
      return failure();
    // C30
    std::optional<int64_t> resultAxis = getQuantizationDimension(result);
    if (resultAxis && *resultAxis != dims.getOutputFeatureDimension())
      return emitOpError() << "requires the result quantization dimension "
                           << *resultAxis
                           << " to be the output feature dimension "
                           << dims.getOutputFeatureDimension();
    return verifyPrecisionConfig(*this, getPrecisionConfig());
  }
  if (operand != result &&
      (isa<FloatType>(operand) != isa<FloatType>(result) ||
       isa<IntegerType>(operand) != isa<IntegerType>(result)))
    return emitOpError() << "result element type " << result
                         << " must be the operands' element type " << operand
                         << " or another "
                         << (isa<FloatType>(operand) ? "float" : "integer")
                         << " type";
  // (C24); absent is accepted, as upstream does.
  return verifyPrecisionConfig(*this, getPrecisionConfig());
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  FailureOr<RankedTensorType> operand =
      getTensorType(emitError, adaptor.getOperand(), "operand");
  if (failed(operand))
    return failure();
  FailureOr<RankedTensorType> indices =
      getTensorType(emitError, adaptor.getStartIndices(), "start_indices");
  SmallVector<int64_t> shape;
  if (failed(indices) ||
      failed(inferGatherShape(emitError, *operand, *indices,
                              adaptor.getDimensionNumbers(),
                              adaptor.getSliceSizes(), shape)))
    return failure();
  pushTensor(inferred, shape, *operand);
  return success();
}

//===----------------------------------------------------------------------===//
// fft
//===----------------------------------------------------------------------===//

LogicalResult FftOp::verify() {
  auto operandType = cast<RankedTensorType>(getOperand().getType());
  auto resultType = cast<RankedTensorType>(getResult().getType());
  ArrayRef<int64_t> length = getFftLength();
  int64_t rank = operandType.getRank();
  // C1, C3.
  if (length.empty() || length.size() > 3)
    return emitOpError() << "requires 1 to 3 fft_length entries, got "
                         << length.size();
  if (static_cast<int64_t>(length.size()) > rank)
    return emitOpError() << "has " << length.size()
                         << " fft_length entries for an operand of rank "
                         << rank;
  if (llvm::any_of(length, [](int64_t n) { return n < 0; }))
    return emitOpError() << "requires non-negative fft_length entries";
  // C2.
  FftType type = getFftType();
  Type inElement = operandType.getElementType();
  Type outElement = resultType.getElementType();
  auto inComplex = dyn_cast<ComplexType>(inElement);
  auto outComplex = dyn_cast<ComplexType>(outElement);
  switch (type) {
  case FftType::FFT:
  case FftType::IFFT:
    if (!inComplex || inElement != outElement)
      return emitOpError() << "of type " << stringifyFftType(type)
                           << " requires operand and result of one complex "
                              "element type, got "
                           << inElement << " and " << outElement;
    break;
  case FftType::RFFT:
    if (inComplex || !outComplex || outComplex.getElementType() != inElement)
      return emitOpError() << "of type RFFT requires a real operand and a "
                              "result of its complex type, got "
                           << inElement << " and " << outElement;
    break;
  case FftType::IRFFT:
    if (!inComplex || outComplex || inComplex.getElementType() != outElement)
      return emitOpError() << "of type IRFFT requires a complex operand and a "
                              "result of its part type, got "
                           << inElement << " and " << outElement;
    break;
  }
  // C4: the real side's trailing dimensions are fft_length.
  RankedTensorType real = type == FftType::RFFT    ? operandType
                          : type == FftType::IRFFT ? resultType
                                                   : nullptr;
  if (real) {
    if (real.getRank() != rank)
      return emitOpError() << "requires operand and result of one rank";
    ArrayRef<int64_t> trailing =
        real.getShape().take_back(length.size());
    for (auto [dim, n] : llvm::zip(trailing, length))
      if (!ShapedType::isDynamic(dim) && dim != n)
        return emitOpError() << "requires the trailing dimensions of the "
                                "real "
                             << (type == FftType::RFFT ? "operand" : "result")
                             << " " << real << " to be fft_length ["
                             << llvm::interleaved(length) << "]";
  }
  // C5: same shape but for the halved last dimension of the complex side.
  if (resultType.getRank() != rank)
    return emitOpError() << "requires operand and result of one rank";
  for (int64_t d = 0; d < rank; ++d) {
    int64_t in = operandType.getDimSize(d), out = resultType.getDimSize(d);
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(out))
      continue;
    int64_t expected = in;
    if (d == rank - 1 && type == FftType::RFFT)
      expected = in == 0 ? 0 : in / 2 + 1;
    if (d == rank - 1 && type == FftType::IRFFT) {
      int64_t halved = out == 0 ? 0 : out / 2 + 1;
      if (in != halved)
        return emitOpError() << "of type IRFFT requires the operand's last "
                                "dimension to be "
                             << halved << " (result's / 2 + 1), got " << in;
      continue;
    }
    if (out != expected)
      return emitOpError() << "requires result dimension " << d << " to be "
                           << expected << ", got " << out;
  }
  return success();
}
