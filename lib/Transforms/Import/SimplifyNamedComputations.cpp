//===- SimplifyNamedComputations.cpp - -mpmd-simplify-named-computations --===//

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Import/Passes.h"

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

  // Drop unused results: rebuild the op if there are any.
  SmallVector<Value> keptReturned;
  SmallVector<OpResult> keptResults;
  for (auto [result, returned] :
       llvm::zip(computation.getResults(), terminator->getOperands()))
    if (!result.use_empty()) {
      keptReturned.push_back(returned);
      keptResults.push_back(cast<OpResult>(result));
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
