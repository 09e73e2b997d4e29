//===- ValidateNamedOpsInMpmdFunc.cpp ------------------------------------===//
//
// -mpmd-validate-named-ops-in-mpmd-func
//
//===----------------------------------------------------------------------===//

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
    function.walk([&](Operation *op) {
      if (!isa<NamedComputationOp, NamedTensorOp>(op))
        return;
      Operation *parent = op->getParentOp();
      if (parent == function.getOperation()) {
        if (!isMpmdFunction(function))
          op->emitError() << "named ops can only be used in MPMD functions "
                             "(functions with a topology), but function '"
                          << function.getSymName() << "' has no topology";
        return;
      }
      if (!isa<MpmdDialect>(parent->getDialect()))
        op->emitError() << "named ops must be directly in an MPMD function "
                           "or in an mpmd op, but this one is in '"
                        << parent->getName() << "'";
    });
  }
};

} // namespace
} // namespace mlir::mpmd
