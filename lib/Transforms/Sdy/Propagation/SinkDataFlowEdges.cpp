//===- SinkDataFlowEdges.cpp - -sdy-sink-data-flow-edges ------------------===//

#include "DataFlowEdges.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_SINKDATAFLOWEDGESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// Stores the shardings of the edges of `op` where `op` keeps them.
void sinkEdgeShardings(Operation *op) {
  SmallVector<TensorShardingAttr> shardings;
  for (Value owner : getEdgeOwners(op)) {
    DataFlowEdgeOp edge = getDataFlowEdge(owner);
    shardings.push_back(edge ? edge.getShardingAttr() : nullptr);
  }
  setEdgeOwnerShardings(op, shardings);
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
