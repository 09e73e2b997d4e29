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
      updateSignatureShardings(function,
                               [&](TensorShardingAttr sharding, Type type) {
                                 return update(sharding, type, function);
                               });
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      if (auto divisible = updateList(
              call->getAttrOfType<TensorShardingPerValueAttr>(
                  SdyDialect::kShardingAttrName),
              call.getResultTypes(), call))
        call->setAttr(SdyDialect::kShardingAttrName, divisible);
    } else if (auto manual = dyn_cast<ManualComputationOp>(op)) {
      // Manual axes must divide; the free axes after them are made to.
      if (auto in = updateList(manual.getInShardings(),
                               manual.getOperandTypes(), manual))
        manual.setInShardingsAttr(in);
      if (auto out = updateList(manual.getOutShardings(),
                                manual.getResultTypes(), manual))
        manual.setOutShardingsAttr(out);
    }
  });
}

} // namespace
} // namespace mlir::sdy
