//===- AddDataFlowEdges.cpp - -sdy-add-data-flow-edges --------------------===//

#include "DataFlowEdges.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_ADDDATAFLOWEDGESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class AddDataFlowEdgesPass
    : public impl::AddDataFlowEdgesPassBase<AddDataFlowEdgesPass> {
  using AddDataFlowEdgesPassBase::AddDataFlowEdgesPassBase;

  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (isDataFlowOp(op))
        insertDataFlowEdges(op);
    });
  }
};

} // namespace
} // namespace mlir::sdy
