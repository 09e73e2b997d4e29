//===- StablehloTypeInference.cpp - result type inference -----------------===//

#include "StablehloTypeInference.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloQuantization.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

namespace mlir::stablehlo {

InFlightDiagnostic OpErrorEmitter::operator()() const {
  if (!loc)
    return InFlightDiagnostic();
  InFlightDiagnostic diag = emitError(*loc);
  diag << "'" << opName << "' op ";
  return diag;
}

//===----------------------------------------------------------------------===//
// Given versus inferred result types
//===----------------------------------------------------------------------===//

bool isCompatibleInferredTypes(TypeRange inferred, TypeRange actual,
                               bool checkElementTypes) {
  if (inferred.size() != actual.size())
    return false;
  for (auto [want, got] : llvm::zip(inferred, actual)) {
    auto wantTensor = dyn_cast<RankedTensorType>(want);
    auto gotTensor = dyn_cast<RankedTensorType>(got);
    if (!wantTensor || !gotTensor) {
      if (want != got)
        return false;
      continue;
    }
    if (checkElementTypes &&
        !haveSameBaselineElementType(wantTensor.getElementType(),
                                     gotTensor.getElementType()))
      return false;
    if (failed(
            verifyCompatibleShape(wantTensor.getShape(), gotTensor.getShape())))
      return false;
  }
  return true;
}

LogicalResult verifyInferredTypes(std::optional<Location> loc, StringRef opName,
                                  bool singleResult, bool checkElementTypes,
                                  TypeRange inferred, TypeRange actual) {
  OpErrorEmitter emitError(loc, opName);
  if (inferred.size() != actual.size())
    return emitError() << "has " << actual.size() << " results but expected "
                       << inferred.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inferred, actual))) {
    auto [want, got] = pair;
    if (isCompatibleInferredTypes(want, got, checkElementTypes))
      continue;
    std::string what =
        singleResult ? std::string("result") : "result #" + std::to_string(i);
    auto wantTensor = dyn_cast<RankedTensorType>(want);
    auto gotTensor = dyn_cast<RankedTensorType>(got);
    if (!wantTensor || !gotTensor)
      return emitError() << what << " type " << got
                         << " does not match expected " << want;
    if (checkElementTypes &&
        !haveSameBaselineElementType(wantTensor.getElementType(),
                                     gotTensor.getElementType()))
      return emitError() << what << " element type "
                         << gotTensor.getElementType()
                         << " does not match expected "
                         << wantTensor.getElementType();
    return verifyShape(emitError, got, wantTensor.getShape(), what);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Small shape helpers
//===----------------------------------------------------------------------===//

std::string shapeToString(ArrayRef<int64_t> shape) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '[';
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << '?';
    else
      os << d;
  });
  os << ']';
  return out;
}

LogicalResult refineShape(SmallVectorImpl<int64_t> &shape,
                          ArrayRef<int64_t> other) {
  if (shape.size() != other.size())
    return failure();
  for (auto [mine, theirs] : llvm::zip(shape, other)) {
    if (!isCompatibleDim(mine, theirs))
      return failure();
    if (ShapedType::isDynamic(mine))
      mine = theirs;
  }
  return success();
}

Type realPartType(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return complex.getElementType();
  return type;
}

LogicalResult verifyDimsInRange(EmitErrorFn emitError, ArrayRef<int64_t> dims,
                                int64_t rank, StringRef what) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank)
      return emitError() << what << " value " << dim << " is out of range [0, "
                         << rank << ")";
    if (!seen.insert(dim).second)
      return emitError() << what << " has duplicate value " << dim;
  }
  return success();
}

LogicalResult verifyShape(EmitErrorFn emitError, Type type,
                          ArrayRef<int64_t> expectedShape, StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << what << " type " << type << " is not a ranked tensor";
  if (tensor.getRank() != static_cast<int64_t>(expectedShape.size()))
    return emitError() << what << " rank " << tensor.getRank()
                       << " does not match expected rank "
                       << expectedShape.size() << " (expected shape "
                       << shapeToString(expectedShape) << ")";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(tensor.getShape(), expectedShape))) {
    auto [actual, expected] = pair;
    if (!isCompatibleDim(actual, expected))
      return emitError() << what << " dimension " << i << " has size " << actual
                         << " but expected " << expected << " (expected shape "
                         << shapeToString(expectedShape) << ")";
  }
  return success();
}

LogicalResult verifySameElementType(EmitErrorFn emitError, Type a, Type b,
                                    StringRef aName, StringRef bName) {
  Type ea = getElementTypeOrSelf(a), eb = getElementTypeOrSelf(b);
  if (ea != eb)
    return emitError() << aName << " element type " << ea << " does not match "
                       << bName << " element type " << eb;
  return success();
}

