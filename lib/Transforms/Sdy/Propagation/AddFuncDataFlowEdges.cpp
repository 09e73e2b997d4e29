//===- AddFuncDataFlowEdges.cpp - -sdy-add-func-data-flow-edges
//------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_ADDFUNCDATAFLOWEDGESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

/// Puts an `sdy.func_data_flow_edge` of `owner` at the builder's insertion
/// point, carrying `sharding`, and routes every other use of `owner` through
/// it.
void insertEdge(OpBuilder &builder, Value owner, TensorShardingAttr sharding) {
  auto edge = FuncDataFlowEdgeOp::create(builder, owner.getLoc(),
                                         owner.getType(), owner);
  if (sharding)
    edge->setAttr(
        SdyDialect::kShardingAttrName,
        TensorShardingPerValueAttr::get(builder.getContext(), {sharding}));
  owner.replaceAllUsesExcept(edge.getResult(), edge);
}

class AddFuncDataFlowEdgesPass
    : public impl::AddFuncDataFlowEdgesPassBase<AddFuncDataFlowEdgesPass> {
  using AddFuncDataFlowEdgesPassBase::AddFuncDataFlowEdgesPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = getMainFunction(module);
    OpBuilder builder(&getContext());
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function == main || function.isExternal())
        continue;
      builder.setInsertionPointToStart(&function.getBody().front());
      for (BlockArgument arg : function.getArguments())
        if (isStaticTensor(arg.getType()))
          insertEdge(builder, arg,
                     function.getArgAttrOfType<TensorShardingAttr>(
                         arg.getArgNumber(), SdyDialect::kShardingAttrName));
    }
    module.walk([&](func::CallOp call) {
      builder.setInsertionPointAfter(call);
      for (OpResult result : call->getResults())
        if (isStaticTensor(result.getType()))
          insertEdge(builder, result, getSharding(result));
    });
  }
};

} // namespace
} // namespace mlir::sdy
