//===- FlattenCallGraph.cpp - -sdy-flatten-call-graph
//----------------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_FLATTENCALLGRAPHPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// The function with a body `call` calls, or null.
func::FuncOp getDefinedCallee(func::CallOp call, SymbolTable &symbols) {
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  return callee && !callee.isExternal() ? callee : func::FuncOp();
}

/// Fails, with an error on the call closing the cycle, when a function of
/// `module` reaches itself through calls: cloning it per call site would
/// never end. Depth-first search with three colours, O(functions + calls).
LogicalResult verifyNoRecursion(ModuleOp module, SymbolTable &symbols) {
  enum class State { kOnStack, kDone };
  DenseMap<func::FuncOp, State> states;
  // Iterative DFS: a function and the calls of it still to follow.
  struct Frame {
    func::FuncOp function;
    SmallVector<func::CallOp> calls;
    size_t next = 0;
  };
  auto callsOf = [](func::FuncOp function) {
    SmallVector<func::CallOp> calls;
    function.walk([&](func::CallOp call) { calls.push_back(call); });
    return calls;
  };
  for (auto root : module.getOps<func::FuncOp>()) {
    if (states.contains(root))
      continue;
    SmallVector<Frame> stack;
    stack.push_back({root, callsOf(root)});
    states[root] = State::kOnStack;
    while (!stack.empty()) {
      Frame &frame = stack.back();
      if (frame.next == frame.calls.size()) {
        states[frame.function] = State::kDone;
        stack.pop_back();
        continue;
      }
      func::CallOp call = frame.calls[frame.next++];
      func::FuncOp callee = getDefinedCallee(call, symbols);
      if (!callee)
        continue;
      auto it = states.find(callee);
      if (it == states.end()) {
        states[callee] = State::kOnStack;
        stack.push_back({callee, callsOf(callee)});
        continue;
      }
      if (it->second == State::kOnStack)
        return call.emitError()
               << "cannot flatten a recursive call graph: @"
               << callee.getSymName() << " calls itself through this call";
    }
  }
  return success();
}

class FlattenCallGraphPass
    : public impl::FlattenCallGraphPassBase<FlattenCallGraphPass> {
  using FlattenCallGraphPassBase::FlattenCallGraphPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    if (failed(verifyNoRecursion(module, symbols)))
      return signalPassFailure();
    // Functions in module order, then clones as they are made: the calls
    // of a clone are visited like any other, so nested callees are cloned
    // too.
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    DenseSet<func::FuncOp> called;
    for (size_t index = 0; index < functions.size(); ++index) {
      func::FuncOp function = functions[index];
      function.walk([&](func::CallOp call) {
        func::FuncOp callee = getDefinedCallee(call, symbols);
        if (!callee || called.insert(callee).second)
          return;
        func::FuncOp clone = callee.clone();
        clone.setPrivate();
        clone->setAttr(
            kOriginalFuncNameAttr,
            StringAttr::get(&getContext(), getOriginalFuncName(callee)));
        // Renamed `<name>_<n>` when the name is taken.
        symbols.insert(clone);
        call.setCalleeAttr(FlatSymbolRefAttr::get(clone.getSymNameAttr()));
        called.insert(clone);
        functions.push_back(clone);
      });
    }
  }
};

} // namespace
} // namespace mlir::sdy
