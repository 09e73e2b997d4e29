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
      // Edges follow their op in result order.
      builder.setInsertionPointAfter(op);
      for (OpResult owner : getEdgeOwners(op)) {
        auto edge = DataFlowEdgeOp::create(builder, owner.getLoc(), owner,
                                           getSharding(owner));
        owner.replaceAllUsesExcept(edge.getResult(), edge);
      }
    });
  }
};

} // namespace
} // namespace mlir::sdy
