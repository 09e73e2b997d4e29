//===- StablehloCompoundOps.cpp - batch norm, linalg, tuples --------------===//
//
// Verifiers and result type inference of the ops of StablehloCompoundOps.td.
// Constraint labels ((C1)...) are those of the StableHLO specification.
//
//===----------------------------------------------------------------------===//

#include "StablehloAsm.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloCompoundOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stablehlo;

namespace mlir::stablehlo {
namespace {

//===----------------------------------------------------------------------===//
// Custom assembly directives
//===----------------------------------------------------------------------===//

ParseResult parseRngDistribution(OpAsmParser &parser,
                                 RngDistributionAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<RngDistribution> value = symbolizeRngDistribution(keyword);
  if (!value)
    return parser.emitError(loc)
           << "expected UNIFORM or NORMAL, got '" << keyword << "'";
  attr = RngDistributionAttr::get(parser.getContext(), *value);
  return success();
}

void printRngDistribution(OpAsmPrinter &p, Operation *,
                          RngDistributionAttr attr) {
  p << stringifyRngDistribution(attr.getValue());
}

/// `tuple<A, B>`: the operand types are the tuple's element types.
ParseResult parseTupleOpType(OpAsmParser &parser,
                             SmallVectorImpl<Type> &operands, Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseType(result))
    return failure();
  auto tuple = dyn_cast<TupleType>(result);
  if (!tuple)
    return parser.emitError(loc) << "expected a tuple type, got " << result;
  llvm::append_range(operands, tuple.getTypes());
  return success();
}

void printTupleOpType(OpAsmPrinter &p, Operation *, TypeRange, Type result) {
  p.printType(result);
}

/// `(tuple<A, B>) -> A`, as upstream prints it.
ParseResult parseGetTupleElementType(OpAsmParser &parser, Type &operand,
                                     Type &result) {
  FunctionType function;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseType(function))
    return failure();
  if (function.getNumInputs() != 1 || function.getNumResults() != 1)
    return parser.emitError(loc) << "expected one operand and one result type";
  operand = function.getInput(0);
  result = function.getResult(0);
  return success();
}

void printGetTupleElementType(OpAsmPrinter &p, Operation *, Type operand,
                              Type result) {
  p.printFunctionalType(TypeRange(operand), TypeRange(result));
}

/// `(C1)` of the batch norm ops and the per-feature sizes: the feature
/// dimension's size, or an error.
FailureOr<int64_t> verifyFeatureIndex(EmitErrorFn emitError,
                                      RankedTensorType operand,
                                      int64_t featureIndex) {
  if (featureIndex < 0 || featureIndex >= operand.getRank()) {
    (void)(emitError() << "feature_index " << featureIndex
                       << " is out of range [0, " << operand.getRank()
                       << ") (C1)");
    return failure();
  }
  return operand.getDimSize(featureIndex);
}

/// Checks the 1-d per-feature operands `values` (named `names`): the
/// operand's element type (C2) and `features` elements.
LogicalResult verifyPerFeature(EmitErrorFn emitError, RankedTensorType operand,
                               int64_t features, ArrayRef<Value> values,
                               ArrayRef<StringRef> names) {
  for (auto [value, name] : llvm::zip(values, names)) {
    auto type = cast<RankedTensorType>(value.getType());
    // Quantized ones may differ in scales and zero points.
    if (!haveSameBaselineElementType(type.getElementType(),
                                     operand.getElementType()))
      return emitError() << name << " element type " << type.getElementType()
                         << " does not match operand element type "
                         << operand.getElementType() << " (C2)";
    if (!isCompatibleDim(type.getDimSize(0), features))
      return emitError() << name << " has " << type.getDimSize(0)
                         << " elements but the operand has " << features
                         << " features";
  }
  return success();
}

RankedTensorType featureVector(RankedTensorType operand, int64_t features) {
  return RankedTensorType::get({features}, operand.getElementType());
}

} // namespace
} // namespace mlir::stablehlo

#define GET_OP_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloCompoundOps.cpp.inc"

void mlir::stablehlo::registerCompoundOps(StablehloDialect &dialect) {
  insertOps<
#define GET_OP_LIST
#include "mpmd/Dialect/StableHLO/IR/StablehloCompoundOps.cpp.inc"
      >(dialect);
}

