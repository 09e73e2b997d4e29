//===- PadForDivisibility.cpp - -sdy-pad-for-divisibility -----------------===//
//
// Rounds every dimension a sharding splits unevenly up to a multiple of its
// shard count, in the global program, so that the global-to-local
// conversion divides exactly. The real elements keep their indices and the
// padding is at the high end; whatever the padding holds must never reach a
// real element, which is why dimensions that ops combine are masked.
//
// Ops are rewritten in place, in program order: when an op is reached, its
// operands already have their padded types. `originalTypes` remembers the
// unpadded type of every value whose type changed.
//
//===----------------------------------------------------------------------===//

#include "../Propagation/ShardingUtils.h"

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Support/CheckedArithmetic.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_PADFORDIVISIBILITYPASS
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

namespace {

/// `size` rounded up to a multiple of `shards`; nullopt on overflow.
std::optional<int64_t> roundUp(int64_t size, int64_t shards) {
  if (shards <= 1 || size % shards == 0)
    return size;
  return mpmd::checkedAdd(size, shards - size % shards);
}

/// The first dimension of `type` that `sharding` (on `mesh`) does not
/// divide, with its shard count, or nullopt.
std::optional<std::pair<int64_t, int64_t>>
findNonDivisibleDim(RankedTensorType type, TensorShardingAttr sharding,
                    MeshAttr mesh) {
  for (auto [dim, dimSharding] : llvm::enumerate(sharding.getDimShardings())) {
    if (dim >= static_cast<size_t>(type.getRank()))
      break;
    int64_t shards = dimSharding.getShardedSize(mesh);
    int64_t size = type.getDimSize(dim);
    if (!ShapedType::isDynamic(size) && shards > 1 && size % shards != 0)
      return std::make_pair(static_cast<int64_t>(dim), shards);
  }
  return std::nullopt;
}

/// The constant held by `value`, if it is a splat constant.
TypedAttr getSplatConstant(Value value) {
  if (auto constant = value.getDefiningOp<stablehlo::ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        dense && dense.isSplat())
      return cast<TypedAttr>(dense.getSplatValue<Attribute>());
  return {};
}

/// Points the uses `value` has now at what `build` returns (the ops `build`
/// creates from `value` keep reading it).
void replaceExistingUses(Value value, function_ref<Value()> build) {
  SmallVector<OpOperand *> uses =
      llvm::map_to_vector(value.getUses(), [](OpOperand &use) { return &use; });
  Value replacement = build();
  for (OpOperand *use : uses)
    use->set(replacement);
}

/// Whether padding of `type` can be written as a constant (zero or a
/// splat): integer, index and float elements.
bool hasPaddableElements(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && isa<IntegerType, IndexType, FloatType>(ranked.getElementType());
}

/// Pads the values of one function. See the pass description.
class FunctionPadder {
public:
  explicit FunctionPadder(func::FuncOp function)
      : function(function), builder(function.getContext()) {}

  LogicalResult run();

private:
  // --- Types and shardings ----------------------------------------------
  MeshAttr getMesh(TensorShardingAttr sharding);
  /// The shape of `type` padded for `sharding`; `type`'s shape when nothing
  /// needs padding.
  SmallVector<int64_t> paddedShape(RankedTensorType type,
                                   TensorShardingAttr sharding);
  RankedTensorType originalType(Value value) {
    if (Type type = originalTypes.lookup(value))
      return cast<RankedTensorType>(type);
    return dyn_cast<RankedTensorType>(value.getType());
  }
  /// Gives `value` the shape `shape`, remembering its original type.
  void setShape(Value value, ArrayRef<int64_t> shape);
  void markPadded(Value value, RankedTensorType original) {
    if (cast<RankedTensorType>(value.getType()) != original)
      originalTypes[value] = original;
  }

  // --- New ops -------------------------------------------------------------
  void copySharding(Operation *newOp, Value of);
  Value scalarConstant(Location loc, TypedAttr value);
  Value splatConstant(Location loc, RankedTensorType type, TypedAttr value,
                      Value shardingOf);
  /// `value` with its padding (every element at an index >= `realSizes` in
  /// some dim where the size is smaller than the current one) replaced by
  /// `fillConstant` or, when that is null, by `fill`, a scalar tensor.
  Value mask(Location loc, Value value, ArrayRef<int64_t> realSizes,
             Value fill, TypedAttr fillConstant);
  Value maskWithZero(Location loc, Value value, ArrayRef<int64_t> realSizes);
  /// `value` padded at the high end to `shape` (each dim at least as large):
  /// with the constant its padding already holds, else zero.
  Value padHigh(Location loc, Value value, ArrayRef<int64_t> shape);
  /// `value` sliced from 0 to `shape` (each dim at most as large).
  Value sliceTo(Location loc, Value value, ArrayRef<int64_t> shape);
  /// `value` sliced and/or padded to `shape`.
  Value adaptTo(Location loc, Value value, ArrayRef<int64_t> shape);
  /// `value` with its original type, sliced once right after its
  /// definition and reused.
  Value restoreOriginal(Value value);

