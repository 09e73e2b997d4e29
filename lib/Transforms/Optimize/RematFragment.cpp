//===- RematFragment.cpp - -mpmd-remat-fragment ---------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/MergeFragments.h"
#include "mpmd/Transforms/Optimize/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_REMATFRAGMENTPASS
#include "mpmd/Transforms/Optimize/Passes.h.inc"

namespace {

/// The fragments of a block as the pass found them: their positions and the
/// next fragment on the same mesh of each, from one sweep. Clones inserted
/// later are in neither map (and never need to be: they are only used by the
/// backward fragment they are made for).
struct BlockOrder {
  explicit BlockOrder(Block &block) {
    llvm::DenseMap<StringAttr, Operation *> previousOnMesh;
    for (auto fragment : block.getOps<FragmentOp>()) {
      position[fragment] = position.size();
      Operation *&previous = previousOnMesh[fragment.getMeshNameAttr()];
      if (previous)
        nextOnMesh[previous] = fragment;
      previous = fragment;
    }
  }

  llvm::DenseMap<Operation *, unsigned> position;
  llvm::DenseMap<Operation *, Operation *> nextOnMesh;
};

/// The forward fragments `backward` uses that are to be rematerialized for
/// it, in block order.
SmallVector<FragmentOp> getFragmentsToRemat(FragmentOp backward,
                                            const BlockOrder &order) {
  llvm::SetVector<Operation *> producers;
  for (Value operand : backward->getOperands()) {
    auto forward = operand.getDefiningOp<FragmentOp>();
    if (!forward || forward->getBlock() != backward->getBlock() ||
        getSingleTransposeCount(forward) != 0)
      continue;
    // Right after the forward fragment, its results are still alive:
    // recomputing would only add work.
    if (order.nextOnMesh.lookup(forward) == backward.getOperation())
      continue;
    if (getCallCounter(forward) != getCallCounter(backward) ||
        forward.getStageIdAttr() != backward.getStageIdAttr())
      continue;
    producers.insert(forward);
  }
  SmallVector<FragmentOp> ordered;
  for (Operation *producer : producers)
    ordered.push_back(cast<FragmentOp>(producer));
  llvm::sort(ordered, [&](FragmentOp lhs, FragmentOp rhs) {
    return order.position.at(lhs) < order.position.at(rhs);
  });
  return ordered;
}

class RematFragmentPass
    : public impl::RematFragmentPassBase<RematFragmentPass> {
  using RematFragmentPassBase::RematFragmentPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    IRRewriter rewriter(&getContext());
    for (Block *block : getBlocksWithFragments(function)) {
      // "Next on the mesh" refers to the schedule as given, before clones
      // are inserted.
      BlockOrder order(*block);
      SmallVector<FragmentOp> backwards;
      for (auto fragment : block->getOps<FragmentOp>())
        if (getSingleTransposeCount(fragment) == 1)
          backwards.push_back(fragment);
      for (FragmentOp backward : backwards)
        rematFor(backward, getFragmentsToRemat(backward, order), rewriter);
    }
  }

  /// Clones each of `forwards` right before `backward` for it, and merges
  /// the clones into it if asked to.
  void rematFor(FragmentOp backward, ArrayRef<FragmentOp> forwards,
                RewriterBase &rewriter) {
    if (forwards.empty())
      return;
    SmallVector<FragmentOp> sequence;
    rewriter.setInsertionPoint(backward);
    for (FragmentOp forward : forwards) {
      auto clone = cast<FragmentOp>(rewriter.clone(*forward));
      clone->setAttr(kRematAttrName, rewriter.getUnitAttr());
      for (auto [result, cloneResult] :
           llvm::zip(forward->getResults(), clone->getResults()))
        rewriter.replaceUsesWithIf(result, cloneResult, [&](OpOperand &use) {
          return use.getOwner() == backward.getOperation();
        });
      sequence.push_back(clone);
    }
    if (!mergeRematFragments)
      return;
    sequence.push_back(backward);
    FragmentSummary summary(sequence.front());
    for (FragmentOp fragment : ArrayRef(sequence).drop_front())
      summary = FragmentSummary::merge(summary, FragmentSummary(fragment));
    // Each clone, last first, merges into the backward fragment.
    mergeFragmentSequence(
        sequence, summary, backward, /*keptBodyIndex=*/sequence.size() - 1,
        rewriter,
        getTrivialProducerMerges(sequence, MergeFold::kEachIntoLaterOnes));
  }
};

} // namespace
} // namespace mlir::mpmd
