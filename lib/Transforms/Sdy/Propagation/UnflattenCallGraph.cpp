//===- UnflattenCallGraph.cpp - -sdy-unflatten-call-graph
//------------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_UNFLATTENCALLGRAPHPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// The `sdy.sharding` of each argument (`ofResults` false) or result of
/// `function`, a unit attribute where there is none.
ArrayAttr getSignatureShardings(func::FuncOp function, bool ofResults) {
  MLIRContext *context = function.getContext();
  SmallVector<Attribute> shardings;
  unsigned count =
      ofResults ? function.getNumResults() : function.getNumArguments();
  for (unsigned index = 0; index < count; ++index) {
    Attribute sharding =
        ofResults ? function.getResultAttr(index, SdyDialect::kShardingAttrName)
                  : function.getArgAttr(index, SdyDialect::kShardingAttrName);
    shardings.push_back(sharding ? sharding : UnitAttr::get(context));
  }
  return ArrayAttr::get(context, shardings);
}

/// What makes two functions interchangeable: the function they were cloned
/// or outlined from, the manual axes they run under and, unless
/// `ignoreShardings`, their argument and result shardings. Attributes are
/// uniqued, so the key compares and hashes by pointer.
ArrayAttr getKey(func::FuncOp function, bool ignoreShardings) {
  MLIRContext *context = function.getContext();
  Attribute manualAxes = function->getAttr(kFuncManualAxesAttr);
  SmallVector<Attribute> key = {
      StringAttr::get(context, getOriginalFuncName(function)),
      manualAxes ? manualAxes : UnitAttr::get(context)};
  if (!ignoreShardings) {
    key.push_back(getSignatureShardings(function, /*ofResults=*/false));
    key.push_back(getSignatureShardings(function, /*ofResults=*/true));
  }
  return ArrayAttr::get(context, key);
}

class UnflattenCallGraphPass
    : public impl::UnflattenCallGraphPassBase<UnflattenCallGraphPass> {
  using UnflattenCallGraphPassBase::UnflattenCallGraphPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::CallOp> calls;
    DenseMap<func::FuncOp, int64_t> callCounts;
    module.walk([&](func::CallOp call) {
      calls.push_back(call);
      if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
        ++callCounts[callee];
    });
    // The function every call of a key goes to: the first of the key in
    // module order, or, when shardings are ignored, the one with the most
    // calls (the first of them on ties).
    DenseMap<func::FuncOp, ArrayAttr> keys;
    llvm::MapVector<ArrayAttr, func::FuncOp> chosen;
    for (auto function : module.getOps<func::FuncOp>()) {
      ArrayAttr key = getKey(function, dedupFunctionsFully);
      keys[function] = key;
      auto [it, inserted] = chosen.try_emplace(key, function);
      if (!inserted && dedupFunctionsFully &&
          callCounts.lookup(function) > callCounts.lookup(it->second))
        it->second = function;
    }
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee)
        continue;
      func::FuncOp target = chosen.lookup(keys.lookup(callee));
      if (target != callee)
        call.setCalleeAttr(FlatSymbolRefAttr::get(target.getSymNameAttr()));
    }
    // The functions left without calls go with the next symbol-dce.
    for (auto function : module.getOps<func::FuncOp>()) {
      function->removeAttr(kOriginalFuncNameAttr);
      function->removeAttr(kFuncManualAxesAttr);
    }
  }
};

} // namespace
} // namespace mlir::sdy
