//===- ReshardToCollectives.cpp - -sdy-reshard-to-collectives -------------===//

#include "../Propagation/ShardingUtils.h"
#include "CollectiveInserter.h"

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/Sdy/IR/TensorShardings.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_RESHARDTOCOLLECTIVESPASS
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

namespace {

/// Whether `in` (null: replicated) and `out` put the same axes on every
/// dimension and unreduce the same axes, on the same mesh; open or closed
/// dimensions, priorities and explicitly replicated axes do not matter.
bool isEquivalent(TensorShardingAttr in, TensorShardingAttr out,
                  Operation *scope) {
  if (!in)
    return out.isFullyReplicated();
  if (in.getMesh(scope) != out.getMesh(scope) ||
      in.getUnreducedAxes() != out.getUnreducedAxes() ||
      in.getUnreducedKind() != out.getUnreducedKind() ||
      in.getDimShardings().size() != out.getDimShardings().size())
    return false;
  return llvm::all_of(
      llvm::zip(in.getDimShardings(), out.getDimShardings()), [](auto pair) {
        return std::get<0>(pair).getAxes() == std::get<1>(pair).getAxes();
      });
}

class ReshardToCollectivesPass
    : public impl::ReshardToCollectivesPassBase<ReshardToCollectivesPass> {
  using ReshardToCollectivesPassBase::ReshardToCollectivesPassBase;

  void runOnOperation() override {
    SmallVector<ReshardOp> reshards;
    getOperation().walk([&](ReshardOp op) { reshards.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (ReshardOp op : reshards)
      lower(op, rewriter);
  }

  void lower(ReshardOp op, IRRewriter &rewriter) {
    TensorShardingAttr out = op.getSharding();
    TensorShardingAttr in = getShardingThroughBarriers(op.getInput());
    MeshAttr outMesh = out.getMesh(op);
    // A sharding on the empty mesh `<[]>` shards nothing.
    if (in && isEmptyMesh(in.getMesh(op)))
      in = {};
    MeshAttr inMesh = in ? in.getMesh(op) : outMesh;
    if (!inMesh || !outMesh)
      return;
    if (keepRedundantReshards && isEquivalent(in, out, op))
      return;
    if (isMaximalMesh(inMesh) || isMaximalMesh(outMesh))
      return;
    bool sameAxes = inMesh.getAxes() == outMesh.getAxes();
    if (!sameAxes && !out.isFullyReplicated())
      return;

    if (out.isFullyReplicated()) {
      if (!in || in.isFullyReplicated()) {
        rewriter.replaceOp(op, op.getInput());
        return;
      }
      // Gathering on the input's mesh: the device order is irrelevant to a
      // replicated value.
      out = getFullyClosedSharding(in.getMeshOrRef(),
                                   out.getDimShardings().size());
    }
    rewriter.setInsertionPoint(op);
    Value result =
        insertCollectives(rewriter, op.getLoc(), op.getInput(), in, out, op);
    rewriter.replaceOp(op, result);
  }
};

} // namespace
} // namespace mlir::sdy
