//===- ApplyShardingConstraints.cpp - -sdy-apply-sharding-constraints -----===//
//
// A closed sharding constraint dictates the sharding of its input (sdy-notes
// 2.2): when nothing else claims the input, the input takes it, so that
// propagation starts from it on both sides of the constraint.
//
//===----------------------------------------------------------------------===//

#include "DataFlowEdges.h"
#include "PropagationDriver.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_APPLYSHARDINGCONSTRAINTSPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

bool isFullyClosed(TensorShardingAttr sharding) {
  return llvm::all_of(sharding.getDimShardings(),
                      [](DimensionShardingAttr dim) { return dim.getIsClosed(); });
}

/// Whether `value` is a target of a data-flow edge or an edge itself: its
/// sharding lives on the edge, which a constraint must not overwrite.
bool isEdgeTarget(Value value) {
  return value.getDefiningOp<DataFlowEdgeOp>() ||
         static_cast<bool>(getEdgeOwnerFromTarget(value));
}

/// Whether `value` can carry a sharding of its own.
bool canHoldSharding(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return isa_and_nonnull<func::FuncOp>(arg.getOwner()->getParentOp()) &&
           arg.getOwner()->isEntryBlock();
  Operation *def = value.getDefiningOp();
  return !isa<CollectiveOpInterface, ManualComputationOp, NamedComputationOp>(
      def);
}

/// The sharding each user of `value` dictates: constraints and the operand
/// slots of manual computations.
SmallVector<TensorShardingAttr> getDictatedShardings(Value value) {
  SmallVector<TensorShardingAttr> shardings;
  for (OpOperand &use : value.getUses()) {
    if (auto constraint = dyn_cast<ShardingConstraintOp>(use.getOwner()))
      shardings.push_back(constraint.getSharding());
    else if (auto manual = dyn_cast<ManualComputationOp>(use.getOwner()))
      shardings.push_back(
          manual.getInShardings().getShardings()[use.getOperandNumber()]);
  }
  return shardings;
}

bool isConstraintOrManualUser(Operation *op) {
  return isa<ShardingConstraintOp, ManualComputationOp>(op);
}

/// Whether `sharding`, dictated to `input`, should become its sharding.
bool shouldApply(Value input, TensorShardingAttr sharding) {
  if (getSharding(input) || !isFullyClosed(sharding))
    return false;
  if (!isEdgeTarget(input) && !canHoldSharding(input))
    return false;
  return llvm::all_of(getDictatedShardings(input),
                      [&](TensorShardingAttr other) { return other == sharding; });
}

/// `input` of an edge target takes `sharding` through a constraint right
/// after it that replaces all its uses; unreduced axes go on the edge.
void redirectThroughConstraint(Value input, TensorShardingAttr sharding,
                               ShardingConstraintOp existing, Location loc) {
  OpBuilder builder(input.getContext());
  builder.setInsertionPointAfterValue(input);
  ShardingConstraintOp constraint = existing;
  if (!constraint)
    constraint = ShardingConstraintOp::create(builder, loc, input, sharding);
  else if (Operation *def = input.getDefiningOp())
    constraint->moveAfter(def);
  else
    constraint->moveBefore(&input.getParentBlock()->front());
  input.replaceAllUsesExcept(constraint.getResult(), constraint);
  if (!sharding.getUnreducedAxes().empty())
    setSharding(input, TensorShardingAttr::get(
                           sharding.getContext(), sharding.getMeshOrRef(),
                           TensorShardingAttr::getFullyOpen(
                               sharding.getContext(), sharding.getMeshOrRef(),
                               sharding.getDimShardings().size())
                               .getDimShardings(),
                           {}, sharding.getUnreducedAxes(),
                           sharding.getUnreducedKind()));
}

/// For a chain of two or more single-use constraints on an unsharded
/// input, later uses of the input in its block see the chain's end.
void redirectUsesAfterChain(ShardingConstraintOp head) {
  Value input = head.getInput();
  if (input.getDefiningOp<ShardingConstraintOp>() || getSharding(input))
    return;
  if (llvm::any_of(input.getUsers(), [&](Operation *user) {
        return user != head && isConstraintOrManualUser(user);
      }))
    return;
  ShardingConstraintOp tail = head;
  int64_t length = 1;
  while (tail.getResult().hasOneUse()) {
    auto next = dyn_cast<ShardingConstraintOp>(*tail->getUsers().begin());
    if (!next)
      break;
    tail = next;
    ++length;
  }
  if (length < 2 ||
      llvm::any_of(tail->getUsers(), isConstraintOrManualUser))
    return;
  input.replaceUsesWithIf(tail.getResult(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    return user->getBlock() == tail->getBlock() &&
           tail->isBeforeInBlock(user) && !isa<func::ReturnOp>(user);
  });
}

class ApplyShardingConstraintsPass
    : public impl::ApplyShardingConstraintsPassBase<
          ApplyShardingConstraintsPass> {
  using ApplyShardingConstraintsPassBase::ApplyShardingConstraintsPassBase;

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<ShardingConstraintOp, ManualComputationOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto constraint = dyn_cast<ShardingConstraintOp>(op)) {
        redirectUsesAfterChain(constraint);
        Value input = constraint.getInput();
        if (!shouldApply(input, constraint.getSharding()))
          continue;
        if (isEdgeTarget(input))
          redirectThroughConstraint(input, constraint.getSharding(),
                                    constraint, constraint.getLoc());
        else
          setSharding(input, constraint.getSharding());
        continue;
      }
      auto manual = cast<ManualComputationOp>(op);
      for (auto [input, sharding] : llvm::zip(
               manual.getOperands(), manual.getInShardings().getShardings())) {
        if (!shouldApply(input, sharding))
          continue;
        if (isEdgeTarget(input))
          redirectThroughConstraint(input, sharding, nullptr, manual.getLoc());
        else
          setSharding(input, sharding);
      }
    }
  }
};

} // namespace
} // namespace mlir::sdy
