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
#include "llvm/ADT/SetVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_ABSORBINFERREDFRAGMENTSPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

bool isRoot(FragmentOp fragment) {
  return fragment.isUserFragment() || !getClosestFragmentConsumer(fragment) ||
         !hasFragmentProducer(fragment);
}

/// One sweep over the current neighbours of `root`: each inferred producer
/// whose closest consumer is the root, then each inferred consumer (in block
/// order) whose closest producer is the root, is merged in. Candidates are
/// snapshotted once per sweep and only erased when merged, so a sweep costs
/// O(neighbours · log + merges). Returns the (possibly new) root; absorbed
/// fragments leave `pending`.
FragmentOp absorbSweep(FragmentOp root, RewriterBase &rewriter,
                       llvm::DenseSet<Operation *> &pending, bool &merged) {
  Block *block = root->getBlock();
  llvm::SetVector<FragmentOp> producers;
  for (Value operand : root->getOperands())
    if (auto producer = operand.getDefiningOp<FragmentOp>();
        producer && producer->getBlock() == block && !producer.isUserFragment())
      producers.insert(producer);
  for (FragmentOp producer : producers) {
    if (getClosestFragmentConsumer(producer) != root)
      continue;
    // The root accumulates merges: keep its body, splice the other one.
    FailureOr<FragmentOp> result =
        tryMergeFragments(producer, root, rewriter,
                          /*allowMovingTransfers=*/true,
                          /*keepProducerBody=*/false);
    if (failed(result))
      continue;
    pending.erase(producer);
    root = *result;
    merged = true;
  }
  // In block order, for a natural order of the merged bodies.
  for (FragmentOp consumer : getFragmentConsumers(root)) {
    if (consumer.isUserFragment() ||
        getClosestFragmentProducer(consumer) != root)
      continue;
    FailureOr<FragmentOp> result =
        tryMergeFragments(root, consumer, rewriter,
                          /*allowMovingTransfers=*/true,
                          /*keepProducerBody=*/true);
    if (failed(result))
      continue;
    pending.erase(consumer);
    root = *result;
    merged = true;
  }
  return root;
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
    // Skip roots absorbed meanwhile (pointers of erased ops stay out of
    // `pending`, so a reused address is never mistaken for a root).
    if (!pending.erase(op))
      continue;
    auto root = cast<FragmentOp>(op);
    // Sweep again while merges bring new neighbours (fixed point).
    for (bool merged = true; merged;) {
      merged = false;
      root = absorbSweep(root, rewriter, pending, merged);
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
