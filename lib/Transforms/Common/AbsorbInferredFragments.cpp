//===- AbsorbInferredFragments.cpp - -mpmd-absorb-inferred-fragments ------===//
//
// A worklist of roots. Processing a root looks at each inferred producer
// (consumer): transfers around it are first moved where they are needed,
// then it is merged in when the root is its first user (the last producer
// of its operands), and the merged root is looked at again; a root with
// nothing left to absorb leaves the worklist. Every merge removes one
// fragment, so the number of looks is bounded by roots + merges.
//
// The merged fragment always takes the root's place and the root's
// attributes: a root is a stable anchor, and the absorbed inferred fragment
// only brings its computation.
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

/// The first op of `op`'s block (in block order) using one of its results,
/// or null.
Operation *getFirstUserInBlock(Operation *op) {
  Operation *first = nullptr;
  for (Operation *user : op->getUsers()) {
    Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
    if (ancestor && (!first || ancestor->isBeforeInBlock(first)))
      first = ancestor;
  }
  return first;
}

/// Moves each transfer of a result of `producer` to right before its first
/// user, and erases those nobody uses: a transfer then never stands between
/// the producer and the producer's real first user.
void moveTransfersOfResultsToUsers(FragmentOp producer,
                                   RewriterBase &rewriter) {
  SmallVector<TransferOp> transfers;
  for (Operation *user : producer->getUsers())
    if (auto transfer = dyn_cast<TransferOp>(user);
        transfer && transfer->getBlock() == producer->getBlock())
      transfers.push_back(transfer);
  for (TransferOp transfer : transfers) {
    if (transfer->use_empty()) {
      rewriter.eraseOp(transfer);
      continue;
    }
    rewriter.moveOpBefore(transfer, getFirstUserInBlock(transfer));
  }
}

/// Moves each transfer feeding `consumer` to right after the op defining its
/// operand (the block start for a value from outside the block), so that only real
/// producers decide where the consumer can go.
void moveTransfersOfOperandsToProducers(FragmentOp consumer,
                                        RewriterBase &rewriter) {
  Block *block = consumer->getBlock();
  for (Value operand : consumer->getOperands()) {
    auto transfer = operand.getDefiningOp<TransferOp>();
    if (!transfer || transfer->getBlock() != block)
      continue;
    Value source = transfer.getTensor();
    if (Operation *def = source.getDefiningOp();
        def && def->getBlock() == block)
      rewriter.moveOpAfter(transfer, def);
    else
      rewriter.moveOpBefore(transfer, block, block->begin());
  }
}

/// The op of `fragment`'s block defining its operand that comes last, or null
/// when every operand is a block argument or defined outside the block.
Operation *getLastDefiningOpInBlock(FragmentOp fragment) {
  Operation *last = nullptr;
  for (Value operand : fragment->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!def || def->getBlock() != fragment->getBlock())
      continue;
    if (!last || last->isBeforeInBlock(def))
      last = def;
  }
  return last;
}

/// Merges the inferred fragment `absorbed` into `root` (`absorbedFirst`: it
/// is a producer of the root, else a consumer), at the root's place and with
/// the root's stage and attributes; `mpmd.inferred_by` becomes the root's
/// names then the absorbed ones', or is dropped when the root is a user
/// fragment.
FragmentOp absorb(FragmentOp root, FragmentOp absorbed, bool absorbedFirst,
                  RewriterBase &rewriter) {
  SmallVector<StringRef> inferredBy = getInferredBy(root);
  for (StringRef name : getInferredBy(absorbed))
    if (!llvm::is_contained(inferredBy, name))
      inferredBy.push_back(name);
  bool rootIsUser = root.isUserFragment();
  FragmentSummary summary(root);
  SmallVector<FragmentOp, 2> sequence =
      absorbedFirst ? SmallVector<FragmentOp, 2>{absorbed, root}
                    : SmallVector<FragmentOp, 2>{root, absorbed};
  // The root accumulates merges: keep its body, splice the other one.
  FragmentOp merged = mergeFragmentSequence(
      sequence, summary, root, absorbedFirst ? 1 : 0, rewriter,
      getTrivialProducerMerge(sequence[0], sequence[1]));
  merged->removeAttr(kInferredByAttrName);
  if (!rootIsUser)
    for (StringRef name : inferredBy)
      addInferredBy(merged, name);
  return merged;
}

/// One sweep over the current neighbours of `root`: each inferred producer
/// whose first user is the root, then each inferred consumer (in block
/// order) whose last-defined operand comes from the root, is merged in.
/// Candidates are snapshotted once per sweep and only erased when merged,
/// so a sweep costs O(neighbours · uses + merges). Returns the (possibly
/// new) root; absorbed fragments leave `pending`.
FragmentOp absorbSweep(FragmentOp root, RewriterBase &rewriter,
                       llvm::DenseSet<Operation *> &pending, bool &merged) {
  Block *block = root->getBlock();
  // Only a token connects fragments of different meshes; those never merge.
  auto onRootMesh = [&](FragmentOp fragment) {
    return fragment.getMeshName() == root.getMeshName();
  };
  llvm::SetVector<FragmentOp> producers;
  for (Value operand : root->getOperands())
    if (auto producer = operand.getDefiningOp<FragmentOp>();
        producer && producer->getBlock() == block &&
        !producer.isUserFragment() && onRootMesh(producer))
      producers.insert(producer);
  for (FragmentOp producer : producers) {
    moveTransfersOfResultsToUsers(producer, rewriter);
    if (getFirstUserInBlock(producer) != root.getOperation())
      continue;
    pending.erase(producer);
    root = absorb(root, producer, /*absorbedFirst=*/true, rewriter);
    merged = true;
  }
  // In block order, for a natural order of the merged bodies.
  for (FragmentOp consumer : getFragmentConsumers(root)) {
    if (consumer.isUserFragment() || !onRootMesh(consumer))
      continue;
    moveTransfersOfOperandsToProducers(consumer, rewriter);
    if (getLastDefiningOpInBlock(consumer) != root.getOperation())
      continue;
    pending.erase(consumer);
    root = absorb(root, consumer, /*absorbedFirst=*/false, rewriter);
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
