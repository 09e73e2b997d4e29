//===- RemoveSubAxesInInputOutputShardings.cpp ---------------------------===//
//
// -sdy-remove-sub-axes-in-input-output-shardings
//
//===----------------------------------------------------------------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVESUBAXESININPUTOUTPUTSHARDINGSPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// `sharding` with its open dimensions cut before their first sub-axis.
TensorShardingAttr cutAtSubAxes(TensorShardingAttr sharding) {
  if (!sharding)
    return {};
  SmallVector<DimensionShardingAttr> dims;
  for (DimensionShardingAttr dim : sharding.getDimShardings()) {
    ArrayRef<AxisRefAttr> axes = dim.getAxes();
    const auto *firstSub = llvm::find_if(
        axes, [](AxisRefAttr axis) { return axis.getSubAxisInfo(); });
    if (dim.getIsClosed() || firstSub == axes.end()) {
      dims.push_back(dim);
      continue;
    }
    dims.push_back(DimensionShardingAttr::get(
        sharding.getContext(), axes.take_front(firstSub - axes.begin()),
        /*isClosed=*/false, dim.getPriority()));
  }
  return withDimShardings(sharding, dims);
}

class RemoveSubAxesInInputOutputShardingsPass
    : public impl::RemoveSubAxesInInputOutputShardingsPassBase<
          RemoveSubAxesInInputOutputShardingsPass> {
  using RemoveSubAxesInInputOutputShardingsPassBase::
      RemoveSubAxesInInputOutputShardingsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = getMainFunction(module);
    if (!main)
      return;
    updateSignatureShardings(main, [](TensorShardingAttr sharding, Type) {
      return cutAtSubAxes(sharding);
    });
  }
};

} // namespace
} // namespace mlir::sdy
