//===- SinkDataFlowEdges.cpp - -sdy-sink-data-flow-edges ------------------===//

#include "DataFlowEdges.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_SINKDATAFLOWEDGESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// The shardings of `owners`' edges, missing ones fully open on the mesh of
/// the others; empty when no edge has a sharding.
SmallVector<TensorShardingAttr> getEdgeShardings(ArrayRef<Value> owners,
                                                 MLIRContext *context) {
  SmallVector<TensorShardingAttr> shardings;
  Attribute meshOrRef;
  for (Value owner : owners) {
    DataFlowEdgeOp edge = getDataFlowEdge(owner);
    TensorShardingAttr sharding = edge ? edge.getShardingAttr() : nullptr;
    shardings.push_back(sharding);
    if (sharding && !meshOrRef)
      meshOrRef = sharding.getMeshOrRef();
  }
  if (!meshOrRef)
    return {};
  for (auto [owner, sharding] : llvm::zip(owners, shardings)) {
    if (sharding)
      continue;
    auto type = dyn_cast<ShapedType>(owner.getType());
    sharding = TensorShardingAttr::getFullyOpen(
        context, meshOrRef, type && type.hasRank() ? type.getRank() : 0);
  }
  return shardings;
}

/// Stores the shardings of the edges of `op` where `op` keeps them: a named
/// computation's in/out shardings (if any edge has one), else where
/// `setEdgeOwnerShardings` puts them.
void sinkEdgeShardings(Operation *op) {
  MLIRContext *context = op->getContext();
  if (auto named = dyn_cast<NamedComputationOp>(op)) {
    SmallVector<Value> args(named.getBody().getArguments());
    SmallVector<Value> results(named->getResults());
    SmallVector<TensorShardingAttr> in = getEdgeShardings(args, context);
    SmallVector<TensorShardingAttr> out = getEdgeShardings(results, context);
    if (!in.empty())
      named.setInShardingsAttr(TensorShardingPerValueAttr::get(context, in));
    if (!out.empty())
      named.setOutShardingsAttr(TensorShardingPerValueAttr::get(context, out));
    return;
  }
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
