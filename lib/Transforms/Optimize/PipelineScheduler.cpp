//===- PipelineScheduler.cpp - -mpmd-pipeline-scheduler -------------------===//
//
// Instead of upstream's control dependency per ordered pair of units, each
// unit gets a sort key from the schedule (PipelineSchedule.h explains why the
// keys order the same pairs); the units of each mesh, sorted by key and
// grouped by equal keys, become a group sequence for the block's topological
// sort.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Optimize/Passes.h"
#include "mpmd/Transforms/Optimize/Scheduling.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_PIPELINESCHEDULERPASS
#include "mpmd/Transforms/Optimize/Passes.h.inc"

namespace {

/// The number made of the digits of `meshName` (`m12` → 12), if any.
std::optional<int64_t> getMeshNumber(StringRef meshName) {
  std::string digits;
  for (char c : meshName)
    if (llvm::isDigit(c))
      digits.push_back(c);
  int64_t number = 0;
  if (digits.empty() || StringRef(digits).getAsInteger(10, number))
    return std::nullopt;
  return number;
}

struct KeyedUnit {
  ScheduleKey key;
  /// Position in the block, to keep units with equal keys in block order.
  unsigned position;
  FragmentOp fragment;
};

/// Units the schedule cannot order, reported once per block on the first.
struct UnorderedUnits {
  FragmentOp first;
  int64_t count = 0;

  void add(FragmentOp fragment) {
    if (!first)
      first = fragment;
    ++count;
  }
};

class PipelineSchedulerPass
    : public impl::PipelineSchedulerPassBase<PipelineSchedulerPass> {
  using PipelineSchedulerPassBase::PipelineSchedulerPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    auto topology =
        function->getAttrOfType<TopologyAttr>(MpmdDialect::kTopologyAttrName);
    if (!topology)
      return;
    llvm::StringMap<int64_t> meshIndexOf;
    for (NamedMeshAttr mesh : topology.getMeshes())
      if (!isCpuMesh(mesh.getName()))
        meshIndexOf.try_emplace(mesh.getName(), meshIndexOf.size());
    int64_t numMeshes = meshIndexOf.size();

    if (mustHappenBefore != PipelineSchedule::kNone)
      for (Block *block : getBlocksWithFragments(function))
        if (failed(scheduleBlock(*block, meshIndexOf, numMeshes)))
          return signalPassFailure();
    if (removeControlDependencies)
      mpmd::removeControlDependencies(function);
  }

  LogicalResult scheduleBlock(Block &block,
                              const llvm::StringMap<int64_t> &meshIndexOf,
                              int64_t numMeshes) {
    llvm::MapVector<int64_t, SmallVector<KeyedUnit>> unitsByMesh;
    UnorderedUnits unordered;
    for (auto [position, fragment] :
         llvm::enumerate(block.getOps<FragmentOp>())) {
      auto meshIndex = meshIndexOf.find(fragment.getMeshName());
      if (!isSchedulingUnit(fragment) || meshIndex == meshIndexOf.end())
        continue;
      SchedulingUnit unit;
      unit.meshIndex = meshIndex->second;
      unit.callCounter = *getCallCounter(fragment);
      unit.transposeCount = *getSingleTransposeCount(fragment);
      unit.isWeightGradient = fragment->hasAttr(kSplitDropTransferredAttrName);
      unit.stageId = fragment.getStageId();
      unit.meshNumber = getMeshNumber(fragment.getMeshName());
      std::optional<ScheduleKey> key =
          getScheduleKey(mustHappenBefore, unit, numMeshes);
      if (!key) {
        unordered.add(fragment);
        continue;
      }
      unitsByMesh[unit.meshIndex].push_back(
          {*key, static_cast<unsigned>(position), fragment});
    }
    if (unordered.first)
      reportUnordered(unordered);

    SmallVector<GroupSequence> sequences;
    for (auto &[meshIndex, units] : unitsByMesh) {
      llvm::sort(units, [](const KeyedUnit &a, const KeyedUnit &b) {
        return std::tie(a.key, a.position) < std::tie(b.key, b.position);
      });
      GroupSequence &sequence = sequences.emplace_back();
      for (auto [index, unit] : llvm::enumerate(units)) {
        if (index == 0 || units[index - 1].key != unit.key)
          sequence.emplace_back();
        sequence.back().push_back(unit.fragment);
      }
    }
    BlockSortResult sorted = sortBlockTopologically(block, sequences);
    if (!sorted.complete)
      return block.getParentOp()->emitError(
          "mpmd-pipeline-scheduler: the ops of this block have a dependency "
          "cycle (through control dependencies)");
    if (!removeControlDependencies)
      keepOrderAsControlDependencies(sequences);
    return success();
  }

  /// Consecutive groups of each mesh get control dependencies, where the
  /// sort could follow the sequence.
  static void keepOrderAsControlDependencies(ArrayRef<GroupSequence> sequences) {
    for (const GroupSequence &sequence : sequences)
      for (unsigned g = 0; g + 1 < sequence.size(); ++g)
        for (Operation *before : sequence[g])
          for (Operation *after : sequence[g + 1])
            if (before->isBeforeInBlock(after))
              addControlDependency(cast<FragmentOp>(before),
                                   cast<FragmentOp>(after));
  }

  void reportUnordered(UnorderedUnits unordered) {
    switch (mustHappenBefore) {
    case PipelineSchedule::kCircular:
    case PipelineSchedule::kCircularWithReversedBackward:
      unordered.first.emitWarning()
          << "the " << stringifyPipelineSchedule(mustHappenBefore)
          << " schedule needs the stage of every scheduling unit: "
          << unordered.count
          << " unit(s) without a stage, this one first, are not ordered";
      return;
    case PipelineSchedule::kParallelPipelinesWithWrapAround:
      unordered.first.emitWarning()
          << "the " << stringifyPipelineSchedule(mustHappenBefore)
          << " schedule orders forward units on meshes whose name holds a "
             "number: "
          << unordered.count
          << " backward unit(s) or unit(s) on other meshes, this one first, "
             "are not ordered";
      return;
    default:
      llvm_unreachable("only these schedules leave units without keys");
    }
  }
};

} // namespace
} // namespace mlir::mpmd
