//===- VerifyUnreducedAxes.cpp - -sdy-verify-unreduced-axes
//----------------===//

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

/// Whether the body of `reduce` sums (so partial sums may stay unreduced).
bool isSumReduction(hlo::ReduceOp reduce) {
  Block &body = reduce.getBody().front();
  return llvm::hasSingleElement(body.without_terminator()) &&
         isa<hlo::AddOp>(body.front());
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

/// Checks that a call and its callee agree on the unreduced axes of every
/// operand/argument and result.
LogicalResult verifyCall(func::CallOp call) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee)
    return success();
  for (auto [index, operand] : llvm::enumerate(call.getOperands())) {
    ArrayRef<AxisRefAttr> given = getUnreduced(getSharding(operand));
    ArrayRef<AxisRefAttr> expected =
        getUnreduced(callee.getArgAttrOfType<TensorShardingAttr>(
            index, SdyDialect::kShardingAttrName));
    if (given != expected)
      return call.emitError()
             << "operand " << index << " has unreduced axes "
             << formatAxes(given) << " but argument " << index << " of @"
             << callee.getSymName() << " has " << formatAxes(expected);
  }
  for (auto [index, result] : llvm::enumerate(call.getResults())) {
    ArrayRef<AxisRefAttr> given = getUnreduced(getSharding(result));
    ArrayRef<AxisRefAttr> expected =
        getUnreduced(callee.getResultAttrOfType<TensorShardingAttr>(
            index, SdyDialect::kShardingAttrName));
    if (given != expected)
      return call.emitError()
             << "result " << index << " has unreduced axes "
             << formatAxes(given) << " but result " << index << " of @"
             << callee.getSymName() << " has " << formatAxes(expected);
  }
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
  for (Value operand : op->getOperands())
    if (!isProducedByReshard(operand))
      for (AxisRefAttr axis : getUnreduced(getSharding(operand)))
        incoming.insert(axis);
  bool reducesAll = isa<ReshardOp, ShardingConstraintOp>(op);
  SmallVector<AxisRefAttr> reduced = getReducedAxes(op);
  for (OpResult result : op->getResults()) {
    ArrayRef<AxisRefAttr> outgoing = getUnreduced(getSharding(result));
    if (!reducesAll)
      for (AxisRefAttr axis : incoming)
        if (!llvm::is_contained(outgoing, axis) &&
            !llvm::is_contained(reduced, axis))
          return op->emitError()
                 << "result " << result.getResultNumber()
                 << " drops the unreduced axis " << formatAxis(axis)
                 << " of an operand; reshard it explicitly first";
    auto reduce = dyn_cast<hlo::ReduceOp>(op);
    if (!reduce || isSumReduction(reduce))
      continue;
    for (AxisRefAttr axis : outgoing)
      if (!incoming.contains(axis))
        return op->emitError()
               << "result " << result.getResultNumber() << " makes axis "
               << formatAxis(axis)
               << " unreduced, but only a reduce whose body is one "
                  "stablehlo.add leaves partial (summed) results";
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
