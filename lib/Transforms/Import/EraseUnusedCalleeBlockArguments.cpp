//===- EraseUnusedCalleeBlockArguments.cpp --------------------------------===//
//
// -mpmd-erase-unused-callee-block-arguments
//
//===----------------------------------------------------------------------===//

#include "ImportUtils.h"

#include "mpmd/Transforms/Import/Passes.h"

#include "llvm/ADT/BitVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_ERASEUNUSEDCALLEEBLOCKARGUMENTSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

/// Erases the arguments of `callee` that are unused or used only by its
/// return, the results returning them and the matching call operands; call
/// results become the call operands. Calls and callee go when the erased
/// results were the last ones.
LogicalResult eraseReturnedArguments(func::FuncOp callee,
                                     ArrayRef<CallOp> calls) {
  Block &entry = callee.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(entry.getTerminator());
  if (!ret || !callee.getBody().hasOneBlock())
    return success();
  unsigned numResults = callee.getNumResults();
  llvm::BitVector erasedArgs(callee.getNumArguments());
  llvm::BitVector erasedResults(numResults);
  for (BlockArgument arg : entry.getArguments()) {
    if (llvm::any_of(arg.getUsers(), [&](Operation *user) {
          return user != ret.getOperation();
        }))
      continue;
    erasedArgs.set(arg.getArgNumber());
    for (OpOperand &use : arg.getUses())
      erasedResults.set(use.getOperandNumber());
  }
  if (erasedArgs.none())
    return success();

  for (CallOp call : calls) {
    for (unsigned index : erasedResults.set_bits()) {
      auto arg = cast<BlockArgument>(ret.getOperand(index));
      call->getResult(index).replaceAllUsesWith(
          call.getOperand(arg.getArgNumber()));
    }
  }
  ret->eraseOperands(erasedResults);
  if (failed(callee.eraseResults(erasedResults)) ||
      failed(callee.eraseArguments(erasedArgs)))
    return failure();

  bool eraseAll = erasedResults.any() && callee.getNumResults() == 0;
  for (CallOp call : calls) {
    if (eraseAll) {
      call.erase();
      continue;
    }
    OpBuilder builder(call);
    SmallVector<Value> operands;
    for (auto [index, operand] : llvm::enumerate(call.getOperands()))
      if (!erasedArgs.test(index))
        operands.push_back(operand);
    auto newCall = CallOp::create(
        builder, call.getLoc(), callee.getResultTypes(), call.getCalleeAttr(),
        operands, call.getArgAttrsAttr(), call.getResAttrsAttr());
    newCall->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    eraseArrayEntries(newCall, newCall.getArgAttrsAttrName(), erasedArgs);
    eraseArrayEntries(newCall, newCall.getResAttrsAttrName(), erasedResults);
    unsigned newIndex = 0;
    for (auto [index, result] : llvm::enumerate(call.getResults()))
      if (!erasedResults.test(index))
        result.replaceAllUsesWith(newCall->getResult(newIndex++));
    call.erase();
  }
  if (eraseAll)
    callee.erase();
  return success();
}

class EraseUnusedCalleeBlockArgumentsPass
    : public impl::EraseUnusedCalleeBlockArgumentsPassBase<
          EraseUnusedCalleeBlockArgumentsPass> {
  void runOnOperation() override {
    for (auto &[callee, calls] :
         getFunctionsCalledOnlyByMpmdCalls(getOperation())) {
      if (calls.empty() || callee.isExternal())
        continue;
      if (failed(eraseReturnedArguments(callee, calls)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace mlir::mpmd