LogicalResult verifySameShape(EmitErrorFn emitError, ShapedType a, ShapedType b,
                              StringRef aName, StringRef bName) {
  if (failed(verifyCompatibleShape(a, b)))
    return emitError() << aName << " shape " << shapeToString(a.getShape())
                       << " is incompatible with " << bName << " shape "
                       << shapeToString(b.getShape());
  return success();
}

LogicalResult verifyWindowAttr(EmitErrorFn emitError,
                               std::optional<ArrayRef<int64_t>> values,
                               int64_t rank, StringRef name, bool positive) {
  if (!values)
    return success();
  if (static_cast<int64_t>(values->size()) != rank)
    return emitError() << name << " has " << values->size()
                       << " entries but the operand rank is " << rank;
  for (int64_t v : *values)
    if (positive ? v <= 0 : v < 0)
      return emitError() << name << " must be positive, got " << v;
  return success();
}

LogicalResult verifyWindowPadding(EmitErrorFn emitError,
                                  std::optional<DenseIntElementsAttr> padding,
                                  int64_t rank) {
  if (!padding)
    return success();
  auto type = cast<ShapedType>(padding->getType());
  if (type.getRank() != 2 || type.getDimSize(0) != rank ||
      type.getDimSize(1) != 2)
    return emitError() << "padding must have shape [" << rank << ", 2], got "
                       << shapeToString(type.getShape());
  return success();
}

LogicalResult verifyStartIndices(EmitErrorFn emitError,
                                 TypeRange startIndexTypes, int64_t rank) {
  if (static_cast<int64_t>(startIndexTypes.size()) != rank)
    return emitError() << "has " << startIndexTypes.size()
                       << " start indices but the operand rank is " << rank;
  if (!startIndexTypes.empty()) {
    Type first = getElementTypeOrSelf(startIndexTypes.front());
    for (Type type : startIndexTypes)
      if (getElementTypeOrSelf(type) != first)
        return emitError()
               << "start indices must all have the same element type";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shape functions
//===----------------------------------------------------------------------===//

namespace {

/// The operand types as ranked tensors, or an error.
LogicalResult getRankedTensors(EmitErrorFn emitError, TypeRange types,
                               StringRef what,
                               SmallVectorImpl<RankedTensorType> &tensors) {
  for (auto [i, type] : llvm::enumerate(types)) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return emitError() << what << " #" << i
                         << " must be a ranked tensor, got " << type;
    tensors.push_back(tensor);
  }
  return success();
}

} // namespace

bool isPerTensorOfPerAxis(Type perTensor, Type perAxis) {
  auto left = dyn_cast<quant::UniformQuantizedType>(perTensor);
  auto right = dyn_cast<quant::UniformQuantizedPerAxisType>(perAxis);
  return left && right && left.getStorageType() == right.getStorageType() &&
         left.isSigned() == right.isSigned() &&
         left.getStorageTypeMin() == right.getStorageTypeMin() &&
         left.getStorageTypeMax() == right.getStorageTypeMax() &&
         left.getExpressedType() == right.getExpressedType();
}

/// The element type of add's result when one operand is per-tensor
/// quantized and the other per-axis of the same baseline (spec C5-C7 of
/// add, the one elementwise op that mixes them): the per-axis one.
static Type getMixedAddElementType(StringRef opName, TypeRange operandTypes) {
  if (opName != "stablehlo.add" || operandTypes.size() != 2)
    return Type();
  Type lhs = getElementTypeOrSelf(operandTypes[0]);
  Type rhs = getElementTypeOrSelf(operandTypes[1]);
  return isPerTensorOfPerAxis(lhs, rhs)   ? rhs
         : isPerTensorOfPerAxis(rhs, lhs) ? lhs
                                          : Type();
}

LogicalResult inferElementwiseTypes(std::optional<Location> loc,
                                    StringRef opName, TypeRange operandTypes,
                                    SmallVectorImpl<Type> &inferred) {
  if (Type perAxis = getMixedAddElementType(opName, operandTypes)) {
    // The shapes as for any add, on the per-axis element type.
    SmallVector<Type, 2> sameElements;
    for (Type type : operandTypes) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        break;
      sameElements.push_back(tensor.clone(perAxis));
    }
    if (sameElements.size() == operandTypes.size())
      return inferElementwiseTypes(loc, opName, sameElements, inferred);
  }
  OpErrorEmitter emitError(loc, opName);
  SmallVector<RankedTensorType> tensors;
  if (failed(getRankedTensors(emitError, operandTypes, "operand", tensors)))
    return failure();
  if (tensors.empty())
    return emitError() << "expects at least one operand";
  RankedTensorType first = tensors.front();
  SmallVector<int64_t> shape(first.getShape());
  for (auto [i, tensor] : llvm::enumerate(tensors)) {
    // Quantized operands may differ in scales and zero points.
    if (!haveSameBaselineElementType(tensor.getElementType(),
                                     first.getElementType()))
      return emitError() << "requires the same element type for all operands, "
                            "but operand #"
                         << i << " has type " << tensor
                         << " and operand #0 has " << first;
    if (failed(refineShape(shape, tensor.getShape())))
      return emitError() << "requires compatible shapes for all operands, but "
                            "operand #"
                         << i << " has type " << tensor
                         << " and operand #0 has " << first;
  }
  // Most elementwise ops have operands of one static type: reuse it rather
  // than uniquing it again (this runs for every op built and verified).
  if (ArrayRef<int64_t>(shape) == first.getShape())
    inferred.push_back(first);
  else
    inferred.push_back(RankedTensorType::get(shape, first.getElementType(),
                                             first.getEncoding()));
  return success();
}

