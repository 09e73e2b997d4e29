//===- CopyConstants.cpp - -mpmd-copy-constants ---------------------------===//

#include "mpmd/Transforms/Export/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_COPYCONSTANTSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

/// The constant op that the fragment producing `value` (possibly through
/// transfers) returns for it, or null.
Operation *getReturnedConstant(Value value) {
  while (auto transfer = value.getDefiningOp<TransferOp>())
    value = transfer.getTensor();
  auto producer = value.getDefiningOp<FragmentOp>();
  if (!producer)
    return nullptr;
  Operation *terminator = producer.getRegion().front().getTerminator();
  Value returned =
      terminator->getOperand(cast<OpResult>(value).getResultNumber());
  Operation *constant = returned.getDefiningOp();
  if (!constant || constant->getNumOperands() != 0 ||
      !constant->hasTrait<OpTrait::ConstantLike>())
    return nullptr;
  return constant;
}

class CopyConstantsPass
    : public impl::CopyConstantsPassBase<CopyConstantsPass> {
  void runOnOperation() override {
    getOperation().walk([&](FragmentOp consumer) {
      Block &body = consumer.getRegion().front();
      OpBuilder builder = OpBuilder::atBlockBegin(&body);
      for (OpOperand &operand : consumer->getOpOperands()) {
        BlockArgument arg = body.getArgument(operand.getOperandNumber());
        if (arg.use_empty())
          continue;
        if (Operation *constant = getReturnedConstant(operand.get()))
          arg.replaceAllUsesWith(builder.clone(*constant)->getResult(0));
      }
    });
  }
};

} // namespace
} // namespace mlir::mpmd
