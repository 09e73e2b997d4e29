//===- OpShardingRuleRegistry.cpp - Built-in op sharding rules ------------===//
//
// One function per op family. Each adds its factors in the order Shardy's
// registry creates them (sdy-notes section 4): that order is the factor
// index, so it fixes the printed rule and the tie-breaks of propagation.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Transforms/Sdy/Propagation/OpShardingRuleRegistry.h"

#include "mpmd/Dialect/Sdy/IR/SdyShardingInterfaces.h"

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Support/CheckedArithmetic.h"
#include "mpmd/Transforms/Sdy/Propagation/OpShardingRuleBuilder.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <mutex>
#include <numeric>

using namespace mlir;
using namespace mlir::sdy;

namespace {

namespace hlo = ::mlir::stablehlo;

ArrayRef<int64_t> getShape(Type type) {
  return cast<RankedTensorType>(type).getShape();
}

ArrayRef<int64_t> getShape(Value value) { return getShape(value.getType()); }

/// `dim` for every type of rank larger than `dim`, `kNullDim` for the others.
SmallVector<int64_t> dimWhereRanked(TypeRange types, int64_t dim) {
  return llvm::map_to_vector(types, [&](Type type) {
    return dim < static_cast<int64_t>(getShape(type).size()) ? dim : kNullDim;
  });
}

/// Warns about `op` once per process for each `key`: propagation asks the
/// registry for every op on every run, and one warning per op name is
/// enough to see what blocks propagation.
void warnOncePerProcess(Operation *op, StringRef key, const Twine &message) {
  static std::mutex mutex;
  static llvm::StringSet<> warnedKeys;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!warnedKeys.insert(key).second)
      return;
  }
  op->emitWarning(message);
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

OpShardingRuleAttr getBroadcastInDimRule(hlo::BroadcastInDimOp op) {
  ArrayRef<int64_t> inShape = getShape(op.getOperand());
  ArrayRef<int64_t> outShape = getShape(op.getResult());
  SmallVector<int64_t> inDimOfOutDim(outShape.size(), kNullDim);
  for (auto [inDim, outDim] : llvm::enumerate(op.getBroadcastDimensions()))
    inDimOfOutDim[outDim] = inDim;
  OpShardingRuleBuilder builder(op);
  for (auto [outDim, outSize] : llvm::enumerate(outShape)) {
    int64_t inDim = inDimOfOutDim[outDim];
    if (inDim != kNullDim && inShape[inDim] == 1 && outSize != 1) {
      // The expanded dimension and the new one cannot share a factor.
      builder.addFactor({inDim}, {kNullDim}, 1);
      inDim = kNullDim;
    }
    builder.addFactor({inDim}, {static_cast<int64_t>(outDim)}, outSize);
  }
  return builder.build();
}

OpShardingRuleAttr getTransposeRule(hlo::TransposeOp op) {
  ArrayRef<int64_t> inShape = getShape(op.getOperand());
  OpShardingRuleBuilder builder(op);
  for (auto [outDim, inDim] : llvm::enumerate(op.getPermutation()))
    builder.addFactor({inDim}, {static_cast<int64_t>(outDim)}, inShape[inDim]);
  return builder.build();
}

/// The size of the next factor of the side whose factors multiply to less
/// (`behindProduct`) than the other side's (`aheadProduct`): the ratio when
/// it divides what is left of the current dimension (`left`), else the part
/// of `left` not shared with the other side's current dimension
/// (`otherLeft`), else all of `left` (also when `left` divides `otherLeft`:
/// a size-1 factor would not move the walk on).
int64_t getCatchUpFactorSize(int64_t aheadProduct, int64_t behindProduct,
                             int64_t left, int64_t otherLeft) {
  if (aheadProduct % behindProduct == 0) {
    int64_t ratio = aheadProduct / behindProduct;
    if (left % ratio == 0)
      return ratio;
  }
  int64_t unshared = left / std::gcd(left, otherLeft);
  return unshared > 1 ? unshared : left;
}

/// One side of the reshape walk: the dimension being factored, what is not
/// factored of it yet, and the product of the factors placed so far.
struct ReshapeCursor {
  explicit ReshapeCursor(ArrayRef<int64_t> shape)
      : shape(shape), left(shape.empty() ? 1 : shape.front()) {}

  bool isDone() const { return dim == static_cast<int64_t>(shape.size()); }

  void take(int64_t size) {
    left /= size;
    product *= size;
  }

  ArrayRef<int64_t> shape;
  int64_t dim = 0;
  int64_t left;
  int64_t product = 1;
};