LogicalResult inferTransposeShape(EmitErrorFn emitError,
                                  RankedTensorType operand,
                                  ArrayRef<int64_t> permutation,
                                  SmallVectorImpl<int64_t> &shape) {
  if (static_cast<int64_t>(permutation.size()) != operand.getRank())
    return emitError() << "permutation size " << permutation.size()
                       << " does not match operand rank " << operand.getRank();
  if (failed(verifyDimsInRange(emitError, permutation, operand.getRank(),
                               "permutation")))
    return failure();
  for (int64_t dim : permutation)
    shape.push_back(operand.getDimSize(dim));
  return success();
}

LogicalResult inferSliceShape(EmitErrorFn emitError, RankedTensorType operand,
                              ArrayRef<int64_t> start, ArrayRef<int64_t> limit,
                              ArrayRef<int64_t> strides,
                              SmallVectorImpl<int64_t> &shape) {
  int64_t rank = operand.getRank();
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank)
    return emitError() << "expects " << rank
                       << " start, limit and stride values (operand rank), "
                          "got "
                       << start.size() << ", " << limit.size() << " and "
                       << strides.size();
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size = operand.getDimSize(i);
    if (start[i] < 0)
      return emitError() << "start index " << start[i] << " of dimension " << i
                         << " is negative";
    if (limit[i] < start[i])
      return emitError() << "limit index " << limit[i] << " of dimension " << i
                         << " is less than its start index " << start[i];
    if (!ShapedType::isDynamic(size) && limit[i] > size)
      return emitError() << "limit index " << limit[i] << " of dimension " << i
                         << " exceeds its size " << size;
    if (strides[i] <= 0)
      return emitError() << "stride " << strides[i] << " of dimension " << i
                         << " must be positive";
    shape.push_back((limit[i] - start[i] + strides[i] - 1) / strides[i]);
  }
  return success();
}

LogicalResult inferDynamicSliceShape(EmitErrorFn emitError,
                                     RankedTensorType operand,
                                     TypeRange startIndexTypes,
                                     ArrayRef<int64_t> sliceSizes,
                                     SmallVectorImpl<int64_t> &shape) {
  int64_t rank = operand.getRank();
  if (failed(verifyStartIndices(emitError, startIndexTypes, rank)))
    return failure();
  if (static_cast<int64_t>(sliceSizes.size()) != rank)
    return emitError() << "has " << sliceSizes.size()
                       << " slice sizes but the operand rank is " << rank;
  for (auto [i, size] : llvm::enumerate(sliceSizes)) {
    int64_t dim = operand.getDimSize(i);
    if (size < 0 || (!ShapedType::isDynamic(dim) && size > dim))
      return emitError() << "slice size " << size << " of dimension " << i
                         << " is out of range [0, " << dim << "]";
  }
  llvm::append_range(shape, sliceSizes);
  return success();
}

