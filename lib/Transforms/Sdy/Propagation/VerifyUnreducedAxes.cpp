//===- VerifyUnreducedAxes.cpp - -sdy-verify-unreduced-axes
//----------------===//

#include "ShardingUtils.h"
#include "mpmd/Dialect/Sdy/IR/AxisRefUtils.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallSet.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_VERIFYUNREDUCEDAXESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

namespace hlo = ::mlir::stablehlo;

/// The unreduced axes of `sharding` (none when null).
ArrayRef<AxisRefAttr> getUnreduced(TensorShardingAttr sharding) {
  return sharding ? sharding.getUnreducedAxes() : ArrayRef<AxisRefAttr>();
}


/// Whether a reshard or sharding constraint produced `value`: its sharding
/// is a decision already checked at that op.
bool isProducedByReshard(Value value) {
  return isa_and_nonnull<ReshardOp, ShardingConstraintOp>(
      value.getDefiningOp());
}

/// The reduction kind of the unreduced axes of `sharding` (sum when null).
ReductionKind getKind(TensorShardingAttr sharding) {
  return sharding ? sharding.getUnreducedKind() : ReductionKind::Sum;
}

/// `unreduced={...}`, `unreduced=max{...}`: how diagnostics name a kind.
StringRef describeKind(ReductionKind kind) {
  return kind == ReductionKind::Sum ? "sum" : stringifyReductionKind(kind);
}

/// The axes `op` reduces itself (and so may drop from its operand).
SmallVector<AxisRefAttr> getReducedAxes(Operation *op) {
  SmallVector<AxisRefAttr> axes;
  if (auto allReduce = dyn_cast<AllReduceOp>(op))
    llvm::append_range(axes, allReduce.getReductionAxes().getValue());
  else if (auto reduceScatter = dyn_cast<ReduceScatterOp>(op))
    for (AxisRefListAttr list : reduceScatter.getReduceScatterAxes().getValue())
      llvm::append_range(axes, list.getValue());
  return axes;
}

/// Checks that the value `given` of a call (its operand or result `index`,
/// named by `what`) holds the unreduced axes, of the same kind, that the
/// callee declares for it in `expectedSharding` (its `calleeWhat`).
LogicalResult verifyCallValue(func::CallOp call, func::FuncOp callee,
                              StringRef what, StringRef calleeWhat,
                              size_t index, Value given,
                              TensorShardingAttr expectedSharding) {
  TensorShardingAttr givenSharding = getSharding(given);
  ArrayRef<AxisRefAttr> givenAxes = getUnreduced(givenSharding);
  ArrayRef<AxisRefAttr> expectedAxes = getUnreduced(expectedSharding);
  if (givenAxes == expectedAxes &&
      getKind(givenSharding) == getKind(expectedSharding))
    return success();
  return call.emitError() << what << " " << index << " has unreduced axes "
                          << formatAxes(givenAxes) << " but " << calleeWhat
                          << " " << index << " of @" << callee.getSymName()
                          << " has " << formatAxes(expectedAxes);
}

/// Checks that a call and its callee agree on the unreduced axes of every
/// operand/argument and result.
LogicalResult verifyCall(func::CallOp call) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee)
    return success();
  for (auto [index, operand] : llvm::enumerate(call.getOperands()))
    if (failed(verifyCallValue(call, callee, "operand", "argument", index,
                               operand,
                               callee.getArgAttrOfType<TensorShardingAttr>(
                                   index, SdyDialect::kShardingAttrName))))
      return failure();
  for (auto [index, result] : llvm::enumerate(call.getResults()))
    if (failed(verifyCallValue(call, callee, "result", "result", index, result,
                               callee.getResultAttrOfType<TensorShardingAttr>(
                                   index, SdyDialect::kShardingAttrName))))
      return failure();
  return success();
}

/// Checks that `op` keeps every unreduced axis of its operands on all its
/// results (unless it reduces it: a reshard, a sharding constraint, an
/// all-reduce or reduce-scatter over it), and that a reduce introduces
/// unreduced axes only when it sums.
LogicalResult verifyOp(Operation *op) {
  if (isa<AllReduceOp, ReduceScatterOp>(op) && !getSharding(op->getOperand(0)))
    return op->emitError()
           << "the operand of " << op->getName()
           << " has no sharding to reduce its unreduced axes from";
  llvm::SmallSetVector<AxisRefAttr, 4> incoming;
  llvm::SmallDenseMap<AxisRefAttr, ReductionKind> incomingKinds;
  for (Value operand : op->getOperands())
    if (!isProducedByReshard(operand))
      for (AxisRefAttr axis : getUnreduced(getSharding(operand))) {
        incoming.insert(axis);
        incomingKinds[axis] = getKind(getSharding(operand));
      }
  bool reducesAll = isa<ReshardOp, ShardingConstraintOp>(op);
  SmallVector<AxisRefAttr> reduced = getReducedAxes(op);
  for (OpResult result : op->getResults()) {
    ArrayRef<AxisRefAttr> outgoing = getUnreduced(getSharding(result));
    ReductionKind outgoingKind = getKind(getSharding(result));
    if (!reducesAll)
      for (AxisRefAttr axis : incoming)
        if (!llvm::is_contained(outgoing, axis) &&
            !llvm::is_contained(reduced, axis))
          return op->emitError()
                 << "result " << result.getResultNumber()
                 << " drops the unreduced axis " << formatAxis(axis)
                 << " of an operand; reshard it explicitly first";
    if (reducesAll)
      continue;
    // Partial values keep their kind; new ones are sums, except that a
    // reduce leaves partial values of its body's kind.
    std::optional<ReductionKind> newKind = ReductionKind::Sum;
    if (auto reduce = dyn_cast<hlo::ReduceOp>(op))
      newKind = getBodyReductionKind(reduce.getBody());
    for (AxisRefAttr axis : outgoing) {
      auto known = incomingKinds.find(axis);
      if (known != incomingKinds.end()) {
        if (known->second != outgoingKind)
          return op->emitError()
                 << "result " << result.getResultNumber() << " turns the "
                 << describeKind(known->second) << "-unreduced axis "
                 << formatAxis(axis) << " of an operand "
                 << "into a " << describeKind(outgoingKind) << "-unreduced one";
        continue;
      }
      if (!newKind)
        return op->emitError()
               << "result " << result.getResultNumber() << " makes axis "
               << formatAxis(axis)
               << " unreduced, but the body of this reduce is not one add, "
                  "maximum or minimum of its arguments";
      if (*newKind != outgoingKind)
        return op->emitError()
               << "result " << result.getResultNumber() << " makes axis "
               << formatAxis(axis) << " " << describeKind(outgoingKind)
               << "-unreduced, but this op leaves " << describeKind(*newKind)
               << " partial results";
    }
  }
  return success();
}

class VerifyUnreducedAxesPass
    : public impl::VerifyUnreducedAxesPassBase<VerifyUnreducedAxesPass> {
  using VerifyUnreducedAxesPassBase::VerifyUnreducedAxesPassBase;

  void runOnOperation() override {
    // Every op is checked, so that one run reports every mistake.
    bool failedAny = false;
    getOperation().walk([&](Operation *op) {
      if (op->hasTrait<OpTrait::IsTerminator>())
        return;
      auto call = dyn_cast<func::CallOp>(op);
      if (failed(call ? verifyCall(call) : verifyOp(op)))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::sdy
