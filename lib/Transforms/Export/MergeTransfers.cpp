//===- MergeTransfers.cpp - -mpmd-merge-transfers -------------------------===//
//
// Every transfer pays a fixed latency whatever its size, so many one-element
// transfers between the same two fragments (losses, counters, per-layer
// scalars) cost far more than their bytes: one transfer of their
// concatenation pays it once.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Support/CheckedArithmetic.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MERGETRANSFERSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

/// Marks the transfer of a concatenation made by this pass.
constexpr StringLiteral kConcatTransferAttrName = "concat_transfer";

/// Upstream's `kNumElementsThreshold`: larger values are worth their own
/// transfer.
constexpr int64_t kMaxNumElements = 1;

bool isSmallReplicatedDeviceTensor(MeshTensorType type) {
  sdy::TensorShardingAttr sharding = type.getSharding();
  std::optional<int64_t> numElements =
      checkedProduct(type.getRankedTensorType().getShape());
  return (!sharding || sharding.isFullyReplicated()) && !type.isOnHost() &&
         numElements && *numElements > 0 && *numElements <= kMaxNumElements;
}

/// The fragment all uses of `transfer` are in, or null.
FragmentOp getSingleFragmentUser(TransferOp transfer) {
  FragmentOp consumer;
  for (Operation *user : transfer->getUsers()) {
    auto fragment = dyn_cast<FragmentOp>(user);
    if (!fragment || (consumer && fragment != consumer))
      return nullptr;
    consumer = fragment;
  }
  return consumer;
}

class MergeTransfersPass
    : public impl::MergeTransfersPassBase<MergeTransfersPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    // Transfers by (producer, consumer, source type, target type), in the
    // order of their first transfer.
    llvm::MapVector<std::tuple<Operation *, Operation *, Type, Type>,
                    SmallVector<TransferOp>>
        groups;
    for (auto transfer : function.getBody().front().getOps<TransferOp>()) {
      auto source = cast<MeshTensorType>(transfer.getTensor().getType());
      auto target = cast<MeshTensorType>(transfer.getType());
      auto producer = transfer.getTensor().getDefiningOp<FragmentOp>();
      FragmentOp consumer = getSingleFragmentUser(transfer);
      // A consumer with control operands (scheduling) takes no new data
      // operand at the end.
      if (!producer || !consumer ||
          consumer->hasAttr(kControlOperandStartIdxAttrName) ||
          !isSmallReplicatedDeviceTensor(source) ||
          !isSmallReplicatedDeviceTensor(target))
        continue;
      groups[{producer, consumer, source, target}].push_back(transfer);
    }
    IRRewriter rewriter(&getContext());
    for (auto &[key, transfers] : groups)
      if (transfers.size() > 1)
        merge(transfers, rewriter);
  }

  /// Replaces `transfers` (same producer, consumer and types; in block
  /// order) by one transfer of their concatenation.
  void merge(ArrayRef<TransferOp> transfers, IRRewriter &rewriter) {
    // The fragments are looked up now: merging an earlier group may have
    // rebuilt them.
    TransferOp first = transfers.front();
    auto producer = first.getTensor().getDefiningOp<FragmentOp>();
    FragmentOp consumer = getSingleFragmentUser(first);
    auto source = cast<MeshTensorType>(first.getTensor().getType());
    auto target = cast<MeshTensorType>(first.getType());
    RankedTensorType partType = source.getRankedTensorType();
    Type elementType = partType.getElementType();
    auto flatType = RankedTensorType::get({1}, elementType);
    auto concatType = RankedTensorType::get(
        {static_cast<int64_t>(transfers.size())}, elementType);
    Location loc = rewriter.getFusedLoc(llvm::map_to_vector(
        transfers, [](TransferOp transfer) { return transfer.getLoc(); }));
    auto flatten = [&](Value value) -> Value {
      if (value.getType() == flatType)
        return value;
      return stablehlo::ReshapeOp::create(rewriter, loc, flatType, value);
    };

    // Producer: returns the concatenation too.
    Operation *producerReturn =
        producer.getRegion().front().getTerminator();
    rewriter.setInsertionPoint(producerReturn);
    SmallVector<Value> parts;
    for (TransferOp transfer : transfers)
      parts.push_back(flatten(producerReturn->getOperand(
          cast<OpResult>(transfer.getTensor()).getResultNumber())));
    Value concat = stablehlo::ConcatenateOp::create(
        rewriter, loc, concatType, parts, /*dimension=*/0);
    producer = appendFragmentResult(
        producer, concat,
        MeshTensorType::get(&getContext(), source.getMeshName(), concatType,
                            nullptr, source.getMemoryKind()),
        rewriter);

    // One transfer, where the first one was.
    rewriter.setInsertionPoint(first);
    auto merged = TransferOp::create(
        rewriter, loc,
        MeshTensorType::get(&getContext(), target.getMeshName(), concatType,
                            nullptr, target.getMemoryKind()),
        producer->getResults().back());
    merged->setAttr(kConcatTransferAttrName, rewriter.getUnitAttr());

    // Consumer: slices each part out of it.
    BlockArgument concatArg =
        appendFragmentOperand(consumer, merged, concatType);
    Block &body = consumer.getRegion().front();
    rewriter.setInsertionPointToStart(&body);
    llvm::BitVector erasedOperands(consumer->getNumOperands());
    for (auto [index, transfer] : llvm::enumerate(transfers)) {
      int64_t start = index;
      Value part = stablehlo::SliceOp::create(
          rewriter, loc, flatType, concatArg,
          rewriter.getDenseI64ArrayAttr({start}),
          rewriter.getDenseI64ArrayAttr({start + 1}),
          rewriter.getDenseI64ArrayAttr({1}));
      if (partType != flatType)
        part = stablehlo::ReshapeOp::create(rewriter, loc, partType, part);
      for (OpOperand &use : transfer->getUses()) {
        rewriter.replaceAllUsesWith(body.getArgument(use.getOperandNumber()),
                                    part);
        erasedOperands.set(use.getOperandNumber());
      }
    }
    eraseFragmentOperandsAndResults(
        consumer, erasedOperands,
        llvm::BitVector(consumer->getNumResults()), rewriter);
    for (TransferOp transfer : transfers)
      rewriter.eraseOp(transfer);
  }
};

} // namespace
} // namespace mlir::mpmd