//===----------------------------------------------------------------------===//
// Batch normalization
//===----------------------------------------------------------------------===//

LogicalResult BatchNormTrainingOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  auto operand = cast<RankedTensorType>(adaptor.getOperand().getType());
  FailureOr<int64_t> features =
      verifyFeatureIndex(emitError, operand, adaptor.getFeatureIndex());
  if (failed(features) ||
      failed(verifyPerFeature(emitError, operand, *features,
                              {adaptor.getScale(), adaptor.getOffset()},
                              {"scale", "offset"})))
    return failure();
  inferred.push_back(operand);
  inferred.push_back(featureVector(operand, *features));
  inferred.push_back(featureVector(operand, *features));
  return success();
}

LogicalResult BatchNormInferenceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  auto operand = cast<RankedTensorType>(adaptor.getOperand().getType());
  FailureOr<int64_t> features =
      verifyFeatureIndex(emitError, operand, adaptor.getFeatureIndex());
  if (failed(features) ||
      failed(verifyPerFeature(emitError, operand, *features,
                              {adaptor.getScale(), adaptor.getOffset(),
                               adaptor.getMean(), adaptor.getVariance()},
                              {"scale", "offset", "mean", "variance"})))
    return failure();
  inferred.push_back(operand);
  return success();
}

LogicalResult BatchNormGradOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  auto operand = cast<RankedTensorType>(adaptor.getOperand().getType());
  auto gradOutput = cast<RankedTensorType>(adaptor.getGradOutput().getType());
  FailureOr<int64_t> features =
      verifyFeatureIndex(emitError, operand, adaptor.getFeatureIndex());
  if (failed(features) ||
      failed(verifySameElementType(emitError, gradOutput, operand,
                                   "grad_output", "operand")) ||
      failed(verifySameShape(emitError, gradOutput, operand, "grad_output",
                             "operand")) ||
      failed(verifyPerFeature(
          emitError, operand, *features,
          {adaptor.getScale(), adaptor.getMean(), adaptor.getVariance()},
          {"scale", "mean", "variance"})))
    return failure();
  inferred.push_back(operand);
  inferred.push_back(featureVector(operand, *features));
  inferred.push_back(featureVector(operand, *features));
  return success();
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

LogicalResult CholeskyOp::verify() {
  auto type = cast<RankedTensorType>(getA().getType());
  // (C2) and (C3): a batch of square matrices.
  if (type.getRank() < 2)
    return emitOpError() << "operand must have rank 2 or more, got rank "
                         << type.getRank() << " (C2)";
  int64_t rows = type.getDimSize(type.getRank() - 2);
  int64_t columns = type.getDimSize(type.getRank() - 1);
  if (!isCompatibleDim(rows, columns))
    return emitOpError() << "operand matrices must be square, got " << rows
                         << "x" << columns << " (C3)";
  return success();
}

LogicalResult TriangularSolveOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  auto a = cast<RankedTensorType>(adaptor.getA().getType());
  auto b = cast<RankedTensorType>(adaptor.getB().getType());
  if (failed(verifySameElementType(emitError, a, b, "a", "b")))
    return failure();
  // (C2): same rank, at least 2.
  if (a.getRank() < 2 || a.getRank() != b.getRank())
    return emitError() << "a and b must have the same rank, 2 or more; got "
                       << a.getRank() << " and " << b.getRank() << " (C2)";
  int64_t rank = a.getRank();
  // (C3): the batch dimensions agree.
  for (int64_t d = 0; d < rank - 2; ++d)
    if (!isCompatibleDim(a.getDimSize(d), b.getDimSize(d)))
      return emitError() << "batch dimension " << d << " of a has size "
                         << a.getDimSize(d) << " but b has " << b.getDimSize(d)
                         << " (C3)";
  // (C4): a is square, and its size matches b's row count (left side) or
  // column count (right side).
  int64_t n = a.getDimSize(rank - 1);
  if (!isCompatibleDim(a.getDimSize(rank - 2), n))
    return emitError() << "a must be square, got " << a.getDimSize(rank - 2)
                       << "x" << n << " (C4)";
  int64_t bSide = b.getDimSize(adaptor.getLeftSide() ? rank - 2 : rank - 1);
  if (!isCompatibleDim(bSide, n))
    return emitError() << "b has " << bSide << " "
                       << (adaptor.getLeftSide() ? "rows" : "columns")
                       << " but a is " << n << "x" << n << " (C4)";
  if (adaptor.getTransposeA() == Transpose::TRANSPOSE_INVALID)
    return emitError() << "transpose_a must be NO_TRANSPOSE, TRANSPOSE or "
                          "ADJOINT";
  inferred.push_back(b);
  return success();
}