/// Walks both shapes with one cursor each, splitting dimensions into the
/// common factors of the two sides; parts that do not line up become
/// factors of one side only.
OpShardingRuleAttr getReshapeRule(hlo::ReshapeOp op) {
  ReshapeCursor in(getShape(op.getOperand()));
  ReshapeCursor out(getShape(op.getResult()));
  std::optional<int64_t> numElements = mpmd::checkedProduct(in.shape);
  if (!numElements || *numElements == 0)
    return {};
  OpShardingRuleBuilder builder(op);
  auto addFactor = [&](int64_t size, bool onIn, bool onOut) {
    builder.addFactor({onIn ? in.dim : kNullDim}, {onOut ? out.dim : kNullDim},
                      size);
    if (onIn)
      in.take(size);
    if (onOut)
      out.take(size);
  };
  // A size-1 dimension gets a factor of its own; a finished one moves the
  // cursor on.
  auto stepPastFactoredDim = [&](ReshapeCursor &cursor, bool isIn) {
    if (cursor.isDone() || cursor.left != 1)
      return false;
    if (cursor.shape[cursor.dim] == 1)
      addFactor(1, isIn, !isIn);
    if (++cursor.dim < static_cast<int64_t>(cursor.shape.size()))
      cursor.left = cursor.shape[cursor.dim];
    return true;
  };
  while (!in.isDone() || !out.isDone()) {
    if (stepPastFactoredDim(in, /*isIn=*/true) ||
        stepPastFactoredDim(out, /*isIn=*/false))
      continue;
    // With equal products only size-1 dimensions can be left on one side;
    // otherwise the side that is behind has a dimension left, as both shapes
    // have the same number of elements.
    if (in.product == out.product) {
      if (in.isDone() || out.isDone())
        break;
      int64_t common = std::gcd(in.left, out.left);
      if (common > 1) {
        addFactor(common, /*onIn=*/true, /*onOut=*/true);
      } else {
        addFactor(in.left, /*onIn=*/true, /*onOut=*/false);
        addFactor(out.left, /*onIn=*/false, /*onOut=*/true);
      }
    } else if (in.product < out.product) {
      addFactor(
          getCatchUpFactorSize(out.product, in.product, in.left, out.left),
          /*onIn=*/true, /*onOut=*/false);
    } else {
      addFactor(
          getCatchUpFactorSize(in.product, out.product, out.left, in.left),
          /*onIn=*/false, /*onOut=*/true);
    }
  }
  return builder.build();
}

OpShardingRuleAttr getReverseRule(hlo::ReverseOp op) {
  OpShardingRuleBuilder builder(op);
  for (auto [dim, size] : llvm::enumerate(getShape(op.getResult())))
    builder.addFactor(dim, size,
                      llvm::is_contained(op.getDimensions(), dim)
                          ? FactorType::kPermutation
                          : FactorType::kPassThrough);
  return builder.build();
}

/// Slice and pad: a dimension whose size changes moves data between shards.
OpShardingRuleAttr getResizeRule(Operation *op, bool conservativePropagation) {
  ArrayRef<int64_t> inShape = getShape(op->getOperand(0));
  OpShardingRuleBuilder builder(op);
  builder.addPointwiseIfDimSizesMatch(
      inShape, getShape(op->getResult(0)), [&](int64_t dim) {
        builder.addFactor(dim, inShape[dim], FactorType::kPermutation,
                          conservativePropagation);
      });
  return builder.build();
}

OpShardingRuleAttr getDynamicSliceRule(hlo::DynamicSliceOp op) {
  ArrayRef<int64_t> inShape = getShape(op.getOperand());
  OpShardingRuleBuilder builder(op);
  builder.addPointwiseIfDimSizesMatch(
      inShape, getShape(op.getResult()), [&](int64_t dim) {
        builder.addFactor(dim, inShape[dim], FactorType::kNeedReplication,
                          /*isBlocked=*/true);
      });
  return builder.build();
}

bool isDefinedByConstant(Value value) {
  Operation *def = value.getDefiningOp();
  return def &&
         (isa<ConstantOp>(def) || def->hasTrait<OpTrait::ConstantLike>());
}

OpShardingRuleAttr getDynamicUpdateSliceRule(hlo::DynamicUpdateSliceOp op) {
  ArrayRef<int64_t> operandShape = getShape(op.getOperand());
  ArrayRef<int64_t> updateShape = getShape(op.getUpdate());
  // Constant start indices tell every shard where the update lands.
  FactorType updateOnlyType =
      llvm::all_of(op.getStartIndices(), isDefinedByConstant)
          ? FactorType::kPassThrough
          : FactorType::kNeedReplication;
  int64_t numIndices = op.getStartIndices().size();
  OpShardingRuleBuilder builder(op);
  builder.addPointwiseIfDimSizesMatch(
      operandShape, updateShape, [&](int64_t dim) {
        SmallVector<int64_t> operandDims(2 + numIndices, kNullDim);
        operandDims[0] = dim;
        builder.addFactor(operandDims, {dim}, operandShape[dim]);
        operandDims[0] = kNullDim;
        operandDims[1] = dim;
        builder.addFactor(operandDims, {kNullDim}, updateShape[dim],
                          updateOnlyType);
      });
  return builder.build();
}

/// A concatenation of slices (of one value, possibly with that value
/// itself) only moves data within a halo, so its dimension is shardable.
bool isConcatenationOfSlices(hlo::ConcatenateOp op) {
  auto isSlice = [](Value value) {
    return isa_and_nonnull<hlo::SliceOp>(value.getDefiningOp());
  };
  if (llvm::all_of(op.getInputs(), isSlice))
    return true;
  auto slicedValue = [&](Value value) {
    return isSlice(value) ? value.getDefiningOp<hlo::SliceOp>().getOperand()
                          : value;
  };
  Value base = slicedValue(op.getInputs().front());
  return llvm::any_of(op.getInputs(), isSlice) &&
         llvm::all_of(op.getInputs(),
                      [&](Value input) { return slicedValue(input) == base; });
}

OpShardingRuleAttr getConcatenateRule(hlo::ConcatenateOp op,
                                      bool conservativePropagation) {
  int64_t concatDim = static_cast<int64_t>(op.getDimension());
  OpShardingRuleBuilder builder(op);
  for (auto [dim, size] : llvm::enumerate(getShape(op.getResult()))) {
    if (static_cast<int64_t>(dim) != concatDim)
      builder.addFactor(dim, size);
    else if (!conservativePropagation)
      builder.addFactor(dim, size,
                        isConcatenationOfSlices(op)
                            ? FactorType::kPermutation
                            : FactorType::kNeedReplication);
  }
  return builder.build();
}

