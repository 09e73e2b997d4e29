//===- Scheduling.cpp - Reordering fragments: sorts, control deps ---------===//

#include "mpmd/Transforms/Optimize/Scheduling.h"

#include "mpmd/Transforms/Common/FragmentUtils.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>
#include <limits>
#include <queue>
#include <set>

using namespace mlir;
using namespace mlir::mpmd;

namespace {

/// Where an op sits in the sequences given to the sort.
struct SequencePosition {
  unsigned sequence;
  unsigned group;
};

} // namespace

BlockSortResult
mlir::mpmd::sortBlockTopologically(Block &block,
                                   ArrayRef<GroupSequence> sequences) {
  BlockSortResult result;
  Operation *terminator =
      !block.empty() && block.back().hasTrait<OpTrait::IsTerminator>()
          ? &block.back()
          : nullptr;
  SmallVector<Operation *> ops;
  llvm::DenseMap<Operation *, unsigned> indexOf;
  for (Operation &op : block) {
    if (&op == terminator)
      continue;
    indexOf[&op] = ops.size();
    ops.push_back(&op);
  }
  unsigned n = ops.size();

  // Data dependencies, each producer counted once per consumer.
  std::vector<unsigned> pendingProducers(n, 0);
  std::vector<SmallVector<unsigned, 2>> consumers(n);
  std::vector<unsigned> lastConsumerSeen(n, std::numeric_limits<unsigned>::max());
  for (unsigned i = 0; i < n; ++i) {
    auto addOperand = [&](Value value) {
      Operation *def = value.getDefiningOp();
      if (!def)
        return;
      Operation *producer = block.findAncestorOpInBlock(*def);
      auto it = producer ? indexOf.find(producer) : indexOf.end();
      if (it == indexOf.end() || it->second == i ||
          lastConsumerSeen[it->second] == i)
        return;
      lastConsumerSeen[it->second] = i;
      consumers[it->second].push_back(i);
      ++pendingProducers[i];
    };
    for (Value operand : ops[i]->getOperands())
      addOperand(operand);
    // Ops nested in an isolated op only use values defined inside it.
    if (!ops[i]->hasTrait<OpTrait::IsIsolatedFromAbove>())
      ops[i]->walk([&](Operation *nested) {
        if (nested != ops[i])
          for (Value operand : nested->getOperands())
            addOperand(operand);
      });
  }

  // Sequence gates: an op is held while an earlier group of its sequence
  // has ops left.
  llvm::DenseMap<Operation *, SequencePosition> positionOf;
  std::vector<SmallVector<unsigned>> remainingInGroup(sequences.size());
  std::vector<unsigned> currentGroup(sequences.size(), 0);
  std::vector<bool> held(n, false);
  for (auto [s, sequence] : llvm::enumerate(sequences)) {
    for (auto [g, group] : llvm::enumerate(sequence)) {
      remainingInGroup[s].push_back(group.size());
      for (Operation *op : group) {
        assert(indexOf.count(op) && !positionOf.count(op) &&
               "sequence ops must be distinct non-terminator ops of the block");
        positionOf[op] = {static_cast<unsigned>(s), static_cast<unsigned>(g)};
        held[indexOf[op]] = g != 0;
      }
    }
  }

  // The order of repeated in-order sweeps that each schedule every op found
  // ready when visited: an op runs in the sweep after the latest one that
  // unblocked it, or in the same sweep if it comes after it in the original
  // order. Ready ops go by (sweep, original index).
  std::vector<unsigned> sweep(n, 0);
  auto unblockedBy = [&](unsigned i, unsigned trigger) {
    sweep[i] = std::max(sweep[i], sweep[trigger] + (i < trigger ? 1 : 0));
  };
  using SweepAndIndex = std::pair<unsigned, unsigned>;
  std::priority_queue<SweepAndIndex, std::vector<SweepAndIndex>,
                      std::greater<SweepAndIndex>>
      ready;
  // Ops whose producers have all run but that their sequence holds back.
  std::set<unsigned> heldReady;
  auto becomeDataReady = [&](unsigned i) {
    if (held[i])
      heldReady.insert(i);
    else
      ready.push({sweep[i], i});
  };
  auto release = [&](unsigned i) {
    held[i] = false;
    if (heldReady.erase(i))
      ready.push({sweep[i], i});
  };
  // Opens the groups after finished ones.
  // `trigger` (if any) is the op whose end finished a group.
  auto advance = [&](unsigned s, std::optional<unsigned> trigger) {
    unsigned &g = currentGroup[s];
    bool opened = false;
    while (g < remainingInGroup[s].size() && remainingInGroup[s][g] == 0) {
      ++g;
      opened = true;
    }
    if (opened && g < remainingInGroup[s].size())
      for (Operation *op : sequences[s][g]) {
        if (trigger)
          unblockedBy(indexOf[op], *trigger);
        release(indexOf[op]);
      }
  };
  for (unsigned s = 0; s < sequences.size(); ++s) {
    if (!remainingInGroup[s].empty() && remainingInGroup[s][0] == 0)
      advance(s, std::nullopt);
  }
  for (unsigned i = 0; i < n; ++i)
    if (pendingProducers[i] == 0)
      becomeDataReady(i);

  std::vector<bool> scheduled(n, false);
  unsigned numScheduled = 0;
  unsigned currentSweep = 0;
  auto moveToEnd = [&](Operation *op) {
    if (terminator)
      op->moveBefore(terminator);
    else
      op->moveBefore(&block, block.end());
  };
  while (numScheduled < n) {
    if (ready.empty()) {
      if (heldReady.empty())
        break; // A cycle.
      unsigned first = *heldReady.begin();
      result.sequenceConflicts.push_back(ops[first]);
      sweep[first] = currentSweep + 1;
      release(first);
    }
    auto [currentSweepOfOp, i] = ready.top();
    currentSweep = currentSweepOfOp;
    ready.pop();
    scheduled[i] = true;
    ++numScheduled;
    moveToEnd(ops[i]);
    for (unsigned consumer : consumers[i]) {
      unblockedBy(consumer, i);
      if (--pendingProducers[consumer] == 0)
        becomeDataReady(consumer);
    }
    if (auto it = positionOf.find(ops[i]); it != positionOf.end()) {
      auto [s, g] = it->second;
      --remainingInGroup[s][g];
      advance(s, i);
    }
  }
  if (numScheduled < n) {
    result.complete = false;
    for (unsigned i = 0; i < n; ++i)
      if (!scheduled[i])
        moveToEnd(ops[i]);
  }
  return result;
}

