//===- AddDataFlowEdges.cpp - -sdy-add-data-flow-edges --------------------===//

#include "DataFlowEdges.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_ADDDATAFLOWEDGESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class AddDataFlowEdgesPass
    : public impl::AddDataFlowEdgesPassBase<AddDataFlowEdgesPass> {
  using AddDataFlowEdgesPassBase::AddDataFlowEdgesPassBase;

  void runOnOperation() override {
    OpBuilder builder(&getContext());
    getOperation().walk([&](Operation *op) {
      if (!isDataFlowOp(op))
        return;
      // Edges of block arguments start their block, edges of results follow
      // the op, each in owner order.
      Block *argumentBlock = nullptr;
      bool afterOp = false;
      for (Value owner : getEdgeOwners(op)) {
        if (auto arg = dyn_cast<BlockArgument>(owner)) {
          if (arg.getOwner() != argumentBlock) {
            argumentBlock = arg.getOwner();
            builder.setInsertionPointToStart(argumentBlock);
          }
        } else if (!afterOp) {
          afterOp = true;
          builder.setInsertionPointAfter(op);
        }
        auto edge = DataFlowEdgeOp::create(builder, owner.getLoc(), owner,
                                           getEdgeOwnerSharding(owner));
        owner.replaceAllUsesExcept(edge.getResult(), edge);
      }
    });
  }
};

} // namespace
} // namespace mlir::sdy
