//===- UniquifyFunctionInputsOutputs.cpp - uniquify inputs and outputs ----===//
//
// -mpmd-uniquify-function-inputs-outputs
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/Passes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "mlir/IR/Builders.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_UNIQUIFYFUNCTIONINPUTSOUTPUTSPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

class UniquifyFunctionInputsOutputsPass
    : public impl::UniquifyFunctionInputsOutputsPassBase<
          UniquifyFunctionInputsOutputsPass> {
  using UniquifyFunctionInputsOutputsPassBase::
      UniquifyFunctionInputsOutputsPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function) || !isEntryPointFunction(function))
      return;
    for (Block &block : function.getBody()) {
      auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
      if (ret)
        uniquify(ret);
    }
  }

  void uniquify(func::ReturnOp ret) {
    // The values needing copies: returned more than once, or block
    // arguments returned at all.
    llvm::DenseMap<Value, unsigned> timesReturned;
    for (Value value : ret->getOperands())
      ++timesReturned[value];
    auto needsCopies = [&](Value value) {
      return isa<MeshTensorType>(value.getType()) &&
             (timesReturned.lookup(value) > 1 || isa<BlockArgument>(value));
    };
    OpBuilder builder(ret);
    if (useTransferInsteadOfFragment) {
      // A transfer per return position but the first of a computed value.
      llvm::DenseSet<Value> returned;
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        bool firstTime = returned.insert(value).second;
        if (needsCopies(value) && (!firstTime || isa<BlockArgument>(value)))
          operand.set(TransferOp::create(builder, value.getLoc(),
                                         value.getType(), value));
      }
      return;
    }
    // One identity fragment per mesh: each value needing copies is one
    // operand, returned once for each of its return positions, all of which
    // then take their own result.
    llvm::MapVector<StringRef, SmallVector<OpOperand *>> positionsByMesh;
    for (OpOperand &operand : ret->getOpOperands())
      if (needsCopies(operand.get()))
        positionsByMesh[cast<MeshTensorType>(operand.get().getType())
                            .getMeshName()]
            .push_back(&operand);
    for (auto &[meshName, positions] : positionsByMesh) {
      llvm::MapVector<Value, unsigned> operandIndex;
      SmallVector<Type> resultTypes;
      for (OpOperand *position : positions) {
        operandIndex.try_emplace(position->get(), operandIndex.size());
        resultTypes.push_back(position->get().getType());
      }
      SmallVector<Value> operands(llvm::make_first_range(operandIndex));
      FragmentOp fragment = createFragment(
          builder, ret.getLoc(), meshName, builder.getArrayAttr({}), operands,
          resultTypes, [&](OpBuilder &, ValueRange args) {
            SmallVector<Value> returnedArgs;
            for (OpOperand *position : positions)
              returnedArgs.push_back(args[operandIndex.lookup(position->get())]);
            return returnedArgs;
          });
      addInferredBy(fragment, "uniquify");
      for (auto [position, result] :
           llvm::zip(positions, fragment->getResults()))
        position->set(result);
    }
  }
};

} // namespace
} // namespace mlir::mpmd
