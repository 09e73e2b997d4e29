//===- InsertNamelessCloneOfNegligibleOps.cpp -----------------------------===//
//
// -mpmd-insert-nameless-clone-of-negligible-ops
//
//===----------------------------------------------------------------------===//

#include "ImportUtils.h"

#include "mpmd/Transforms/Import/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INSERTNAMELESSCLONEOFNEGLIGIBLEOPSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

class InsertNamelessCloneOfNegligibleOpsPass
    : public impl::InsertNamelessCloneOfNegligibleOpsPassBase<
          InsertNamelessCloneOfNegligibleOpsPass> {
  void runOnOperation() override {
    getOperation().walk([](NamedComputationOp computation) {
      Operation *terminator = computation.getRegion().front().getTerminator();
      OpBuilder builder(computation->getContext());
      builder.setInsertionPointAfter(computation);
      for (auto [result, returned] :
           llvm::zip(computation.getResults(), terminator->getOperands())) {
        Operation *producer = returned.getDefiningOp();
        if (!producer || !isNegligibleOp(producer) ||
            producer->getParentOp() != computation.getOperation())
          continue;
        // Cloned even when only returns use the result (the clone is then
        // unused): upstream's intermediate IR has it, and mesh inference
        // drops it.
        Operation *clone = builder.clone(*producer);
        result.replaceUsesWithIf(clone->getResult(0), [](OpOperand &use) {
          return !isa<func::ReturnOp>(use.getOwner());
        });
      }
    });
  }
};

} // namespace
} // namespace mlir::mpmd
