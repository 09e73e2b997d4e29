//===- FragmentDce.cpp - -mpmd-fragment-dce -------------------------------===//

#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_FRAGMENTDCEPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

class FragmentDcePass : public impl::FragmentDcePassBase<FragmentDcePass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (Block *block : getBlocksWithFragments(getOperation())) {
      for (Operation &op :
           llvm::make_early_inc_range(llvm::reverse(*block))) {
        if (auto fragment = dyn_cast<FragmentOp>(op)) {
          eraseDeadFragmentParts(fragment, rewriter);
        } else if (isa<TransferOp>(op) && isOpTriviallyDead(&op)) {
          rewriter.eraseOp(&op);
        }
      }
    }
  }
};

} // namespace
} // namespace mlir::mpmd
