//===- MoveTransfersToProducer.cpp - -mpmd-move-transfers-to-producer -----===//

#include "mpmd/Transforms/Common/Passes.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MOVETRANSFERSTOPRODUCERPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

class MoveTransfersToProducerPass
    : public impl::MoveTransfersToProducerPassBase<
          MoveTransfersToProducerPass> {
  void runOnOperation() override {
    SmallVector<TransferOp> transfers;
    getOperation()->walk(
        [&](TransferOp transfer) { transfers.push_back(transfer); });
    // The last op moved after each producer (or to the top of each block, a
    // null producer), so that transfers moved to one place keep their order.
    llvm::DenseMap<std::pair<Block *, Operation *>, Operation *> lastMoved;
    for (TransferOp transfer : transfers) {
      Block *block = transfer->getBlock();
      Operation *producer = transfer.getTensor().getDefiningOp();
      // An operand defined in an enclosing block (or a block argument) is
      // available from the top of the transfer's block.
      if (producer && producer->getBlock() != block)
        producer = nullptr;
      Operation *&last = lastMoved[{block, producer}];
      if (last)
        transfer->moveAfter(last);
      else if (producer)
        transfer->moveAfter(producer);
      else
        transfer->moveBefore(block, block->begin());
      last = transfer;
    }
  }
};

} // namespace
} // namespace mlir::mpmd
