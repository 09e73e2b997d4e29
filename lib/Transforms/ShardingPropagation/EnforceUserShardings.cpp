//===- EnforceUserShardings.cpp - -mpmd-enforce-user-shardings ------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_ENFORCEUSERSHARDINGSPASS
#include "mpmd/Transforms/ShardingPropagation/Passes.h.inc"

namespace {

constexpr StringLiteral kShardingAttrName = sdy::SdyDialect::kShardingAttrName;

/// `sharding` with every dimension cut before its first sub-axis and then
/// closed (fragments and transfers cannot take sub-axes from the user), or
/// `sharding` itself when it has none; `truncated` tells which.
sdy::TensorShardingAttr truncateAtSubAxes(sdy::TensorShardingAttr sharding,
                                          bool &truncated) {
  truncated = false;
  SmallVector<sdy::DimensionShardingAttr> dims;
  for (sdy::DimensionShardingAttr dim : sharding.getDimShardings()) {
    ArrayRef<sdy::AxisRefAttr> axes = dim.getAxes();
    auto subAxis = llvm::find_if(
        axes, [](sdy::AxisRefAttr axis) { return axis.getSubAxisInfo(); });
    if (subAxis == axes.end()) {
      dims.push_back(dim);
      continue;
    }
    truncated = true;
    dims.push_back(sdy::DimensionShardingAttr::get(
        sharding.getContext(), axes.take_front(subAxis - axes.begin()),
        /*isClosed=*/true, dim.getPriority()));
  }
  if (!truncated)
    return sharding;
  return sdy::TensorShardingAttr::get(
      sharding.getContext(), sharding.getMeshOrRef(), dims,
      sharding.getReplicatedAxes(), sharding.getUnreducedAxes());
}

/// Writes `sharding` as the in_shardings entry of `value` in every fragment
/// using it.
void setUserInShardings(Value value, sdy::TensorShardingAttr sharding) {
  MLIRContext *ctx = sharding.getContext();
  auto userSharding = sdy::TensorShardingPerValueAttr::get(ctx, {sharding});
  for (Operation *user : value.getUsers())
    if (auto fragment = dyn_cast<FragmentOp>(user))
      fragment.setInShardingsAttr(shardingsForValues(
          ctx, SmallVector<Value>(fragment->getOperands()),
          {{value, userSharding},
           {fragment->getOperands(), fragment.getInShardingsAttr()}}));
}

class EnforceUserShardingsPass
    : public impl::EnforceUserShardingsPassBase<EnforceUserShardingsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isEntryPointFunction(function) || !isMpmdFunction(function))
      return;
    // One warning per kind (inputs, outputs) when sub-axes were cut.
    auto userSharding = [&](sdy::TensorShardingAttr sharding, bool &warned,
                            StringRef kind) {
      bool truncated;
      sdy::TensorShardingAttr result = truncateAtSubAxes(sharding, truncated);
      if (truncated && !warned) {
        function.emitWarning()
            << "user shardings of " << kind
            << " with sub-axes are cut before the first sub-axis of each "
               "dimension, which is closed";
        warned = true;
      }
      return result;
    };
    bool warnedInputs = false, warnedOutputs = false;
    for (BlockArgument arg : function.getArguments())
      if (auto sharding = function.getArgAttrOfType<sdy::TensorShardingAttr>(
              arg.getArgNumber(), kShardingAttrName))
        setUserInShardings(arg, userSharding(sharding, warnedInputs, "inputs"));

    Operation *ret = function.getBody().front().getTerminator();
    for (OpOperand &output : ret->getOpOperands()) {
      auto sharding = function.getResultAttrOfType<sdy::TensorShardingAttr>(
          output.getOperandNumber(), kShardingAttrName);
      if (!sharding)
        continue;
      sharding = userSharding(sharding, warnedOutputs, "outputs");
      Value value = output.get();
      auto perValue =
          sdy::TensorShardingPerValueAttr::get(&getContext(), {sharding});
      if (auto fragment = value.getDefiningOp<FragmentOp>())
        fragment.setOutShardingsAttr(shardingsForValues(
            &getContext(), SmallVector<Value>(fragment->getResults()),
            {{value, perValue},
             {fragment->getResults(), fragment.getOutShardingsAttr()}}));
      else if (auto transfer = value.getDefiningOp<TransferOp>())
        transfer->setAttr(kShardingAttrName, perValue);
      else
        continue;
      // The value's other fragment users take it with that sharding too.
      setUserInShardings(value, sharding);
    }
  }
};

} // namespace
} // namespace mlir::mpmd