  // --- Op handlers -----------------------------------------------------------
  LogicalResult visit(Operation *op);
  LogicalResult retypeResults(Operation *op);
  void restoreOperands(Operation *op);
  void adaptOperands(Operation *op, TypeRange types);
  void padConstant(Operation *op, ElementsAttr value);
  LogicalResult padSlice(stablehlo::SliceOp slice);
  LogicalResult padPad(stablehlo::PadOp pad);
  LogicalResult padDotGeneral(stablehlo::DotGeneralOp dot);
  LogicalResult padConvolution(stablehlo::ConvolutionOp conv);
  LogicalResult padReduce(Operation *op, ValueRange inputs,
                          ValueRange initValues, ArrayRef<int64_t> dims);
  void padWhile(stablehlo::WhileOp loop);
  void padAllGather(AllGatherOp gather);
  /// all_slice, reduce_scatter, all_to_all, all_reduce, collective_permute,
  /// replicated/sharded_to_unreduced, reshard: operand padded to (at least)
  /// what `out_sharding` needs; `zeroOnly` for ops that sum over devices,
  /// whose padding stays known only if it is zero.
  void padSameTypeCollective(Operation *op, Value operand,
                             TensorShardingAttr outSharding, bool zeroOnly,
                             ArrayRef<int64_t> sliceBackDims);

