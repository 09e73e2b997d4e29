//===- DropShardingRules.cpp - -sdy-drop-sharding-rules -------------------===//

#include "PropagationDriver.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_DROPSHARDINGRULESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class DropShardingRulesPass
    : public impl::DropShardingRulesPassBase<DropShardingRulesPass> {
  using DropShardingRulesPassBase::DropShardingRulesPassBase;

  void runOnOperation() override { dropNonCustomShardingRules(getOperation()); }
};

} // namespace
} // namespace mlir::sdy