//===----------------------------------------------------------------------===//
// map, composite, rng
//===----------------------------------------------------------------------===//

LogicalResult MapOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  if (adaptor.getInputs().empty())
    return emitError() << "needs at least one input";
  auto first = cast<RankedTensorType>(adaptor.getInputs()[0].getType());
  // (C3): the dimensions are all of the inputs', in order.
  ArrayRef<int64_t> dims = adaptor.getDimensions();
  if (static_cast<int64_t>(dims.size()) != first.getRank() ||
      llvm::any_of(llvm::enumerate(dims), [](auto pair) {
        return pair.value() != static_cast<int64_t>(pair.index());
      }))
    return emitError() << "dimensions must be [0, ..., " << first.getRank() - 1
                       << "] (C3)";
  Region *computation = adaptor.getRegions().front();
  if (computation->empty() || computation->front().empty())
    return emitError() << "computation region must not be empty";
  auto ret = dyn_cast<ReturnOp>(computation->front().back());
  if (!ret || ret.getResults().size() != 1)
    return emitError() << "computation must return one value (C4)";
  auto returned = dyn_cast<RankedTensorType>(ret.getResults()[0].getType());
  if (!returned || returned.getRank() != 0)
    return emitError() << "computation must return a rank-0 tensor (C4)";
  inferred.push_back(
      RankedTensorType::get(first.getShape(), returned.getElementType()));
  return success();
}

LogicalResult MapOp::verifyRegions() {
  // (C4): one rank-0 argument per input, of the input's element type.
  SmallVector<Type> arguments;
  for (Value input : getInputs())
    arguments.push_back(
        RankedTensorType::get({}, getElementTypeOrSelf(input.getType())));
  return verifyRegionArgs(*this, getComputation(), "computation", arguments);
}

LogicalResult
CompositeOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto decomposition = symbolTable.lookupNearestSymbolFrom<FunctionOpInterface>(
      *this, getDecompositionAttr());
  if (!decomposition)
    return emitOpError() << "decomposition " << getDecompositionAttr()
                         << " does not name a function (C1)";
  auto type = cast<FunctionType>(decomposition.getFunctionType());
  // (C2): the decomposition takes the inputs and returns the results.
  if (type.getInputs() != getInputs().getTypes() ||
      type.getResults() != getResultTypes())
    return emitOpError() << "decomposition " << getDecompositionAttr()
                         << " has type " << type
                         << ", which does not match the composite's operand "
                            "and result types (C2)";
  return success();
}

LogicalResult RngOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto result = cast<RankedTensorType>(getType());
  // (C1): a, b and the result share the element type.
  if (a.getElementType() != result.getElementType() ||
      b.getElementType() != result.getElementType())
    return emitOpError() << "a, b and result must have one element type, got "
                         << a.getElementType() << ", " << b.getElementType()
                         << " and " << result.getElementType() << " (C1)";
  // (C2): normal draws are floats.
  if (getRngDistribution() == RngDistribution::NORMAL &&
      !isa<FloatType>(result.getElementType()))
    return emitOpError() << "a NORMAL distribution needs a floating-point "
                            "result, got "
                         << result.getElementType() << " (C2)";
  // (C3): the result shape has one dimension per element of `shape`, and
  // the sizes of a constant `shape`.
  auto shapeType = cast<RankedTensorType>(getShape().getType());
  if (!isCompatibleDim(shapeType.getDimSize(0), result.getRank()))
    return emitOpError() << "shape has " << shapeType.getDimSize(0)
                         << " elements but the result has rank "
                         << result.getRank() << " (C3)";
  DenseIntElementsAttr sizes;
  if (matchPattern(getShape(), m_Constant(&sizes)))
    for (auto [d, size] : llvm::enumerate(sizes.getValues<int64_t>()))
      if (!isCompatibleDim(result.getDimSize(d), size))
        return emitOpError()
               << "result dimension " << d << " has size "
               << result.getDimSize(d) << " but shape says " << size << " (C3)";
  return success();
}

