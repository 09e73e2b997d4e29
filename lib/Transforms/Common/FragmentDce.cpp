//===- FragmentDce.cpp - -mpmd-fragment-dce -------------------------------===//

#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_FRAGMENTDCEPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

/// Erases the trivially dead ops of `block` and of the regions nested in it.
/// A backward sweep: users come after their operands' producers (values used
/// in nested regions are defined before the op holding the region), so one
/// sweep frees whole dead chains.
void eraseDeadOps(Block &block, RewriterBase &rewriter) {
  // Reverse ilist iterators point at their op, so erasing the current op
  // keeps the early-incremented one valid.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (isOpTriviallyDead(&op)) {
      rewriter.eraseOp(&op);
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        eraseDeadOps(nested, rewriter);
  }
}

/// Returns the fragment that replaces `fragment` (null if it was erased).
FragmentOp simplifyFragment(FragmentOp fragment, RewriterBase &rewriter) {
  // Unused results, then dead ops, then unused arguments.
  llvm::BitVector erasedResults(fragment->getNumResults());
  for (OpResult result : fragment->getResults())
    if (result.use_empty())
      erasedResults.set(result.getResultNumber());
  llvm::BitVector noOperands(fragment->getNumOperands());
  fragment = eraseFragmentOperandsAndResults(fragment, noOperands,
                                             erasedResults, rewriter);
  if (isOpTriviallyDead(fragment)) {
    rewriter.eraseOp(fragment);
    return nullptr;
  }
  eraseDeadOps(fragment.getRegion().front(), rewriter);
  Block &newBody = fragment.getRegion().front();
  llvm::BitVector erasedOperands(fragment->getNumOperands());
  unsigned numData = getNumDataOperands(fragment);
  for (BlockArgument arg : newBody.getArguments())
    // Control operands are kept: they only exist for their ordering.
    if (arg.use_empty() && arg.getArgNumber() < numData)
      erasedOperands.set(arg.getArgNumber());
  llvm::BitVector noResults(fragment->getNumResults());
  return eraseFragmentOperandsAndResults(fragment, erasedOperands, noResults,
                                         rewriter);
}

class FragmentDcePass : public impl::FragmentDcePassBase<FragmentDcePass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (Block *block : getBlocksWithFragments(getOperation())) {
      for (Operation &op :
           llvm::make_early_inc_range(llvm::reverse(*block))) {
        if (auto fragment = dyn_cast<FragmentOp>(op)) {
          simplifyFragment(fragment, rewriter);
        } else if (isa<TransferOp>(op) && isOpTriviallyDead(&op)) {
          rewriter.eraseOp(&op);
        }
      }
    }
  }
};

} // namespace
} // namespace mlir::mpmd