OpShardingRuleAttr getBitcastConvertRule(hlo::BitcastConvertOp op) {
  ArrayRef<int64_t> inShape = getShape(op.getOperand());
  ArrayRef<int64_t> outShape = getShape(op.getResult());
  OpShardingRuleBuilder builder(op);
  if (inShape.size() == outShape.size())
    return builder.addPointwise(outShape).build();
  // The extra minor dimension of the wider side holds the pieces of one
  // element.
  bool inIsWider = inShape.size() > outShape.size();
  builder.addPointwise(inIsWider ? outShape : inShape);
  if (inIsWider)
    builder.addFactor({static_cast<int64_t>(inShape.size()) - 1}, {kNullDim},
                      inShape.back(), FactorType::kNeedReplication);
  else
    builder.addFactor({kNullDim}, {static_cast<int64_t>(outShape.size()) - 1},
                      outShape.back(), FactorType::kNeedReplication);
  return builder.build();
}

//===----------------------------------------------------------------------===//
// Contractions and reductions
//===----------------------------------------------------------------------===//

OpShardingRuleAttr getDotGeneralRule(hlo::DotGeneralOp op) {
  hlo::DotDimensionNumbersAttr dims = op.getDotDimensionNumbers();
  ArrayRef<int64_t> lhsShape = getShape(op.getLhs());
  ArrayRef<int64_t> rhsShape = getShape(op.getRhs());
  ArrayRef<int64_t> lhsBatch = dims.getLhsBatchingDimensions();
  ArrayRef<int64_t> rhsBatch = dims.getRhsBatchingDimensions();
  ArrayRef<int64_t> lhsContracting = dims.getLhsContractingDimensions();
  ArrayRef<int64_t> rhsContracting = dims.getRhsContractingDimensions();
  OpShardingRuleBuilder builder(op);
  int64_t outDim = 0;
  for (auto [lhsDim, rhsDim] : llvm::zip(lhsBatch, rhsBatch))
    builder.addFactor({lhsDim, rhsDim}, {outDim++}, lhsShape[lhsDim]);
  auto isFree = [](int64_t dim, ArrayRef<int64_t> batch,
                   ArrayRef<int64_t> contracting) {
    return !llvm::is_contained(batch, dim) &&
           !llvm::is_contained(contracting, dim);
  };
  for (auto [lhsDim, size] : llvm::enumerate(lhsShape))
    if (isFree(lhsDim, lhsBatch, lhsContracting))
      builder.addFactor({static_cast<int64_t>(lhsDim), kNullDim}, {outDim++},
                        size);
  for (auto [rhsDim, size] : llvm::enumerate(rhsShape))
    if (isFree(rhsDim, rhsBatch, rhsContracting))
      builder.addFactor({kNullDim, static_cast<int64_t>(rhsDim)}, {outDim++},
                        size);
  for (auto [lhsDim, rhsDim] : llvm::zip(lhsContracting, rhsContracting))
    builder.addFactor({lhsDim, rhsDim}, {kNullDim}, lhsShape[lhsDim],
                      FactorType::kReduction);
  return builder.build();
}

OpShardingRuleAttr getDotRule(hlo::DotOp op) {
  ArrayRef<int64_t> lhsShape = getShape(op.getLhs());
  ArrayRef<int64_t> rhsShape = getShape(op.getRhs());
  int64_t lhsRank = lhsShape.size();
  OpShardingRuleBuilder builder(op);
  int64_t outDim = 0;
  if (lhsRank == 2)
    builder.addFactor({0, kNullDim}, {outDim++}, lhsShape[0]);
  if (rhsShape.size() == 2)
    builder.addFactor({kNullDim, 1}, {outDim}, rhsShape[1]);
  builder.addFactor({lhsRank - 1, 0}, {kNullDim}, rhsShape[0],
                    FactorType::kReduction);
  return builder.build();
}

/// Operands (input, kernel) -> result. Batch and output features pass
/// through, input features are a reduction; a spatial dimension of the
/// input is split into a window-count factor (permutation, shared with the
/// result) and a window-size factor (reduction, shared with the kernel),
/// the larger one first, each clamped to what is left of the input size.
OpShardingRuleAttr getConvolutionRule(hlo::ConvolutionOp op,
                                      bool conservativePropagation) {
  hlo::ConvDimensionNumbersAttr dims = op.getDimensionNumbers();
  ArrayRef<int64_t> lhsShape = getShape(op.getLhs());
  ArrayRef<int64_t> rhsShape = getShape(op.getRhs());
  ArrayRef<int64_t> resultShape = getShape(op.getResult());
  int64_t lhsBatch = dims.getInputBatchDimension();
  int64_t lhsFeature = dims.getInputFeatureDimension();
  int64_t rhsInFeature = dims.getKernelInputFeatureDimension();
  int64_t rhsOutFeature = dims.getKernelOutputFeatureDimension();
  int64_t resultBatch = dims.getOutputBatchDimension();
  int64_t resultFeature = dims.getOutputFeatureDimension();
  int64_t batchGroups = op.getBatchGroupCount();
  int64_t featureGroups = op.getFeatureGroupCount();
  OpShardingRuleBuilder builder(op);
  if (batchGroups > 1)
    builder.addFactor({lhsBatch, rhsOutFeature}, {resultFeature}, batchGroups);
  builder.addFactor({lhsBatch, kNullDim}, {resultBatch},
                    resultShape[resultBatch]);
  if (!conservativePropagation) {
    for (auto [lhsDim, rhsDim, resultDim] :
         llvm::zip(dims.getInputSpatialDimensions(),
                   dims.getKernelSpatialDimensions(),
                   dims.getOutputSpatialDimensions())) {
      int64_t left = lhsShape[lhsDim];
      int64_t windows = std::min(left, resultShape[resultDim]);
      auto addWindows = [&] {
        windows = std::min(left, resultShape[resultDim]);
        if (windows <= 1)
          return;
        builder.addFactor({lhsDim, kNullDim}, {resultDim}, windows,
                          FactorType::kPermutation);
        left /= windows;
      };
      auto addWindowSize = [&] {
        int64_t size = std::min(left, rhsShape[rhsDim]);
        if (size <= 1)
          return;
        builder.addFactor({lhsDim, rhsDim}, {kNullDim}, size,
                          FactorType::kReduction);
        left /= size;
      };
      if (windows >= std::min(left, rhsShape[rhsDim])) {
        addWindows();
        addWindowSize();
      } else {
        addWindowSize();
        addWindows();
      }
    }
  }
  if (featureGroups > 1)
    builder.addFactor({lhsFeature, rhsOutFeature}, {resultFeature},
                      featureGroups);
  builder.addFactor({lhsFeature, rhsInFeature}, {kNullDim},
                    rhsShape[rhsInFeature], FactorType::kReduction);
  int64_t featuresPerGroup =
      resultShape[resultFeature] / (batchGroups * featureGroups);
  if (featuresPerGroup > 1)
    builder.addFactor({kNullDim, rhsOutFeature}, {resultFeature},
                      featuresPerGroup);
  return builder.build();
}