//===----------------------------------------------------------------------===//
// Host transfers
//===----------------------------------------------------------------------===//

LogicalResult InfeedOp::verify() {
  // (C1) and (C3): a token comes last; (C2): tensors before it.
  if (getNumResults() == 0 || !isa<TokenType>(getResults().back().getType()))
    return emitOpError() << "last result must be a !stablehlo.token (C3)";
  for (Type type : TypeRange(getResultTypes()).drop_back())
    if (!isa<RankedTensorType>(type))
      return emitOpError() << "results before the token must be tensors, got "
                           << type << " (C2)";
  return success();
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  inferred.push_back(TupleType::get(context, adaptor.getVal().getTypes()));
  return success();
}

LogicalResult GetTupleElementOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  auto tuple = cast<TupleType>(adaptor.getOperand().getType());
  int64_t index = adaptor.getIndex();
  // (C1) and (C2).
  if (index < 0 || index >= static_cast<int64_t>(tuple.size()))
    return emitError() << "index " << index << " is out of range [0, "
                       << tuple.size() << ") (C1)";
  inferred.push_back(tuple.getType(index));
  return success();
}

//===----------------------------------------------------------------------===//
// Dynamic shapes
//===----------------------------------------------------------------------===//

namespace {

/// The sizes of a constant shape operand, if it is one.
std::optional<SmallVector<int64_t>> getConstantShape(Value shape) {
  DenseIntElementsAttr sizes;
  if (!matchPattern(shape, m_Constant(&sizes)))
    return std::nullopt;
  return llvm::to_vector(sizes.getValues<int64_t>());
}

/// Checks that a shape operand has one element per result dimension and,
/// when constant, the result's static sizes; `what` names the operand.
LogicalResult verifyShapeOperand(Operation *op, Value shape,
                                 RankedTensorType result, StringRef what,
                                 StringRef constraint) {
  auto shapeType = cast<RankedTensorType>(shape.getType());
  if (!isCompatibleDim(shapeType.getDimSize(0), result.getRank()))
    return op->emitOpError() << what << " has " << shapeType.getDimSize(0)
                             << " elements but the result has rank "
                             << result.getRank() << " " << constraint;
  if (std::optional<SmallVector<int64_t>> sizes = getConstantShape(shape))
    for (auto [d, size] : llvm::enumerate(*sizes))
      if (!isCompatibleDim(result.getDimSize(d), size))
        return op->emitOpError() << "result dimension " << d << " has size "
                                 << result.getDimSize(d) << " but " << what
                                 << " says " << size << " " << constraint;
  return success();
}

} // namespace

LogicalResult GetDimensionSizeOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  auto operand = cast<RankedTensorType>(adaptor.getOperand().getType());
  int64_t dimension = adaptor.getDimension();
  // (C1).
  if (dimension < 0 || dimension >= operand.getRank())
    return emitError() << "dimension " << dimension << " is out of range [0, "
                       << operand.getRank() << ") (C1)";
  inferred.push_back(RankedTensorType::get({}, IntegerType::get(context, 32)));
  return success();
}

LogicalResult DynamicIotaOp::verify() {
  auto result = cast<RankedTensorType>(getType());
  int64_t dim = getIotaDimension();
  // (C1).
  if (dim < 0 || dim >= result.getRank())
    return emitOpError() << "iota_dimension " << dim << " is out of range [0, "
                         << result.getRank() << ") (C1)";
  return verifyShapeOperand(*this, getOutputShape(), result, "output_shape",
                            "(C2)");
}

LogicalResult DynamicReshapeOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  // (C1).
  if (failed(
          verifySameElementType(*this, operand, result, "operand", "result")))
    return failure();
  // (C2): the element counts agree when both are static.
  if (operand.hasStaticShape() && result.hasStaticShape() &&
      operand.getNumElements() != result.getNumElements())
    return emitOpError() << "result has " << result.getNumElements()
                         << " elements but the operand has "
                         << operand.getNumElements() << " (C2)";
  return verifyShapeOperand(*this, getOutputShape(), result, "output_shape",
                            "(C3)");
}

LogicalResult DynamicBroadcastInDimOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  // (C1).
  if (failed(
          verifySameElementType(*this, operand, result, "operand", "result")))
    return failure();
  // (C2) to (C4).
  if (static_cast<int64_t>(dims.size()) != operand.getRank())
    return emitOpError() << "broadcast_dimensions size " << dims.size()
                         << " does not match operand rank " << operand.getRank()
                         << " (C2)";
  if (failed(verifyDimsInRange(*this, dims, result.getRank(),
                               "broadcast_dimensions")))
    return failure();
  // (C5).
  for (auto [i, dim] : llvm::enumerate(dims)) {
    int64_t operandSize = operand.getDimSize(i);
    if (operandSize != 1 &&
        !isCompatibleDim(operandSize, result.getDimSize(dim)))
      return emitOpError() << "operand dimension " << i << " of size "
                           << operandSize << " cannot broadcast to result "
                           << "dimension " << dim << " of size "
                           << result.getDimSize(dim) << " (C5)";
  }
  // (C7) to (C9): the known expanding and non-expanding dimensions are
  // operand dimensions, and disjoint.
  ArrayRef<int64_t> expanding =
      getKnownExpandingDimensions().value_or(ArrayRef<int64_t>());
  ArrayRef<int64_t> nonExpanding =
      getKnownNonexpandingDimensions().value_or(ArrayRef<int64_t>());
  if (failed(verifyDimsInRange(*this, expanding, operand.getRank(),
                               "known_expanding_dimensions")) ||
      failed(verifyDimsInRange(*this, nonExpanding, operand.getRank(),
                               "known_nonexpanding_dimensions")))
    return failure();
  for (int64_t dim : expanding)
    if (llvm::is_contained(nonExpanding, dim))
      return emitOpError() << "dimension " << dim
                           << " is both known expanding and known "
                              "non-expanding (C9)";
  return verifyShapeOperand(*this, getOutputDimensions(), result,
                            "output_dimensions", "(C6)");
}

LogicalResult DynamicGatherOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto result = cast<RankedTensorType>(getType());
  // (C14).
  if (failed(
          verifySameElementType(*this, result, operand, "result", "operand")))
    return failure();
  // (C11).
  int64_t count =
      cast<RankedTensorType>(getSliceSizes().getType()).getDimSize(0);
  if (!isCompatibleDim(count, operand.getRank()))
    return emitOpError() << "slice_sizes has " << count
                         << " elements but the operand has rank "
                         << operand.getRank() << " (C11)";
  // With constant slice sizes, every constraint of gather (C1) to (C13).
  std::optional<SmallVector<int64_t>> sizes = getConstantShape(getSliceSizes());
  if (!sizes)
    return success();
  OpErrorEmitter emitError(getLoc(), getOperationName());
  SmallVector<int64_t> shape;
  if (failed(
          inferGatherShape(emitError, operand,
                           cast<RankedTensorType>(getStartIndices().getType()),
                           getDimensionNumbers(), *sizes, shape)))
    return failure();
  return verifyShape(emitError, result, shape, "result");
}

