//===- StablehloOps.cpp - constants, shape and dot ops --------------------===//

#include "StablehloAsm.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

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

LogicalResult verifySameElementType(Operation *op, Type a, Type b,
                                    StringRef aName, StringRef bName) {
  Type ea = getElementTypeOrSelf(a), eb = getElementTypeOrSelf(b);
  if (ea != eb)
    return op->emitOpError() << aName << " element type " << ea
                             << " does not match " << bName
                             << " element type " << eb;
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  // Accepts `stablehlo.constant dense<1> : tensor<i32>` and the older
  // `stablehlo.constant {value = dense<1> : tensor<i32>}`.
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
  p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  p << ' ';
  p.printAttribute(getValue());
  if (getValue().getType() != getType()) {
    p << " : ";
    p.printFunctionalType(TypeRange(), TypeRange(getType()));
  }
}

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError() << "value type " << getValue().getType()
                         << " does not match result type " << getType();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

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
  if (failed(verifySameElementType(*this, operandType, resultType, "operand",
                                   "result")))
    return failure();
  if (operandType.hasStaticShape() && resultType.hasStaticShape() &&
      operandType.getNumElements() != resultType.getNumElements())
    return emitOpError() << "result has " << resultType.getNumElements()
                         << " elements but the operand has "
                         << operandType.getNumElements();
  return success();
}

LogicalResult BroadcastInDimOp::verify() {
  auto operandType = getOperand().getType();
  auto resultType = getResult().getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (failed(verifySameElementType(*this, operandType, resultType, "operand",
                                   "result")))
    return failure();
  if (static_cast<int64_t>(dims.size()) != operandType.getRank())
    return emitOpError() << "broadcast_dimensions size " << dims.size()
                         << " does not match operand rank "
                         << operandType.getRank();
  if (failed(verifyDimsInRange(*this, dims, resultType.getRank(),
                               "broadcast_dimensions")))
    return failure();
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

LogicalResult TransposeOp::verify() {
  auto operandType = getOperand().getType();
  ArrayRef<int64_t> perm = getPermutation();
  if (static_cast<int64_t>(perm.size()) != operandType.getRank())
    return emitOpError() << "permutation size " << perm.size()
                         << " does not match operand rank "
                         << operandType.getRank();
  if (failed(verifyDimsInRange(*this, perm, operandType.getRank(),
                               "permutation")) ||
      failed(verifySameElementType(*this, operandType, getType(), "operand",
                                   "result")))
    return failure();
  SmallVector<int64_t> expected;
  for (int64_t dim : perm)
    expected.push_back(operandType.getDimSize(dim));
  return verifyResultShape(*this, getType(), expected);
}

LogicalResult ReverseOp::verify() {
  return verifyDimsInRange(*this, getDimensions(),
                           getOperand().getType().getRank(), "dimensions");
}

//===----------------------------------------------------------------------===//
// Slicing, padding, concatenation
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::verify() {
  auto operandType = getOperand().getType();
  int64_t rank = operandType.getRank();
  ArrayRef<int64_t> start = getStartIndices(), limit = getLimitIndices(),
                    strides = getStrides();
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank)
    return emitOpError() << "expects " << rank
                         << " start, limit and stride values (operand rank), "
                            "got "
                         << start.size() << ", " << limit.size() << " and "
                         << strides.size();
  if (failed(verifySameElementType(*this, operandType, getType(), "operand",
                                   "result")))
    return failure();
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size = operandType.getDimSize(i);
    if (start[i] < 0)
      return emitOpError() << "start index " << start[i] << " of dimension "
                           << i << " is negative";
    if (limit[i] < start[i])
      return emitOpError() << "limit index " << limit[i] << " of dimension "
                           << i << " is less than its start index "
                           << start[i];
    if (!ShapedType::isDynamic(size) && limit[i] > size)
      return emitOpError() << "limit index " << limit[i] << " of dimension "
                           << i << " exceeds its size " << size;
    if (strides[i] <= 0)
      return emitOpError() << "stride " << strides[i] << " of dimension " << i
                           << " must be positive";
    expected.push_back((limit[i] - start[i] + strides[i] - 1) / strides[i]);
  }
  return verifyResultShape(*this, getType(), expected);
}

static LogicalResult verifyStartIndices(Operation *op, ValueRange indices,
                                        int64_t rank) {
  if (static_cast<int64_t>(indices.size()) != rank)
    return op->emitOpError() << "has " << indices.size()
                             << " start indices but the operand rank is "
                             << rank;
  if (!indices.empty()) {
    Type first = getElementTypeOrSelf(indices.front().getType());
    for (Value index : indices)
      if (getElementTypeOrSelf(index.getType()) != first)
        return op->emitOpError()
               << "start indices must all have the same element type";
  }
  return success();
}

