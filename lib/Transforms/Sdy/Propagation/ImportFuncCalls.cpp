//===- ImportFuncCalls.cpp - -sdy-import-func-calls
//------------------------===//

#include "DataFlowEdges.h"
#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_IMPORTFUNCCALLSPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// The attribute of a function naming the thread it runs on, which the
/// named computation standing for a call of it keeps.
constexpr StringLiteral kExecutionThreadAttr = "execution_thread";

/// The in_shardings of a named computation replacing a call of `callee`:
/// the argument shardings of `callee`, or null when it has none.
TensorShardingPerValueAttr getArgumentShardings(func::FuncOp callee) {
  SmallVector<TensorShardingAttr> shardings;
  for (unsigned index = 0; index < callee.getNumArguments(); ++index)
    shardings.push_back(callee.getArgAttrOfType<TensorShardingAttr>(
        index, SdyDialect::kShardingAttrName));
  return fillWithFullyOpen(shardings, callee.getArgumentTypes(),
                           callee.getContext());
}

class ImportFuncCallsPass
    : public impl::ImportFuncCallsPassBase<ImportFuncCallsPass> {
  using ImportFuncCallsPassBase::ImportFuncCallsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) { calls.push_back(call); });
    // The body of each callee already imported, which later calls copy.
    llvm::MapVector<func::FuncOp, Region *> importedBodies;
    bool warnedAboutCopies = false;
    // Calls inside copied bodies are appended as they appear.
    for (size_t index = 0; index < calls.size(); ++index) {
      func::CallOp call = calls[index];
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      auto imported = importedBodies.find(callee);
      // A declaration has no body to import: the call stays opaque. (An
      // imported callee has lost its body to its first call.)
      if (!callee || (imported == importedBodies.end() && callee.isExternal()))
        continue;
      OpBuilder builder(call);
      auto named = NamedComputationOp::create(
          builder, call.getLoc(), call.getResultTypes(),
          getOriginalFuncName(callee), call.getOperands(),
          getArgumentShardings(callee),
          call->getAttrOfType<TensorShardingPerValueAttr>(
              SdyDialect::kShardingAttrName));
      for (NamedAttribute attr : call->getDiscardableAttrs())
        if (attr.getName() != SdyDialect::kShardingAttrName)
          named->setAttr(attr.getName(), attr.getValue());
      if (Attribute thread = callee->getAttr(kExecutionThreadAttr))
        named->setAttr(kExecutionThreadAttr, thread);

      Region &body = named.getBody();
      if (imported == importedBodies.end()) {
        body.takeBody(callee.getBody());
        importedBodies.insert({callee, &body});
      } else {
        if (!warnedAboutCopies) {
          call.emitWarning()
              << "@" << callee.getSymName()
              << " has several calls: each named computation gets a copy of "
                 "its body (run -sdy-flatten-call-graph first to give each "
                 "call its own function)";
          warnedAboutCopies = true;
        }
        IRMapping mapping;
        imported->second->cloneInto(&body, mapping);
        body.walk([&](func::CallOp nested) { calls.push_back(nested); });
      }
      Operation *terminator = body.front().getTerminator();
      if (isa<func::ReturnOp>(terminator)) {
        builder.setInsertionPoint(terminator);
        ReturnOp::create(builder, terminator->getLoc(),
                         terminator->getOperands());
        terminator->erase();
      }
      call.replaceAllUsesWith(named.getResults());
      call.erase();
    }
    for (auto &[callee, body] : importedBodies)
      callee.erase();
    if (addDataFlowEdgesOnNamedComputations)
      module.walk([](NamedComputationOp named) { insertDataFlowEdges(named); });
  }
};

} // namespace
} // namespace mlir::sdy
