//===- UserPriorityPropagate.cpp - -sdy-user-priority-propagate -----------===//
//
// User priorities (`{"x"}p1`, sdy-notes 3.7): dimensions of priority 0 (or
// none) take part from the start; a dimension of priority p > 0 is held back
// as a closed, empty dimension whose axes are replicated, so that nothing
// overwrites it or takes its axes on that tensor, and is restored before the
// round of priority p. Every round is one op-priority propagation.
//
//===----------------------------------------------------------------------===//

#include "PropagationDriver.h"
#include "ShardingUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include <map>

namespace mlir::sdy {
#define GEN_PASS_DEF_USERPRIORITYPROPAGATEPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// Where a sharding with priorities lives: a value, or a function result.
struct ShardingHolder {
  Value value;
  /// Mutable: FuncOp's accessors are not const.
  mutable func::FuncOp function;
  unsigned resultIndex = 0;
  /// The sharding as the user wrote it.
  TensorShardingAttr original;

  TensorShardingAttr get() const {
    if (value)
      return getSharding(getShardableValue(value));
    return function.getResultAttrOfType<TensorShardingAttr>(
        resultIndex, SdyDialect::kShardingAttrName);
  }
  /// Function arguments are collected in `arguments`, to be set at once.
  void set(TensorShardingAttr sharding,
           SmallVectorImpl<std::pair<BlockArgument, TensorShardingAttr>>
               &arguments) const {
    Value shardable = value ? getShardableValue(value) : Value();
    if (auto arg = dyn_cast_or_null<BlockArgument>(shardable);
        arg && isa<func::FuncOp>(arg.getOwner()->getParentOp()))
      arguments.push_back({arg, sharding});
    else if (value)
      setSharding(shardable, sharding);
    else
      function.setResultAttr(resultIndex, SdyDialect::kShardingAttrName,
                             sharding);
  }
};

bool hasPriority(TensorShardingAttr sharding) {
  return sharding && llvm::any_of(sharding.getDimShardings(),
                                  [](DimensionShardingAttr dim) {
                                    return dim.getPriority().has_value();
                                  });
}

/// The sharding of round 0: priorities dropped; dimensions of priority > 0
/// closed and empty, their axes replicated.
TensorShardingAttr holdBackPriorities(TensorShardingAttr sharding,
                                      MeshAttr mesh) {
  MLIRContext *context = sharding.getContext();
  SmallVector<DimensionShardingAttr> dims;
  SmallVector<AxisRefAttr> replicated(sharding.getReplicatedAxes());
  for (DimensionShardingAttr dim : sharding.getDimShardings()) {
    if (dim.getPriority().value_or(0) > 0) {
      llvm::append_range(replicated, dim.getAxes());
      dims.push_back(DimensionShardingAttr::get(context, {},
                                                /*isClosed=*/true,
                                                std::nullopt));
    } else {
      dims.push_back(DimensionShardingAttr::get(
          context, dim.getAxes(), dim.getIsClosed(), std::nullopt));
    }
  }
  return TensorShardingAttr::get(context, sharding.getMeshOrRef(), dims,
                                 sortAndMergeAxes(replicated, mesh),
                                 sharding.getUnreducedAxes(),
                                 sharding.getUnreducedKind());
}

/// `current` with the dimensions of priority `priority` in `original`
/// restored (without priority) and their axes no longer replicated.
TensorShardingAttr restorePriority(TensorShardingAttr current,
                                   TensorShardingAttr original,
                                   int64_t priority, MeshAttr mesh) {
  MLIRContext *context = current.getContext();
  SmallVector<DimensionShardingAttr> dims(current.getDimShardings());
  SmallVector<AxisRefAttr> released;
  for (auto [index, dim] : llvm::enumerate(original.getDimShardings())) {
    if (dim.getPriority() != priority)
      continue;
    dims[index] = DimensionShardingAttr::get(context, dim.getAxes(),
                                             dim.getIsClosed(), std::nullopt);
    llvm::append_range(released, dim.getAxes());
  }
  SmallVector<AxisRefAttr> replicated;
  for (AxisRefAttr axis : current.getReplicatedAxes())
    if (!llvm::is_contained(released, axis))
      replicated.push_back(axis);
  return TensorShardingAttr::get(
      context, current.getMeshOrRef(), dims, sortAndMergeAxes(replicated, mesh),
      current.getUnreducedAxes(), current.getUnreducedKind());
}

class UserPriorityPropagatePass
    : public impl::UserPriorityPropagatePassBase<UserPriorityPropagatePass> {
  using UserPriorityPropagatePassBase::UserPriorityPropagatePassBase;

  void runOnOperation() override;

  /// Every sharding with a priority, by the priorities > 0 it has.
  std::map<int64_t, SmallVector<ShardingHolder>> collectHolders();
};

std::map<int64_t, SmallVector<ShardingHolder>>
UserPriorityPropagatePass::collectHolders() {
  std::map<int64_t, SmallVector<ShardingHolder>> byPriority;
  SmallVector<std::pair<BlockArgument, TensorShardingAttr>> arguments;
  auto record = [&](ShardingHolder holder) {
    if (!hasPriority(holder.original))
      return;
    MeshAttr mesh = holder.original.getMesh(getOperation());
    if (!mesh)
      return;
    holder.set(holdBackPriorities(holder.original, mesh), arguments);
    SmallVector<int64_t> priorities;
    for (DimensionShardingAttr dim : holder.original.getDimShardings())
      if (dim.getPriority().value_or(0) > 0 &&
          !llvm::is_contained(priorities, *dim.getPriority()))
        priorities.push_back(*dim.getPriority());
    for (int64_t priority : priorities)
      byPriority[priority].push_back(holder);
  };
  getOperation().walk([&](Operation *op) {
    if (auto function = dyn_cast<func::FuncOp>(op)) {
      if (function.isExternal())
        return;
      for (BlockArgument arg : function.getArguments())
        record({arg, {}, 0, getSharding(arg)});
      for (unsigned index = 0; index < function.getNumResults(); ++index)
        record({{}, function, index,
                function.getResultAttrOfType<TensorShardingAttr>(
                    index, SdyDialect::kShardingAttrName)});
      return;
    }
    // As upstream, the shardings held by data-flow edges keep their
    // priorities out of this (they are read as written).
    if (isa<DataFlowEdgeOp>(op))
      return;
    for (OpResult result : op->getResults())
      if (getShardableValue(result) == result)
        record({result, {}, 0, getSharding(result)});
  });
  setArgumentShardings(arguments);
  return byPriority;
}

void UserPriorityPropagatePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(prepareForPropagation(module)))
    return signalPassFailure();
  SmallVector<PropagationStrategy> strategies =
      getStrategyRuns(propagationStrategy);
  auto propagate = [&] {
    propagateWithOpPriorities(module, strategies, conservativePropagation,
                              runOpPriorityPropagation);
  };
  std::map<int64_t, SmallVector<ShardingHolder>> byPriority =
      collectHolders();
  propagate();
  for (auto &[priority, holders] : byPriority) {
    SmallVector<std::pair<BlockArgument, TensorShardingAttr>> arguments;
    for (const ShardingHolder &holder : holders) {
      TensorShardingAttr current = holder.get();
      MeshAttr mesh = holder.original.getMesh(module);
      if (current && mesh)
        holder.set(restorePriority(current, holder.original, priority, mesh),
                   arguments);
    }
    setArgumentShardings(arguments);
    propagate();
  }
  if (!keepShardingRules)
    dropNonCustomShardingRules(module);
}

} // namespace
} // namespace mlir::sdy
