//===- PropagateShardingFromFuncToCall.cpp -
//-sdy-propagate-sharding-from-func-to-call ===//

#include "ShardingUtils.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_PROPAGATESHARDINGFROMFUNCTOCALLPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class PropagateShardingFromFuncToCallPass
    : public impl::PropagateShardingFromFuncToCallPassBase<
          PropagateShardingFromFuncToCallPass> {
  using PropagateShardingFromFuncToCallPassBase::
      PropagateShardingFromFuncToCallPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    module.walk([&](func::CallOp call) {
      if (call->hasAttr(SdyDialect::kShardingAttrName))
        return;
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee)
        return;
      SmallVector<TensorShardingAttr> shardings;
      for (unsigned index = 0; index < callee.getNumResults(); ++index)
        shardings.push_back(callee.getResultAttrOfType<TensorShardingAttr>(
            index, SdyDialect::kShardingAttrName));
      if (TensorShardingPerValueAttr filled = fillWithFullyOpen(
              shardings, call.getResultTypes(), call.getContext()))
        call->setAttr(SdyDialect::kShardingAttrName, filled);
    });
  }
};

} // namespace
} // namespace mlir::sdy
