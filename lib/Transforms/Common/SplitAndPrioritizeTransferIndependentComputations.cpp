//===- SplitAndPrioritizeTransferIndependentComputations.cpp --------------===//
//
// -mpmd-split-and-prioritize-transfer-independent-computations
//
// The second part is the forward slice, over the top-level ops of the body,
// of the block arguments fed by transfers (values used in nested regions
// count as operands of the op holding the region), plus every op with side
// effects from the first such op of the slice on. Built in one walk in block
// order: a value is always defined before its uses.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/Passes.h"
#include "mpmd/Transforms/Common/SplitFragment.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_SPLITANDPRIORITIZETRANSFERINDEPENDENTCOMPUTATIONSPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

/// Splits `fragment` if some but not all of its operands come from
/// transfers and the split leaves results on both sides.
void splitAtTransfers(FragmentOp fragment, RewriterBase &rewriter) {
  Block &body = fragment.getRegion().front();
  llvm::SmallPtrSet<Value, 8> dependent;
  unsigned fromTransfers = 0;
  unsigned numData = getNumDataOperands(fragment);
  for (auto [operand, arg] :
       llvm::zip(fragment->getOperands().take_front(numData),
                 body.getArguments()))
    if (operand.getDefiningOp<TransferOp>()) {
      dependent.insert(arg);
      ++fromTransfers;
    }
  if (fromTransfers == 0 || fromTransfers == numData)
    return;

  llvm::SmallPtrSet<Operation *, 32> independentOps;
  bool orderSideEffects = false;
  for (Operation &op : body.without_terminator()) {
    bool dependsOnTransfer = false;
    forEachUsedValue(&op, [&](Value value) {
      dependsOnTransfer |= dependent.contains(value);
    });
    bool hasSideEffects = !isMemoryEffectFree(&op);
    if (dependsOnTransfer || (hasSideEffects && orderSideEffects)) {
      orderSideEffects |= hasSideEffects;
      for (Value result : op.getResults())
        dependent.insert(result);
    } else {
      independentOps.insert(&op);
    }
  }

  llvm::BitVector firstResults(fragment->getNumResults());
  for (OpOperand &returned : body.getTerminator()->getOpOperands())
    if (!dependent.contains(returned.get()))
      firstResults.set(returned.getOperandNumber());
  if (firstResults.none() || firstResults.all())
    return;
  splitFragment(fragment, firstResults, independentOps, "fragment", rewriter);
}

class SplitAndPrioritizeTransferIndependentComputationsPass
    : public impl::SplitAndPrioritizeTransferIndependentComputationsPassBase<
          SplitAndPrioritizeTransferIndependentComputationsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    IRRewriter rewriter(&getContext());
    for (Block *block : getBlocksWithFragments(function)) {
      SmallVector<FragmentOp> fragments(block->getOps<FragmentOp>());
      for (FragmentOp fragment : fragments)
        if (!isSplitPart(fragment))
          splitAtTransfers(fragment, rewriter);
    }
  }
};

} // namespace
} // namespace mlir::mpmd
