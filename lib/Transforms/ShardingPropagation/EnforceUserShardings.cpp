//===- EnforceUserShardings.cpp - -mpmd-enforce-user-shardings ------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

#include "llvm/ADT/MapVector.h"

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
      sharding.getReplicatedAxes(), sharding.getUnreducedAxes(),
      sharding.getUnreducedKind());
}

int64_t getRank(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasRank() ? shaped.getRank() : 0;
}

/// The shardings to write on the fragments next to @main's boundary,
/// gathered first and written once per fragment: a fragment reading n
/// inputs then costs O(n), not O(n^2).
class FragmentShardingUpdates {
public:
  /// Every fragment reading `value` takes it with `sharding`.
  void setUsers(Value value, sdy::TensorShardingAttr sharding) {
    for (OpOperand &use : value.getUses())
      if (auto fragment = dyn_cast<FragmentOp>(use.getOwner()))
        in[fragment].emplace_back(use.getOperandNumber(), sharding);
  }

  void setResult(FragmentOp fragment, unsigned index,
                 sdy::TensorShardingAttr sharding) {
    out[fragment].emplace_back(index, sharding);
  }

  /// Writes the updates, later ones over earlier ones; entries a fragment
  /// had no sharding for are fully open.
  void apply() {
    for (auto &[fragment, updates] : in)
      fragment.setInShardingsAttr(merge(fragment.getInShardingsAttr(),
                                        fragment->getOperandTypes(), updates));
    for (auto &[fragment, updates] : out)
      fragment.setOutShardingsAttr(merge(fragment.getOutShardingsAttr(),
                                         fragment->getResultTypes(), updates));
  }

private:
  using Updates = SmallVector<std::pair<unsigned, sdy::TensorShardingAttr>>;

  static sdy::TensorShardingPerValueAttr
  merge(sdy::TensorShardingPerValueAttr existing, TypeRange types,
        const Updates &updates) {
    MLIRContext *ctx = updates.front().second.getContext();
    SmallVector<sdy::TensorShardingAttr> entries;
    if (existing && existing.getShardings().size() == types.size())
      llvm::append_range(entries, existing.getShardings());
    else
      for (Type type : types)
        entries.push_back(sdy::TensorShardingAttr::getFullyOpen(
            ctx, updates.front().second.getMeshOrRef(), getRank(type)));
    for (auto [index, sharding] : updates)
      entries[index] = sharding;
    return sdy::TensorShardingPerValueAttr::get(ctx, entries);
  }

  llvm::MapVector<FragmentOp, Updates> in, out;
};

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
    FragmentShardingUpdates updates;
    for (BlockArgument arg : function.getArguments())
      if (auto sharding = function.getArgAttrOfType<sdy::TensorShardingAttr>(
              arg.getArgNumber(), kShardingAttrName))
        updates.setUsers(arg, userSharding(sharding, warnedInputs, "inputs"));

    Operation *ret = function.getBody().front().getTerminator();
    for (OpOperand &output : ret->getOpOperands()) {
      auto sharding = function.getResultAttrOfType<sdy::TensorShardingAttr>(
          output.getOperandNumber(), kShardingAttrName);
      if (!sharding)
        continue;
      sharding = userSharding(sharding, warnedOutputs, "outputs");
      Value value = output.get();
      if (auto fragment = value.getDefiningOp<FragmentOp>())
        updates.setResult(fragment, cast<OpResult>(value).getResultNumber(),
                          sharding);
      else if (auto transfer = value.getDefiningOp<TransferOp>())
        transfer->setAttr(
            kShardingAttrName,
            sdy::TensorShardingPerValueAttr::get(&getContext(), {sharding}));
      else
        continue;
      // The value's other fragment users take it with that sharding too.
      updates.setUsers(value, sharding);
    }
    updates.apply();
  }
};

} // namespace
} // namespace mlir::mpmd
