//===- SinkCreateTokenIntoFragments.cpp - -mpmd-sink-create-token-into-fragments ===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
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
    llvm::SetVector<Operation *> sunk;
    for (FragmentOp fragment : fragments) {
      Block &body = fragment.getRegion().front();
      llvm::BitVector erasedOperands(fragment->getNumOperands());
      // One token per fragment and create_token, even if passed twice.
      llvm::DenseMap<Operation *, Value> clones;
      for (OpOperand &operand : fragment->getOpOperands()) {
        auto createToken =
            operand.get().getDefiningOp<stablehlo::CreateTokenOp>();
        if (!createToken)
          continue;
        Value &clone = clones[createToken];
        if (!clone) {
          rewriter.setInsertionPointToStart(&body);
          clone = rewriter.clone(*createToken)->getResult(0);
        }
        rewriter.replaceAllUsesWith(
            body.getArgument(operand.getOperandNumber()), clone);
        erasedOperands.set(operand.getOperandNumber());
        sunk.insert(createToken);
      }
      eraseFragmentOperandsAndResults(fragment, erasedOperands,
                                      llvm::BitVector(fragment->getNumResults()),
                                      rewriter);
    }
    for (Operation *createToken : sunk)
      if (createToken->use_empty())
        rewriter.eraseOp(createToken);
  }
};

} // namespace
} // namespace mlir::mpmd
