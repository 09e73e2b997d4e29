//===- InlineNestedUserExposedOps.cpp - -mpmd-inline-nested-user-exposed-ops
//===//

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INLINENESTEDUSEREXPOSEDOPSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

bool isUserExposedOp(Operation *op) {
  return isa<NamedComputationOp, NamedTensorOp, BroadcastOp, ReduceOp>(op);
}

std::string describe(const MeshAssignment &assignment, bool withStage) {
  std::string text = "mesh \"" + assignment.meshName + "\"";
  if (withStage && assignment.stage)
    text += " (stage " + std::to_string(*assignment.stage) + ")";
  return text;
}

/// Checks that a nested named op assigned in `assignment` agrees with the
/// assignment `parent` of its top-level computation `parentName`.
LogicalResult checkNested(Operation *op, StringRef kind, StringRef name,
                          const UserAssignmentMap &assignment,
                          StringRef parentName, const MeshAssignment &parent) {
  auto it = assignment.entries.find(name.str());
  if (it == assignment.entries.end())
    return success();
  const MeshAssignment &nested = it->second;
  bool compareStage = isa<NamedComputationOp>(op);
  if (nested.meshName == parent.meshName &&
      (!compareStage || nested.stage == parent.stage))
    return success();
  return op->emitError() << kind << " '" << name << "' is assigned to "
                         << describe(nested, compareStage)
                         << ", but it is nested in NamedComputation '"
                         << parentName << "', which is assigned to "
                         << describe(parent, compareStage);
}

/// `reduce<kind>(a, b, c)` as `op(op(a, b), c)`.
Value expandReduce(OpBuilder &builder, ReduceOp reduce) {
  Value result = reduce.getTensors().front();
  Location loc = reduce.getLoc();
  for (Value operand : reduce.getTensors().drop_front()) {
    switch (reduce.getReduction()) {
    case ReductionType::kAdd:
      result = stablehlo::AddOp::create(builder, loc, result.getType(), result,
                                        operand);
      break;
    case ReductionType::kMax:
      result = stablehlo::MaxOp::create(builder, loc, result.getType(), result,
                                        operand);
      break;
    case ReductionType::kMin:
      result = stablehlo::MinOp::create(builder, loc, result.getType(), result,
                                        operand);
      break;
    case ReductionType::kMul:
      result = stablehlo::MulOp::create(builder, loc, result.getType(), result,
                                        operand);
      break;
    case ReductionType::kOr:
      result = stablehlo::OrOp::create(builder, loc, result.getType(), result,
                                       operand);
      break;
    case ReductionType::kAnd:
      result = stablehlo::AndOp::create(builder, loc, result.getType(), result,
                                        operand);
      break;
    case ReductionType::kNone:
      break; // The verifier allows a single operand only.
    }
  }
  return result;
}

void inlineUserExposedOp(IRRewriter &rewriter, Operation *op) {
  rewriter.setInsertionPoint(op);
  if (auto computation = dyn_cast<NamedComputationOp>(op)) {
    Block &body = computation.getRegion().front();
    Operation *terminator = body.getTerminator();
    // Returned block arguments are the computation's operands.
    SmallVector<Value> returned = llvm::map_to_vector(
        terminator->getOperands(), [&](Value value) -> Value {
          if (auto arg = dyn_cast<BlockArgument>(value);
              arg && arg.getOwner() == &body)
            return computation.getOperand(arg.getArgNumber());
          return value;
        });
    rewriter.eraseOp(terminator);
    rewriter.inlineBlockBefore(&body, op, computation.getOperands());
    rewriter.replaceOp(op, returned);
  } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
    rewriter.replaceOp(op, expandReduce(rewriter, reduce));
  } else {
    // named_tensor and broadcast are identities.
    rewriter.replaceOp(op, op->getOperand(0));
  }
}

class InlineNestedUserExposedOpsPass
    : public impl::InlineNestedUserExposedOpsPassBase<
          InlineNestedUserExposedOpsPass> {
  using InlineNestedUserExposedOpsPassBase::InlineNestedUserExposedOpsPassBase;

  void runOnOperation() override {
    SmallVector<NamedComputationOp> topLevel;
    getOperation().walk<WalkOrder::PreOrder>([&](NamedComputationOp op) {
      topLevel.push_back(op);
      return WalkResult::skip();
    });
    IRRewriter rewriter(&getContext());
    for (NamedComputationOp parent : topLevel) {
      SmallVector<Operation *> nested;
      parent.getRegion().walk([&](Operation *op) {
        if (isUserExposedOp(op))
          nested.push_back(op);
      });
      if (nested.empty())
        continue;
      StringRef parentName = parent.getOrigin().getUserName();
      auto it = assignment.entries.find(parentName.str());
      if (it == assignment.entries.end()) {
        parent.emitError() << "NamedComputation '" << parentName
                           << "' is not assigned to a mesh, but it has nested "
                              "user-exposed ops that must be inlined into it";
        return signalPassFailure();
      }
      for (Operation *op : nested) {
        LogicalResult checked = success();
        if (auto computation = dyn_cast<NamedComputationOp>(op))
          checked = checkNested(op, "NamedComputation",
                                computation.getOrigin().getUserName(),
                                assignment, parentName, it->second);
        else if (auto tensor = dyn_cast<NamedTensorOp>(op))
          checked = checkNested(op, "NamedTensor", tensor.getName(), assignment,
                                parentName, it->second);
        if (failed(checked))
          return signalPassFailure();
      }
      // Post-order: inner ops are inlined into their parents first.
      for (Operation *op : nested)
        inlineUserExposedOp(rewriter, op);
    }
  }
};

} // namespace
} // namespace mlir::mpmd
