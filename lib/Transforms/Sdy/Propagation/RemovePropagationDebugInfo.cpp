//===- RemovePropagationDebugInfo.cpp - -sdy-remove-propagation-debug-info ===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVEPROPAGATIONDEBUGINFOPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// The attributes `debug-sharding-origins` and
/// `debug-propagation-edge-sharding` record.
constexpr StringLiteral kDebugAttrNames[] = {
    "sdy.sharding_origins",           "sdy.propagation_edges",
    "sdy.block_arg_sharding_origins", "sdy.result_sharding_origins",
    "sdy.block_arg_propagation_edges", "sdy.result_propagation_edges",
};

class RemovePropagationDebugInfoPass
    : public impl::RemovePropagationDebugInfoPassBase<
          RemovePropagationDebugInfoPass> {
  using RemovePropagationDebugInfoPassBase::
      RemovePropagationDebugInfoPassBase;

  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      for (StringLiteral name : kDebugAttrNames)
        op->removeAttr(name);
      auto function = dyn_cast<func::FuncOp>(op);
      if (!function)
        return;
      for (unsigned index = 0; index < function.getNumArguments(); ++index)
        for (StringLiteral name : kDebugAttrNames)
          function.removeArgAttr(index, name);
      for (unsigned index = 0; index < function.getNumResults(); ++index)
        for (StringLiteral name : kDebugAttrNames)
          function.removeResultAttr(index, StringAttr::get(op->getContext(), name));
    });
  }
};

} // namespace
} // namespace mlir::sdy
