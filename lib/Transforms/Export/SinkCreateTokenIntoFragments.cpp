//===- SinkCreateTokenIntoFragments.cpp - -mpmd-sink-create-token-into-fragments ===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_SINKCREATETOKENINTOFRAGMENTSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

class SinkCreateTokenIntoFragmentsPass
    : public impl::SinkCreateTokenIntoFragmentsPassBase<
          SinkCreateTokenIntoFragmentsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<FragmentOp> fragments;
    getOperation().walk([&](FragmentOp fragment) {
      fragments.push_back(fragment);
    });
    // Every token operand, whatever produced it, becomes a fresh token made
    // at the start of the body, in operand order.
    llvm::SetVector<Operation *> producers;
    for (FragmentOp &fragment : fragments) {
      Block &body = fragment.getRegion().front();
      llvm::BitVector erasedOperands(fragment->getNumOperands());
      rewriter.setInsertionPointToStart(&body);
      for (OpOperand &operand : fragment->getOpOperands()) {
        if (!isa<stablehlo::TokenType>(operand.get().getType()))
          continue;
        Value token =
            stablehlo::CreateTokenOp::create(rewriter, fragment.getLoc());
        rewriter.replaceAllUsesWith(
            body.getArgument(operand.getOperandNumber()), token);
        erasedOperands.set(operand.getOperandNumber());
        if (auto createToken =
                operand.get().getDefiningOp<stablehlo::CreateTokenOp>())
          producers.insert(createToken);
      }
      fragment = eraseFragmentOperandsAndResults(
          fragment, erasedOperands, llvm::BitVector(fragment->getNumResults()),
          rewriter);
    }
    // Then no token crosses a fragment boundary: token results that nothing
    // uses any more go (one returned by the function stays).
    for (FragmentOp fragment : fragments) {
      llvm::BitVector erasedResults(fragment->getNumResults());
      for (OpResult result : fragment->getResults())
        if (isa<stablehlo::TokenType>(result.getType()) && result.use_empty())
          erasedResults.set(result.getResultNumber());
      if (erasedResults.none())
        continue;
      eraseFragmentOperandsAndResults(
          fragment, llvm::BitVector(fragment->getNumOperands()), erasedResults,
          rewriter);
    }
    for (Operation *createToken : producers)
      if (createToken->use_empty())
        rewriter.eraseOp(createToken);
  }
};

} // namespace
} // namespace mlir::mpmd