OpShardingRuleAttr getReduceRule(hlo::ReduceOp op) {
  int64_t numInputs = op.getInputs().size();
  OpShardingRuleBuilder builder(op);
  int64_t outDim = 0;
  for (auto [dim, size] : llvm::enumerate(getShape(op.getInputs().front()))) {
    // Inputs first, then their scalar init values.
    SmallVector<int64_t> operandDims(2 * numInputs, kNullDim);
    std::fill_n(operandDims.begin(), numInputs, dim);
    if (llvm::is_contained(op.getDimensions(), dim)) {
      builder.addFactor(operandDims, SmallVector<int64_t>(numInputs, kNullDim),
                        size, FactorType::kReduction);
    } else {
      builder.addFactor(operandDims, SmallVector<int64_t>(numInputs, outDim),
                        size);
      ++outDim;
    }
  }
  return builder.build();
}

/// Whether a window op touches only one element per output element along
/// `dim`: window 1, stride 1, no padding.
bool isTrivialWindowDim(std::optional<ArrayRef<int64_t>> windowDimensions,
                        std::optional<ArrayRef<int64_t>> windowStrides,
                        std::optional<DenseIntElementsAttr> padding,
                        int64_t dim) {
  auto valueOr1 = [&](std::optional<ArrayRef<int64_t>> values) {
    return values ? (*values)[dim] : 1;
  };
  if (valueOr1(windowDimensions) != 1 || valueOr1(windowStrides) != 1)
    return false;
  if (!padding || !*padding)
    return true;
  auto values = padding->getValues<int64_t>();
  return values[2 * dim] == 0 && values[2 * dim + 1] == 0;
}

OpShardingRuleAttr getReduceWindowRule(hlo::ReduceWindowOp op,
                                       bool conservativePropagation) {
  OpShardingRuleBuilder builder(op);
  for (auto [dim, size] : llvm::enumerate(getShape(op->getResult(0)))) {
    bool isTrivial = isTrivialWindowDim(
        op.getWindowDimensions(), op.getWindowStrides(), op.getPadding(), dim);
    builder.addFactor(dim, size,
                      isTrivial ? FactorType::kPassThrough
                                : FactorType::kPermutation,
                      !isTrivial && conservativePropagation);
  }
  return builder.build();
}

OpShardingRuleAttr getSelectAndScatterRule(hlo::SelectAndScatterOp op,
                                           bool conservativePropagation) {
  ArrayRef<int64_t> sourceShape = getShape(op.getSource());
  OpShardingRuleBuilder builder(op);
  // Operands: operand, source, init value.
  for (auto [dim, size] : llvm::enumerate(getShape(op->getResult(0)))) {
    int64_t d = dim;
    if (isTrivialWindowDim(op.getWindowDimensions(), op.getWindowStrides(),
                           op.getPadding(), d)) {
      builder.addFactor(d, size);
      continue;
    }
    builder.addFactor({kNullDim, d, kNullDim}, {kNullDim}, sourceShape[d],
                      FactorType::kNeedReplication, conservativePropagation);
    builder.addFactor({d, kNullDim, kNullDim}, {d}, size,
                      FactorType::kPermutation, conservativePropagation);
  }
  return builder.build();
}

//===----------------------------------------------------------------------===//
// Gather and scatter
//===----------------------------------------------------------------------===//

/// What gather and scatter share, under one name: "input" is the gathered
/// operand or the scattered-into inputs, "slices" the gather result or the
/// scatter updates.
struct GatherScatterDims {
  ArrayRef<int64_t> inputShape;
  ArrayRef<int64_t> indicesShape;
  ArrayRef<int64_t> slicesShape;
  ArrayRef<int64_t> offsetDims;    // Dimensions of the slices.
  ArrayRef<int64_t> collapsedDims; // Input dimensions absent from slices.
  ArrayRef<int64_t> inputBatchingDims;
  ArrayRef<int64_t> indicesBatchingDims;
  int64_t indexVectorDim;
};

/// Adds a factor to the rule of a gather or scatter, given the dimension it
/// maps to in the input(s), the indices and the slices.
using AddGatherScatterFactor =
    function_ref<void(int64_t inputDim, int64_t indicesDim, int64_t slicesDim,
                      int64_t size, FactorType type, bool isBlocked)>;

