//===- RemoveTransferCycles.cpp - -mpmd-remove-transfer-cycles ------------===//

#include "mpmd/Transforms/Common/Passes.h"

#include "llvm/ADT/DenseMap.h"

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
    // For each transfer result in a device-only chain, the value it was
    // transferred from. Chains start at a non-transfer value or at a transfer
    // to or from host memory.
    llvm::DenseMap<Value, Value> parentOf;
    SmallVector<TransferOp> transfers;
    getOperation()->walk([&](TransferOp transfer) {
      transfers.push_back(transfer);
    });
    // Walk order is program order within each block, and transfers only live
    // directly in function blocks, so an ancestor is always visited first.
    for (TransferOp transfer : transfers) {
      Value source = transfer.getTensor();
      Value result = transfer.getResult();
      Type type = result.getType();
      if (isOnHost(type) || isOnHost(source.getType()))
        continue;
      Value reuse;
      for (Value ancestor = source; ancestor;
           ancestor = parentOf.lookup(ancestor)) {
        if (ancestor.getType() == type) {
          reuse = ancestor;
          break;
        }
      }
      if (!reuse) {
        parentOf[result] = source;
        continue;
      }
      result.replaceAllUsesWith(reuse);
      transfer.erase();
    }
  }
};

} // namespace
} // namespace mlir::mpmd