LogicalResult inferConcatenateShape(EmitErrorFn emitError, TypeRange inputTypes,
                                    int64_t dimension,
                                    SmallVectorImpl<int64_t> &shape) {
  SmallVector<RankedTensorType> inputs;
  if (failed(getRankedTensors(emitError, inputTypes, "input", inputs)))
    return failure();
  if (inputs.empty())
    return emitError() << "expects at least one input";
  RankedTensorType first = inputs.front();
  int64_t rank = first.getRank();
  if (dimension < 0 || dimension >= rank)
    return emitError() << "dimension " << dimension << " is out of range [0, "
                       << rank << ")";
  shape.assign(first.getShape().begin(), first.getShape().end());
  shape[dimension] = 0;
  for (auto [i, type] : llvm::enumerate(inputs)) {
    if (type.getRank() != rank)
      return emitError() << "input #" << i << " has rank " << type.getRank()
                         << " but input #0 has rank " << rank;
    if (failed(verifySameElementType(
            emitError, type, first, "input #" + std::to_string(i), "input #0")))
      return failure();
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.getDimSize(d);
      if (d == dimension) {
        if (ShapedType::isDynamic(size) || ShapedType::isDynamic(shape[d]))
          shape[d] = ShapedType::kDynamic;
        else
          shape[d] += size;
        continue;
      }
      if (!isCompatibleDim(size, shape[d]))
        return emitError() << "input #" << i << " dimension " << d
                           << " has size " << size << " but input #0 has "
                           << shape[d];
      if (ShapedType::isDynamic(shape[d]))
        shape[d] = size;
    }
  }
  return success();
}

LogicalResult inferPadShape(EmitErrorFn emitError, RankedTensorType operand,
                            RankedTensorType paddingValue,
                            ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                            ArrayRef<int64_t> interior,
                            SmallVectorImpl<int64_t> &shape) {
  int64_t rank = operand.getRank();
  if (paddingValue.getRank() != 0)
    return emitError() << "padding_value must be a rank-0 tensor";
  if (failed(verifySameElementType(emitError, paddingValue, operand,
                                   "padding_value", "operand")))
    return failure();
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank ||
      static_cast<int64_t>(interior.size()) != rank)
    return emitError() << "expects " << rank
                       << " low, high and interior padding values (operand "
                          "rank), got "
                       << low.size() << ", " << high.size() << " and "
                       << interior.size();
  for (int64_t i = 0; i < rank; ++i) {
    if (interior[i] < 0)
      return emitError() << "interior padding " << interior[i]
                         << " of dimension " << i << " is negative";
    int64_t size = operand.getDimSize(i);
    if (ShapedType::isDynamic(size)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    // size + low + high + (size - 1) * interior, each step checked.
    std::optional<int64_t> padded =
        mpmd::checkedMul(std::max<int64_t>(size - 1, 0), interior[i]);
    for (int64_t term : {size, low[i], high[i]})
      if (padded)
        padded = mpmd::checkedAdd(*padded, term);
    if (!padded)
      return emitError() << "padding dimension " << i << " (size " << size
                         << ", low " << low[i] << ", high " << high[i]
                         << ", interior " << interior[i]
                         << ") overflows 64 bits";
    if (*padded < 0)
      return emitError() << "padding makes dimension " << i << " negative ("
                         << *padded << ")";
    shape.push_back(*padded);
  }
  return success();
}

LogicalResult inferDotShape(EmitErrorFn emitError, RankedTensorType lhs,
                            RankedTensorType rhs,
                            SmallVectorImpl<int64_t> &shape) {
  int64_t lhsRank = lhs.getRank(), rhsRank = rhs.getRank();
  if (lhsRank < 1 || lhsRank > 2 || rhsRank < 1 || rhsRank > 2)
    return emitError() << "expects operands of rank 1 or 2, got " << lhsRank
                       << " and " << rhsRank;
  int64_t lhsContract = lhs.getDimSize(lhsRank - 1);
  int64_t rhsContract = rhs.getDimSize(0);
  if (!isCompatibleDim(lhsContract, rhsContract))
    return emitError() << "contracting dimension sizes do not match: "
                       << lhsContract << " vs " << rhsContract;
  if (lhsRank == 2)
    shape.push_back(lhs.getDimSize(0));
  if (rhsRank == 2)
    shape.push_back(rhs.getDimSize(1));
  return success();
}