/// The factors of a gather or scatter, in the order Shardy creates them:
/// per slice dimension, an offset dimension pairs with the next input
/// dimension that is neither collapsed nor batching (pass-through if their
/// sizes agree, else `addMismatchedOffset`), any other dimension is a batch
/// dimension of the indices (and, if batching, of the input; else of
/// `implicitBatchType`); then every collapsed input dimension
/// (`collapsedType` of its size) and the index vector dimension.
void addGatherScatterFactors(
    const GatherScatterDims &dims, AddGatherScatterFactor addFactor,
    FactorType implicitBatchType,
    function_ref<void(int64_t inputDim, int64_t slicesDim)> addMismatchedOffset,
    function_ref<FactorType(int64_t size)> collapsedType) {
  int64_t inputDim = 0, batchDim = 0;
  for (auto [slicesDim, size] : llvm::enumerate(dims.slicesShape)) {
    if (llvm::is_contained(dims.offsetDims, slicesDim)) {
      while (llvm::is_contained(dims.collapsedDims, inputDim) ||
             llvm::is_contained(dims.inputBatchingDims, inputDim))
        ++inputDim;
      if (dims.inputShape[inputDim] == size)
        addFactor(inputDim, kNullDim, slicesDim, size, FactorType::kPassThrough,
                  false);
      else
        addMismatchedOffset(inputDim, slicesDim);
      ++inputDim;
      continue;
    }
    int64_t indicesDim =
        batchDim < dims.indexVectorDim ? batchDim : batchDim + 1;
    ++batchDim;
    const int64_t *batching = llvm::find(dims.indicesBatchingDims, indicesDim);
    if (batching != dims.indicesBatchingDims.end())
      addFactor(
          dims.inputBatchingDims[batching - dims.indicesBatchingDims.begin()],
          indicesDim, slicesDim, size, FactorType::kPassThrough, false);
    else
      addFactor(kNullDim, indicesDim, slicesDim, size, implicitBatchType,
                false);
  }
  for (int64_t collapsedDim : dims.collapsedDims) {
    int64_t size = dims.inputShape[collapsedDim];
    addFactor(collapsedDim, kNullDim, kNullDim, size, collapsedType(size),
              false);
  }
  if (dims.indexVectorDim < static_cast<int64_t>(dims.indicesShape.size()))
    addFactor(kNullDim, dims.indexVectorDim, kNullDim,
              dims.indicesShape[dims.indexVectorDim],
              FactorType::kNeedReplication, false);
}

OpShardingRuleAttr getGatherRule(hlo::GatherOp op) {
  hlo::GatherDimensionNumbersAttr numbers = op.getDimensionNumbers();
  GatherScatterDims dims{getShape(op.getOperand()),
                         getShape(op.getStartIndices()),
                         getShape(op.getResult()),
                         numbers.getOffsetDims(),
                         numbers.getCollapsedSliceDims(),
                         numbers.getOperandBatchingDims(),
                         numbers.getStartIndicesBatchingDims(),
                         numbers.getIndexVectorDim()};
  OpShardingRuleBuilder builder(op);
  auto addFactor = [&](int64_t inputDim, int64_t indicesDim, int64_t slicesDim,
                       int64_t size, FactorType type, bool isBlocked) {
    builder.addFactor({inputDim, indicesDim}, {slicesDim}, size, type,
                      isBlocked);
  };
  auto addMismatchedOffset = [&](int64_t inputDim, int64_t slicesDim) {
    int64_t inputSize = dims.inputShape[inputDim];
    if (dims.slicesShape[slicesDim] != 1) {
      addFactor(inputDim, kNullDim, slicesDim, inputSize,
                FactorType::kNeedReplication, true);
      return;
    }
    // Each shard gathers what it holds; the partial results add up.
    addFactor(inputDim, kNullDim, kNullDim, inputSize, FactorType::kReduction,
              false);
    addFactor(kNullDim, kNullDim, slicesDim, 1, FactorType::kNeedReplication,
              false);
  };
  // A collapsed dimension works like a size-1 slice of it.
  auto collapsedType = [](int64_t size) {
    return size == 1 ? FactorType::kNeedReplication : FactorType::kReduction;
  };
  addGatherScatterFactors(dims, addFactor, FactorType::kPassThrough,
                          addMismatchedOffset, collapsedType);
  return builder.build();
}

/// Whether every result of the scatter's update computation combines its
/// old and new value (arguments i and i+N) with the same commutative op, so
/// that scattering partial updates per shard and reducing them is exact.
bool isCommutativeScatterUpdate(hlo::ScatterOp op) {
  Block &body = op.getUpdateComputation().front();
  int64_t numInputs = op.getInputs().size();
  Operation *terminator = body.getTerminator();
  if (terminator->getNumOperands() != static_cast<unsigned>(numInputs))
    return false;
  std::optional<OperationName> combiner;
  for (auto [index, returned] : llvm::enumerate(terminator->getOperands())) {
    Operation *def = returned.getDefiningOp();
    if (!def || def->getBlock() != &body || def->getNumOperands() != 2)
      return false;
    bool isCommutative =
        isa<hlo::AddOp, hlo::MulOp, hlo::MaxOp, hlo::MinOp>(def) ||
        (isa<hlo::AndOp, hlo::OrOp>(def) &&
         getElementTypeOrSelf(returned.getType()).isInteger(1));
    if (!isCommutative || (combiner && *combiner != def->getName()))
      return false;
    combiner = def->getName();
    Value oldValue = body.getArgument(index);
    Value newValue = body.getArgument(index + numInputs);
    Value lhs = def->getOperand(0), rhs = def->getOperand(1);
    if (!(lhs == oldValue && rhs == newValue) &&
        !(lhs == newValue && rhs == oldValue))
      return false;
  }
  return true;
}

