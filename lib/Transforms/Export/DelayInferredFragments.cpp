//===- DelayInferredFragments.cpp - -mpmd-delay-inferred-fragments --------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_DELAYINFERREDFRAGMENTSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

class DelayInferredFragmentsPass
    : public impl::DelayInferredFragmentsPassBase<DelayInferredFragmentsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function) || !isEntryPointFunction(function))
      return;
    for (Block &block : function.getBody()) {
      SmallVector<FragmentOp> inferred;
      for (auto fragment : block.getOps<FragmentOp>())
        if (!fragment.isUserFragment())
          inferred.push_back(fragment);
      for (FragmentOp fragment : llvm::reverse(inferred))
        moveBeforeFirstUser(fragment);
    }
  }
};

} // namespace
} // namespace mlir::mpmd