  func::FuncOp function;
  OpBuilder builder;
  DenseMap<Attribute, MeshAttr> meshes;
  DenseMap<Value, Type> originalTypes;
  /// Values whose padding is known to hold one constant (our pads, masks,
  /// splat constants): masking them again is unnecessary.
  DenseMap<Value, TypedAttr> paddingValues;
  DenseMap<Value, Value> restored;
  /// Ops whose operand or result types changed, verified at the end.
  llvm::SetVector<Operation *> touched;
  /// Set when a padded size does not fit in int64 (reported by run()).
  bool sizeOverflow = false;
};

MeshAttr FunctionPadder::getMesh(TensorShardingAttr sharding) {
  auto [it, inserted] = meshes.try_emplace(sharding.getMeshOrRef());
  if (inserted)
    it->second = sharding.getMesh(function);
  return it->second;
}

SmallVector<int64_t> FunctionPadder::paddedShape(RankedTensorType type,
                                                 TensorShardingAttr sharding) {
  SmallVector<int64_t> shape(type.getShape());
  if (!sharding)
    return shape;
  MeshAttr mesh = getMesh(sharding);
  if (!mesh)
    return shape;
  for (auto [size, dimSharding] : llvm::zip(shape, sharding.getDimShardings())) {
    if (ShapedType::isDynamic(size))
      continue;
    std::optional<int64_t> padded =
        roundUp(size, dimSharding.getShardedSize(mesh));
    if (padded)
      size = *padded;
    else
      sizeOverflow = true;
  }
  return shape;
}

void FunctionPadder::setShape(Value value, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return;
  RankedTensorType original = originalType(value);
  value.setType(type.clone(shape));
  markPadded(value, original);
}

void FunctionPadder::copySharding(Operation *newOp, Value of) {
  if (TensorShardingAttr sharding = getSharding(of))
    newOp->setAttr(SdyDialect::kShardingAttrName,
                   TensorShardingPerValueAttr::get(builder.getContext(),
                                                   {sharding}));
}

Value FunctionPadder::scalarConstant(Location loc, TypedAttr value) {
  auto type = RankedTensorType::get({}, value.getType());
  return stablehlo::ConstantOp::create(builder, loc, type,
                                       DenseElementsAttr::get(type, value));
}

Value FunctionPadder::splatConstant(Location loc, RankedTensorType type,
                                    TypedAttr value, Value shardingOf) {
  auto constant = stablehlo::ConstantOp::create(
      builder, loc, type, DenseElementsAttr::get(type, value));
  copySharding(constant, shardingOf);
  return constant;
}

Value FunctionPadder::mask(Location loc, Value value,
                           ArrayRef<int64_t> realSizes, Value fill,
                           TypedAttr fillConstant) {
  auto type = cast<RankedTensorType>(value.getType());
  if (fillConstant && paddingValues.lookup(value) == fillConstant)
    return value;
  auto indexType = type.clone(builder.getI64Type());
  auto predType = type.clone(builder.getI1Type());
  Value inside;
  for (auto [dim, real] : llvm::enumerate(realSizes)) {
    if (real >= type.getDimSize(dim))
      continue;
    auto iota = stablehlo::IotaOp::create(builder, loc, indexType,
                                          builder.getI64IntegerAttr(dim));
    copySharding(iota, value);
    Value bound = splatConstant(loc, indexType, builder.getI64IntegerAttr(real),
                                value);
    auto less = stablehlo::CompareOp::create(
        builder, loc, predType, iota, bound,
        stablehlo::ComparisonDirectionAttr::get(
            builder.getContext(), stablehlo::ComparisonDirection::LT),
        stablehlo::ComparisonTypeAttr::get(builder.getContext(),
                                           stablehlo::ComparisonType::SIGNED));
    copySharding(less, value);
    if (!inside) {
      inside = less;
      continue;
    }
    auto both = stablehlo::AndOp::create(builder, loc, predType, inside, less);
    copySharding(both, value);
    inside = both;
  }
  if (!inside)
    return value;
  Value filler;
  if (fillConstant) {
    filler = splatConstant(loc, type, fillConstant, value);
  } else {
    auto broadcast = stablehlo::BroadcastInDimOp::create(
        builder, loc, type, fill, builder.getDenseI64ArrayAttr({}));
    copySharding(broadcast, value);
    filler = broadcast;
  }
  auto select =
      stablehlo::SelectOp::create(builder, loc, type, inside, value, filler);
  copySharding(select, value);
  markPadded(select, originalType(value));
  if (fillConstant)
    paddingValues[select] = fillConstant;
  return select;
}

Value FunctionPadder::maskWithZero(Location loc, Value value,
                                   ArrayRef<int64_t> realSizes) {
  auto zero = cast<TypedAttr>(builder.getZeroAttr(
      cast<RankedTensorType>(value.getType()).getElementType()));
  return mask(loc, value, realSizes, /*fill=*/Value(), zero);
}

Value FunctionPadder::padHigh(Location loc, Value value,
                              ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  TypedAttr fill = paddingValues.lookup(value);
  bool hadPadding = originalType(value) != type;
  if (!fill)
    fill = cast<TypedAttr>(builder.getZeroAttr(type.getElementType()));
  SmallVector<int64_t> high, zeros(shape.size(), 0);
  for (auto [size, target] : llvm::zip(type.getShape(), shape))
    high.push_back(target - size);
  auto pad = stablehlo::PadOp::create(
      builder, loc, type.clone(shape), value, scalarConstant(loc, fill),
      builder.getDenseI64ArrayAttr(zeros), builder.getDenseI64ArrayAttr(high),
      builder.getDenseI64ArrayAttr(zeros));
  copySharding(pad, value);
  markPadded(pad, originalType(value));
  // Padding that was already there keeps what it held.
  if (!hadPadding || paddingValues.lookup(value) == fill)
    paddingValues[pad] = fill;
  return pad;
}

Value FunctionPadder::sliceTo(Location loc, Value value,
                              ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  SmallVector<int64_t> zeros(shape.size(), 0), ones(shape.size(), 1);
  auto slice = stablehlo::SliceOp::create(
      builder, loc, type.clone(shape), value,
      builder.getDenseI64ArrayAttr(zeros), builder.getDenseI64ArrayAttr(shape),
      builder.getDenseI64ArrayAttr(ones));
  copySharding(slice, value);
  markPadded(slice, originalType(value));
  if (TypedAttr fill = paddingValues.lookup(value))
    paddingValues[slice] = fill;
  return slice;
}

Value FunctionPadder::adaptTo(Location loc, Value value,
                              ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> smaller(type.getShape()), larger(shape);
  for (auto [size, target] : llvm::zip(smaller, shape))
    size = std::min(size, target);
  return padHigh(loc, sliceTo(loc, value, smaller), larger);
}

Value FunctionPadder::restoreOriginal(Value value) {
  Type original = originalTypes.lookup(value);
  if (!original)
    return value;
  Value &slice = restored[value];
  if (slice)
    return slice;
  OpBuilder::InsertionGuard guard(builder);
  if (Operation *def = value.getDefiningOp())
    builder.setInsertionPointAfter(def);
  else
    builder.setInsertionPointToStart(value.getParentBlock());
  slice = sliceTo(value.getLoc(), value,
                  cast<RankedTensorType>(original).getShape());
  return slice;
}

void FunctionPadder::restoreOperands(Operation *op) {
  for (OpOperand &operand : op->getOpOperands())
    if (originalTypes.contains(operand.get()))
      operand.set(restoreOriginal(operand.get()));
}

void FunctionPadder::adaptOperands(Operation *op, TypeRange types) {
  builder.setInsertionPoint(op);
  for (auto [operand, type] : llvm::zip(op->getOpOperands(), types)) {
    auto target = dyn_cast<RankedTensorType>(type);
    if (!target || operand.get().getType() == target)
      continue;
    operand.set(adaptTo(op->getLoc(), operand.get(), target.getShape()));
  }
}

/// Per result: the larger of the inferred shape (from the padded operands)
/// and the padded result shape, in the original element type.
LogicalResult FunctionPadder::retypeResults(Operation *op) {
  SmallVector<Type> inferred;
  bool haveInferred = false;
  if (auto infer = dyn_cast<InferTypeOpInterface>(op))
    haveInferred = succeeded(infer.inferReturnTypes(
        op->getContext(), std::nullopt, op->getOperands(),
        op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
        op->getRegions(), inferred));
  for (OpResult result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type)
      continue;
    SmallVector<int64_t> shape =
        paddedShape(originalType(result), getSharding(result));
    if (haveInferred)
      if (auto fromOperands =
              dyn_cast<RankedTensorType>(inferred[result.getResultNumber()]);
          fromOperands && fromOperands.getRank() == type.getRank())
        for (auto [size, other] : llvm::zip(shape, fromOperands.getShape()))
          if (!ShapedType::isDynamic(other))
            size = std::max(size, other);
    if (type.getShape() != ArrayRef(shape)) {
      setShape(result, shape);
      touched.insert(op);
    }
  }
  return success();
}

