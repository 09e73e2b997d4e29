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
    // Value -> the return operand indices that need a copy of it.
    llvm::MapVector<Value, SmallVector<unsigned>> copies;
    llvm::DenseSet<Value> returned;
    for (OpOperand &operand : ret->getOpOperands()) {
      Value value = operand.get();
      if (!isa<MeshTensorType>(value.getType()))
        continue;
      bool firstTime = returned.insert(value).second;
      if (!firstTime || isa<BlockArgument>(value))
        copies[value].push_back(operand.getOperandNumber());
    }
    OpBuilder builder(ret);
    for (auto &[value, indices] : copies) {
      auto type = cast<MeshTensorType>(value.getType());
      if (useTransferInsteadOfFragment) {
        for (unsigned index : indices)
          ret->setOperand(index, TransferOp::create(builder, value.getLoc(),
                                                    type, value));
        continue;
      }
      SmallVector<Type> resultTypes(indices.size(), type);
      FragmentOp fragment = createFragment(
          builder, value.getLoc(), type.getMeshName(),
          builder.getArrayAttr({}), value, resultTypes,
          [&](OpBuilder &, ValueRange args) {
            return SmallVector<Value>(indices.size(), args.front());
          });
      addInferredBy(fragment, "uniquify");
      for (auto [index, result] : llvm::zip(indices, fragment->getResults()))
        ret->setOperand(index, result);
    }
  }
};

} // namespace
} // namespace mlir::mpmd
