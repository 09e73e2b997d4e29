//===- AbsorbInferredFragments.cpp - -mpmd-absorb-inferred-fragments ------===//
//
// A worklist of roots. Processing a root scans its fragment producers and
// consumers for an inferred fragment whose closest consumer (resp. producer)
// is the root, merges it in, and rescans the merged root; a root with nothing
// left to absorb leaves the worklist. Every merge removes one fragment, so
// the number of scans is bounded by roots + merges.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/MergeFragments.h"
#include "mpmd/Transforms/Common/Passes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_ABSORBINFERREDFRAGMENTSPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

bool isRoot(FragmentOp fragment) {
  return fragment.isUserFragment() || !getClosestFragmentConsumer(fragment) ||
         !hasFragmentProducer(fragment);
}

/// Absorbs one inferred neighbour into `root`; returns the merged fragment,
/// or null when there is nothing to absorb. `absorbed` is set to the (now
/// erased) neighbour.
FragmentOp absorbOne(FragmentOp root, RewriterBase &rewriter,
                     Operation *&absorbed) {
  Block *block = root->getBlock();
  llvm::SmallPtrSet<Operation *, 8> tried;
  // Producers whose closest consumer is the root.
  for (Value operand : root->getOperands()) {
    auto producer = operand.getDefiningOp<FragmentOp>();
    if (!producer || producer->getBlock() != block ||
        producer.isUserFragment() || !tried.insert(producer).second)
      continue;
    if (getClosestFragmentConsumer(producer) != root)
      continue;
    // The root accumulates merges: keep its body, splice the other one.
    absorbed = producer;
    FailureOr<FragmentOp> merged =
        tryMergeFragments(producer, root, rewriter,
                          /*allowMovingTransfers=*/true,
                          /*keepProducerBody=*/false);
    if (succeeded(merged))
      return *merged;
  }
  // Consumers whose closest producer is the root.
  // In block order, for a natural order of the merged bodies.
  for (FragmentOp consumer : getFragmentConsumers(root)) {
    if (consumer.isUserFragment() || !tried.insert(consumer).second)
      continue;
    if (getClosestFragmentProducer(consumer) != root)
      continue;
    absorbed = consumer;
    FailureOr<FragmentOp> merged =
        tryMergeFragments(root, consumer, rewriter,
                          /*allowMovingTransfers=*/true,
                          /*keepProducerBody=*/true);
    if (succeeded(merged))
      return *merged;
  }
  return nullptr;
}

void absorbInBlock(Block &block, RewriterBase &rewriter) {
  SmallVector<Operation *> worklist;
  llvm::DenseSet<Operation *> pending;
  for (FragmentOp fragment : block.getOps<FragmentOp>())
    if (isRoot(fragment) && pending.insert(fragment).second)
      worklist.push_back(fragment);
  // Program order.
  std::reverse(worklist.begin(), worklist.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!pending.erase(op))
      continue; // Erased by a merge, or already processed.
    auto root = cast<FragmentOp>(op);
    while (true) {
      Operation *absorbed = nullptr;
      FragmentOp merged = absorbOne(root, rewriter, absorbed);
      if (!merged)
        break;
      // The absorbed fragment is gone: forget it before its memory can be
      // reused by a new op. (The root itself already left `pending`.)
      pending.erase(absorbed);
      root = merged;
    }
  }
}

class AbsorbInferredFragmentsPass
    : public impl::AbsorbInferredFragmentsPassBase<
          AbsorbInferredFragmentsPass> {
  using AbsorbInferredFragmentsPassBase::AbsorbInferredFragmentsPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    if (isEntryPointFunction(function) && !absorbOnEntryPointFunction)
      return;
    IRRewriter rewriter(&getContext());
    for (Block *block : getBlocksWithFragments(function))
      absorbInBlock(*block, rewriter);
  }
};

} // namespace
} // namespace mlir::mpmd