void FunctionPadder::padConstant(Operation *op, ElementsAttr value) {
  Value result = op->getResult(0);
  auto type = cast<RankedTensorType>(result.getType());
  SmallVector<int64_t> shape = paddedShape(type, getSharding(result));
  if (type.getShape() == ArrayRef(shape))
    return;
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (dense && dense.isSplat()) {
    // A splat stays a splat: its padding holds the same value.
    op->setAttr("value", dense.resizeSplat(type.clone(shape)));
    setShape(result, shape);
    paddingValues[result] = cast<TypedAttr>(dense.getSplatValue<Attribute>());
    return;
  }
  builder.setInsertionPointAfter(op);
  replaceExistingUses(result,
                      [&] { return padHigh(op->getLoc(), result, shape); });
}

LogicalResult FunctionPadder::padSlice(stablehlo::SliceOp slice) {
  auto operandType = cast<RankedTensorType>(slice.getOperand().getType());
  RankedTensorType resultType = originalType(slice.getResult());
  SmallVector<int64_t> shape =
      paddedShape(resultType, getSharding(slice.getResult()));
  if (resultType.getShape() == ArrayRef(shape))
    return success();
  SmallVector<int64_t> limits(slice.getLimitIndices());
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (size == resultType.getDimSize(dim))
      continue;
    std::optional<int64_t> span = mpmd::checkedMul(size - 1, slice.getStrides()[dim]);
    std::optional<int64_t> last =
        span ? mpmd::checkedAdd(slice.getStartIndices()[dim], *span) : std::nullopt;
    std::optional<int64_t> limit = last ? mpmd::checkedAdd(*last, 1) : std::nullopt;
    if (!limit || *limit > operandType.getDimSize(dim))
      return slice.emitOpError()
             << "cannot be padded for divisibility: dim " << dim
             << " of the result must grow to " << size
             << " elements, which would read past the end of an operand of "
                "size "
             << operandType.getDimSize(dim)
             << "; the dimension needs a reshard before padding";
    limits[dim] = *limit;
  }
  slice.setLimitIndices(limits);
  setShape(slice.getResult(), shape);
  touched.insert(slice);
  return success();
}

LogicalResult FunctionPadder::padPad(stablehlo::PadOp pad) {
  Value operand = pad.getOperand();
  auto operandType = cast<RankedTensorType>(operand.getType());
  RankedTensorType operandOriginal = originalType(operand);
  RankedTensorType resultType = originalType(pad.getResult());
  SmallVector<int64_t> shape =
      paddedShape(resultType, getSharding(pad.getResult()));
  if (operandType == operandOriginal && resultType.getShape() == ArrayRef(shape))
    return success();

  TypedAttr padConstant = getSplatConstant(pad.getPaddingValue());

  // Operand padding lands at low + i * (interior + 1) for i >= the original
  // size; where that is inside the real result, it must read as the padding
  // value.
  SmallVector<int64_t> realSizes(operandType.getShape());
  bool masked = false;
  for (auto [dim, real] : llvm::enumerate(realSizes)) {
    int64_t original = operandOriginal.getDimSize(dim);
    if (real == original)
      continue;
    int64_t firstPadding = pad.getEdgePaddingLow()[dim] +
                           original * (pad.getInteriorPadding()[dim] + 1);
    if (firstPadding < resultType.getDimSize(dim)) {
      real = original;
      masked = true;
    }
  }
  if (masked) {
    builder.setInsertionPoint(pad);
    pad.getOperandMutable().set(mask(pad.getLoc(), operand, realSizes,
                                     pad.getPaddingValue(), padConstant));
  }
  SmallVector<int64_t> high;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    int64_t operandSize = operandType.getDimSize(dim);
    int64_t covered = pad.getEdgePaddingLow()[dim] + operandSize +
                      std::max<int64_t>(operandSize - 1, 0) *
                          pad.getInteriorPadding()[dim];
    high.push_back(size - covered);
  }
  pad.setEdgePaddingHigh(high);
  setShape(pad.getResult(), shape);
  touched.insert(pad);
  // The result's padding holds the padding value unless unmasked operand
  // padding reached it.
  bool operandPaddingVisible = false;
  for (auto [dim, real] : llvm::enumerate(realSizes))
    if (real > operandOriginal.getDimSize(dim))
      operandPaddingVisible = true;
  if (padConstant &&
      (!operandPaddingVisible || paddingValues.lookup(operand) == padConstant))
    paddingValues[pad.getResult()] = padConstant;
  return success();
}

