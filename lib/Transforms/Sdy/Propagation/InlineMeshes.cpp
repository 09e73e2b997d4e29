//===- InlineMeshes.cpp - -sdy-inline-meshes ------------------------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_INLINEMESHESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class InlineMeshesPass : public impl::InlineMeshesPassBase<InlineMeshesPass> {
  using InlineMeshesPassBase::InlineMeshesPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<MeshAttr> meshes;
    for (MeshOp mesh : module.getOps<MeshOp>())
      meshes[mesh.getSymName()] = mesh.getMesh();
    updateShardings(module, [&](TensorShardingAttr sharding,
                                Operation *) -> TensorShardingAttr {
      StringRef name = sharding.getMeshName();
      if (name.empty() || !meshes.contains(name))
        return {};
      return TensorShardingAttr::get(
          sharding.getContext(), meshes.lookup(name),
          sharding.getDimShardings(), sharding.getReplicatedAxes(),
          sharding.getUnreducedAxes(), sharding.getUnreducedKind());
    });
    for (MeshOp mesh : llvm::make_early_inc_range(module.getOps<MeshOp>()))
      mesh.erase();
  }
};

} // namespace
} // namespace mlir::sdy
