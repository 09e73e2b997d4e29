//===- RemoveTransferCycles.cpp - -mpmd-remove-transfer-cycles ------------===//
//
// Values connected by device-only transfers hold the same data. They form
// classes keyed by the first value (the chain root); per class the first value
// of each type is remembered, and a later transfer producing a type the class
// already has is replaced by that value.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Transforms/Common/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/Dominance.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_REMOVETRANSFERCYCLESPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

bool isOnHost(Type type) {
  auto meshTensor = dyn_cast<MeshTensorType>(type);
  return meshTensor && meshTensor.isOnHost();
}

class RemoveTransferCyclesPass
    : public impl::RemoveTransferCyclesPassBase<RemoveTransferCyclesPass> {
  void runOnOperation() override {
    DominanceInfo &dominance = getAnalysis<DominanceInfo>();
    llvm::DenseMap<Value, Value> rootOf;
    llvm::DenseMap<std::pair<Value, Type>, Value> valueOfType;
    SmallVector<TransferOp> transfers;
    getOperation()->walk(
        [&](TransferOp transfer) { transfers.push_back(transfer); });
    bool changed = false;
    for (TransferOp transfer : transfers) {
      Value source = transfer.getTensor();
      Value result = transfer.getResult();
      Type type = result.getType();
      // A transfer to or from host memory starts a new class.
      if (isOnHost(type) || isOnHost(source.getType()))
        continue;
      Value root = rootOf.lookup(source);
      if (!root) {
        root = source;
        rootOf[source] = source;
        valueOfType.try_emplace({root, source.getType()}, source);
      }
      Value existing = valueOfType.lookup({root, type});
      if (existing && dominance.properlyDominates(existing, transfer)) {
        result.replaceAllUsesWith(existing);
        transfer.erase();
        changed = true;
        continue;
      }
      rootOf[result] = root;
      valueOfType.try_emplace({root, type}, result);
    }
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace mlir::mpmd
