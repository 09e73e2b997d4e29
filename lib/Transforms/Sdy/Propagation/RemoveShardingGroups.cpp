//===- RemoveShardingGroups.cpp - -sdy-remove-sharding-groups -------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVESHARDINGGROUPSPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class RemoveShardingGroupsPass
    : public impl::RemoveShardingGroupsPassBase<RemoveShardingGroupsPass> {
  using RemoveShardingGroupsPassBase::RemoveShardingGroupsPassBase;

  void runOnOperation() override {
    getOperation().walk([](ShardingGroupOp group) { group.erase(); });
  }
};

} // namespace
} // namespace mlir::sdy
