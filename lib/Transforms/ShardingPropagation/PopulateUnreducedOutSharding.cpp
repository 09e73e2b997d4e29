//===- PopulateUnreducedOutSharding.cpp - -mpmd-populate-unreduced-out-sharding ===//
//
// A fragment may return a partial sum on purpose (the reduction happens
// later, e.g. after a transfer or fused with another collective): the user
// says so with a sharding constraint with `unreduced` axes on the returned
// value. Propagation sets the dimension shardings of `out_shardings` but not
// the unreduced axes, so without this pass the fragment would have to
// reduce before returning.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_POPULATEUNREDUCEDOUTSHARDINGPASS
#include "mpmd/Transforms/ShardingPropagation/Passes.h.inc"

namespace {

int64_t getRank(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor ? tensor.getRank() : 0;
}

class PopulateUnreducedOutShardingPass
    : public impl::PopulateUnreducedOutShardingPassBase<
          PopulateUnreducedOutShardingPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    bool valid = true;
    for (Block *block : getBlocksWithFragments(function))
      for (auto fragment : block->getOps<FragmentOp>())
        valid &= succeeded(populate(fragment));
    if (!valid)
      signalPassFailure();
  }

  LogicalResult populate(FragmentOp fragment) {
    Operation *ret = fragment.getRegion().front().getTerminator();
    // The constraint with unreduced axes on each returned value, if any.
    SmallVector<sdy::TensorShardingAttr> constraints;
    Attribute meshOrRef;
    for (Value returned : ret->getOperands()) {
      auto constraint = returned.getDefiningOp<sdy::ShardingConstraintOp>();
      sdy::TensorShardingAttr sharding =
          constraint ? constraint.getSharding() : nullptr;
      if (sharding && sharding.getUnreducedAxes().empty())
        sharding = nullptr;
      if (sharding)
        meshOrRef = sharding.getMeshOrRef();
      constraints.push_back(sharding);
    }
    if (!meshOrRef)
      return success();
    sdy::TensorShardingPerValueAttr existing = fragment.getOutShardingsAttr();
    if (existing &&
        existing.getShardings().size() != fragment->getNumResults())
      existing = nullptr;
    SmallVector<sdy::TensorShardingAttr> shardings;
    for (auto [index, returned] : llvm::enumerate(ret->getOperands())) {
      sdy::TensorShardingAttr current =
          existing ? existing.getShardings()[index] : nullptr;
      sdy::TensorShardingAttr constraint = constraints[index];
      if (!constraint) {
        shardings.push_back(current ? current
                                    : sdy::TensorShardingAttr::getFullyOpen(
                                          &getContext(), meshOrRef,
                                          getRank(returned)));
        continue;
      }
      if (!current) {
        // Nothing propagated: the constraint says everything.
        shardings.push_back(constraint);
        continue;
      }
      if (!current.getUnreducedAxes().empty() &&
          (current.getUnreducedAxes() != constraint.getUnreducedAxes() ||
           current.getUnreducedKind() != constraint.getUnreducedKind()))
        return fragment.emitError()
               << "result " << index << " has out sharding " << current
               << " but returns a value constrained to " << constraint
               << ": their unreduced axes differ";
      shardings.push_back(sdy::TensorShardingAttr::get(
          &getContext(), current.getMeshOrRef(), current.getDimShardings(),
          current.getReplicatedAxes(), constraint.getUnreducedAxes(),
          constraint.getUnreducedKind()));
    }
    fragment.setOutShardingsAttr(
        sdy::TensorShardingPerValueAttr::get(&getContext(), shardings));
    return success();
  }
};

} // namespace
} // namespace mlir::mpmd
