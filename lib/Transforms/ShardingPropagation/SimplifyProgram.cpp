//===- SimplifyProgram.cpp - -mpmd-simplify-program -----------------------===//
//
// After propagation and the rewrites around it (reshards extracted, constants
// converted, trivial ops folded), fragments and loops can carry values they
// only pass through or return twice, and operands nothing reads: each costs
// a buffer and possibly a transfer at run time. This pass removes them before
// export numbers and outlines the fragments.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_SIMPLIFYPROGRAMPASS
#include "mpmd/Transforms/ShardingPropagation/Passes.h.inc"

namespace {

/// A loop result whose iteration returns its own carried value unchanged is
/// the loop's operand.
void forwardPassThroughLoopResults(ForOp loop, RewriterBase &rewriter) {
  Block &body = loop.getRegion().front();
  Operation *terminator = body.getTerminator();
  for (auto [index, result] : llvm::enumerate(loop->getResults())) {
    Value operand = loop->getOperand(index);
    if (terminator->getOperand(index) == body.getArgument(index) &&
        operand.getType() == result.getType())
      rewriter.replaceAllUsesWith(result, operand);
  }
}

class SimplifyProgramPass
    : public impl::SimplifyProgramPassBase<SimplifyProgramPass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet patterns(context);
    FragmentOp::getCanonicalizationPatterns(patterns, context);
    fragmentPatterns = std::move(patterns);
    return success();
  }

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    IRRewriter rewriter(&getContext());
    SmallVector<Block *> blocks = getBlocksWithFragments(function);
    // Inner loops first: their simplified results free outer values.
    for (Block *block : llvm::reverse(blocks)) {
      for (auto loop : block->getOps<ForOp>())
        forwardPassThroughLoopResults(loop, rewriter);
      SmallVector<Operation *> fragments;
      for (auto fragment : block->getOps<FragmentOp>())
        fragments.push_back(fragment);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingOps);
      (void)applyOpPatternsGreedily(fragments, fragmentPatterns, config);
      // Dedup forwards (collapsed results make consumer operands repeat),
      // then dead code backwards (removed uses free earlier results).
      // (The rewrite may have erased unused fragments.)
      for (auto fragment : llvm::make_early_inc_range(block->getOps<FragmentOp>()))
        dedupFragment(fragment, rewriter);
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block))) {
        if (auto fragment = dyn_cast<FragmentOp>(op))
          eraseDeadFragmentParts(fragment, rewriter);
        else if (isa<TransferOp>(op) && isOpTriviallyDead(&op))
          rewriter.eraseOp(&op);
      }
    }
  }

  FrozenRewritePatternSet fragmentPatterns;
};

} // namespace
} // namespace mlir::mpmd