OpShardingRuleAttr getScatterRule(hlo::ScatterOp op) {
  hlo::ScatterDimensionNumbersAttr numbers = op.getScatterDimensionNumbers();
  GatherScatterDims dims{
      getShape(op.getInputs().front()),        getShape(op.getScatterIndices()),
      getShape(op.getUpdates().front()),       numbers.getUpdateWindowDims(),
      numbers.getInsertedWindowDims(),         numbers.getInputBatchingDims(),
      numbers.getScatterIndicesBatchingDims(), numbers.getIndexVectorDim()};
  int64_t numInputs = op.getInputs().size();
  OpShardingRuleBuilder builder(op);
  // Operands: the inputs, the indices, the updates; results: like inputs.
  auto addFactor = [&](int64_t inputDim, int64_t indicesDim, int64_t slicesDim,
                       int64_t size, FactorType type, bool isBlocked) {
    SmallVector<int64_t> operandDims(numInputs, inputDim);
    operandDims.push_back(indicesDim);
    operandDims.append(numInputs, slicesDim);
    builder.addFactor(operandDims, SmallVector<int64_t>(numInputs, inputDim),
                      size, type, isBlocked);
  };
  auto addMismatchedOffset = [&](int64_t inputDim, int64_t slicesDim) {
    addFactor(inputDim, kNullDim, kNullDim, dims.inputShape[inputDim],
              FactorType::kNeedReplication, false);
    addFactor(kNullDim, kNullDim, slicesDim, dims.slicesShape[slicesDim],
              FactorType::kNeedReplication, false);
  };
  addGatherScatterFactors(
      dims, addFactor,
      isCommutativeScatterUpdate(op) ? FactorType::kReduction
                                     : FactorType::kNeedReplication,
      addMismatchedOffset, [](int64_t) { return FactorType::kPassThrough; });
  return builder.build();
}

//===----------------------------------------------------------------------===//
// Sort, rng, collectives
//===----------------------------------------------------------------------===//

OpShardingRuleAttr getSortRule(hlo::SortOp op) {
  ArrayRef<int64_t> shape = getShape(op->getResult(0));
  int64_t rank = shape.size();
  int64_t sortDim = static_cast<int64_t>(op.getDimension());
  if (sortDim < 0)
    sortDim += rank;
  // Nothing else to shard: propagating along the sort dimension would only
  // lead to replicating it again.
  bool isOnlyDim = llvm::all_of(llvm::enumerate(shape), [&](auto indexed) {
    return static_cast<int64_t>(indexed.index()) == sortDim ||
           indexed.value() == 1;
  });
  OpShardingRuleBuilder builder(op);
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (static_cast<int64_t>(dim) == sortDim)
      builder.addFactor(dim, size, FactorType::kNeedReplication, isOnlyDim);
    else
      builder.addFactor(dim, size);
  }
  return builder.build();
}

OpShardingRuleAttr getRngBitGeneratorRule(hlo::RngBitGeneratorOp op) {
  OpShardingRuleBuilder builder(op);
  for (auto [dim, size] : llvm::enumerate(getShape(op.getInitialState()))) {
    int64_t d = dim;
    builder.addFactor({d}, {d, kNullDim}, size, FactorType::kNeedReplication,
                      /*isBlocked=*/true);
  }
  for (auto [dim, size] : llvm::enumerate(getShape(op.getOutput()))) {
    int64_t d = dim;
    builder.addFactor({kNullDim}, {kNullDim, d}, size);
  }
  return builder.build();
}

/// all_gather, reduce_scatter and all_to_all: the dimensions the collective
/// changes get one need-replication factor on the operand side and one on
/// the result side; the others pass through.
OpShardingRuleAttr getCollectiveWithDimsRule(Operation *op,
                                             ArrayRef<int64_t> changedDims) {
  ArrayRef<int64_t> inShape = getShape(op->getOperand(0));
  ArrayRef<int64_t> outShape = getShape(op->getResult(0));
  SmallVector<int64_t> noOperandDims(op->getNumOperands(), kNullDim);
  SmallVector<int64_t> noResultDims(op->getNumResults(), kNullDim);
  OpShardingRuleBuilder builder(op);
  for (auto [dim, size] : llvm::enumerate(inShape)) {
    int64_t d = dim;
    if (!llvm::is_contained(changedDims, d)) {
      builder.addFactor(d, size);
      continue;
    }
    builder.addFactor(SmallVector<int64_t>(op->getNumOperands(), d),
                      noResultDims, size, FactorType::kNeedReplication);
    builder.addFactor(noOperandDims,
                      SmallVector<int64_t>(op->getNumResults(), d), outShape[d],
                      FactorType::kNeedReplication);
  }
  return builder.build();
}

//===----------------------------------------------------------------------===//
// Custom calls
//===----------------------------------------------------------------------===//

bool isElementwiseCustomCall(StringRef target) {
  return llvm::is_contained(
      {"annotate_device_placement", "Cholesky", "CompactWyHelper",
       "InspectSharding", "InvertDiagBlocksLowerTriangular",
       "InvertDiagBlocksUpperTriangular", "LayoutConstraint", "mhlo.erf",
       "MoveToDevice", "MoveToHost", "X64SplitHigh", "X64SplitLow",
       "xla.megascale.provide_metadata", "_SPMDInternalOp_MultiPad",
       "_SPMDInternalOp_RotateRight", "_SPMDInternalOp_MultiRotate",
       "_SPMDInternalOp_MultiSlice", "_SPMDInternalOp_Wrap"},
      target);
}

/// Targets that are opaque on purpose (callbacks, debugging, TPU kernels):
/// no rule and no warning.
bool isOpaqueCustomCall(StringRef target) {
  return llvm::is_contained(
      {"sdy_testonly", "tpu_custom_call", "xla_python_cpu_callback",
       "xla_python_gpu_callback", "xla_ffi_python_cpu_callback",
       "xla_ffi_python_gpu_callback", "xla.debug.Log"},
      target);
}

