//===- ManualAxesCleanup.cpp - -sdy-manual-axes-cleanup -------------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_MANUALAXESCLEANUPPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// The mesh of the op's in/out shardings that is not the empty mesh.
Attribute getCommonMeshOrRef(ManualComputationOp op) {
  SmallVector<TensorShardingAttr> all(op.getInShardings().getShardings());
  llvm::append_range(all, op.getOutShardings().getShardings());
  for (TensorShardingAttr sharding : all)
    if (MeshAttr mesh = sharding.getMesh(op); mesh && !isEmptyMesh(mesh))
      return sharding.getMeshOrRef();
  return {};
}

/// `sharding` on `meshOrRef`, with the manual axes it does not use
/// replicated.
TensorShardingAttr cleanUp(TensorShardingAttr sharding, Type type,
                           ArrayRef<StringAttr> manualAxes,
                           Attribute meshOrRef, MeshAttr mesh) {
  if (!isa<ShapedType>(type))
    return sharding;
  auto uses = [&](StringAttr name) {
    auto isNamed = [&](AxisRefAttr axis) { return axis.getName() == name; };
    return llvm::any_of(sharding.getDimShardings(),
                        [&](DimensionShardingAttr dim) {
                          return llvm::any_of(dim.getAxes(), isNamed);
                        }) ||
           llvm::any_of(sharding.getReplicatedAxes(), isNamed) ||
           llvm::any_of(sharding.getUnreducedAxes(), isNamed);
  };
  SmallVector<AxisRefAttr> replicated(sharding.getReplicatedAxes());
  for (StringAttr name : manualAxes)
    if (!uses(name))
      replicated.push_back(
          AxisRefAttr::get(sharding.getContext(), name.getValue(), {}));
  return TensorShardingAttr::get(
      sharding.getContext(), meshOrRef, sharding.getDimShardings(),
      sortAndMergeAxes(replicated, mesh), sharding.getUnreducedAxes(),
      sharding.getUnreducedKind());
}

class ManualAxesCleanupPass
    : public impl::ManualAxesCleanupPassBase<ManualAxesCleanupPass> {
  using ManualAxesCleanupPassBase::ManualAxesCleanupPassBase;

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](ManualComputationOp op) {
      ArrayRef<StringAttr> manualAxes = op.getManualAxes().getValue();
      if (manualAxes.empty())
        return WalkResult::advance();
      Attribute meshOrRef = getCommonMeshOrRef(op);
      if (!meshOrRef) {
        Block &body = op.getBody().front();
        if (op.getNumOperands() == 0 && op.getNumResults() == 0 &&
            !llvm::hasSingleElement(body)) {
          op.emitOpError()
              << "has manual axes but neither operands nor results, so its "
                 "mesh is unknown";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      }
      MeshAttr mesh = TensorShardingAttr::get(op.getContext(), meshOrRef, {},
                                              {}, {})
                          .getMesh(op);
      SmallVector<StringAttr> sorted(manualAxes);
      llvm::sort(sorted, [&](StringAttr lhs, StringAttr rhs) {
        return mesh.getAxisIndex(lhs.getValue()).value_or(~0u) <
               mesh.getAxisIndex(rhs.getValue()).value_or(~0u);
      });
      auto cleanList = [&](TensorShardingPerValueAttr shardings,
                           TypeRange types) {
        SmallVector<TensorShardingAttr> cleaned;
        for (auto [sharding, type] :
             llvm::zip(shardings.getShardings(), types))
          cleaned.push_back(cleanUp(sharding, type, sorted, meshOrRef, mesh));
        return TensorShardingPerValueAttr::get(op.getContext(), cleaned);
      };
      op.setManualAxesAttr(ManualAxesAttr::get(op.getContext(), sorted));
      op.setInShardingsAttr(
          cleanList(op.getInShardings(), op.getOperandTypes()));
      op.setOutShardingsAttr(
          cleanList(op.getOutShardings(), op.getResultTypes()));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::sdy
