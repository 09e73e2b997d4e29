//===- EnforceUserShardings.cpp - -mpmd-enforce-user-shardings ------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_ENFORCEUSERSHARDINGSPASS
#include "mpmd/Transforms/ShardingPropagation/Passes.h.inc"

namespace {

constexpr StringLiteral kShardingAttrName = "sdy.sharding";

int64_t getRank(Type type) {
  if (auto meshTensor = dyn_cast<MeshTensorType>(type))
    return meshTensor.getRankedTensorType().getRank();
  return 0;
}

/// `shardings` with entry `index` set to `sharding`; a missing list becomes
/// fully open entries on `sharding`'s mesh for `types`.
sdy::TensorShardingPerValueAttr
withSharding(sdy::TensorShardingPerValueAttr shardings, TypeRange types,
             unsigned index, sdy::TensorShardingAttr sharding) {
  MLIRContext *ctx = sharding.getContext();
  SmallVector<sdy::TensorShardingAttr> entries;
  if (shardings && shardings.getShardings().size() == types.size())
    llvm::append_range(entries, shardings.getShardings());
  else
    for (Type type : types)
      entries.push_back(sdy::TensorShardingAttr::getFullyOpen(
          ctx, sharding.getMeshOrRef(), getRank(type)));
  entries[index] = sharding;
  return sdy::TensorShardingPerValueAttr::get(ctx, entries);
}

class EnforceUserShardingsPass
    : public impl::EnforceUserShardingsPassBase<EnforceUserShardingsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isEntryPointFunction(function) || !isMpmdFunction(function))
      return;
    for (BlockArgument arg : function.getArguments()) {
      auto sharding = function.getArgAttrOfType<sdy::TensorShardingAttr>(
          arg.getArgNumber(), kShardingAttrName);
      if (!sharding)
        continue;
      for (OpOperand &use : arg.getUses())
        if (auto fragment = dyn_cast<FragmentOp>(use.getOwner()))
          fragment.setInShardingsAttr(
              withSharding(fragment.getInShardingsAttr(),
                           fragment->getOperandTypes(),
                           use.getOperandNumber(), sharding));
    }
    Operation *ret = function.getBody().front().getTerminator();
    for (OpOperand &output : ret->getOpOperands()) {
      auto sharding = function.getResultAttrOfType<sdy::TensorShardingAttr>(
          output.getOperandNumber(), kShardingAttrName);
      if (!sharding)
        continue;
      Value value = output.get();
      if (auto fragment = value.getDefiningOp<FragmentOp>())
        fragment.setOutShardingsAttr(withSharding(
            fragment.getOutShardingsAttr(), fragment->getResultTypes(),
            cast<OpResult>(value).getResultNumber(), sharding));
      else if (auto transfer = value.getDefiningOp<TransferOp>())
        transfer->setAttr(kShardingAttrName,
                          sdy::TensorShardingPerValueAttr::get(
                              &getContext(), {sharding}));
    }
  }
};

} // namespace
} // namespace mlir::mpmd