/// Eigh, Qr, QrDecompositionBlock, ProductOfElementaryHouseholderReflectors:
/// the leading dimensions of the matrix operand are batch dimensions that
/// pass through every tensor.
void addMatrixBatchFactors(OpShardingRuleBuilder &builder,
                           ArrayRef<int64_t> matrixShape) {
  for (int64_t dim = 0, e = matrixShape.size() - 2; dim < e; ++dim)
    builder.addFactor(dim, matrixShape[dim]);
}

OpShardingRuleAttr getCustomCallRule(hlo::CustomCallOp op) {
  StringRef target = op.getCallTargetName();
  int64_t numOperands = op->getNumOperands(), numResults = op->getNumResults();
  auto hasArity = [&](int64_t operands, int64_t results) {
    return numOperands == operands && numResults == results;
  };
  if (isOpaqueCustomCall(target) || numResults == 0)
    return {};
  ArrayRef<int64_t> resultShape = getShape(op->getResult(0));
  OpShardingRuleBuilder builder(op);
  if (target == "X64Combine") {
    // Combined into an rng state, the halves must stay whole.
    bool feedsRng = llvm::any_of(op->getUsers(), [](Operation *user) {
      return isa<hlo::RngBitGeneratorOp>(user);
    });
    if (feedsRng && !resultShape.empty())
      return builder
          .addFactor(0, resultShape[0], FactorType::kNeedReplication,
                     /*isBlocked=*/true)
          .build();
    return builder.addPointwise(resultShape).build();
  }
  if (isElementwiseCustomCall(target))
    return builder.addPointwise(resultShape).build();

  ArrayRef<int64_t> inShape =
      numOperands ? getShape(op->getOperand(0)) : ArrayRef<int64_t>();
  int64_t rank = inShape.size();
  if (target == "Eigh" && hasArity(1, 2) && rank >= 2) {
    addMatrixBatchFactors(builder, inShape);
    builder.addFactor({rank - 2}, {rank - 2, kNullDim}, inShape[rank - 2]);
    builder.addFactor({rank - 1}, {rank - 1, rank - 2}, inShape[rank - 1]);
    return builder.build();
  }
  if ((target == "Qr" || target == "QrDecompositionBlock") && hasArity(1, 2) &&
      rank >= 2) {
    addMatrixBatchFactors(builder, inShape);
    builder.addFactor({rank - 2}, {rank - 2, kNullDim}, inShape[rank - 2],
                      FactorType::kNeedReplication);
    builder.addFactor({rank - 1}, {rank - 1, kNullDim}, inShape[rank - 1],
                      FactorType::kNeedReplication);
    builder.addFactor({kNullDim}, {kNullDim, rank - 2},
                      getShape(op->getResult(1))[rank - 2],
                      FactorType::kNeedReplication);
    return builder.build();
  }
  if (target == "ProductOfElementaryHouseholderReflectors" && hasArity(2, 1) &&
      rank >= 2) {
    addMatrixBatchFactors(builder, inShape);
    builder.addFactor({rank - 2, kNullDim}, {rank - 2}, inShape[rank - 2],
                      FactorType::kNeedReplication);
    builder.addFactor({rank - 1, kNullDim}, {rank - 1}, inShape[rank - 1],
                      FactorType::kNeedReplication);
    builder.addFactor({kNullDim, rank - 2}, {kNullDim},
                      getShape(op->getOperand(1))[rank - 2],
                      FactorType::kNeedReplication);
    return builder.build();
  }
  if (target == "mhlo.topk" && hasArity(1, 2)) {
    builder.addPointwiseIfDimSizesMatch(inShape, resultShape, [&](int64_t dim) {
      builder.addFactor(dim, inShape[dim], FactorType::kNeedReplication,
                        /*isBlocked=*/true);
    });
    return builder.build();
  }
  if ((target == "ApproxTopK" || target == "PartialReduce") &&
      numOperands >= 2 && numResults == 2) {
    // Operands: operand, its iota, then scalars; results: values, indices.
    builder.addPointwiseIfDimSizesMatch(inShape, resultShape, [&](int64_t dim) {
      builder.addFactor(dimWhereRanked(op->getOperandTypes(), dim),
                        {kNullDim, kNullDim}, inShape[dim]);
      builder.addFactor(SmallVector<int64_t>(numOperands, kNullDim), {dim, dim},
                        resultShape[dim], FactorType::kNeedReplication,
                        /*isBlocked=*/true);
    });
    return builder.build();
  }
  warnOncePerProcess(op, ("custom_call @" + target).str(),
                     "no sharding rule is known for custom call @" + target +
                         ": shardings do not propagate through it");
  return {};
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// Ops without a rule by design: shardings reach them in other ways (data
/// flow edges, call graphs, the partitioner) or they have nothing to shard.
bool hasNoRuleByDesign(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>() || isa<ModuleOp>(op))
    return true;
  StringRef dialect = op->getName().getDialectNamespace();
  if (dialect == "func" || dialect == "mpmd")
    return true;
  if (dialect == SdyDialect::getDialectNamespace())
    return !isa<ShardingConstraintOp>(op);
  return isa<hlo::AfterAllOp, hlo::CaseOp, hlo::ConstantOp, hlo::CreateTokenOp,
             hlo::IotaOp, hlo::OptimizationBarrierOp, hlo::PartitionIdOp,
             hlo::RecvOp, hlo::SendOp, hlo::WhileOp>(op);
}

bool hasOnlyStaticTensors(Operation *op) {
  auto isStaticTensor = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStaticTensor) &&
         llvm::all_of(op->getResultTypes(), isStaticTensor);
}

/// One factor per dimension, sized from the first result; scalar operands
/// map to no factor.
OpShardingRuleAttr getPointwiseRule(Operation *op) {
  return OpShardingRuleBuilder(op)
      .addPointwise(getShape(op->getResult(0)))
      .build();
}

