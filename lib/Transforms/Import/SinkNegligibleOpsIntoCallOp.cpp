//===- SinkNegligibleOpsIntoCallOp.cpp - -mpmd-sink-negligible-ops-into-call-op
//===//

#include "ImportUtils.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_SINKNEGLIGIBLEOPSINTOCALLOPPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

/// The value every call passes as argument `index` if it is the same value
/// produced by a negligible op, or null.
Value getSinkableOperand(ArrayRef<CallOp> calls, unsigned index) {
  CallOp first = calls.front();
  Value common = first.getOperand(index);
  for (CallOp call : calls.drop_front())
    if (call.getOperand(index) != common)
      return nullptr;
  Operation *producer = common.getDefiningOp();
  if (!producer || !isNegligibleOp(producer))
    return nullptr;
  return common;
}

class SinkNegligibleOpsIntoCallOpPass
    : public impl::SinkNegligibleOpsIntoCallOpPassBase<
          SinkNegligibleOpsIntoCallOpPass> {
  void runOnOperation() override {
    for (auto &[callee, calls] :
         getFunctionsCalledOnlyByMpmdCalls(getOperation())) {
      if (calls.empty() || callee.isExternal())
        continue;
      Block &entry = callee.getBody().front();
      OpBuilder builder = OpBuilder::atBlockBegin(&entry);
      llvm::BitVector erase(callee.getNumArguments());
      llvm::SetVector<Operation *> producers;
      for (unsigned index = 0; index < callee.getNumArguments(); ++index) {
        Value operand = getSinkableOperand(calls, index);
        if (!operand)
          continue;
        Operation *clone = builder.clone(*operand.getDefiningOp());
        entry.getArgument(index).replaceAllUsesWith(clone->getResult(0));
        erase.set(index);
        producers.insert(operand.getDefiningOp());
      }
      if (erase.none())
        continue;
      if (failed(callee.eraseArguments(erase)))
        return signalPassFailure();
      for (CallOp call : calls) {
        call->eraseOperands(erase);
        eraseArrayEntries(call, call.getArgAttrsAttrName(), erase);
      }
      for (Operation *producer : producers)
        if (producer->use_empty())
          producer->erase();
    }
  }
};

} // namespace
} // namespace mlir::mpmd
