//===- CallInline.cpp - -mpmd-call-inline ---------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/Passes.h"

#include "llvm/ADT/SetVector.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_CALLINLINEPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

/// A call to inline, with the callees whose bodies it was copied from (to
/// detect recursion).
struct PendingCall {
  CallOp call;
  SmallVector<StringAttr> inlinedFrom;
};

class CallInlinePass : public impl::CallInlinePassBase<CallInlinePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbolTable(module);
    SmallVector<PendingCall> worklist;
    module.walk([&](CallOp call) { worklist.push_back({call, {}}); });
    llvm::SetVector<func::FuncOp> callees;
    // Process in program order; calls found in inlined bodies go next.
    std::reverse(worklist.begin(), worklist.end());
    while (!worklist.empty()) {
      PendingCall pending = worklist.pop_back_val();
      CallOp call = pending.call;
      StringAttr calleeName = call.getCalleeAttr().getAttr();
      auto callee = symbolTable.lookup<func::FuncOp>(calleeName);
      if (!callee) {
        call.emitOpError() << "callee " << call.getCalleeAttr()
                           << " is not a func.func in this module";
        return signalPassFailure();
      }
      if (llvm::is_contained(pending.inlinedFrom, calleeName)) {
        call.emitOpError() << "recursive call of " << call.getCalleeAttr()
                           << " cannot be inlined";
        return signalPassFailure();
      }
      if (callee.isExternal() || !llvm::hasSingleElement(callee.getBody())) {
        call.emitOpError() << "cannot inline callee " << call.getCalleeAttr()
                           << ": it must have a body of exactly one block";
        return signalPassFailure();
      }
      // A transfer must sit directly in a function (upstream's verifier), so
      // it cannot move into an mpmd.for body.
      if (!isa<func::FuncOp>(call->getParentOp()))
        if (auto transfer = llvm::find_if(
                callee.getBody().front(),
                [](Operation &op) { return isa<TransferOp>(op); });
            transfer != callee.getBody().front().end()) {
          InFlightDiagnostic diag =
              call.emitOpError()
              << "cannot inline callee " << call.getCalleeAttr() << " into "
              << call->getParentOp()->getName()
              << ": it holds an mpmd.transfer, which must be directly in a "
                 "function; unroll the loop first";
          diag.attachNote(transfer->getLoc()) << "the transfer";
          return signalPassFailure();
        }
      callees.insert(callee);

      SmallVector<NamedAttribute> attrs =
          llvm::to_vector(call->getDiscardableAttrs());
      SmallVector<StringAttr> inlinedFrom = pending.inlinedFrom;
      inlinedFrom.push_back(calleeName);

      Block &body = callee.getBody().front();
      IRMapping mapping;
      mapping.map(body.getArguments(), call.getOperands());
      OpBuilder builder(call);
      SmallVector<PendingCall> nested;
      for (Operation &op : body.without_terminator()) {
        Operation *clone = builder.clone(op, mapping);
        clone->walk([&](Operation *inner) {
          if (isa<FragmentOp, FragmentCallOp>(inner)) {
            for (NamedAttribute attr : attrs)
              inner->setAttr(attr.getName(), attr.getValue());
          } else if (auto innerCall = dyn_cast<CallOp>(inner)) {
            // The inner call's own attributes win.
            for (NamedAttribute attr : attrs)
              if (!innerCall->hasAttr(attr.getName()))
                innerCall->setAttr(attr.getName(), attr.getValue());
            nested.push_back({innerCall, inlinedFrom});
          }
        });
      }
      Operation *terminator = body.getTerminator();
      for (auto [result, returned] :
           llvm::zip(call->getResults(), terminator->getOperands()))
        result.replaceAllUsesWith(mapping.lookupOrDefault(returned));
      call.erase();
      for (PendingCall &inner : llvm::reverse(nested))
        worklist.push_back(std::move(inner));
    }

    // Callees no longer called are dropped, like symbol-dce would: one walk
    // counts the remaining symbol uses.
    llvm::DenseMap<StringAttr, unsigned> useCounts;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(module))
      for (const SymbolTable::SymbolUse &use : *uses)
        ++useCounts[use.getSymbolRef().getRootReference()];
    for (func::FuncOp callee : callees)
      if (callee.isPrivate() && !useCounts.lookup(callee.getSymNameAttr()))
        symbolTable.erase(callee);
  }
};

} // namespace
} // namespace mlir::mpmd
