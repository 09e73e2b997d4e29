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
#include "llvm/ADT/SetVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MERGETRANSFERSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

/// Marks the transfer of a concatenation made by this pass.
constexpr StringLiteral kConcatTransferAttrName = "concat_transfer";

/// Upstream's `kNumElementsThreshold`: larger values are worth their own
/// transfer.
constexpr int64_t kMaxNumElements = 1;

/// True for a fragment result worth merging: at most one element, in
/// device memory, unsharded (no sharding or a replicated one).
bool isSmallReplicatedDeviceTensor(MeshTensorType type) {
  sdy::TensorShardingAttr sharding = type.getSharding();
  std::optional<int64_t> numElements =
      checkedProduct(type.getRankedTensorType().getShape());
  return (!sharding || sharding.isFullyReplicated()) && !type.isOnHost() &&
         numElements && *numElements <= kMaxNumElements;
}

/// One value to merge: a producer result reaching the consumer through
/// `transfer`.
struct GroupEntry {
  unsigned resultNumber;
  TransferOp transfer;
};

class MergeTransfersPass
    : public impl::MergeTransfersPassBase<MergeTransfersPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    IRRewriter rewriter(&getContext());
    for (auto producer : llvm::make_early_inc_range(
             function.getBody().front().getOps<FragmentOp>())) {
      // Results by (global type, consumer), in result order; a result
      // joins a group once per transfer of it that the consumer uses.
      llvm::MapVector<std::pair<Type, Operation *>, SmallVector<GroupEntry>>
          groups;
      for (OpResult result : producer->getResults()) {
        auto type = cast<MeshTensorType>(result.getType());
        if (!isSmallReplicatedDeviceTensor(type))
          continue;
        for (Operation *user : result.getUsers()) {
          auto transfer = dyn_cast<TransferOp>(user);
          if (!transfer || transfer->hasAttr(kConcatTransferAttrName) ||
              cast<MeshTensorType>(transfer.getType()).isOnHost())
            continue;
          llvm::SmallSetVector<Operation *, 4> consumers;
          for (Operation *consumer : transfer->getUsers())
            // A consumer with control operands (scheduling) takes no new
            // data operand at the end.
            if (isa<FragmentOp>(consumer) &&
                !consumer->hasAttr(kControlOperandStartIdxAttrName))
              consumers.insert(consumer);
          for (Operation *consumer : consumers)
            groups[{type.getRankedTensorType(), consumer}].push_back(
                {result.getResultNumber(), transfer});
        }
      }
      for (auto &[key, entries] : groups)
        if (entries.size() > 1)
          producer = merge(producer, cast<FragmentOp>(key.second), entries,
                           rewriter);
    }
  }

  /// Makes `producer` also return the concatenation of `entries`' results
  /// and `consumer` take it through one transfer, slicing each value back
  /// out for every use of its transfer. The old transfers and operands stay,
  /// unused by the consumer's body, for the clean-ups after this pass.
  /// Returns the rebuilt producer.
  FragmentOp merge(FragmentOp producer, FragmentOp consumer,
                   ArrayRef<GroupEntry> entries, IRRewriter &rewriter) {
    TransferOp first = entries.front().transfer;
    auto source =
        cast<MeshTensorType>(producer->getResult(entries.front().resultNumber)
                                 .getType());
    RankedTensorType partType = source.getRankedTensorType();
    // Each part gets a leading dimension of 1, along which they are
    // concatenated.
    SmallVector<int64_t> leadingShape = {1};
    llvm::append_range(leadingShape, partType.getShape());
    auto leadingType =
        RankedTensorType::get(leadingShape, partType.getElementType());
    SmallVector<int64_t> concatShape = leadingShape;
    concatShape.front() = static_cast<int64_t>(entries.size());
    auto concatType =
        RankedTensorType::get(concatShape, partType.getElementType());
    Location loc = rewriter.getFusedLoc(llvm::map_to_vector(
        entries, [](GroupEntry entry) { return entry.transfer.getLoc(); }));

    // Producer: returns the concatenation too.
    Operation *producerReturn = producer.getRegion().front().getTerminator();
    rewriter.setInsertionPoint(producerReturn);
    SmallVector<Value> parts;
    for (const GroupEntry &entry : entries)
      parts.push_back(stablehlo::ReshapeOp::create(
          rewriter, loc, leadingType,
          producerReturn->getOperand(entry.resultNumber)));
    Value concat = stablehlo::ConcatenateOp::create(rewriter, loc, concatType,
                                                    parts, /*dimension=*/0);
    producer = appendFragmentResult(
        producer, concat,
        MeshTensorType::get(&getContext(), source.getMeshName(), concatType,
                            nullptr, source.getMemoryKind()),
        rewriter);

    // One transfer, where the group's first one was.
    rewriter.setInsertionPoint(first);
    auto target = cast<MeshTensorType>(first.getType());
    auto merged = TransferOp::create(
        rewriter, loc,
        MeshTensorType::get(&getContext(), target.getMeshName(), concatType,
                            nullptr, target.getMemoryKind()),
        producer->getResults().back());
    merged->setAttr(kConcatTransferAttrName, rewriter.getUnitAttr());

    // Consumer: a slice of the concatenation for every use of every
    // transfer of the group.
    BlockArgument concatArg =
        appendFragmentOperand(consumer, merged, concatType);
    Block &body = consumer.getRegion().front();
    rewriter.setInsertionPointToStart(&body);
    SmallVector<int64_t> limits = leadingShape;
    SmallVector<int64_t> strides(leadingShape.size(), 1);
    for (auto [index, entry] : llvm::enumerate(entries)) {
      SmallVector<int64_t> starts(leadingShape.size(), 0);
      starts.front() = static_cast<int64_t>(index);
      limits.front() = static_cast<int64_t>(index) + 1;
      for (OpOperand &use : entry.transfer->getUses()) {
        if (use.getOwner() != consumer)
          continue;
        Value part = stablehlo::SliceOp::create(
            rewriter, loc, leadingType, concatArg,
            rewriter.getDenseI64ArrayAttr(starts),
            rewriter.getDenseI64ArrayAttr(limits),
            rewriter.getDenseI64ArrayAttr(strides));
        part = stablehlo::ReshapeOp::create(rewriter, loc, partType, part);
        rewriter.replaceAllUsesWith(body.getArgument(use.getOperandNumber()),
                                    part);
      }
    }
    return producer;
  }
};

} // namespace
} // namespace mlir::mpmd
