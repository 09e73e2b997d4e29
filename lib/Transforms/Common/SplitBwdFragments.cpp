//===- SplitBwdFragments.cpp - -mpmd-split-bwd-fragments ------------------===//
//
// The keep part is the backward slice, over the top-level ops of the body, of
// the transferred results and of the ops with side effects (values used in
// nested regions count as operands of the op holding the region). The other
// top-level ops form the drop part, in their order (SplitFragment.h).
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
#define GEN_PASS_DEF_SPLITBWDFRAGMENTSPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

bool isTransferred(OpResult result) {
  return llvm::any_of(result.getUsers(),
                      [](Operation *user) { return isa<TransferOp>(user); });
}

/// The ops of the keep part: the backward slice of `roots` (values returned
/// by the body) and of the ops with side effects, over the top-level ops of
/// `body`.
llvm::SmallPtrSet<Operation *, 32> getKeepOps(Block &body,
                                              ArrayRef<Value> roots) {
  llvm::SmallPtrSet<Operation *, 32> keep;
  SmallVector<Operation *> worklist;
  auto addDefiningOp = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return;
    Operation *topLevel = body.findAncestorOpInBlock(*def);
    if (topLevel && keep.insert(topLevel).second)
      worklist.push_back(topLevel);
  };
  for (Value root : roots)
    addDefiningOp(root);
  for (Operation &op : body.without_terminator())
    if (!isMemoryEffectFree(&op) && keep.insert(&op).second)
      worklist.push_back(&op);
  while (!worklist.empty())
    forEachUsedValue(worklist.pop_back_val(), addDefiningOp);
  return keep;
}

class SplitBwdFragmentsPass
    : public impl::SplitBwdFragmentsPassBase<SplitBwdFragmentsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    IRRewriter rewriter(&getContext());
    for (Block *block : getBlocksWithFragments(function)) {
      SmallVector<FragmentOp> fragments(block->getOps<FragmentOp>());
      for (FragmentOp fragment : fragments) {
        if (getSingleTransposeCount(fragment) != 1 || isSplitPart(fragment))
          continue;
        llvm::BitVector transferred(fragment->getNumResults());
        for (OpResult result : fragment->getResults())
          if (isTransferred(result))
            transferred.set(result.getResultNumber());
        if (transferred.none() || transferred.all())
          continue;
        Block &body = fragment.getRegion().front();
        SmallVector<Value> transferredValues;
        for (unsigned i : transferred.set_bits())
          transferredValues.push_back(body.getTerminator()->getOperand(i));
        splitFragment(fragment, transferred,
                      getKeepOps(body, transferredValues), "backward fragment",
                      rewriter);
      }
    }
  }
};

} // namespace
} // namespace mlir::mpmd
