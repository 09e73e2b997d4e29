//===- ExplicitGatherScatterBatching.cpp ----------------------------------===//
//
// -sdy-explicit-gather-scatter-batching
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_EXPLICITGATHERSCATTERBATCHINGPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// Whether `value` counts 0, 1, 2, ... along `dim` and is constant along
/// every other dimension: an iota along it, seen through broadcasts,
/// reshapes that only add or drop size-1 dimensions, and converts.
bool isIotaAlong(Value value, int64_t dim) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || dim < 0 || dim >= type.getRank())
    return false;
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  if (auto iota = dyn_cast<stablehlo::IotaOp>(op))
    return static_cast<int64_t>(iota.getIotaDimension()) == dim;
  if (auto convert = dyn_cast<stablehlo::ConvertOp>(op))
    return isa<IntegerType>(type.getElementType()) &&
           isIotaAlong(convert.getOperand(), dim);
  if (auto broadcast = dyn_cast<stablehlo::BroadcastInDimOp>(op)) {
    auto operandType = cast<RankedTensorType>(broadcast.getOperand().getType());
    for (auto [operandDim, resultDim] :
         llvm::enumerate(broadcast.getBroadcastDimensions()))
      if (resultDim == dim)
        return operandType.getDimSize(operandDim) == type.getDimSize(dim) &&
               isIotaAlong(broadcast.getOperand(), operandDim);
    return false;
  }
  if (auto reshape = dyn_cast<stablehlo::ReshapeOp>(op)) {
    auto operandType = cast<RankedTensorType>(reshape.getOperand().getType());
    // Same dimensions but for size-1 ones: `dim` is the k-th of size > 1.
    auto nonUnit = [](RankedTensorType t) {
      SmallVector<int64_t> sizes;
      for (int64_t size : t.getShape())
        if (size != 1)
          sizes.push_back(size);
      return sizes;
    };
    if (nonUnit(operandType) != nonUnit(type) || type.getDimSize(dim) == 1)
      return false;
    int64_t rank = llvm::count_if(type.getShape().take_front(dim),
                                  [](int64_t size) { return size != 1; });
    for (int64_t operandDim = 0; operandDim < operandType.getRank();
         ++operandDim)
      if (operandType.getDimSize(operandDim) != 1 && rank-- == 0)
        return isIotaAlong(reshape.getOperand(), operandDim);
  }
  return false;
}