/// The rule of an op the registry knows (null if it has none for this
/// instance), or nullopt for an op it does not know.
std::optional<OpShardingRuleAttr> getKnownOpRule(Operation *op,
                                                 bool conservative) {
  using Rule = std::optional<OpShardingRuleAttr>;
  if (isElementwiseOp(op))
    return getPointwiseRule(op);
  return TypeSwitch<Operation *, Rule>(op)
      .Case<hlo::AllReduceOp, hlo::CollectiveBroadcastOp,
            hlo::CollectivePermuteOp>(
          [](Operation *collective) -> Rule {
            return getPointwiseRule(collective);
          })
      .Case([](hlo::BroadcastInDimOp op) { return getBroadcastInDimRule(op); })
      .Case([](hlo::TransposeOp op) { return getTransposeRule(op); })
      .Case([](hlo::ReshapeOp op) { return getReshapeRule(op); })
      .Case([](hlo::ReverseOp op) { return getReverseRule(op); })
      .Case<hlo::SliceOp, hlo::PadOp>([&](Operation *op) -> Rule {
        return getResizeRule(op, conservative);
      })
      .Case([](hlo::DynamicSliceOp op) { return getDynamicSliceRule(op); })
      .Case([](hlo::DynamicUpdateSliceOp op) {
        return getDynamicUpdateSliceRule(op);
      })
      .Case([&](hlo::ConcatenateOp op) {
        return getConcatenateRule(op, conservative);
      })
      .Case([](hlo::BitcastConvertOp op) { return getBitcastConvertRule(op); })
      .Case([](hlo::DotGeneralOp op) { return getDotGeneralRule(op); })
      .Case([](hlo::DotOp op) { return getDotRule(op); })
      .Case([&](hlo::ConvolutionOp op) {
        return getConvolutionRule(op, conservative);
      })
      .Case([](hlo::ReduceOp op) { return getReduceRule(op); })
      .Case([&](hlo::ReduceWindowOp op) {
        return getReduceWindowRule(op, conservative);
      })
      .Case([&](hlo::SelectAndScatterOp op) {
        return getSelectAndScatterRule(op, conservative);
      })
      .Case([](hlo::GatherOp op) { return getGatherRule(op); })
      .Case([](hlo::ScatterOp op) { return getScatterRule(op); })
      .Case([](hlo::SortOp op) { return getSortRule(op); })
      .Case(
          [](hlo::RngBitGeneratorOp op) { return getRngBitGeneratorRule(op); })
      .Case([](hlo::AllGatherOp op) {
        return getCollectiveWithDimsRule(
            op, {static_cast<int64_t>(op.getAllGatherDim())});
      })
      .Case([](hlo::ReduceScatterOp op) {
        return getCollectiveWithDimsRule(
            op, {static_cast<int64_t>(op.getScatterDimension())});
      })
      .Case([](hlo::AllToAllOp op) {
        return getCollectiveWithDimsRule(
            op, {static_cast<int64_t>(op.getSplitDimension()),
                 static_cast<int64_t>(op.getConcatDimension())});
      })
      .Case([](hlo::CustomCallOp op) { return getCustomCallRule(op); })
      .Default([](Operation *) -> Rule { return std::nullopt; });
}

} // namespace

bool mlir::sdy::isElementwiseOp(Operation *op) {
  return isa<hlo::AbsOp, hlo::AddOp, hlo::AndOp, hlo::Atan2Op, hlo::CbrtOp,
             hlo::CeilOp, hlo::ClzOp, hlo::CompareOp, hlo::ConvertOp,
             hlo::CosineOp, hlo::DivOp, hlo::ExpOp, hlo::Expm1Op, hlo::FloorOp,
             hlo::ImagOp, hlo::IsFiniteOp, hlo::LogOp, hlo::Log1pOp,
             hlo::LogisticOp, hlo::MaxOp, hlo::MinOp, hlo::MulOp, hlo::NegOp,
             hlo::NotOp, hlo::OrOp, hlo::PopulationCountOp, hlo::PowOp,
             hlo::RealOp, hlo::ReducePrecisionOp, hlo::RemOp,
             hlo::RoundNearestEvenOp, hlo::RoundOp, hlo::RsqrtOp,
             hlo::ShiftLeftOp, hlo::ShiftRightArithmeticOp,
             hlo::ShiftRightLogicalOp, hlo::SignOp, hlo::SineOp, hlo::SqrtOp,
             hlo::SubtractOp, hlo::TanOp, hlo::TanhOp, hlo::XorOp, hlo::ClampOp,
             hlo::SelectOp, ShardingConstraintOp>(op);
}

OpShardingRuleAttr
mlir::sdy::createOpShardingRule(Operation *op, bool conservativePropagation) {
  if (auto withRule = dyn_cast<ShardingRuleOpInterface>(op))
    return withRule.getShardingRule();
  if (hasNoRuleByDesign(op) || !hasOnlyStaticTensors(op))
    return {};
  std::optional<OpShardingRuleAttr> rule =
      getKnownOpRule(op, conservativePropagation);
  if (rule)
    return *rule;
  StringRef name = op->getName().getStringRef();
  warnOncePerProcess(op, name,
                     "no sharding rule is known for op '" + name +
                         "': shardings do not propagate through it");
  return {};
}

OpShardingRuleAttr mlir::sdy::getOrCreateOpShardingRule(
    Operation *op, bool conservativePropagation, bool storeOnOp) {
  if (auto rule = op->getAttrOfType<OpShardingRuleAttr>(
          SdyDialect::kShardingRuleAttrName))
    return rule;
  OpShardingRuleAttr rule = createOpShardingRule(op, conservativePropagation);
  if (rule && storeOnOp)
    op->setAttr(SdyDialect::kShardingRuleAttrName, rule);
  return rule;
}