LogicalResult FunctionPadder::padDotGeneral(stablehlo::DotGeneralOp dot) {
  stablehlo::DotDimensionNumbersAttr dims = dot.getDotDimensionNumbers();
  builder.setInsertionPoint(dot);
  Location loc = dot.getLoc();
  Value lhs = dot.getLhs(), rhs = dot.getRhs();
  auto contractingSizes = [&](Value value, ArrayRef<int64_t> contracting) {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> real(type.getShape());
    for (int64_t dim : contracting)
      real[dim] = originalType(value).getDimSize(dim);
    return real;
  };
  // Padding along contracting dims would be summed into real elements.
  lhs = maskWithZero(loc, lhs,
                     contractingSizes(lhs, dims.getLhsContractingDimensions()));
  rhs = maskWithZero(loc, rhs,
                     contractingSizes(rhs, dims.getRhsContractingDimensions()));
  // Paired dims must agree; the smaller side grows with (zero) padding.
  SmallVector<int64_t> lhsShape(cast<RankedTensorType>(lhs.getType()).getShape());
  SmallVector<int64_t> rhsShape(cast<RankedTensorType>(rhs.getType()).getShape());
  auto equalize = [&](ArrayRef<int64_t> lhsDims, ArrayRef<int64_t> rhsDims) {
    for (auto [l, r] : llvm::zip(lhsDims, rhsDims)) {
      int64_t size = std::max(lhsShape[l], rhsShape[r]);
      lhsShape[l] = rhsShape[r] = size;
    }
  };
  equalize(dims.getLhsBatchingDimensions(), dims.getRhsBatchingDimensions());
  equalize(dims.getLhsContractingDimensions(),
           dims.getRhsContractingDimensions());
  dot.getLhsMutable().set(padHigh(loc, lhs, lhsShape));
  dot.getRhsMutable().set(padHigh(loc, rhs, rhsShape));
  touched.insert(dot);
  return retypeResults(dot);
}