LogicalResult DynamicSliceOp::verify() {
  auto operandType = getOperand().getType();
  int64_t rank = operandType.getRank();
  ArrayRef<int64_t> sizes = getSliceSizes();
  if (failed(verifyStartIndices(*this, getStartIndices(), rank)))
    return failure();
  if (static_cast<int64_t>(sizes.size()) != rank)
    return emitOpError() << "has " << sizes.size()
                         << " slice sizes but the operand rank is " << rank;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    int64_t dim = operandType.getDimSize(i);
    if (size < 0 || (!ShapedType::isDynamic(dim) && size > dim))
      return emitOpError() << "slice size " << size << " of dimension " << i
                           << " is out of range [0, " << dim << "]";
  }
  if (failed(verifySameElementType(*this, operandType, getType(), "operand",
                                   "result")))
    return failure();
  return verifyResultShape(*this, getType(), sizes);
}

LogicalResult DynamicUpdateSliceOp::verify() {
  auto operandType = getOperand().getType();
  auto updateType = getUpdate().getType();
  int64_t rank = operandType.getRank();
  if (updateType.getRank() != rank)
    return emitOpError() << "update rank " << updateType.getRank()
                         << " does not match operand rank " << rank;
  if (failed(verifyStartIndices(*this, getStartIndices(), rank)) ||
      failed(verifySameElementType(*this, updateType, operandType, "update",
                                   "operand")))
    return failure();
  for (int64_t i = 0; i < rank; ++i) {
    int64_t u = updateType.getDimSize(i), o = operandType.getDimSize(i);
    if (!ShapedType::isDynamic(u) && !ShapedType::isDynamic(o) && u > o)
      return emitOpError() << "update dimension " << i << " of size " << u
                           << " exceeds operand size " << o;
  }
  if (failed(verifySameElementType(*this, operandType, getType(), "operand",
                                   "result")))
    return failure();
  return verifyResultShape(*this, getType(), operandType.getShape());
}

LogicalResult ConcatenateOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "expects at least one input";
  auto firstType = cast<RankedTensorType>(getInputs().front().getType());
  int64_t rank = firstType.getRank();
  int64_t dim = getDimension();
  if (dim < 0 || dim >= rank)
    return emitOpError() << "dimension " << dim << " is out of range [0, "
                         << rank << ")";
  SmallVector<int64_t> expected(firstType.getShape());
  expected[dim] = 0;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    if (type.getRank() != rank)
      return emitOpError() << "input #" << i << " has rank " << type.getRank()
                           << " but input #0 has rank " << rank;
    if (failed(verifySameElementType(*this, type, firstType,
                                     "input #" + std::to_string(i),
                                     "input #0")))
      return failure();
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.getDimSize(d);
      if (d == dim) {
        if (ShapedType::isDynamic(size) || ShapedType::isDynamic(expected[d]))
          expected[d] = ShapedType::kDynamic;
        else
          expected[d] += size;
        continue;
      }
      if (!isCompatibleDim(size, expected[d]))
        return emitOpError() << "input #" << i << " dimension " << d
                             << " has size " << size << " but input #0 has "
                             << expected[d];
    }
  }
  if (failed(verifySameElementType(*this, firstType, getType(), "input #0",
                                   "result")))
    return failure();
  return verifyResultShape(*this, getType(), expected);
}

