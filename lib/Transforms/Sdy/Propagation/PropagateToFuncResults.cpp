//===- PropagateToFuncResults.cpp - -sdy-propagate-to-func-results
//---------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_PROPAGATETOFUNCRESULTSPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class PropagateToFuncResultsPass
    : public impl::PropagateToFuncResultsPassBase<PropagateToFuncResultsPass> {
  using PropagateToFuncResultsPassBase::PropagateToFuncResultsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = getMainFunction(module);
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function == main || function.isExternal())
        continue;
      auto terminator =
          dyn_cast<func::ReturnOp>(function.getBody().front().getTerminator());
      if (!terminator)
        continue;
      // One update of the result attributes, whatever their number.
      SmallVector<DictionaryAttr> resultAttrs;
      function.getAllResultAttrs(resultAttrs);
      for (auto [dict, returned] :
           llvm::zip(resultAttrs, terminator.getOperands())) {
        NamedAttrList attrs(dict);
        if (TensorShardingAttr sharding = getSharding(returned))
          attrs.set(SdyDialect::kShardingAttrName, sharding);
        else
          attrs.erase(SdyDialect::kShardingAttrName);
        dict = attrs.getDictionary(&getContext());
      }
      function.setAllResultAttrs(resultAttrs);
    }
  }
};

} // namespace
} // namespace mlir::sdy