LogicalResult FunctionPadder::padConvolution(stablehlo::ConvolutionOp conv) {
  stablehlo::ConvDimensionNumbersAttr dims = conv.getDimensionNumbers();
  Value lhs = conv.getLhs(), rhs = conv.getRhs();
  RankedTensorType lhsOriginal = originalType(lhs),
                   rhsOriginal = originalType(rhs),
                   resultOriginal = originalType(conv.getResult());
  SmallVector<int64_t> resultShape =
      paddedShape(resultOriginal, getSharding(conv.getResult()));
  if (lhs.getType() == lhsOriginal && rhs.getType() == rhsOriginal &&
      resultOriginal.getShape() == ArrayRef(resultShape))
    return success();

  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  bool grouped = conv.getFeatureGroupCount() > 1 || conv.getBatchGroupCount() > 1;
  auto padded = [](RankedTensorType type, RankedTensorType original,
                   int64_t dim) {
    return type.getDimSize(dim) != original.getDimSize(dim);
  };
  if (grouped &&
      (padded(lhsType, lhsOriginal, dims.getInputFeatureDimension()) ||
       padded(lhsType, lhsOriginal, dims.getInputBatchDimension()) ||
       padded(rhsType, rhsOriginal, dims.getKernelInputFeatureDimension()) ||
       padded(rhsType, rhsOriginal, dims.getKernelOutputFeatureDimension())))
    return conv.emitOpError()
           << "cannot be padded for divisibility: a grouped convolution's "
              "batch or feature dimension is sharded unevenly";

  builder.setInsertionPoint(conv);
  Location loc = conv.getLoc();
  // Feature and window dims are summed over: their padding must be zero.
  SmallVector<int64_t> lhsReal(lhsType.getShape()), rhsReal(rhsType.getShape());
  lhsReal[dims.getInputFeatureDimension()] =
      lhsOriginal.getDimSize(dims.getInputFeatureDimension());
  for (int64_t dim : dims.getInputSpatialDimensions())
    lhsReal[dim] = lhsOriginal.getDimSize(dim);
  rhsReal[dims.getKernelInputFeatureDimension()] =
      rhsOriginal.getDimSize(dims.getKernelInputFeatureDimension());
  for (int64_t dim : dims.getKernelSpatialDimensions())
    rhsReal[dim] = rhsOriginal.getDimSize(dim);
  lhs = maskWithZero(loc, lhs, lhsReal);
  rhs = maskWithZero(loc, rhs, rhsReal);

  SmallVector<int64_t> lhsShape(lhsType.getShape()), rhsShape(rhsType.getShape());
  int64_t features = std::max(lhsShape[dims.getInputFeatureDimension()],
                              rhsShape[dims.getKernelInputFeatureDimension()]);
  lhsShape[dims.getInputFeatureDimension()] = features;
  rhsShape[dims.getKernelInputFeatureDimension()] = features;
  conv.getLhsMutable().set(padHigh(loc, lhs, lhsShape));
  conv.getRhsMutable().set(padHigh(loc, rhs, rhsShape));

  // A kernel padded along a window dim is wider: pad the input as much more
  // at the high end so every real output position still exists.
  size_t spatialCount = dims.getKernelSpatialDimensions().size();
  SmallVector<int64_t> padding(spatialCount * 2, 0);
  if (std::optional<DenseIntElementsAttr> attr = conv.getPadding())
    padding = llvm::to_vector(attr->getValues<int64_t>());
  bool paddingChanged = false;
  for (auto [index, dim] : llvm::enumerate(dims.getKernelSpatialDimensions())) {
    int64_t extra = rhsShape[dim] - rhsOriginal.getDimSize(dim);
    if (extra == 0)
      continue;
    int64_t dilation = 1;
    if (std::optional<ArrayRef<int64_t>> dilations = conv.getRhsDilation())
      dilation = (*dilations)[index];
    padding[index * 2 + 1] += extra * dilation;
    paddingChanged = true;
  }
  if (paddingChanged)
    conv.setPaddingAttr(DenseIntElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(spatialCount), 2},
                              builder.getI64Type()),
        padding));

  // The result as computed from the padded operands, then trimmed (or
  // padded) to the padded result shape.
  SmallVector<Type> inferred;
  if (failed(cast<InferTypeOpInterface>(conv.getOperation())
                 .inferReturnTypes(conv.getContext(), std::nullopt,
                                   conv->getOperands(),
                                   conv->getRawDictionaryAttrs(),
                                   conv->getPropertiesStorage(),
                                   conv->getRegions(), inferred)))
    return conv.emitOpError()
           << "cannot be padded for divisibility: the padded operands give "
              "no valid result type";
  Value result = conv.getResult();
  setShape(result, cast<RankedTensorType>(inferred.front()).getShape());
  touched.insert(conv);
  builder.setInsertionPointAfter(conv);
  replaceExistingUses(result,
                      [&] { return adaptTo(loc, result, resultShape); });
  return success();
}

LogicalResult FunctionPadder::padReduce(Operation *op, ValueRange inputs,
                                        ValueRange initValues,
                                        ArrayRef<int64_t> dims) {
  builder.setInsertionPoint(op);
  for (auto [index, input, init] : llvm::enumerate(inputs, initValues)) {
    auto type = cast<RankedTensorType>(input.getType());
    RankedTensorType original = originalType(input);
    if (type == original)
      continue;
    // Reduced padding must be the reduction's identity: its init value.
    SmallVector<int64_t> real(type.getShape());
    for (int64_t dim : dims)
      real[dim] = original.getDimSize(dim);
    op->setOperand(index, mask(op->getLoc(), input, real, init,
                               getSplatConstant(init)));
  }
  return retypeResults(op);
}

void FunctionPadder::padWhile(stablehlo::WhileOp loop) {
  (void)retypeResults(loop);
  // Carried values, block arguments and results share one type.
  adaptOperands(loop, loop.getResultTypes());
  for (Region *region : {&loop.getCond(), &loop.getBody()})
    for (auto [arg, type] :
         llvm::zip(region->front().getArguments(), loop.getResultTypes()))
      if (arg.getType() != type) {
        originalTypes[arg] = arg.getType();
        arg.setType(type);
      }
  touched.insert(loop);
}