LogicalResult PadOp::verify() {
  auto operandType = getOperand().getType();
  int64_t rank = operandType.getRank();
  if (getPaddingValue().getType().getRank() != 0)
    return emitOpError() << "padding_value must be a rank-0 tensor";
  if (failed(verifySameElementType(*this, getPaddingValue().getType(),
                                   operandType, "padding_value", "operand")))
    return failure();
  ArrayRef<int64_t> low = getEdgePaddingLow(), high = getEdgePaddingHigh(),
                    interior = getInteriorPadding();
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank ||
      static_cast<int64_t>(interior.size()) != rank)
    return emitOpError() << "expects " << rank
                         << " low, high and interior padding values (operand "
                            "rank), got "
                         << low.size() << ", " << high.size() << " and "
                         << interior.size();
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < rank; ++i) {
    if (interior[i] < 0)
      return emitOpError() << "interior padding " << interior[i]
                           << " of dimension " << i << " is negative";
    int64_t size = operandType.getDimSize(i);
    if (ShapedType::isDynamic(size)) {
      expected.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t padded =
        low[i] + high[i] + size + std::max<int64_t>(size - 1, 0) * interior[i];
    if (padded < 0)
      return emitOpError() << "padding makes dimension " << i
                           << " negative (" << padded << ")";
    expected.push_back(padded);
  }
  if (failed(verifySameElementType(*this, operandType, getType(), "operand",
                                   "result")))
    return failure();
  return verifyResultShape(*this, getType(), expected);
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

LogicalResult DotOp::verify() {
  auto lhsType = getLhs().getType();
  auto rhsType = getRhs().getType();
  if (failed(verifyPrecisionConfig(*this, getPrecisionConfig())))
    return failure();
  int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
  if (lhsRank < 1 || lhsRank > 2 || rhsRank < 1 || rhsRank > 2)
    return emitOpError() << "expects operands of rank 1 or 2, got " << lhsRank
                         << " and " << rhsRank;
  int64_t lhsContract = lhsType.getDimSize(lhsRank - 1);
  int64_t rhsContract = rhsType.getDimSize(0);
  if (!isCompatibleDim(lhsContract, rhsContract))
    return emitOpError() << "contracting dimension sizes do not match: "
                         << lhsContract << " vs " << rhsContract;
  SmallVector<int64_t> expected;
  if (lhsRank == 2)
    expected.push_back(lhsType.getDimSize(0));
  if (rhsRank == 2)
    expected.push_back(rhsType.getDimSize(1));
  return verifyResultShape(*this, getType(), expected);
}

LogicalResult DotGeneralOp::verify() {
  auto lhsType = getLhs().getType();
  auto rhsType = getRhs().getType();
  DotDimensionNumbersAttr dims = getDotDimensionNumbers();
  ArrayRef<int64_t> lhsBatch = dims.getLhsBatchingDimensions();
  ArrayRef<int64_t> rhsBatch = dims.getRhsBatchingDimensions();
  ArrayRef<int64_t> lhsContract = dims.getLhsContractingDimensions();
  ArrayRef<int64_t> rhsContract = dims.getRhsContractingDimensions();
  if (failed(verifyPrecisionConfig(*this, getPrecisionConfig())))
    return failure();
  if (lhsBatch.size() != rhsBatch.size())
    return emitOpError() << "lhs and rhs batching dimensions have different "
                            "sizes: "
                         << lhsBatch.size() << " vs " << rhsBatch.size();
  if (lhsContract.size() != rhsContract.size())
    return emitOpError() << "lhs and rhs contracting dimensions have "
                            "different sizes: "
                         << lhsContract.size() << " vs " << rhsContract.size();
  SmallVector<int64_t> lhsUsed(lhsBatch), rhsUsed(rhsBatch);
  llvm::append_range(lhsUsed, lhsContract);
  llvm::append_range(rhsUsed, rhsContract);
  if (failed(verifyDimsInRange(*this, lhsUsed, lhsType.getRank(),
                               "lhs batching/contracting dimensions")) ||
      failed(verifyDimsInRange(*this, rhsUsed, rhsType.getRank(),
                               "rhs batching/contracting dimensions")))
    return failure();
  for (auto [l, r] : llvm::zip(lhsBatch, rhsBatch))
    if (!isCompatibleDim(lhsType.getDimSize(l), rhsType.getDimSize(r)))
      return emitOpError() << "batching dimension sizes do not match: lhs "
                              "dimension "
                           << l << " has size " << lhsType.getDimSize(l)
                           << ", rhs dimension " << r << " has size "
                           << rhsType.getDimSize(r);
  for (auto [l, r] : llvm::zip(lhsContract, rhsContract))
    if (!isCompatibleDim(lhsType.getDimSize(l), rhsType.getDimSize(r)))
      return emitOpError() << "contracting dimension sizes do not match: lhs "
                              "dimension "
                           << l << " has size " << lhsType.getDimSize(l)
                           << ", rhs dimension " << r << " has size "
                           << rhsType.getDimSize(r);
  SmallVector<int64_t> expected;
  for (int64_t d : lhsBatch)
    expected.push_back(lhsType.getDimSize(d));
  for (int64_t d = 0; d < lhsType.getRank(); ++d)
    if (!llvm::is_contained(lhsUsed, d))
      expected.push_back(lhsType.getDimSize(d));
  for (int64_t d = 0; d < rhsType.getRank(); ++d)
    if (!llvm::is_contained(rhsUsed, d))
      expected.push_back(rhsType.getDimSize(d));
  return verifyResultShape(*this, getType(), expected);
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

static LogicalResult verifySortedUnique(Operation *op, ArrayRef<int64_t> dims,
                                        StringRef what) {
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] <= dims[i - 1])
      return op->emitOpError() << what << " must be sorted and unique, got "
                               << shapeToString(dims);
  return success();
}