bool mlir::mpmd::addControlDependency(FragmentOp from, FragmentOp to) {
  if (from->getNumResults() == 0)
    return false;
  if (llvm::any_of(to->getOperands(), [&](Value operand) {
        return operand.getDefiningOp() == from.getOperation();
      }))
    return false;
  Value dependency = from->getResult(0);
  // The type the body of `to` sees: what `from` returns for that result.
  Type bodyType = from.getRegion().front().getTerminator()->getOperand(0).getType();
  if (!to->hasAttr(kControlOperandStartIdxAttrName))
    to->setAttr(kControlOperandStartIdxAttrName,
                Builder(to->getContext())
                    .getI64IntegerAttr(getNumDataOperands(to)));
  appendFragmentOperand(to, dependency, bodyType);
  return true;
}

void mlir::mpmd::removeControlDependencies(func::FuncOp function) {
  SmallVector<FragmentOp> withControl;
  function.walk([&](FragmentOp fragment) {
    if (fragment->hasAttr(kControlOperandStartIdxAttrName))
      withControl.push_back(fragment);
    return WalkResult::skip();
  });
  IRRewriter rewriter(function.getContext());
  for (FragmentOp fragment : withControl) {
    llvm::BitVector erasedOperands(fragment->getNumOperands());
    erasedOperands.set(getNumDataOperands(fragment), fragment->getNumOperands());
    FragmentOp kept = eraseFragmentOperandsAndResults(
        fragment, erasedOperands, llvm::BitVector(fragment->getNumResults()),
        rewriter);
    kept->removeAttr(kControlOperandStartIdxAttrName);
  }
}

SmallVector<Operation *> mlir::mpmd::findDependencyPath(Operation *source,
                                                        Operation *target) {
  Block *block = source->getBlock();
  assert(target->getBlock() == block && "expected ops of one block");
  llvm::DenseMap<Operation *, Operation *> reachedFrom{{source, nullptr}};
  SmallVector<Operation *> stack{source};
  while (!stack.empty()) {
    Operation *op = stack.pop_back_val();
    if (op == target) {
      SmallVector<Operation *> path;
      for (Operation *step = target; step; step = reachedFrom.lookup(step))
        path.push_back(step);
      std::reverse(path.begin(), path.end());
      return path;
    }
    for (Operation *user : op->getUsers()) {
      Operation *consumer = block->findAncestorOpInBlock(*user);
      if (consumer && reachedFrom.try_emplace(consumer, op).second)
        stack.push_back(consumer);
    }
  }
  return {};
}