LogicalResult DynamicPadOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto paddingValue = cast<RankedTensorType>(getPaddingValue().getType());
  auto result = cast<RankedTensorType>(getType());
  // (C1).
  if (paddingValue.getRank() != 0)
    return emitOpError() << "padding_value must be a rank-0 tensor (C1)";
  if (failed(verifySameElementType(*this, paddingValue, operand,
                                   "padding_value", "operand")) ||
      failed(
          verifySameElementType(*this, result, operand, "result", "operand")))
    return failure();
  // (C2): one padding per operand dimension.
  Value paddings[] = {getEdgePaddingLow(), getEdgePaddingHigh(),
                      getInteriorPadding()};
  StringRef paddingNames[] = {"edge_padding_low", "edge_padding_high",
                              "interior_padding"};
  for (auto [value, name] : llvm::zip(paddings, paddingNames)) {
    int64_t count = cast<RankedTensorType>(value.getType()).getDimSize(0);
    if (!isCompatibleDim(count, operand.getRank()))
      return emitOpError() << name << " has " << count
                           << " elements but the operand has rank "
                           << operand.getRank() << " (C2)";
  }
  if (result.getRank() != operand.getRank())
    return emitOpError() << "result rank " << result.getRank()
                         << " does not match operand rank " << operand.getRank()
                         << " (C4)";
  // (C3) and (C4) when the paddings are constants.
  std::optional<SmallVector<int64_t>> low =
      getConstantShape(getEdgePaddingLow());
  std::optional<SmallVector<int64_t>> high =
      getConstantShape(getEdgePaddingHigh());
  std::optional<SmallVector<int64_t>> interior =
      getConstantShape(getInteriorPadding());
  if (interior)
    for (auto [d, value] : llvm::enumerate(*interior))
      if (value < 0)
        return emitOpError() << "interior_padding " << value << " of dimension "
                             << d << " is negative (C3)";
  if (!low || !high || !interior || !operand.hasStaticShape())
    return success();
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    int64_t size = operand.getDimSize(d);
    int64_t expected = (*low)[d] + size + (*high)[d] +
                       std::max<int64_t>(size - 1, 0) * (*interior)[d];
    if (!isCompatibleDim(result.getDimSize(d), expected))
      return emitOpError() << "result dimension " << d << " has size "
                           << result.getDimSize(d) << " but the padding gives "
                           << expected << " (C4)";
  }
  return success();
}

LogicalResult DynamicConvOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  auto padding = cast<RankedTensorType>(getPadding().getType());
  auto result = cast<RankedTensorType>(getType());
  int64_t numSpatial = lhs.getRank() - 2;
  // (C4).
  if (padding.getRank() != 2 ||
      !isCompatibleDim(padding.getDimSize(0), numSpatial) ||
      !isCompatibleDim(padding.getDimSize(1), 2))
    return emitOpError() << "padding must have shape [" << numSpatial
                         << ", 2], got " << padding << " (C4)";
  // (C27).
  if (failed(verifySameElementType(*this, result, lhs, "result", "lhs")))
    return failure();
  if (getPrecisionConfig() && getPrecisionConfig()->size() > 2)
    return emitOpError() << "precision_config has "
                         << getPrecisionConfig()->size()
                         << " entries, expected at most 2 (C24)";
  // Every other constraint of convolution, (C1)-(C23) and (C25)-(C26): with
  // a constant padding the whole result shape, else all but the spatial
  // sizes (computed without padding, which only changes those).
  ConvolutionWindow window;
  window.strides = getWindowStrides();
  window.lhsDilation = getLhsDilation();
  window.rhsDilation = getRhsDilation();
  window.reversal = getWindowReversal();
  DenseIntElementsAttr constant;
  bool constantPadding = matchPattern(getPadding(), m_Constant(&constant));
  if (constantPadding)
    window.padding = DenseIntElementsAttr::get(
        RankedTensorType::get(constant.getType().getShape(),
                              IntegerType::get(getContext(), 64)),
        llvm::map_to_vector(constant.getValues<APInt>(), [](const APInt &v) {
          return v.getSExtValue();
        }));
  OpErrorEmitter emitError(getLoc(), getOperationName());
  SmallVector<int64_t> shape;
  if (failed(inferConvolutionShape(emitError, lhs, rhs, window,
                                   getDimensionNumbers(),
                                   getFeatureGroupCount(),
                                   getBatchGroupCount(), shape)))
    return failure();
  if (constantPadding)
    return verifyShape(emitError, result, shape, "result");
  if (result.getRank() != static_cast<int64_t>(shape.size()))
    return emitOpError() << "result rank " << result.getRank()
                         << " does not match the operands' rank "
                         << shape.size() << " (C26)";
  ConvDimensionNumbersAttr dims = getDimensionNumbers();
  for (int64_t d : {dims.getOutputBatchDimension(),
                    dims.getOutputFeatureDimension()})
    if (!isCompatibleDim(result.getDimSize(d), shape[d]))
      return emitOpError() << "result dimension " << d << " has size "
                           << result.getDimSize(d) << " but expected "
                           << shape[d] << " (C25)";
  return success();
}
