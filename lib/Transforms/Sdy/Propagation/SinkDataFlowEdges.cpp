//===- SinkDataFlowEdges.cpp - -sdy-sink-data-flow-edges ------------------===//

#include "DataFlowEdges.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_SINKDATAFLOWEDGESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// Sets the `sdy.sharding` of `op` from the shardings of its edges, if any
/// edge has one.
void sinkEdgeShardings(Operation *op) {
  SmallVector<TensorShardingAttr> shardings(op->getNumResults());
  Attribute meshOrRef;
  for (OpResult owner : getEdgeOwners(op)) {
    DataFlowEdgeOp edge = getDataFlowEdge(owner);
    TensorShardingAttr sharding = edge ? edge.getShardingAttr() : nullptr;
    shardings[owner.getResultNumber()] = sharding;
    if (sharding && !meshOrRef)
      meshOrRef = sharding.getMeshOrRef();
  }
  if (!meshOrRef)
    return;
  for (auto [result, sharding] : llvm::zip(op->getResults(), shardings)) {
    if (sharding)
      continue;
    auto type = dyn_cast<ShapedType>(result.getType());
    sharding = TensorShardingAttr::getFullyOpen(
        op->getContext(), meshOrRef,
        type && type.hasRank() ? type.getRank() : 0);
  }
  op->setAttr(SdyDialect::kShardingAttrName,
              TensorShardingPerValueAttr::get(op->getContext(), shardings));
}

class SinkDataFlowEdgesPass
    : public impl::SinkDataFlowEdgesPassBase<SinkDataFlowEdgesPass> {
  using SinkDataFlowEdgesPassBase::SinkDataFlowEdgesPassBase;

  void runOnOperation() override {
    SmallVector<DataFlowEdgeOp> edges;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto edge = dyn_cast<DataFlowEdgeOp>(op))
        edges.push_back(edge);
      else if (isDataFlowOp(op))
        sinkEdgeShardings(op);
    });
    for (DataFlowEdgeOp edge : edges) {
      edge.getResult().replaceAllUsesWith(edge.getInput());
      edge.erase();
    }
  }
};

} // namespace
} // namespace mlir::sdy
