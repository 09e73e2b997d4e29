//===- RemoveAllGatherReduceScatterForCmv1.cpp ----------------------------===//
//
// -sdy-remove-all-gather-reduce-scatter-for-cmv1
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVEALLGATHERREDUCESCATTERFORCMV1PASS
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

namespace {

/// Whether the (single) result sharding of `op` has unreduced axes.
bool hasUnreducedResult(Operation *op) {
  auto shardings = op->getAttrOfType<TensorShardingPerValueAttr>(
      SdyDialect::kShardingAttrName);
  return shardings &&
         llvm::any_of(shardings.getShardings(),
                      [](TensorShardingAttr sharding) {
                        return !sharding.getUnreducedAxes().empty();
                      });
}

void removeAroundDot(Operation *dot) {
  bool bypassedGather = false;
  for (OpOperand &operand : dot->getOpOperands()) {
    auto gather = operand.get().getDefiningOp<AllGatherOp>();
    if (!gather || !gather->hasOneUse())
      continue;
    operand.set(gather.getTensor());
    gather.erase();
    bypassedGather = true;
  }
  if (bypassedGather || !dot->getResult(0).hasOneUse() ||
      hasUnreducedResult(dot))
    return;
  auto scatter =
      dyn_cast<ReduceScatterOp>(*dot->getResult(0).getUsers().begin());
  if (!scatter)
    return;
  dot->setAttr(SdyDialect::kShardingAttrName,
               TensorShardingPerValueAttr::get(dot->getContext(),
                                               {scatter.getOutSharding()}));
  scatter.getResult().replaceAllUsesWith(dot->getResult(0));
  scatter.erase();
}

class RemoveAllGatherReduceScatterForCmv1Pass
    : public impl::RemoveAllGatherReduceScatterForCmv1PassBase<
          RemoveAllGatherReduceScatterForCmv1Pass> {
  using RemoveAllGatherReduceScatterForCmv1PassBase::
      RemoveAllGatherReduceScatterForCmv1PassBase;

  void runOnOperation() override {
    SmallVector<Operation *> dots;
    getOperation().walk([&](Operation *op) {
      if (isa<stablehlo::DotOp, stablehlo::DotGeneralOp>(op))
        dots.push_back(op);
    });
    for (Operation *dot : dots)
      removeAroundDot(dot);
  }
};

} // namespace
} // namespace mlir::sdy
