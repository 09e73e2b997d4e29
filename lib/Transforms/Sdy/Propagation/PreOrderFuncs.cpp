//===- PreOrderFuncs.cpp - -sdy-pre-order-funcs
//----------------------------===//

#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_PREORDERFUNCSPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

/// The functions `function` calls, in the order of the calls, each once.
SmallVector<func::FuncOp> getCallees(func::FuncOp function,
                                     SymbolTable &symbols) {
  llvm::SetVector<func::FuncOp> callees;
  function.walk([&](func::CallOp call) {
    if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
      callees.insert(callee);
  });
  return callees.takeVector();
}

class PreOrderFuncsPass
    : public impl::PreOrderFuncsPassBase<PreOrderFuncsPass> {
  using PreOrderFuncsPassBase::PreOrderFuncsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    DenseSet<func::FuncOp> called;
    for (func::FuncOp function : functions)
      for (func::FuncOp callee : getCallees(function, symbols))
        called.insert(callee);
    // Depth-first from the functions nobody calls, in module order, then
    // from the rest (functions only reached from a cycle).
    SmallVector<func::FuncOp> roots;
    for (func::FuncOp function : functions)
      if (!called.contains(function))
        roots.push_back(function);
    llvm::append_range(roots, functions);
    llvm::SetVector<func::FuncOp> order;
    for (func::FuncOp root : roots) {
      SmallVector<func::FuncOp> stack = {root};
      while (!stack.empty()) {
        func::FuncOp function = stack.pop_back_val();
        if (!order.insert(function))
          continue;
        // Reversed, so that the first callee is visited first.
        SmallVector<func::FuncOp> callees = getCallees(function, symbols);
        for (func::FuncOp callee : llvm::reverse(callees))
          if (!order.contains(callee))
            stack.push_back(callee);
      }
    }
    Block &body = module.getBodyRegion().front();
    for (func::FuncOp function : order)
      function->moveBefore(&body, body.end());
  }
};

} // namespace
} // namespace mlir::sdy
