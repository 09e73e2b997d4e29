//===- DelayTransfersFromCpu.cpp - -mpmd-delay-transfers-from-cpu ---------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_DELAYTRANSFERSFROMCPUPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

bool isFromCpuOrHost(TransferOp transfer) {
  auto source = cast<MeshTensorType>(transfer.getTensor().getType());
  return isCpuMesh(source.getMeshName()) || source.isOnHost();
}

class DelayTransfersFromCpuPass
    : public impl::DelayTransfersFromCpuPassBase<DelayTransfersFromCpuPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    for (Block &block : function.getBody()) {
      SmallVector<TransferOp> transfers;
      for (auto transfer : block.getOps<TransferOp>())
        if (isFromCpuOrHost(transfer))
          transfers.push_back(transfer);
      for (TransferOp transfer : llvm::reverse(transfers))
        moveBeforeFirstUser(transfer);
    }
  }
};

} // namespace
} // namespace mlir::mpmd
