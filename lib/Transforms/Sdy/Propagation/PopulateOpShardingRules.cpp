//===- PopulateOpShardingRules.cpp - -sdy-populate-op-sharding-rules ------===//

#include "mpmd/Transforms/Sdy/Propagation/OpShardingRuleRegistry.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_POPULATEOPSHARDINGRULESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class PopulateOpShardingRulesPass
    : public impl::PopulateOpShardingRulesPassBase<
          PopulateOpShardingRulesPass> {
  using PopulateOpShardingRulesPassBase::PopulateOpShardingRulesPassBase;

  void runOnOperation() override {
    getOperation().walk([&](Operation *op) {
      getOrCreateOpShardingRule(op, conservativePropagation,
                                /*storeOnOp=*/true);
    });
  }
};

} // namespace
} // namespace mlir::sdy
