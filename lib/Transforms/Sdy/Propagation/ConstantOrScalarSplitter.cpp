//===- ConstantOrScalarSplitter.cpp - -sdy-constant-or-scalar-splitter ----===//
//
// A constant used in several places would tie the shardings of all its uses
// together; each use gets its own copy instead (sdy-notes 2.2).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Sdy/Propagation/OpShardingRuleRegistry.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_CONSTANTORSCALARSPLITTERPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

namespace hlo = ::mlir::stablehlo;

bool isRankZero(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.getRank() == 0;
}

class Splitter {
public:
  /// Classifies `op` (its operands are classified already: a pre-order walk
  /// sees definitions first).
  void classify(Operation *op);
  /// Gives every use of a split value by an op outside the set its own
  /// copy, then erases the originals left unused.
  void split(Operation *root);

private:
  bool isConstantExpression(Value value) const {
    Operation *def = value.getDefiningOp();
    return def && constantExpressions.contains(def);
  }
  bool isSplit(Operation *op) const {
    return constantExpressions.contains(op) || scalarBroadcasts.contains(op);
  }
  /// Clones `value`'s definition and the split ops it is made of before
  /// `user`, sharing rank-0 values.
  Value cloneBefore(Value value, Operation *user, IRMapping &mapping);

  llvm::DenseSet<Operation *> constantExpressions;
  llvm::DenseSet<Operation *> scalarBroadcasts;
  SmallVector<Operation *> splitOps;
};

void Splitter::classify(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return;
  if (isa<ConstantOp, hlo::IotaOp>(op)) {
    constantExpressions.insert(op);
    splitOps.push_back(op);
    return;
  }
  bool isShapeOrPointwise =
      isa<hlo::BroadcastInDimOp, hlo::ReshapeOp, hlo::SliceOp>(op) ||
      (isElementwiseOp(op) && !isa<ShardingConstraintOp>(op));
  if (isShapeOrPointwise && op->getNumOperands() > 0 &&
      llvm::all_of(op->getOperands(), [&](Value operand) {
        return isConstantExpression(operand);
      })) {
    constantExpressions.insert(op);
    splitOps.push_back(op);
    return;
  }
  if (auto broadcast = dyn_cast<hlo::BroadcastInDimOp>(op))
    if (isRankZero(broadcast.getOperand())) {
      scalarBroadcasts.insert(op);
      splitOps.push_back(op);
    }
}

Value Splitter::cloneBefore(Value value, Operation *user, IRMapping &mapping) {
  if (Value cloned = mapping.lookupOrNull(value))
    return cloned;
  Operation *def = value.getDefiningOp();
  if (!def || !isSplit(def) || isRankZero(value))
    return value;
  if (constantExpressions.contains(def))
    for (Value operand : def->getOperands())
      cloneBefore(operand, user, mapping);
  OpBuilder builder(user);
  Operation *clone = builder.clone(*def, mapping);
  // The groups of the original hold the copy too.
  for (Operation *groupUser : value.getUsers())
    if (auto group = dyn_cast<ShardingGroupOp>(groupUser)) {
      auto copy = cast<ShardingGroupOp>(builder.clone(*group));
      copy.getInputMutable().assign(clone->getResult(0));
    }
  return clone->getResult(0);
}

void Splitter::split(Operation *root) {
  SmallVector<Operation *> users;
  root->walk([&](Operation *op) {
    if (!isSplit(op) && !isa<ShardingGroupOp>(op))
      users.push_back(op);
  });
  for (Operation *user : users) {
    IRMapping mapping;
    for (OpOperand &operand : user->getOpOperands()) {
      Value value = operand.get();
      Operation *def = value.getDefiningOp();
      if (!def || !isSplit(def) || isRankZero(value))
        continue;
      operand.set(cloneBefore(value, user, mapping));
    }
  }
  // Originals, last first so that their operands lose their uses before
  // being looked at; an original only in sharding groups is unused.
  for (Operation *op : llvm::reverse(splitOps)) {
    Value result = op->getResult(0);
    if (!llvm::all_of(result.getUsers(),
                      [](Operation *u) { return isa<ShardingGroupOp>(u); }))
      continue;
    for (Operation *group : llvm::make_early_inc_range(result.getUsers()))
      group->erase();
    op->erase();
  }
}

/// `stablehlo.constant` → `sdy.constant`, which CSE does not merge.
void convertConstants(Operation *root) {
  root->walk([](hlo::ConstantOp constant) {
    OpBuilder builder(constant);
    auto replacement = ConstantOp::create(builder, constant.getLoc(),
                                          constant.getValue());
    for (NamedAttribute attr : constant->getDiscardableAttrs())
      replacement->setAttr(attr.getName(), attr.getValue());
    constant.replaceAllUsesWith(replacement.getResult());
    constant.erase();
  });
}

class ConstantOrScalarSplitterPass
    : public impl::ConstantOrScalarSplitterPassBase<
          ConstantOrScalarSplitterPass> {
  using ConstantOrScalarSplitterPassBase::ConstantOrScalarSplitterPassBase;

  void runOnOperation() override {
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      convertConstants(function);
      Splitter splitter;
      function.walk<WalkOrder::PreOrder>(
          [&](Operation *op) { splitter.classify(op); });
      splitter.split(function);
    }
  }
};

} // namespace
} // namespace mlir::sdy
