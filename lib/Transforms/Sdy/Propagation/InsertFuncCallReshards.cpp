//===- InsertFuncCallReshards.cpp - -sdy-insert-func-call-reshards
//---------===//

#include "ShardingUtils.h"
#include "mpmd/Dialect/Sdy/IR/TensorShardings.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_INSERTFUNCCALLRESHARDSPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// Whether the values sharded by `lhs` and `rhs` (null: fully replicated)
/// are laid out the same on the devices: same mesh, same axes per
/// dimension, same unreduced axes; open/closed, priorities and replicated
/// axes do not matter.
bool isEquivalent(TensorShardingAttr lhs, TensorShardingAttr rhs) {
  if (!lhs || !rhs) {
    TensorShardingAttr present = lhs ? lhs : rhs;
    return !present ||
           (present.isFullyReplicated() && present.getUnreducedAxes().empty());
  }
  if (lhs.getMeshOrRef() != rhs.getMeshOrRef() ||
      lhs.getUnreducedAxes() != rhs.getUnreducedAxes() ||
      lhs.getUnreducedKind() != rhs.getUnreducedKind() ||
      lhs.getDimShardings().size() != rhs.getDimShardings().size())
    return false;
  return llvm::all_of_zip(lhs.getDimShardings(), rhs.getDimShardings(),
                          [](DimensionShardingAttr a, DimensionShardingAttr b) {
                            return a.getAxes() == b.getAxes();
                          });
}

class InsertFuncCallReshardsPass
    : public impl::InsertFuncCallReshardsPassBase<InsertFuncCallReshardsPass> {
  using InsertFuncCallReshardsPassBase::InsertFuncCallReshardsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    module.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee)
        return;
      SmallVector<TensorShardingAttr> targets;
      bool anyTarget = false;
      OpBuilder builder(call->getContext());
      builder.setInsertionPointAfter(call);
      for (OpResult result : call->getResults()) {
        TensorShardingAttr current = getSharding(result);
        TensorShardingAttr target =
            callee.getResultAttrOfType<TensorShardingAttr>(
                result.getResultNumber(), SdyDialect::kShardingAttrName);
        // A token has no layout to reshard; its sharding stays as given.
        if (!isa<RankedTensorType>(result.getType())) {
          targets.push_back(target ? target : current);
          anyTarget |= static_cast<bool>(target);
          continue;
        }
        // The callee's result is replicated: say so on the call's mesh.
        if (!target && current)
          target = getFullyClosedSharding(
              current.getMeshOrRef(),
              cast<ShapedType>(result.getType()).getRank());
        targets.push_back(target);
        anyTarget |= static_cast<bool>(target);
        if (isEquivalent(current, target))
          continue;
        // The call's users expect `current` (replicated if none).
        TensorShardingAttr expected =
            current ? current
                    : getFullyClosedSharding(
                          target.getMeshOrRef(),
                          cast<ShapedType>(result.getType()).getRank());
        auto reshard =
            ReshardOp::create(builder, call.getLoc(), result, expected);
        result.replaceAllUsesExcept(reshard.getResult(), reshard);
      }
      if (anyTarget)
        call->setAttr(SdyDialect::kShardingAttrName,
                      fillWithFullyOpen(targets, call->getResultTypes(),
                                        call->getContext()));
    });
  }
};

} // namespace
} // namespace mlir::sdy
