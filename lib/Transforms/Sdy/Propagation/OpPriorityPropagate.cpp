//===- OpPriorityPropagate.cpp - -sdy-op-priority-propagate ---------------===//
//
// Five fixed-point runs, each allowing more (sdy-notes 3.6): first ops that
// only pass shardings through and whose operands have one use, then such
// ops whatever the uses, then the pass-through factors of every op (a
// broadcast only backward), then every factor (a broadcast still only
// backward), then everything.
//
//===----------------------------------------------------------------------===//

#include "PropagationDriver.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Sdy/Propagation/OpShardingRuleRegistry.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_OPPRIORITYPROPAGATEPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

namespace hlo = ::mlir::stablehlo;
using D = PropagationDirection;

/// Ops that move shardings without changing the data layout.
bool isPassThroughOp(Operation *op) {
  if (isElementwiseOp(op) ||
      isa<hlo::ReshapeOp, hlo::TransposeOp, DataFlowEdgeOp,
          FuncDataFlowEdgeOp>(op))
    return true;
  if (auto call = dyn_cast<hlo::CustomCallOp>(op))
    return call.getCallTargetName() == "MoveToHost" ||
           call.getCallTargetName() == "MoveToDevice";
  return false;
}

/// The most stage 0 and 1 allow an op: BOTH for pass-through ops, FORWARD
/// for dynamic (update) slices, NONE otherwise.
D getPassThroughDirection(Operation *op) {
  if (isPassThroughOp(op))
    return D::BOTH;
  if (isa<hlo::DynamicSliceOp, hlo::DynamicUpdateSliceOp>(op))
    return D::FORWARD;
  return D::NONE;
}

bool hasMultiUseTensorOperand(Operation *op) {
  return llvm::any_of(op->getOperands(), [](Value operand) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    return type && type.getRank() > 0 && !operand.hasOneUse();
  });
}

D getStageDirection(int stage, Operation *op, int64_t factor) {
  switch (stage) {
  case 0:
    return hasMultiUseTensorOperand(op) ? D::NONE
                                        : getPassThroughDirection(op);
  case 1:
    return getPassThroughDirection(op);
  case 2: {
    auto rule = op->getAttrOfType<OpShardingRuleAttr>(
        SdyDialect::kShardingRuleAttrName);
    if (rule && !rule.isPassThroughFactor(factor))
      return D::NONE;
    return isa<hlo::BroadcastInDimOp>(op) ? D::BACKWARD : D::BOTH;
  }
  case 3:
    return isa<hlo::BroadcastInDimOp>(op) ? D::BACKWARD : D::BOTH;
  default:
    return D::BOTH;
  }
}

constexpr int kNumStages = 5;

class OpPriorityPropagatePass
    : public impl::OpPriorityPropagatePassBase<OpPriorityPropagatePass> {
  using OpPriorityPropagatePassBase::OpPriorityPropagatePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(prepareForPropagation(module)))
      return signalPassFailure();
    propagateWithOpPriorities(module, getStrategyRuns(propagationStrategy),
                              conservativePropagation,
                              runOpPriorityPropagation);
    if (!keepShardingRules)
      dropNonCustomShardingRules(module);
  }
};

} // namespace

void propagateWithOpPriorities(ModuleOp module,
                               ArrayRef<PropagationStrategy> strategies,
                               bool conservativePropagation, bool runOpPriority,
                               OpDirectionFn outer) {
  auto runAll = [&](OpDirectionFn direction) {
    for (PropagationStrategy strategy : strategies)
      runPropagation(module, {strategy, conservativePropagation}, direction);
  };
  if (!runOpPriority)
    return runAll(outer);
  for (int stage = 0; stage < kNumStages; ++stage)
    runAll([&](Operation *op, int64_t factor) {
      D direction = D::NONE;
      for (int earlier = 0; earlier <= stage; ++earlier)
        direction =
            unionOf(direction, getStageDirection(earlier, op, factor));
      return outer ? intersectionOf(direction, outer(op, factor)) : direction;
    });
}

} // namespace mlir::sdy