LogicalResult inferDotGeneralShape(EmitErrorFn emitError, RankedTensorType lhs,
                                   RankedTensorType rhs,
                                   DotDimensionNumbersAttr dims,
                                   SmallVectorImpl<int64_t> &shape) {
  ArrayRef<int64_t> lhsBatch = dims.getLhsBatchingDimensions();
  ArrayRef<int64_t> rhsBatch = dims.getRhsBatchingDimensions();
  ArrayRef<int64_t> lhsContract = dims.getLhsContractingDimensions();
  ArrayRef<int64_t> rhsContract = dims.getRhsContractingDimensions();
  if (lhsBatch.size() != rhsBatch.size())
    return emitError() << "lhs and rhs batching dimensions have different "
                          "sizes: "
                       << lhsBatch.size() << " vs " << rhsBatch.size();
  if (lhsContract.size() != rhsContract.size())
    return emitError() << "lhs and rhs contracting dimensions have "
                          "different sizes: "
                       << lhsContract.size() << " vs " << rhsContract.size();
  SmallVector<int64_t> lhsUsed(lhsBatch), rhsUsed(rhsBatch);
  llvm::append_range(lhsUsed, lhsContract);
  llvm::append_range(rhsUsed, rhsContract);
  if (failed(verifyDimsInRange(emitError, lhsUsed, lhs.getRank(),
                               "lhs batching/contracting dimensions")) ||
      failed(verifyDimsInRange(emitError, rhsUsed, rhs.getRank(),
                               "rhs batching/contracting dimensions")))
    return failure();
  for (auto [l, r] : llvm::zip(lhsBatch, rhsBatch))
    if (!isCompatibleDim(lhs.getDimSize(l), rhs.getDimSize(r)))
      return emitError() << "batching dimension sizes do not match: lhs "
                            "dimension "
                         << l << " has size " << lhs.getDimSize(l)
                         << ", rhs dimension " << r << " has size "
                         << rhs.getDimSize(r);
  for (auto [l, r] : llvm::zip(lhsContract, rhsContract))
    if (!isCompatibleDim(lhs.getDimSize(l), rhs.getDimSize(r)))
      return emitError() << "contracting dimension sizes do not match: lhs "
                            "dimension "
                         << l << " has size " << lhs.getDimSize(l)
                         << ", rhs dimension " << r << " has size "
                         << rhs.getDimSize(r);
  // A batch dimension is static if either side knows its size.
  for (auto [l, r] : llvm::zip(lhsBatch, rhsBatch))
    shape.push_back(ShapedType::isDynamic(lhs.getDimSize(l))
                        ? rhs.getDimSize(r)
                        : lhs.getDimSize(l));
  for (int64_t d = 0; d < lhs.getRank(); ++d)
    if (!llvm::is_contained(lhsUsed, d))
      shape.push_back(lhs.getDimSize(d));
  for (int64_t d = 0; d < rhs.getRank(); ++d)
    if (!llvm::is_contained(rhsUsed, d))
      shape.push_back(rhs.getDimSize(d));
  return success();
}