void FunctionPadder::padAllGather(AllGatherOp gather) {
  Value result = gather.getResult();
  RankedTensorType original = originalType(result);
  // Gather the padded form, then drop the padding the (less sharded) result
  // no longer needs.
  auto operandType = cast<RankedTensorType>(gather.getTensor().getType());
  SmallVector<int64_t> wanted = paddedShape(original, gather.getOutSharding());
  SmallVector<int64_t> gathered(operandType.getShape());
  for (auto [size, target] : llvm::zip(gathered, wanted))
    size = std::max(size, target);
  builder.setInsertionPoint(gather);
  gather.getTensorMutable().set(
      padHigh(gather.getLoc(), gather.getTensor(), gathered));
  setShape(result, gathered);
  if (TypedAttr fill = paddingValues.lookup(gather.getTensor()))
    paddingValues[result] = fill;
  touched.insert(gather);
  if (ArrayRef(gathered) == ArrayRef(wanted))
    return;
  builder.setInsertionPointAfter(gather);
  replaceExistingUses(result,
                      [&] { return sliceTo(gather.getLoc(), result, wanted); });
}

void FunctionPadder::padSameTypeCollective(Operation *op, Value operand,
                                           TensorShardingAttr outSharding,
                                           bool zeroOnly,
                                           ArrayRef<int64_t> sliceBackDims) {
  Value result = op->getResult(0);
  RankedTensorType original = originalType(result);
  SmallVector<int64_t> wanted = paddedShape(original, outSharding);
  SmallVector<int64_t> shape(cast<RankedTensorType>(operand.getType()).getShape());
  // The operand's own sharding may need padding its producer did not give it.
  SmallVector<int64_t> forOperand =
      paddedShape(originalType(operand), getSharding(operand));
  for (auto [size, target, own] : llvm::zip(shape, wanted, forOperand))
    size = std::max({size, target, own});
  builder.setInsertionPoint(op);
  Value padded = padHigh(op->getLoc(), operand, shape);
  op->setOperand(0, padded);
  setShape(result, shape);
  if (TypedAttr fill = paddingValues.lookup(padded))
    if (!zeroOnly || fill == builder.getZeroAttr(fill.getType()))
      paddingValues[result] = fill;
  touched.insert(op);
  SmallVector<int64_t> sliced(shape);
  for (int64_t dim : sliceBackDims)
    sliced[dim] = wanted[dim];
  if (sliced == shape)
    return;
  builder.setInsertionPointAfter(op);
  replaceExistingUses(result,
                      [&] { return sliceTo(op->getLoc(), result, sliced); });
}

LogicalResult FunctionPadder::visit(Operation *op) {
  auto sameType = [&](Operation *collective, Value operand,
                      TensorShardingAttr out, bool zeroOnly) {
    padSameTypeCollective(collective, operand, out, zeroOnly, {});
    return success();
  };
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](stablehlo::ConstantOp constant) {
        padConstant(constant, constant.getValue());
        return success();
      })
      .Case([&](ConstantOp constant) {
        padConstant(constant, constant.getValue());
        return success();
      })
      .Case([&](stablehlo::SliceOp slice) { return padSlice(slice); })
      .Case([&](stablehlo::PadOp pad) { return padPad(pad); })
      .Case([&](stablehlo::DotGeneralOp dot) { return padDotGeneral(dot); })
      .Case([&](stablehlo::ConvolutionOp conv) { return padConvolution(conv); })
      .Case([&](stablehlo::ReduceOp reduce) {
        return padReduce(reduce, reduce.getInputs(), reduce.getInitValues(),
                         reduce.getDimensions());
      })
      .Case([&](stablehlo::ReduceWindowOp window) {
        SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(
            0, cast<RankedTensorType>(window.getInputs().front().getType())
                   .getRank()));
        return padReduce(window, window.getInputs(), window.getInitValues(),
                         all);
      })
      .Case([&](stablehlo::WhileOp loop) {
        padWhile(loop);
        return success();
      })
      .Case([&](stablehlo::ReturnOp ret) {
        Operation *parent = ret->getParentOp();
        if (isa<stablehlo::IfOp, stablehlo::CaseOp>(parent) ||
            (isa<stablehlo::WhileOp>(parent) &&
             ret->getParentRegion() ==
                 &cast<stablehlo::WhileOp>(parent).getBody()))
          adaptOperands(ret, parent->getResultTypes());
        else
          restoreOperands(ret);
        return success();
      })
      .Case([&](AllGatherOp gather) {
        padAllGather(gather);
        return success();
      })
      .Case([&](AllSliceOp slice) {
        return sameType(slice, slice.getTensor(), slice.getOutSharding(),
                        /*zeroOnly=*/false);
      })
      .Case([&](ReduceScatterOp scatter) {
        return sameType(scatter, scatter.getTensor(), scatter.getOutSharding(),
                        /*zeroOnly=*/true);
      })
      .Case([&](AllReduceOp reduce) {
        return sameType(reduce, reduce.getTensor(), reduce.getOutSharding(),
                        /*zeroOnly=*/true);
      })
      .Case([&](ReplicatedToUnreducedOp toUnreduced) {
        return sameType(toUnreduced, toUnreduced.getTensor(),
                        toUnreduced.getOutSharding(), /*zeroOnly=*/true);
      })
      .Case([&](ShardedToUnreducedOp toUnreduced) {
        return sameType(toUnreduced, toUnreduced.getTensor(),
                        toUnreduced.getOutSharding(), /*zeroOnly=*/true);
      })
      .Case([&](CollectivePermuteOp permute) {
        return sameType(permute, permute.getTensor(), permute.getOutSharding(),
                        /*zeroOnly=*/false);
      })
      .Case([&](ReshardOp reshard) {
        return sameType(reshard, reshard.getInput(), reshard.getSharding(),
                        /*zeroOnly=*/false);
      })
      .Case([&](AllToAllOp allToAll) {
        SmallVector<int64_t> sources;
        for (AllToAllParamAttr param : allToAll.getParams().getValue())
          sources.push_back(param.getSrcDim());
        padSameTypeCollective(allToAll, allToAll.getTensor(),
                              allToAll.getOutSharding(), /*zeroOnly=*/false,
                              sources);
        return success();
      })
      .Default([&](Operation *other) {
        if (isa<stablehlo::StablehloDialect>(other->getDialect())) {
          if (llvm::any_of(other->getOperands(), [&](Value operand) {
                return originalTypes.contains(operand);
              }))
            touched.insert(other);
          return retypeResults(other);
        }
        // func.return, calls, sdy.return of manual and named computations
        // and every other op keep their original types.
        restoreOperands(other);
        return success();
      });
}

