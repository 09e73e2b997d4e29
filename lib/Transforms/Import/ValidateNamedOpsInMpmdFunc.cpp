//===- ValidateNamedOpsInMpmdFunc.cpp - -mpmd-validate-named-ops-in-mpmd-func
//===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_VALIDATENAMEDOPSINMPMDFUNCPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

class ValidateNamedOpsInMpmdFuncPass
    : public impl::ValidateNamedOpsInMpmdFuncPassBase<
          ValidateNamedOpsInMpmdFuncPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (isMpmdFunction(function))
      return;
    bool failed = false;
    function.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isa<NamedComputationOp, NamedTensorOp>(op))
        return WalkResult::advance();
      op->emitError() << "named ops can only be used in MPMD functions "
                         "(functions with a topology), but function '"
                      << function.getSymName() << "' has no topology";
      failed = true;
      return WalkResult::skip();
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mpmd