LogicalResult inferConvolutionShape(EmitErrorFn emitError, RankedTensorType lhs,
                                    RankedTensorType rhs,
                                    const ConvolutionWindow &window,
                                    ConvDimensionNumbersAttr dims,
                                    int64_t featureGroupCount,
                                    int64_t batchGroupCount,
                                    SmallVectorImpl<int64_t> &shape) {
  int64_t rank = lhs.getRank();
  // (C1)
  if (rhs.getRank() != rank)
    return emitError() << "lhs rank " << rank << " does not match rhs rank "
                       << rhs.getRank();
  if (rank < 2)
    return emitError() << "operands must have rank at least 2 (batch and "
                          "feature), got "
                       << rank;
  int64_t numSpatial = rank - 2;
  // (C2)-(C9): one window entry per spatial dimension.
  auto checkWindowList = [&](std::optional<size_t> size,
                             StringRef name) -> LogicalResult {
    if (size && static_cast<int64_t>(*size) != numSpatial)
      return emitError() << name << " has " << *size
                         << " entries but there are " << numSpatial
                         << " spatial dimensions";
    return success();
  };
  auto checkPositive = [&](std::optional<ArrayRef<int64_t>> values,
                           StringRef name) -> LogicalResult {
    if (failed(checkWindowList(values ? std::optional(values->size())
                                      : std::nullopt,
                               name)))
      return failure();
    if (values)
      for (int64_t value : *values)
        if (value <= 0)
          return emitError() << name << " must be positive, got " << value;
    return success();
  };
  if (failed(checkPositive(window.strides, "window_strides")))
    return failure();
  if (window.padding) {
    auto type = cast<ShapedType>(window.padding->getType());
    if (type.getRank() != 2 || type.getDimSize(0) != numSpatial ||
        type.getDimSize(1) != 2)
      return emitError() << "padding must have shape [" << numSpatial
                         << ", 2], got " << shapeToString(type.getShape());
  }
  if (failed(checkPositive(window.lhsDilation, "lhs_dilation")) ||
      failed(checkPositive(window.rhsDilation, "rhs_dilation")) ||
      failed(checkWindowList(window.reversal
                                 ? std::optional(window.reversal->size())
                                 : std::nullopt,
                             "window_reversal")))
    return failure();
  // (C21)-(C23), before the divisions they guard.
  if (featureGroupCount <= 0)
    return emitError() << "feature_group_count must be positive, got "
                       << featureGroupCount;
  if (batchGroupCount <= 0)
    return emitError() << "batch_group_count must be positive, got "
                       << batchGroupCount;
  if (featureGroupCount != 1 && batchGroupCount != 1)
    return emitError() << "feature_group_count (" << featureGroupCount
                       << ") and batch_group_count (" << batchGroupCount
                       << ") cannot both be larger than 1";
  // (C12)-(C13), (C17)-(C20): each tensor's dimensions named exactly once.
  auto checkDims = [&](int64_t first, int64_t second,
                       ArrayRef<int64_t> spatial, StringRef tensor,
                       StringRef spatialName) -> LogicalResult {
    if (static_cast<int64_t>(spatial.size()) != numSpatial)
      return emitError() << spatialName << " has " << spatial.size()
                         << " entries but there are " << numSpatial
                         << " spatial dimensions";
    SmallVector<int64_t> all{first};
    llvm::append_range(all, spatial);
    all.push_back(second);
    return verifyDimsInRange(emitError, all, rank,
                             (tensor + " dimension numbers").str());
  };
  if (failed(checkDims(dims.getInputBatchDimension(),
                       dims.getInputFeatureDimension(),
                       dims.getInputSpatialDimensions(), "input",
                       "input_spatial_dimensions")) ||
      failed(checkDims(dims.getKernelInputFeatureDimension(),
                       dims.getKernelOutputFeatureDimension(),
                       dims.getKernelSpatialDimensions(), "kernel",
                       "kernel_spatial_dimensions")) ||
      failed(checkDims(dims.getOutputBatchDimension(),
                       dims.getOutputFeatureDimension(),
                       dims.getOutputSpatialDimensions(), "output",
                       "output_spatial_dimensions")))
    return failure();
  // (C27), the operand half: the result may use a wider type (ConvolutionOp's
  // verifier checks its kind). Quantized operands follow C28-C34 instead,
  // which the verifier checks.
  if (!isQuantized(lhs) && !isQuantized(rhs) &&
      failed(verifySameElementType(emitError, lhs, rhs, "lhs", "rhs")))
    return failure();

  int64_t batch = lhs.getDimSize(dims.getInputBatchDimension());
  int64_t features = lhs.getDimSize(dims.getInputFeatureDimension());
  int64_t kernelInput = rhs.getDimSize(dims.getKernelInputFeatureDimension());
  int64_t kernelOutput = rhs.getDimSize(dims.getKernelOutputFeatureDimension());
  auto isStatic = [](int64_t size) { return !ShapedType::isDynamic(size); };
  // (C10), (C11), (C14)-(C16)
  if (isStatic(batch) && batch % batchGroupCount != 0)
    return emitError() << "input batch size " << batch
                       << " is not a multiple of batch_group_count "
                       << batchGroupCount;
  if (isStatic(features) && features % featureGroupCount != 0)
    return emitError() << "input feature size " << features
                       << " is not a multiple of feature_group_count "
                       << featureGroupCount;
  if (isStatic(features) && isStatic(kernelInput) &&
      kernelInput != features / featureGroupCount)
    return emitError() << "kernel input feature size " << kernelInput
                       << " does not match the input feature size "
                       << features << " divided by feature_group_count "
                       << featureGroupCount;
  if (isStatic(kernelOutput) && kernelOutput % batchGroupCount != 0)
    return emitError() << "kernel output feature size " << kernelOutput
                       << " is not a multiple of batch_group_count "
                       << batchGroupCount;
  if (isStatic(kernelOutput) && kernelOutput % featureGroupCount != 0)
    return emitError() << "kernel output feature size " << kernelOutput
                       << " is not a multiple of feature_group_count "
                       << featureGroupCount;

  // (C25)
  shape.assign(rank, ShapedType::kDynamic);
  shape[dims.getOutputBatchDimension()] =
      isStatic(batch) ? batch / batchGroupCount : ShapedType::kDynamic;
  shape[dims.getOutputFeatureDimension()] = kernelOutput;
  SmallVector<int64_t> pads(2 * numSpatial, 0);
  if (window.padding)
    pads.assign(window.padding->getValues<int64_t>().begin(),
                window.padding->getValues<int64_t>().end());
  auto valueOr1 = [](std::optional<ArrayRef<int64_t>> values, int64_t i) {
    return values ? (*values)[i] : 1;
  };
  for (int64_t i = 0; i < numSpatial; ++i) {
    int64_t input = lhs.getDimSize(dims.getInputSpatialDimensions()[i]);
    int64_t kernel = rhs.getDimSize(dims.getKernelSpatialDimensions()[i]);
    int64_t &out = shape[dims.getOutputSpatialDimensions()[i]];
    if (!isStatic(input) || !isStatic(kernel))
      continue;
    // (size - 1) * dilation + 1 (0 for size 0), padded on both sides; each
    // step checked.
    auto dilate = [](int64_t size,
                     int64_t dilation) -> std::optional<int64_t> {
      if (size == 0)
        return 0;
      std::optional<int64_t> dilated = mpmd::checkedMul(size - 1, dilation);
      return dilated ? mpmd::checkedAdd(*dilated, 1) : std::nullopt;
    };
    std::optional<int64_t> padded = dilate(input, valueOr1(window.lhsDilation, i));
    for (int64_t edge : {pads[2 * i], pads[2 * i + 1]})
      if (padded)
        padded = mpmd::checkedAdd(*padded, edge);
    std::optional<int64_t> dilatedWindow =
        dilate(kernel, valueOr1(window.rhsDilation, i));
    if (!padded || !dilatedWindow)
      return emitError() << "the padded input or the dilated window of "
                            "spatial dimension "
                         << i << " does not fit in 64 bits";
    bool isEmpty = *padded <= 0 || *dilatedWindow > *padded;
    out = isEmpty ? 0
                  : (*padded - *dilatedWindow) / valueOr1(window.strides, i) + 1;
  }
  return success();
}

