//===- CloseShardings.cpp - -sdy-close-shardings --------------------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_CLOSESHARDINGSPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class CloseShardingsPass
    : public impl::CloseShardingsPassBase<CloseShardingsPass> {
  using CloseShardingsPassBase::CloseShardingsPassBase;

  void runOnOperation() override {
    updateShardings(getOperation(), [](TensorShardingAttr sharding,
                                       Operation *) {
      SmallVector<DimensionShardingAttr> dims;
      for (DimensionShardingAttr dim : sharding.getDimShardings())
        dims.push_back(DimensionShardingAttr::get(
            sharding.getContext(), dim.getAxes(), /*isClosed=*/true,
            dim.getPriority()));
      return TensorShardingAttr::get(
          sharding.getContext(), sharding.getMeshOrRef(), dims,
          /*replicatedAxes=*/{}, sharding.getUnreducedAxes(),
          sharding.getUnreducedKind());
    });
  }
};

} // namespace
} // namespace mlir::sdy
