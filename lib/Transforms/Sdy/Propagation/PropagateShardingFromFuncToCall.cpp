//===- PropagateShardingFromFuncToCall.cpp - -sdy-propagate-sharding-from-func-to-call ===//

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
      Attribute meshOrRef;
      for (unsigned index = 0; index < callee.getNumResults(); ++index) {
        auto sharding = callee.getResultAttrOfType<TensorShardingAttr>(
            index, SdyDialect::kShardingAttrName);
        shardings.push_back(sharding);
        if (sharding && !meshOrRef)
          meshOrRef = sharding.getMeshOrRef();
      }
      if (!meshOrRef)
        return;
      for (auto [sharding, type] : llvm::zip(shardings, call.getResultTypes()))
        if (!sharding) {
          auto shaped = dyn_cast<ShapedType>(type);
          sharding = TensorShardingAttr::getFullyOpen(
              call.getContext(), meshOrRef,
              shaped && shaped.hasRank() ? shaped.getRank() : 0);
        }
      call->setAttr(SdyDialect::kShardingAttrName,
                    TensorShardingPerValueAttr::get(call.getContext(),
                                                    shardings));
    });
  }
};

} // namespace
} // namespace mlir::sdy