namespace {

LogicalResult verifySortedUnique(EmitErrorFn emitError, ArrayRef<int64_t> dims,
                                 StringRef what) {
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] <= dims[i - 1])
      return emitError() << what << " must be sorted and unique, got "
                         << shapeToString(dims);
  return success();
}

} // namespace

LogicalResult inferGatherShape(EmitErrorFn emitError, RankedTensorType operand,
                               RankedTensorType indices,
                               GatherDimensionNumbersAttr dims,
                               ArrayRef<int64_t> sliceSizes,
                               SmallVectorImpl<int64_t> &shape) {
  int64_t operandRank = operand.getRank();
  int64_t indicesRank = indices.getRank();
  int64_t indexVectorDim = dims.getIndexVectorDim();

  if (indexVectorDim < 0 || indexVectorDim > indicesRank)
    return emitError() << "index_vector_dim " << indexVectorDim
                       << " is out of range [0, " << indicesRank << "]";
  if (static_cast<int64_t>(sliceSizes.size()) != operandRank)
    return emitError() << "slice_sizes size " << sliceSizes.size()
                       << " does not match operand rank " << operandRank;
  for (auto [i, size] : llvm::enumerate(sliceSizes)) {
    int64_t dim = operand.getDimSize(i);
    if (size < 0 || (!ShapedType::isDynamic(dim) && size > dim))
      return emitError() << "slice size " << size << " of dimension " << i
                         << " is out of range [0, " << dim << "]";
  }
  if (failed(
          verifySortedUnique(emitError, dims.getOffsetDims(), "offset_dims")) ||
      failed(verifySortedUnique(emitError, dims.getCollapsedSliceDims(),
                                "collapsed_slice_dims")))
    return failure();
  SmallVector<int64_t> removed(dims.getCollapsedSliceDims());
  llvm::append_range(removed, dims.getOperandBatchingDims());
  if (failed(verifyDimsInRange(emitError, removed, operandRank,
                               "collapsed_slice_dims/operand_batching_dims")))
    return failure();
  for (int64_t d : removed)
    if (sliceSizes[d] > 1)
      return emitError() << "slice size of collapsed or batching dimension "
                         << d << " must be at most 1, got " << sliceSizes[d];
  if (dims.getOperandBatchingDims().size() !=
      dims.getStartIndicesBatchingDims().size())
    return emitError() << "operand_batching_dims and "
                          "start_indices_batching_dims have different sizes";
  for (int64_t d : dims.getStartIndicesBatchingDims())
    if (d == indexVectorDim)
      return emitError() << "start_indices_batching_dims must not contain "
                            "index_vector_dim "
                         << d;
  if (failed(verifyDimsInRange(emitError, dims.getStartIndicesBatchingDims(),
                               indicesRank, "start_indices_batching_dims")) ||
      failed(verifyDimsInRange(emitError, dims.getStartIndexMap(), operandRank,
                               "start_index_map")))
    return failure();
  int64_t indexVectorSize =
      indexVectorDim < indicesRank ? indices.getDimSize(indexVectorDim) : 1;
  if (!isCompatibleDim(indexVectorSize,
                       static_cast<int64_t>(dims.getStartIndexMap().size())))
    return emitError() << "start_index_map size "
                       << dims.getStartIndexMap().size()
                       << " does not match index vector size "
                       << indexVectorSize;

  SmallVector<int64_t> batchShape;
  for (int64_t d = 0; d < indicesRank; ++d)
    if (d != indexVectorDim)
      batchShape.push_back(indices.getDimSize(d));
  SmallVector<int64_t> offsetShape;
  for (int64_t d = 0; d < operandRank; ++d)
    if (!llvm::is_contained(removed, d))
      offsetShape.push_back(sliceSizes[d]);
  ArrayRef<int64_t> offsetDims = dims.getOffsetDims();
  if (offsetDims.size() != offsetShape.size())
    return emitError() << "offset_dims size " << offsetDims.size()
                       << " does not match the number of non-collapsed "
                          "slice dimensions "
                       << offsetShape.size();
  int64_t resultRank = batchShape.size() + offsetShape.size();
  if (failed(
          verifyDimsInRange(emitError, offsetDims, resultRank, "offset_dims")))
    return failure();
  size_t nextBatch = 0, nextOffset = 0;
  for (int64_t d = 0; d < resultRank; ++d) {
    if (llvm::is_contained(offsetDims, d))
      shape.push_back(offsetShape[nextOffset++]);
    else
      shape.push_back(batchShape[nextBatch++]);
  }
  return success();
}

