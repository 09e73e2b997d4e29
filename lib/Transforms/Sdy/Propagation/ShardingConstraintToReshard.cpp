//===- ShardingConstraintToReshard.cpp - -sdy-sharding-constraint-to-reshard ===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_SHARDINGCONSTRAINTTORESHARDPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class ShardingConstraintToReshardPass
    : public impl::ShardingConstraintToReshardPassBase<
          ShardingConstraintToReshardPass> {
  using ShardingConstraintToReshardPassBase::
      ShardingConstraintToReshardPassBase;

  void runOnOperation() override {
    getOperation().walk([](ShardingConstraintOp constraint) {
      OpBuilder builder(constraint);
      auto reshard =
          ReshardOp::create(builder, constraint.getLoc(),
                            constraint.getInput(), constraint.getSharding());
      // Discardable attributes go along; the sharding is inherent to both.
      for (NamedAttribute attr : constraint->getDiscardableAttrs())
        reshard->setAttr(attr.getName(), attr.getValue());
      constraint.replaceAllUsesWith(reshard.getResult());
      constraint.erase();
    });
  }
};

} // namespace
} // namespace mlir::sdy
