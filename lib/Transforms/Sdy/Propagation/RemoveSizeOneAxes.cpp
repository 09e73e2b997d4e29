//===- RemoveSizeOneAxes.cpp - -sdy-remove-size-one-axes ------------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVESIZEONEAXESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

TensorShardingAttr removeSizeOneAxes(TensorShardingAttr sharding,
                                     MeshAttr mesh) {
  auto keep = [&](ArrayRef<AxisRefAttr> axes) {
    SmallVector<AxisRefAttr> kept;
    for (AxisRefAttr axis : axes)
      if (axis.getSize(mesh) != 1)
        kept.push_back(axis);
    return kept;
  };
  MLIRContext *context = sharding.getContext();
  SmallVector<DimensionShardingAttr> dims;
  for (DimensionShardingAttr dim : sharding.getDimShardings()) {
    SmallVector<AxisRefAttr> axes = keep(dim.getAxes());
    // A closed empty dimension cannot have a priority.
    std::optional<int64_t> priority = dim.getPriority();
    if (dim.getIsClosed() && axes.empty())
      priority = std::nullopt;
    dims.push_back(
        DimensionShardingAttr::get(context, axes, dim.getIsClosed(), priority));
  }
  return TensorShardingAttr::get(context, sharding.getMeshOrRef(), dims,
                                 keep(sharding.getReplicatedAxes()),
                                 keep(sharding.getUnreducedAxes()));
}

class RemoveSizeOneAxesPass
    : public impl::RemoveSizeOneAxesPassBase<RemoveSizeOneAxesPass> {
  using RemoveSizeOneAxesPassBase::RemoveSizeOneAxesPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool anySizeOne = false;
    auto hasSizeOneAxis = [](MeshAttr mesh) {
      return llvm::any_of(mesh.getAxes(), [](MeshAxisAttr axis) {
        return axis.getSize() == 1;
      });
    };
    for (MeshOp mesh : module.getOps<MeshOp>())
      anySizeOne |= hasSizeOneAxis(mesh.getMesh());
    updateShardings(module, [&](TensorShardingAttr sharding,
                                Operation *holder) -> TensorShardingAttr {
      MeshAttr mesh = sharding.getMesh(holder);
      if (!mesh || (!anySizeOne && !hasSizeOneAxis(mesh)))
        return {};
      return removeSizeOneAxes(sharding, mesh);
    });
  }
};

} // namespace
} // namespace mlir::sdy