LogicalResult inferReduceShape(EmitErrorFn emitError, TypeRange inputTypes,
                               ArrayRef<int64_t> dimensions,
                               SmallVectorImpl<int64_t> &shape) {
  SmallVector<RankedTensorType> inputs;
  if (failed(getRankedTensors(emitError, inputTypes, "input", inputs)))
    return failure();
  if (inputs.empty())
    return emitError() << "expects at least one input";
  SmallVector<int64_t> inputShape(inputs.front().getShape());
  for (auto [i, input] : llvm::enumerate(inputs))
    if (failed(refineShape(inputShape, input.getShape())))
      return emitError() << "input #" << i << " shape does not match input #0";
  int64_t rank = inputShape.size();
  if (failed(verifyDimsInRange(emitError, dimensions, rank, "dimensions")))
    return failure();
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dimensions, d))
      shape.push_back(inputShape[d]);
  return success();
}

LogicalResult
inferReduceWindowShape(EmitErrorFn emitError, TypeRange inputTypes,
                       ArrayRef<int64_t> windowDimensions,
                       std::optional<ArrayRef<int64_t>> windowStrides,
                       std::optional<ArrayRef<int64_t>> baseDilations,
                       std::optional<ArrayRef<int64_t>> windowDilations,
                       std::optional<DenseIntElementsAttr> padding,
                       SmallVectorImpl<int64_t> &shape) {
  SmallVector<RankedTensorType> inputs;
  if (failed(getRankedTensors(emitError, inputTypes, "input", inputs)))
    return failure();
  if (inputs.empty())
    return emitError() << "expects at least one input";
  RankedTensorType first = inputs.front();
  int64_t rank = first.getRank();
  if (failed(verifyWindowAttr(emitError, windowDimensions, rank,
                              "window_dimensions", true)) ||
      failed(verifyWindowAttr(emitError, windowStrides, rank, "window_strides",
                              true)) ||
      failed(verifyWindowAttr(emitError, baseDilations, rank, "base_dilations",
                              true)) ||
      failed(verifyWindowAttr(emitError, windowDilations, rank,
                              "window_dilations", true)) ||
      failed(verifyWindowPadding(emitError, padding, rank)))
    return failure();
  SmallVector<int64_t> pads(2 * rank, 0);
  if (padding)
    pads.assign(padding->getValues<int64_t>().begin(),
                padding->getValues<int64_t>().end());
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = first.getDimSize(d);
    if (ShapedType::isDynamic(size)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t base = baseDilations ? (*baseDilations)[d] : 1;
    int64_t stride = windowStrides ? (*windowStrides)[d] : 1;
    int64_t dilation = windowDilations ? (*windowDilations)[d] : 1;
    // (size - 1) * base + 1 + low + high and (window - 1) * dilation + 1,
    // each step checked.
    std::optional<int64_t> padded =
        size == 0 ? 0 : mpmd::checkedMul(size - 1, base);
    for (int64_t term :
         {int64_t(size == 0 ? 0 : 1), pads[2 * d], pads[2 * d + 1]})
      if (padded)
        padded = mpmd::checkedAdd(*padded, term);
    std::optional<int64_t> window =
        mpmd::checkedMul(windowDimensions[d] - 1, dilation);
    if (window)
      window = mpmd::checkedAdd(*window, 1);
    if (!padded || !window)
      return emitError() << "the padded input or the dilated window of "
                            "dimension "
                         << d << " does not fit in 64 bits";
    shape.push_back(*padded < *window ? 0 : (*padded - *window) / stride + 1);
  }
  return success();
}

} // namespace mlir::stablehlo
