//===- AddDataFlowEdges.cpp - -sdy-add-data-flow-edges --------------------===//

#include "DataFlowEdges.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_ADDDATAFLOWEDGESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// The last `sdy.data_flow_edge` already placed after `op`'s results, or
/// null.
OpResult getLastEdgeResult(Operation *op) {
  Operation *next = op->getNextNode();
  OpResult last;
  while (auto edge = dyn_cast_or_null<DataFlowEdgeOp>(next)) {
    if (edge.getInput().getDefiningOp() != op)
      break;
    last = cast<OpResult>(edge.getResult());
    next = next->getNextNode();
  }
  return last;
}

class AddDataFlowEdgesPass
    : public impl::AddDataFlowEdgesPassBase<AddDataFlowEdgesPass> {
  using AddDataFlowEdgesPassBase::AddDataFlowEdgesPassBase;

  void runOnOperation() override {
    OpBuilder builder(&getContext());
    getOperation().walk([&](Operation *op) {
      for (Value owner : getEdgeOwners(op)) {
        // Block-argument edges open the body; result edges follow their op,
        // in result order.
        TensorShardingAttr sharding = getSharding(owner);
        if (auto arg = dyn_cast<BlockArgument>(owner)) {
          // After the edges of the arguments before it.
          Block *body = arg.getOwner();
          Block::iterator point = body->begin();
          while (point != body->end() && isa<DataFlowEdgeOp>(*point) &&
                 isa<BlockArgument>(cast<DataFlowEdgeOp>(*point).getInput()))
            ++point;
          builder.setInsertionPoint(body, point);
          auto named = cast<NamedComputationOp>(op);
          if (TensorShardingPerValueAttr in = named.getInShardingsAttr())
            sharding = in.getShardings()[arg.getArgNumber()];
        } else {
          builder.setInsertionPointAfter(op);
          if (OpResult previous = getLastEdgeResult(op))
            builder.setInsertionPointAfter(previous.getOwner());
        }
        auto edge =
            DataFlowEdgeOp::create(builder, owner.getLoc(), owner, sharding);
        owner.replaceAllUsesExcept(edge.getResult(), edge);
      }
    });
  }
};

} // namespace
} // namespace mlir::sdy
