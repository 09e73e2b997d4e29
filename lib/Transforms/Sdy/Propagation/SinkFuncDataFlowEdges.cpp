//===- SinkFuncDataFlowEdges.cpp - -sdy-sink-func-data-flow-edges
//----------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_SINKFUNCDATAFLOWEDGESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// The sharding `edge`'s input gets: the edge's, else fully open when the
/// input had one (the edge dropped nothing it knew), else none.
TensorShardingAttr getSunkSharding(FuncDataFlowEdgeOp edge) {
  if (TensorShardingAttr sharding = getSharding(edge.getResult()))
    return sharding;
  TensorShardingAttr previous = getSharding(edge.getInput());
  if (!previous)
    return {};
  auto type = cast<ShapedType>(edge.getType());
  return TensorShardingAttr::getFullyOpen(
      edge.getContext(), previous.getMeshOrRef(), type.getRank());
}

class SinkFuncDataFlowEdgesPass
    : public impl::SinkFuncDataFlowEdgesPassBase<SinkFuncDataFlowEdgesPass> {
  using SinkFuncDataFlowEdgesPassBase::SinkFuncDataFlowEdgesPassBase;

  void runOnOperation() override {
    // Collected first so that every argument list and every call's
    // per-result attribute is rewritten once, however many edges it has.
    SmallVector<std::pair<BlockArgument, TensorShardingAttr>> arguments;
    llvm::MapVector<Operation *, SmallVector<TensorShardingAttr>> calls;
    SmallVector<FuncDataFlowEdgeOp> edges;
    getOperation().walk([&](FuncDataFlowEdgeOp edge) {
      edges.push_back(edge);
      TensorShardingAttr sharding = getSunkSharding(edge);
      if (!sharding)
        return;
      Value input = edge.getInput();
      if (auto arg = dyn_cast<BlockArgument>(input)) {
        arguments.push_back({arg, sharding});
        return;
      }
      auto result = cast<OpResult>(input);
      Operation *owner = result.getOwner();
      auto [it, inserted] = calls.try_emplace(owner);
      if (inserted) {
        // Start from what the op has, so results without an edge keep it.
        for (OpResult other : owner->getResults())
          it->second.push_back(getSharding(other));
      }
      it->second[result.getResultNumber()] = sharding;
    });
    setArgumentShardings(arguments);
    for (auto &[owner, shardings] : calls)
      owner->setAttr(SdyDialect::kShardingAttrName,
                     fillWithFullyOpen(shardings, owner->getResultTypes(),
                                       owner->getContext()));
    for (FuncDataFlowEdgeOp edge : edges) {
      edge.getResult().replaceAllUsesWith(edge.getInput());
      edge.erase();
    }
  }
};

} // namespace
} // namespace mlir::sdy
