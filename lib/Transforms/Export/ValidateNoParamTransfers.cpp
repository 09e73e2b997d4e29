//===- ValidateNoParamTransfers.cpp - -mpmd-validate-no-param-transfers ---===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_VALIDATENOPARAMTRANSFERSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

class ValidateNoParamTransfersPass
    : public impl::ValidateNoParamTransfersPassBase<
          ValidateNoParamTransfersPass> {
  using ValidateNoParamTransfersPassBase::ValidateNoParamTransfersPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function) || paramPattern.empty())
      return;
    bool failed = false;
    function.walk([&](TransferOp transfer) {
      Value operand = transfer.getTensor();
      // A transfer within one mesh (a memory-kind move) keeps the parameter
      // where it is.
      if (cast<MeshTensorType>(operand.getType()).getMeshName() ==
          transfer.getType().getMeshName())
        return;
      Location location = operand.getLoc();
      std::string printed;
      llvm::raw_string_ostream os(printed);
      location.print(os);
      if (!StringRef(printed).contains(paramPattern))
        return;
      InFlightDiagnostic diagnostic = failOnParamTransfers
                                          ? transfer.emitError()
                                          : transfer.emitWarning();
      diagnostic << "transfer of a parameter: the operand's location "
                 << location << " matches \"" << paramPattern
                 << "\"; parameters are expected to stay on their mesh";
      failed |= failOnParamTransfers;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mpmd
