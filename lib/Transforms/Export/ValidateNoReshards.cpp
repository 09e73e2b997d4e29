//===- ValidateNoReshards.cpp - -mpmd-validate-no-reshards ----------------===//

#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_VALIDATENORESHARDSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

/// True if `function` computes nothing: its body only returns arguments.
bool isReshardOnly(func::FuncOp function) {
  if (!llvm::hasSingleElement(function.getBody()))
    return false;
  Block &body = function.getBody().front();
  return llvm::hasSingleElement(body) &&
         llvm::all_of(body.getTerminator()->getOperands(), [&](Value value) {
           auto arg = dyn_cast<BlockArgument>(value);
           return arg && arg.getOwner() == &body;
         });
}

class ValidateNoReshardsPass
    : public impl::ValidateNoReshardsPassBase<ValidateNoReshardsPass> {
  using ValidateNoReshardsPassBase::ValidateNoReshardsPassBase;

  void runOnOperation() override {
    SymbolTableCollection symbolTables;
    llvm::DenseMap<Operation *, bool> reshardOnlyCallees;
    bool failed = false;
    getOperation().walk([&](FragmentCallOp call) {
      auto callee = symbolTables.lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee)
        return;
      auto [it, inserted] = reshardOnlyCallees.try_emplace(callee, false);
      if (inserted)
        it->second = isReshardOnly(callee);
      if (!it->second)
        return;
      InFlightDiagnostic diagnostic = failOnReshardOnlyFragments
                                          ? call.emitError()
                                          : call.emitWarning();
      diagnostic << "reshard-only fragment: " << call.getCalleeAttr()
                 << " only returns its arguments, so the call only changes "
                    "their sharding";
      failed |= failOnReshardOnlyFragments;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mpmd
