//===- SimplifyNamedComputations.cpp - -mpmd-simplify-named-computations --===//

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_SIMPLIFYNAMEDCOMPUTATIONSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

/// `return barrier(arg)#i` → `return arg` where the barrier operand is a
/// block argument of `block`.
void bypassBarriersOfArguments(Block &block, Operation *terminator) {
  for (OpOperand &returned : terminator->getOpOperands()) {
    auto barrier =
        returned.get().getDefiningOp<stablehlo::OptimizationBarrierOp>();
    if (!barrier)
      continue;
    Value input =
        barrier->getOperand(cast<OpResult>(returned.get()).getResultNumber());
    if (auto arg = dyn_cast<BlockArgument>(input);
        arg && arg.getOwner() == &block)
      returned.set(arg);
  }
}

/// Removes the operand/result pairs of `barrier` whose result is unused or
/// whose operand repeats an earlier one (its uses move to that one's
/// result); erases the barrier when no pair is left.
void pruneBarrier(stablehlo::OptimizationBarrierOp barrier) {
  SmallVector<Value> keptOperands;
  SmallVector<OpResult> keptResults;
  llvm::DenseMap<Value, OpResult> resultOfOperand;
  for (auto [operand, result] :
       llvm::zip(barrier->getOperands(), barrier->getResults())) {
    if (result.use_empty())
      continue;
    auto [it, inserted] =
        resultOfOperand.try_emplace(operand, cast<OpResult>(result));
    if (!inserted) {
      result.replaceAllUsesWith(it->second);
      continue;
    }
    keptOperands.push_back(operand);
    keptResults.push_back(cast<OpResult>(result));
  }
  if (keptResults.size() == barrier->getNumResults())
    return;
  if (!keptResults.empty()) {
    OpBuilder builder(barrier);
    auto pruned = stablehlo::OptimizationBarrierOp::create(
        builder, barrier.getLoc(), TypeRange(ValueRange(keptOperands)),
        keptOperands);
    pruned->setDiscardableAttrs(barrier->getDiscardableAttrDictionary());
    for (auto [index, result] : llvm::enumerate(keptResults))
      result.replaceAllUsesWith(pruned->getResult(index));
  }
  barrier.erase();
}

void simplify(NamedComputationOp computation) {
  Block &block = computation.getRegion().front();
  Operation *terminator = block.getTerminator();
  bypassBarriersOfArguments(block, terminator);

  // Results: forward pass-through block arguments, merge duplicates.
  llvm::DenseMap<Value, OpResult> firstResultReturning;
  for (auto [result, returned] :
       llvm::zip(computation.getResults(), terminator->getOperands())) {
    if (auto arg = dyn_cast<BlockArgument>(returned);
        arg && arg.getOwner() == &block) {
      result.replaceAllUsesWith(computation.getOperand(arg.getArgNumber()));
      continue;
    }
    auto [it, inserted] = firstResultReturning.try_emplace(returned, result);
    if (!inserted)
      result.replaceAllUsesWith(it->second);
  }

  // Operands: merge duplicates.
  llvm::DenseMap<Value, BlockArgument> firstArgOf;
  for (auto [operand, arg] :
       llvm::zip(computation.getOperands(), block.getArguments())) {
    auto [it, inserted] = firstArgOf.try_emplace(operand, arg);
    if (!inserted)
      arg.replaceAllUsesWith(it->second);
  }

  // Drop unused results, unless a side-effecting op computes them: then the
  // computation keeps them and never ends up without results. One whose
  // results all go and whose body is pure goes with them.
  auto isDroppable = [](Value returned) {
    Operation *def = returned.getDefiningOp();
    return !def || isMemoryEffectFree(def);
  };
  SmallVector<Value> keptReturned;
  SmallVector<OpResult> keptResults;
  for (auto [result, returned] :
       llvm::zip(computation.getResults(), terminator->getOperands()))
    if (!result.use_empty() || !isDroppable(returned)) {
      keptReturned.push_back(returned);
      keptResults.push_back(cast<OpResult>(result));
    }
  if (keptResults.empty()) {
    if (isMemoryEffectFree(computation)) {
      computation.erase();
      return;
    }
    if (computation->getNumResults() != 0) {
      keptReturned.push_back(terminator->getOperand(0));
      keptResults.push_back(computation->getResult(0));
    }
  }
  if (keptResults.size() != computation.getNumResults()) {
    terminator->setOperands(keptReturned);
    OpBuilder builder(computation);
    auto simplified = NamedComputationOp::create(
        builder, computation.getLoc(), TypeRange(ValueRange(keptReturned)),
        computation.getOperands(), computation.getOriginAttr());
    simplified->setDiscardableAttrs(
        computation->getDiscardableAttrDictionary());
    simplified.getRegion().takeBody(computation.getRegion());
    for (auto [index, result] : llvm::enumerate(keptResults))
      result.replaceAllUsesWith(simplified->getResult(index));
    computation.erase();
    computation = simplified;
  }

  // Dead ops of the body, users before producers, and the barrier values
  // nothing uses any more or that repeat an operand.
  SmallVector<Operation *> bodyOps;
  for (Operation &op : block.without_terminator())
    bodyOps.push_back(&op);
  for (Operation *op : llvm::reverse(bodyOps)) {
    if (auto barrier = dyn_cast<stablehlo::OptimizationBarrierOp>(op))
      pruneBarrier(barrier);
    else if (isOpTriviallyDead(op))
      op->erase();
  }

  // Drop operands whose block argument is unused (duplicates included).
  llvm::BitVector unused(block.getNumArguments());
  for (BlockArgument arg : block.getArguments())
    if (arg.use_empty())
      unused.set(arg.getArgNumber());
  if (unused.any()) {
    computation->eraseOperands(unused);
    block.eraseArguments(unused);
  }
}

class SimplifyNamedComputationsPass
    : public impl::SimplifyNamedComputationsPassBase<
          SimplifyNamedComputationsPass> {
  void runOnOperation() override {
    SmallVector<NamedComputationOp> computations;
    getOperation().walk(
        [&](NamedComputationOp op) { computations.push_back(op); });
    // Post-order: inner computations first, so that an outer one sees their
    // simplified results.
    for (NamedComputationOp computation : computations)
      simplify(computation);
  }
};

} // namespace
} // namespace mlir::mpmd