LogicalResult GatherOp::verify() {
  auto operandType = getOperand().getType();
  auto indicesType = getStartIndices().getType();
  GatherDimensionNumbersAttr dims = getDimensionNumbers();
  ArrayRef<int64_t> sliceSizes = getSliceSizes();
  int64_t operandRank = operandType.getRank();
  int64_t indicesRank = indicesType.getRank();
  int64_t indexVectorDim = dims.getIndexVectorDim();

  if (indexVectorDim < 0 || indexVectorDim > indicesRank)
    return emitOpError() << "index_vector_dim " << indexVectorDim
                         << " is out of range [0, " << indicesRank << "]";
  if (static_cast<int64_t>(sliceSizes.size()) != operandRank)
    return emitOpError() << "slice_sizes size " << sliceSizes.size()
                         << " does not match operand rank " << operandRank;
  for (auto [i, size] : llvm::enumerate(sliceSizes)) {
    int64_t dim = operandType.getDimSize(i);
    if (size < 0 || (!ShapedType::isDynamic(dim) && size > dim))
      return emitOpError() << "slice size " << size << " of dimension " << i
                           << " is out of range [0, " << dim << "]";
  }
  if (failed(verifySortedUnique(*this, dims.getOffsetDims(), "offset_dims")) ||
      failed(verifySortedUnique(*this, dims.getCollapsedSliceDims(),
                                "collapsed_slice_dims")))
    return failure();
  SmallVector<int64_t> removed(dims.getCollapsedSliceDims());
  llvm::append_range(removed, dims.getOperandBatchingDims());
  if (failed(verifyDimsInRange(*this, removed, operandRank,
                               "collapsed_slice_dims/operand_batching_dims")))
    return failure();
  for (int64_t d : removed)
    if (sliceSizes[d] > 1)
      return emitOpError() << "slice size of collapsed or batching dimension "
                           << d << " must be at most 1, got " << sliceSizes[d];
  if (dims.getOperandBatchingDims().size() !=
      dims.getStartIndicesBatchingDims().size())
    return emitOpError() << "operand_batching_dims and "
                            "start_indices_batching_dims have different sizes";
  for (int64_t d : dims.getStartIndicesBatchingDims())
    if (d == indexVectorDim)
      return emitOpError() << "start_indices_batching_dims must not contain "
                              "index_vector_dim "
                           << d;
  if (failed(verifyDimsInRange(*this, dims.getStartIndicesBatchingDims(),
                               indicesRank, "start_indices_batching_dims")) ||
      failed(verifyDimsInRange(*this, dims.getStartIndexMap(), operandRank,
                               "start_index_map")))
    return failure();
  int64_t indexVectorSize =
      indexVectorDim < indicesRank ? indicesType.getDimSize(indexVectorDim) : 1;
  if (!isCompatibleDim(indexVectorSize,
                       static_cast<int64_t>(dims.getStartIndexMap().size())))
    return emitOpError() << "start_index_map size "
                         << dims.getStartIndexMap().size()
                         << " does not match index vector size "
                         << indexVectorSize;

  // Result: batch dims of the indices, with the slice (offset) dims placed at
  // `offset_dims`.
  SmallVector<int64_t> batchShape;
  for (int64_t d = 0; d < indicesRank; ++d)
    if (d != indexVectorDim)
      batchShape.push_back(indicesType.getDimSize(d));
  SmallVector<int64_t> offsetShape;
  for (int64_t d = 0; d < operandRank; ++d)
    if (!llvm::is_contained(removed, d))
      offsetShape.push_back(sliceSizes[d]);
  ArrayRef<int64_t> offsetDims = dims.getOffsetDims();
  if (offsetDims.size() != offsetShape.size())
    return emitOpError() << "offset_dims size " << offsetDims.size()
                         << " does not match the number of non-collapsed "
                            "slice dimensions "
                         << offsetShape.size();
  int64_t resultRank = batchShape.size() + offsetShape.size();
  if (failed(verifyDimsInRange(*this, offsetDims, resultRank, "offset_dims")))
    return failure();
  SmallVector<int64_t> expected;
  size_t nextBatch = 0, nextOffset = 0;
  for (int64_t d = 0; d < resultRank; ++d) {
    if (llvm::is_contained(offsetDims, d))
      expected.push_back(offsetShape[nextOffset++]);
    else
      expected.push_back(batchShape[nextBatch++]);
  }
  if (failed(verifySameElementType(*this, operandType, getType(), "operand",
                                   "result")))
    return failure();
  return verifyResultShape(*this, getType(), expected);
}
