//===- ExportNamedComputations.cpp - -sdy-export-named-computations
//--------===//

#include "DataFlowEdges.h"
#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_EXPORTNAMEDCOMPUTATIONSPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

constexpr StringLiteral kExecutionThreadAttr = "execution_thread";

/// The shardings of the data-flow edges of `owners` (missing ones fully
/// open) when at least one edge has one, else `stored`. Erases the edges.
TensorShardingPerValueAttr takeEdgeShardings(ArrayRef<Value> owners,
                                             TensorShardingPerValueAttr stored,
                                             MLIRContext *context) {
  SmallVector<TensorShardingAttr> shardings;
  SmallVector<Type> types;
  for (Value owner : owners) {
    types.push_back(owner.getType());
    DataFlowEdgeOp edge = getDataFlowEdge(owner);
    shardings.push_back(edge ? edge.getShardingAttr() : nullptr);
    if (edge) {
      edge.getResult().replaceAllUsesWith(owner);
      edge.erase();
    }
  }
  if (TensorShardingPerValueAttr fromEdges =
          fillWithFullyOpen(shardings, types, context))
    return fromEdges;
  return stored;
}

class ExportNamedComputationsPass
    : public impl::ExportNamedComputationsPassBase<
          ExportNamedComputationsPass> {
  using ExportNamedComputationsPassBase::ExportNamedComputationsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    SymbolTable symbols(module);
    // Post-order: a nested computation becomes a call before the body
    // holding it moves to a function.
    SmallVector<NamedComputationOp> computations;
    module.walk(
        [&](NamedComputationOp named) { computations.push_back(named); });
    for (NamedComputationOp named : computations) {
      Block &body = named.getBody().front();
      SmallVector<Value> args(body.getArguments());
      SmallVector<Value> results(named->getResults());
      TensorShardingPerValueAttr in =
          takeEdgeShardings(args, named.getInShardingsAttr(), context);
      TensorShardingPerValueAttr out =
          takeEdgeShardings(results, named.getOutShardingsAttr(), context);

      OpBuilder builder(module.getBodyRegion());
      builder.setInsertionPointToEnd(module.getBody());
      auto function =
          func::FuncOp::create(builder, named.getLoc(), named.getName(),
                               builder.getFunctionType(named.getOperandTypes(),
                                                       named.getResultTypes()));
      function.setPrivate();
      // Renamed `<name>_<n>` when the name is taken.
      symbols.insert(function);
      function->setAttr(kOriginalFuncNameAttr, named.getNameAttr());
      if (Attribute thread = named->getAttr(kExecutionThreadAttr))
        function->setAttr(kExecutionThreadAttr, thread);
      function.getBody().takeBody(named.getBody());
      Operation *terminator = function.getBody().front().getTerminator();
      builder.setInsertionPoint(terminator);
      func::ReturnOp::create(builder, terminator->getLoc(),
                             terminator->getOperands());
      terminator->erase();
      if (in) {
        SmallVector<DictionaryAttr> argAttrs;
        for (TensorShardingAttr sharding : in.getShardings())
          argAttrs.push_back(DictionaryAttr::get(
              context,
              {NamedAttribute(
                  StringAttr::get(context, SdyDialect::kShardingAttrName),
                  sharding)}));
        function.setAllArgAttrs(argAttrs);
      }

      builder.setInsertionPoint(named);
      auto call = func::CallOp::create(builder, named.getLoc(), function,
                                       named.getOperands());
      for (NamedAttribute attr : named->getDiscardableAttrs())
        if (attr.getName() != kExecutionThreadAttr)
          call->setAttr(attr.getName(), attr.getValue());
      if (out)
        call->setAttr(SdyDialect::kShardingAttrName, out);
      named.replaceAllUsesWith(call.getResults());
      named.erase();
    }
  }
};

} // namespace
} // namespace mlir::sdy
