//===- RemoveSizeOneAxes.cpp - -sdy-remove-size-one-axes ------------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVESIZEONEAXESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

SmallVector<AxisRefAttr> keepAxesLargerThanOne(ArrayRef<AxisRefAttr> axes,
                                               MeshAttr mesh) {
  SmallVector<AxisRefAttr> kept;
  for (AxisRefAttr axis : axes)
    if (axis.getSize(mesh) != 1)
      kept.push_back(axis);
  return kept;
}

TensorShardingAttr removeSizeOneAxes(TensorShardingAttr sharding,
                                     MeshAttr mesh) {
  auto keep = [&](ArrayRef<AxisRefAttr> axes) {
    return keepAxesLargerThanOne(axes, mesh);
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
                                 keep(sharding.getUnreducedAxes()),
                                 sharding.getUnreducedKind());
}

/// The axes a collective moves must stay those its shardings (now without
/// size-one axes) differ by, so they lose their size-one axes too. An
/// all-to-all left with no param moved only size-one axes: it is the
/// identity and goes.
void removeSizeOneAxesOfCollective(CollectiveOpInterface collective,
                                   MeshAttr mesh) {
  Operation *op = collective;
  MLIRContext *context = op->getContext();
  auto keepList = [&](AxisRefListAttr list) {
    return AxisRefListAttr::get(context,
                                keepAxesLargerThanOne(list.getValue(), mesh));
  };
  for (NamedAttribute attr : op->getAttrs()) {
    if (auto list = dyn_cast<AxisRefListAttr>(attr.getValue())) {
      op->setAttr(attr.getName(), keepList(list));
    } else if (auto lists = dyn_cast<ListOfAxisRefListsAttr>(attr.getValue())) {
      op->setAttr(attr.getName(),
                  ListOfAxisRefListsAttr::get(
                      context, llvm::map_to_vector(lists.getValue(), keepList)));
    }
  }
  auto allToAll = dyn_cast<AllToAllOp>(op);
  if (!allToAll)
    return;
  SmallVector<AllToAllParamAttr> params;
  for (AllToAllParamAttr param : allToAll.getParams().getValue()) {
    SmallVector<AxisRefAttr> axes =
        keepAxesLargerThanOne(param.getAxes(), mesh);
    if (!axes.empty())
      params.push_back(AllToAllParamAttr::get(
          context, axes, param.getSrcDim(), param.getTgtDim()));
  }
  if (params.empty()) {
    allToAll.getResult().replaceAllUsesWith(allToAll.getTensor());
    allToAll.erase();
    return;
  }
  allToAll.setParamsAttr(AllToAllParamListAttr::get(context, params));
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
    SmallVector<CollectiveOpInterface> collectives;
    module.walk([&](CollectiveOpInterface collective) {
      collectives.push_back(collective);
    });
    for (CollectiveOpInterface collective : collectives) {
      MeshAttr mesh = collective.getOutSharding().getMesh(collective);
      if (mesh && hasSizeOneAxis(mesh))
        removeSizeOneAxesOfCollective(collective, mesh);
    }
  }
};

} // namespace
} // namespace mlir::sdy