LogicalResult FunctionPadder::run() {
  // Function inputs and outputs are what callers see: they must be divisible.
  bool ioDivisible = true;
  auto checkSignature = [&](TensorShardingAttr sharding, Type type,
                            StringRef kind, unsigned index) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!sharding || !ranked)
      return;
    MeshAttr mesh = getMesh(sharding);
    if (!mesh)
      return;
    if (auto bad = findNonDivisibleDim(ranked, sharding, mesh)) {
      function.emitOpError()
          << kind << " #" << index << " of type " << type << " has sharding "
          << sharding << ", whose " << bad->second << " shards do not divide dim "
          << bad->first << " (size " << ranked.getDimSize(bad->first)
          << "); the partitioner pads only values inside functions, so "
             "function inputs and outputs must be divisible";
      ioDivisible = false;
    }
  };
  for (auto [index, type] : llvm::enumerate(function.getArgumentTypes()))
    checkSignature(function.getArgAttrOfType<TensorShardingAttr>(
                       index, SdyDialect::kShardingAttrName),
                   type, "argument", index);
  for (auto [index, type] : llvm::enumerate(function.getResultTypes()))
    checkSignature(function.getResultAttrOfType<TensorShardingAttr>(
                       index, SdyDialect::kShardingAttrName),
                   type, "result", index);
  if (!ioDivisible)
    return failure();

  SmallVector<Operation *> ops;
  bool paddable = true;
  function.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == function)
      return;
    ops.push_back(op);
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      SmallVector<int64_t> padded = paddedShape(type, getSharding(result));
      if (hasPaddableElements(type) || type.getShape() == ArrayRef(padded))
        continue;
      op->emitOpError() << "result #" << cast<OpResult>(result).getResultNumber()
                        << " of type " << type
                        << " needs padding for divisibility, which is only "
                           "supported for integer and float elements";
      paddable = false;
    }
  });
  if (!paddable)
    return failure();
  if (sizeOverflow)
    return function.emitOpError()
           << "has a value whose padded size does not fit in 64 bits";
  for (Operation *op : ops)
    if (failed(visit(op)))
      return failure();

  // Ops whose types changed must still be valid; an op that cannot take
  // padded types (e.g. a reshape merging a padded dim) is reported here.
  for (Operation *op : touched) {
    std::string message;
    LogicalResult verified = success();
    {
      ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &diag) {
        if (message.empty())
          message = diag.str();
        return success();
      });
      verified = verify(op, /*verifyRecursively=*/false);
    }
    if (failed(verified)) {
      // The verifier's message names the op again; it is ours already.
      std::string prefix = "'" + op->getName().getStringRef().str() + "' op ";
      StringRef reason(message);
      reason.consume_front(prefix);
      op->emitOpError() << "cannot take the padded types "
                           "-sdy-pad-for-divisibility gives it: "
                        << reason;
      return failure();
    }
  }
  return success();
}

class PadForDivisibilityPass
    : public impl::PadForDivisibilityPassBase<PadForDivisibilityPass> {
  using PadForDivisibilityPassBase::PadForDivisibilityPassBase;

  void runOnOperation() override {
    if (failed(FunctionPadder(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::sdy
