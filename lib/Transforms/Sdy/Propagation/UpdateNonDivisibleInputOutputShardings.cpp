//===- UpdateNonDivisibleInputOutputShardings.cpp ------------------------===//
//
// -sdy-update-non-divisible-input-output-shardings
//
//===----------------------------------------------------------------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"
#include "mpmd/Transforms/Sdy/Propagation/ShardingProjection.h"

#include <numeric>

namespace mlir::sdy {
#define GEN_PASS_DEF_UPDATENONDIVISIBLEINPUTOUTPUTSHARDINGSPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// `sharding` with every dimension its axes do not divide cut to the longest
/// divisible prefix (a sub-axis may end it); null when all divide.
TensorShardingAttr makeDivisible(TensorShardingAttr sharding, Type type,
                                 MeshAttr mesh) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      tensor.getRank() !=
          static_cast<int64_t>(sharding.getDimShardings().size()))
    return {};
  MLIRContext *context = sharding.getContext();
  SmallVector<DimensionShardingAttr> dims;
  bool changed = false;
  for (auto [size, dim] :
       llvm::zip(tensor.getShape(), sharding.getDimShardings())) {
    int64_t sharded = dim.getShardedSize(mesh);
    if (sharded <= 0 || size % sharded == 0) {
      dims.push_back(dim);
      continue;
    }
    SmallVector<AxisRefAttr> axes;
    int64_t remaining = size;
    for (AxisRefAttr axis : dim.getAxes()) {
      int64_t axisSize = axis.getSize(mesh);
      int64_t common = std::gcd(axisSize, remaining);
      if (common == 1)
        break;
      if (common == axisSize) {
        axes.push_back(axis);
        remaining /= common;
        continue;
      }
      axes.push_back(getAxisRef(mesh, axis.getName(), getPreSize(axis),
                                common));
      break;
    }
    dims.push_back(DimensionShardingAttr::get(context, axes, dim.getIsClosed(),
                                              std::nullopt));
    changed = true;
  }
  return changed ? withDimShardings(sharding, dims) : TensorShardingAttr();
}

/// A collective's operand sharding is part of its meaning (its verifier checks
/// the axes it gathers or slices against it), so a collective reading a value
/// whose sharding this pass cut keeps reading the original sharding through
/// an `sdy.reshard`; the partitioner later pads that value like any other
/// non-divisible one.
void reshardCollectiveUses(Value value, TensorShardingAttr original) {
  if (!original || getSharding(value) == original)
    return;
  OpBuilder builder(value.getContext());
  for (OpOperand &use : llvm::make_early_inc_range(value.getUses())) {
    Operation *user = use.getOwner();
    if (!isa<CollectiveOpInterface>(user))
      continue;
    builder.setInsertionPoint(user);
    use.set(builder.create<ReshardOp>(user->getLoc(), value, original));
  }
}

/// The shardings of `values`, read before the pass changes any of them.
SmallVector<TensorShardingAttr> shardingsOf(ValueRange values) {
  return llvm::map_to_vector(values,
                             [](Value value) { return getSharding(value); });
}

void reshardCollectiveUses(ValueRange values,
                           ArrayRef<TensorShardingAttr> originals) {
  for (auto [value, original] : llvm::zip(values, originals))
    reshardCollectiveUses(value, original);
}

class UpdateNonDivisibleInputOutputShardingsPass
    : public impl::UpdateNonDivisibleInputOutputShardingsPassBase<
          UpdateNonDivisibleInputOutputShardingsPass> {
  using UpdateNonDivisibleInputOutputShardingsPassBase::
      UpdateNonDivisibleInputOutputShardingsPassBase;

  void runOnOperation() override;
};

void UpdateNonDivisibleInputOutputShardingsPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto update = [&](TensorShardingAttr sharding, Type type,
                    Operation *scope) -> TensorShardingAttr {
    if (!sharding)
      return {};
    MeshAttr mesh = sharding.getMesh(scope);
    return mesh ? makeDivisible(sharding, type, mesh) : TensorShardingAttr();
  };
  auto updateList = [&](TensorShardingPerValueAttr shardings,
                        TypeRange types,
                        Operation *scope) -> TensorShardingPerValueAttr {
    if (!shardings || shardings.getShardings().size() != types.size())
      return {};
    SmallVector<TensorShardingAttr> updated(shardings.getShardings());
    bool changed = false;
    for (auto [sharding, type] : llvm::zip(updated, types))
      if (TensorShardingAttr divisible = update(sharding, type, scope)) {
        sharding = divisible;
        changed = true;
      }
    return changed ? TensorShardingPerValueAttr::get(scope->getContext(),
                                                     updated)
                   : TensorShardingPerValueAttr();
  };
  module.walk([&](Operation *op) {
    if (auto function = dyn_cast<func::FuncOp>(op)) {
      if (function.isExternal())
        return;
      ValueRange arguments = function.getArguments();
      SmallVector<TensorShardingAttr> originals = shardingsOf(arguments);
      updateSignatureShardings(function,
                               [&](TensorShardingAttr sharding, Type type) {
                                 return update(sharding, type, function);
                               });
      reshardCollectiveUses(arguments, originals);
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      SmallVector<TensorShardingAttr> originals =
          shardingsOf(call.getResults());
      if (auto divisible = updateList(
              call->getAttrOfType<TensorShardingPerValueAttr>(
                  SdyDialect::kShardingAttrName),
              call.getResultTypes(), call))
        call->setAttr(SdyDialect::kShardingAttrName, divisible);
      reshardCollectiveUses(call.getResults(), originals);
    } else if (auto manual = dyn_cast<ManualComputationOp>(op)) {
      // Manual axes must divide; the free axes after them are made to.
      SmallVector<TensorShardingAttr> originalOuts =
          shardingsOf(manual.getResults());
      if (auto in = updateList(manual.getInShardings(),
                               manual.getOperandTypes(), manual))
        manual.setInShardingsAttr(in);
      if (auto out = updateList(manual.getOutShardings(),
                                manual.getResultTypes(), manual))
        manual.setOutShardingsAttr(out);
      reshardCollectiveUses(manual.getResults(), originalOuts);
    }
  });
}

} // namespace
} // namespace mlir::sdy
