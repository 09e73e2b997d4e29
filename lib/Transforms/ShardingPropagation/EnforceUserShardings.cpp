//===- EnforceUserShardings.cpp - -mpmd-enforce-user-shardings ------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_ENFORCEUSERSHARDINGSPASS
#include "mpmd/Transforms/ShardingPropagation/Passes.h.inc"

namespace {

constexpr StringLiteral kShardingAttrName = sdy::SdyDialect::kShardingAttrName;

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
      auto userSharding =
          sdy::TensorShardingPerValueAttr::get(&getContext(), {sharding});
      for (Operation *user : arg.getUsers())
        if (auto fragment = dyn_cast<FragmentOp>(user))
          fragment.setInShardingsAttr(shardingsForValues(
              &getContext(), SmallVector<Value>(fragment->getOperands()),
              {{arg, userSharding},
               {fragment->getOperands(), fragment.getInShardingsAttr()}}));
    }
    Operation *ret = function.getBody().front().getTerminator();
    for (OpOperand &output : ret->getOpOperands()) {
      auto sharding = function.getResultAttrOfType<sdy::TensorShardingAttr>(
          output.getOperandNumber(), kShardingAttrName);
      if (!sharding)
        continue;
      Value value = output.get();
      auto userSharding =
          sdy::TensorShardingPerValueAttr::get(&getContext(), {sharding});
      if (auto fragment = value.getDefiningOp<FragmentOp>())
        fragment.setOutShardingsAttr(shardingsForValues(
            &getContext(), SmallVector<Value>(fragment->getResults()),
            {{value, userSharding},
             {fragment->getResults(), fragment.getOutShardingsAttr()}}));
      else if (auto transfer = value.getDefiningOp<TransferOp>())
        transfer->setAttr(kShardingAttrName, userSharding);
    }
  }
};

} // namespace
} // namespace mlir::mpmd