/// The indices without their component `component` (of the index vector
/// along `indexVectorDim`) when they are a concatenation along that
/// dimension whose input holding the component is an iota along dimension 0
/// of size 1 along the index vector; else null.
Value dropIotaComponent(OpBuilder &builder, Value indices,
                        int64_t indexVectorDim, int64_t component) {
  auto concat = indices.getDefiningOp<stablehlo::ConcatenateOp>();
  if (!concat || static_cast<int64_t>(concat.getDimension()) != indexVectorDim)
    return nullptr;
  int64_t offset = 0;
  SmallVector<Value> rest;
  bool found = false;
  for (Value input : concat.getInputs()) {
    int64_t size =
        cast<RankedTensorType>(input.getType()).getDimSize(indexVectorDim);
    if (offset == component && size == 1 && isIotaAlong(input, 0))
      found = true;
    else
      rest.push_back(input);
    offset += size;
  }
  if (!found)
    return nullptr;
  if (rest.size() == 1)
    return rest.front();
  auto type = cast<RankedTensorType>(indices.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[indexVectorDim] -= 1;
  return stablehlo::ConcatenateOp::create(
      builder, concat.getLoc(),
      RankedTensorType::get(shape, type.getElementType()), rest,
      indexVectorDim);
}

/// Erases `op` if nothing uses it, then the ops only it used.
void eraseIfUnused(Operation *op) {
  if (!op || !op->use_empty() || !isPure(op))
    return;
  llvm::SmallSetVector<Operation *, 4> inputs;
  for (Value operand : op->getOperands())
    if (Operation *input = operand.getDefiningOp())
      inputs.insert(input);
  op->erase();
  for (Operation *input : inputs)
    eraseIfUnused(input);
}

SmallVector<int64_t> without(ArrayRef<int64_t> values, int64_t value) {
  SmallVector<int64_t> result;
  for (int64_t v : values)
    if (v != value)
      result.push_back(v);
  return result;
}

/// Whether operand dim 0 and indices dim 0 pair up as an implicit batch:
/// equal sizes, no explicit batching yet, dim 0 of the indices not the index
/// vector, whose size is above 1, and operand dim 0 indexed by one component
/// and collapsed / inserted. Returns that component.
std::optional<int64_t> getBatchComponent(RankedTensorType operandType,
                                         RankedTensorType indicesType,
                                         ArrayRef<int64_t> operandBatchingDims,
                                         ArrayRef<int64_t> collapsedDims,
                                         ArrayRef<int64_t> indexMap,
                                         int64_t indexVectorDim) {
  if (!operandType || !indicesType || !operandType.hasStaticShape() ||
      !indicesType.hasStaticShape() || !operandBatchingDims.empty() ||
      operandType.getRank() == 0 || indicesType.getRank() == 0 ||
      indexVectorDim == 0 || indexVectorDim >= indicesType.getRank() ||
      indicesType.getDimSize(indexVectorDim) <= 1 ||
      operandType.getDimSize(0) != indicesType.getDimSize(0) ||
      !llvm::is_contained(collapsedDims, 0))
    return std::nullopt;
  auto it = llvm::find(indexMap, 0);
  if (it == indexMap.end())
    return std::nullopt;
  return it - indexMap.begin();
}

void rewriteGather(stablehlo::GatherOp gather) {
  stablehlo::GatherDimensionNumbersAttr dims = gather.getDimensionNumbers();
  std::optional<int64_t> component = getBatchComponent(
      dyn_cast<RankedTensorType>(gather.getOperand().getType()),
      dyn_cast<RankedTensorType>(gather.getStartIndices().getType()),
      dims.getOperandBatchingDims(), dims.getCollapsedSliceDims(),
      dims.getStartIndexMap(), dims.getIndexVectorDim());
  if (!component)
    return;
  OpBuilder builder(gather);
  Value indices = dropIotaComponent(builder, gather.getStartIndices(),
                                    dims.getIndexVectorDim(), *component);
  if (!indices)
    return;
  SmallVector<int64_t> indexMap(dims.getStartIndexMap());
  indexMap.erase(indexMap.begin() + *component);
  Operation *oldIndices = gather.getStartIndices().getDefiningOp();
  gather.getStartIndicesMutable().assign(indices);
  eraseIfUnused(oldIndices);
  gather.setDimensionNumbersAttr(stablehlo::GatherDimensionNumbersAttr::get(
      gather.getContext(), dims.getOffsetDims(),
      without(dims.getCollapsedSliceDims(), 0), /*operandBatchingDims=*/{0},
      /*startIndicesBatchingDims=*/{0}, indexMap, dims.getIndexVectorDim()));
}

void rewriteScatter(stablehlo::ScatterOp scatter) {
  stablehlo::ScatterDimensionNumbersAttr dims =
      scatter.getScatterDimensionNumbers();
  std::optional<int64_t> component = getBatchComponent(
      dyn_cast<RankedTensorType>(scatter.getInputs().front().getType()),
      dyn_cast<RankedTensorType>(scatter.getScatterIndices().getType()),
      dims.getInputBatchingDims(), dims.getInsertedWindowDims(),
      dims.getScatterDimsToOperandDims(), dims.getIndexVectorDim());
  if (!component)
    return;
  OpBuilder builder(scatter);
  Value indices = dropIotaComponent(builder, scatter.getScatterIndices(),
                                    dims.getIndexVectorDim(), *component);
  if (!indices)
    return;
  SmallVector<int64_t> indexMap(dims.getScatterDimsToOperandDims());
  indexMap.erase(indexMap.begin() + *component);
  Operation *oldIndices = scatter.getScatterIndices().getDefiningOp();
  scatter.getScatterIndicesMutable().assign(indices);
  eraseIfUnused(oldIndices);
  scatter.setScatterDimensionNumbersAttr(
      stablehlo::ScatterDimensionNumbersAttr::get(
          scatter.getContext(), dims.getUpdateWindowDims(),
          without(dims.getInsertedWindowDims(), 0), /*inputBatchingDims=*/{0},
          /*scatterIndicesBatchingDims=*/{0}, indexMap,
          dims.getIndexVectorDim()));
}

class ExplicitGatherScatterBatchingPass
    : public impl::ExplicitGatherScatterBatchingPassBase<
          ExplicitGatherScatterBatchingPass> {
  using ExplicitGatherScatterBatchingPassBase::
      ExplicitGatherScatterBatchingPassBase;

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<stablehlo::GatherOp, stablehlo::ScatterOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto gather = dyn_cast<stablehlo::GatherOp>(op))
        rewriteGather(gather);
      else
        rewriteScatter(cast<stablehlo::ScatterOp>(op));
    }
  }
};

} // namespace
} // namespace mlir::sdy
