//===- ImportUtils.cpp - Helpers shared by the import passes --------------===//

#include "ImportUtils.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::mpmd;

bool mlir::mpmd::isNegligibleOp(Operation *op) {
  return op->getNumOperands() == 0 && op->getNumResults() == 1 &&
         op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

llvm::MapVector<func::FuncOp, SmallVector<CallOp>>
mlir::mpmd::getFunctionsCalledOnlyByMpmdCalls(ModuleOp module) {
  llvm::DenseMap<StringAttr, func::FuncOp> functions;
  for (auto function : module.getOps<func::FuncOp>())
    functions[function.getSymNameAttr()] = function;

  llvm::MapVector<func::FuncOp, SmallVector<CallOp>> calls;
  llvm::DenseSet<func::FuncOp> otherUses;
  module.walk([&](Operation *op) {
    if (auto call = dyn_cast<CallOp>(op)) {
      if (func::FuncOp callee =
              functions.lookup(call.getCalleeAttr().getAttr()))
        calls[callee].push_back(call);
      return;
    }
    // Any other reference to a function (func.call, fragment_call, ...)
    // disqualifies it.
    if (op == module.getOperation() || isa<func::FuncOp>(op) ||
        op->getAttrs().empty())
      return;
    for (NamedAttribute attr : op->getAttrs())
      attr.getValue().walk([&](SymbolRefAttr ref) {
        if (func::FuncOp function = functions.lookup(ref.getRootReference()))
          otherUses.insert(function);
      });
  });
  llvm::MapVector<func::FuncOp, SmallVector<CallOp>> result;
  for (auto &[function, sites] : calls)
    if (!otherUses.contains(function))
      result.insert({function, std::move(sites)});
  return result;
}

void mlir::mpmd::eraseArrayEntries(Operation *op, StringRef name,
                                    const llvm::BitVector &erase) {
  auto attrs = op->getAttrOfType<ArrayAttr>(name);
  if (!attrs)
    return;
  SmallVector<Attribute> kept;
  for (auto [index, attr] : llvm::enumerate(attrs))
    if (index >= erase.size() || !erase.test(index))
      kept.push_back(attr);
  op->setAttr(name, ArrayAttr::get(op->getContext(), kept));
}
