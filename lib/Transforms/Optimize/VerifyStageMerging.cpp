//===- VerifyStageMerging.cpp - -mpmd-verify-stage-merging ----------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Optimize/Passes.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

namespace mlir::mpmd {
#define GEN_PASS_DEF_VERIFYSTAGEMERGINGPASS
#include "mpmd/Transforms/Optimize/Passes.h.inc"

namespace {

enum class SplitType { kNone, kKeepTransferred, kDropTransferred };

SplitType getSplitType(FragmentOp fragment) {
  if (fragment->hasAttr(kSplitKeepTransferredAttrName))
    return SplitType::kKeepTransferred;
  if (fragment->hasAttr(kSplitDropTransferredAttrName))
    return SplitType::kDropTransferred;
  return SplitType::kNone;
}

/// What two fragments of a stage must share to be expected merged, call
/// counters aside.
struct StageKey {
  StringRef meshName;
  int64_t stage;
  std::set<int64_t> transposeCounts;
  SplitType splitType;
  bool remat;

  bool operator<(const StageKey &other) const {
    return std::tie(meshName, stage, transposeCounts, splitType, remat) <
           std::tie(other.meshName, other.stage, other.transposeCounts,
                    other.splitType, other.remat);
  }
};

/// The fragments of one key seen so far: the first without a call counter,
/// and the first of each call counter.
struct SeenFragments {
  FragmentOp first, firstWithoutCounter;
  // Call counters are user integers (UINT32_MAX included): no hash map with
  // reserved keys.
  std::map<uint32_t, FragmentOp> byCounter;
};

void reportUnmerged(FragmentOp fragment, FragmentOp earlier,
                    const StageKey &key) {
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "fragment of stage " << key.stage << " on mesh \"" << key.meshName
     << "\" was not merged with an earlier fragment of the same stage, "
        "transpose count";
  if (key.transposeCounts.size() > 1)
    os << "s";
  os << " ";
  llvm::interleaveComma(key.transposeCounts, os);
  if (std::optional<uint32_t> counter = getCallCounter(fragment))
    os << " and call_counter " << *counter;
  // Upstream reports this as a single error, with no note: the earlier
  // fragment's location goes into the message instead.
  os << " (same split type and remat flag); the earlier fragment is at "
     << earlier.getLoc();
  fragment.emitError(message);
}

class VerifyStageMergingPass
    : public impl::VerifyStageMergingPassBase<VerifyStageMergingPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    bool failed = false;
    for (Block *block : getBlocksWithFragments(function)) {
      std::map<StageKey, SeenFragments> seen;
      for (auto fragment : block->getOps<FragmentOp>()) {
        IntegerAttr stage = fragment.getStageIdAttr();
        if (!stage)
          continue;
        StageKey key{fragment.getMeshName(),
                     stage.getInt(),
                     {},
                     getSplitType(fragment),
                     fragment->hasAttr(kRematAttrName)};
        for (auto origin : fragment.getOrigin().getAsRange<UserOriginAttr>())
          key.transposeCounts.insert(origin.getTransposeCount());
        SeenFragments &entry = seen[key];
        std::optional<uint32_t> counter = getCallCounter(fragment);
        // Call counters are compatible when equal or missing on one side.
        auto sameCounter =
            counter ? entry.byCounter.find(*counter) : entry.byCounter.end();
        FragmentOp earlier =
            !counter                               ? entry.first
            : entry.firstWithoutCounter            ? entry.firstWithoutCounter
            : sameCounter != entry.byCounter.end() ? sameCounter->second
                                                   : FragmentOp();
        if (earlier) {
          reportUnmerged(fragment, earlier, key);
          failed = true;
        }
        if (!entry.first)
          entry.first = fragment;
        if (!counter && !entry.firstWithoutCounter)
          entry.firstWithoutCounter = fragment;
        if (counter)
          entry.byCounter.try_emplace(*counter, fragment);
      }
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mpmd
