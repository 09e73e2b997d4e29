//===- DropShardingAndMesh.cpp - -sdy-drop-sharding-and-mesh --------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_DROPSHARDINGANDMESHPASS
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

namespace {

class DropShardingAndMeshPass
    : public impl::DropShardingAndMeshPassBase<DropShardingAndMeshPass> {
  using DropShardingAndMeshPassBase::DropShardingAndMeshPassBase;

  void runOnOperation() override {
    constexpr StringLiteral kSharding = SdyDialect::kShardingAttrName;
    getOperation().walk([&](Operation *op) {
      if (auto mesh = dyn_cast<MeshOp>(op)) {
        mesh.erase();
        return;
      }
      op->removeAttr(kSharding);
      if (auto named = dyn_cast<NamedComputationOp>(op)) {
        named.removeInShardingsAttr();
        named.removeOutShardingsAttr();
      }
      auto function = dyn_cast<func::FuncOp>(op);
      if (!function)
        return;
      for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
        function.removeArgAttr(i, kSharding);
      for (unsigned i = 0, e = function.getNumResults(); i < e; ++i)
        function.removeResultAttr(i, StringAttr::get(&getContext(), kSharding));
    });
  }
};

} // namespace
} // namespace mlir::sdy
