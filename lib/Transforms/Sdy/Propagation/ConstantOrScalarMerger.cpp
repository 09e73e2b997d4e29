//===- ConstantOrScalarMerger.cpp - -sdy-constant-or-scalar-merger --------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "llvm/ADT/DenseMap.h"

#include <tuple>


namespace mlir::sdy {
#define GEN_PASS_DEF_CONSTANTORSCALARMERGERPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

namespace hlo = ::mlir::stablehlo;

/// What makes two constants or scalar broadcasts interchangeable: op name,
/// attributes (value and sharding included), result type, the operand of a
/// broadcast, and the region they are in.
using MergeKey = std::tuple<OperationName, DictionaryAttr, Type, Value, Region *>;

bool isMergeable(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  if (isa<ConstantOp>(op) ||
      (op->getNumOperands() == 0 && op->hasTrait<OpTrait::ConstantLike>()))
    return true;
  if (auto broadcast = dyn_cast<hlo::BroadcastInDimOp>(op))
    return broadcast.getOperand().getType().getRank() == 0;
  return false;
}

class ConstantOrScalarMergerPass
    : public impl::ConstantOrScalarMergerPassBase<ConstantOrScalarMergerPass> {
  using ConstantOrScalarMergerPassBase::ConstantOrScalarMergerPassBase;

  void runOnOperation() override {
    llvm::DenseMap<MergeKey, Operation *> first;
    SmallVector<Operation *> merged;
    getOperation().walk([&](Operation *op) {
      if (!isMergeable(op))
        return;
      Value operand = op->getNumOperands() ? op->getOperand(0) : Value();
      MergeKey key{op->getName(), op->getAttrDictionary(),
                   op->getResult(0).getType(), operand, op->getParentRegion()};
      auto [it, inserted] = first.try_emplace(key, op);
      if (inserted)
        return;
      op->getResult(0).replaceAllUsesWith(it->second->getResult(0));
      merged.push_back(op);
    });
    for (Operation *op : merged)
      op->erase();
  }
};

} // namespace
} // namespace mlir::sdy
