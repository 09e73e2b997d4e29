//===- ModuleSchedule.cpp - The schedule a scheduled MPMD module runs -----===//

#include "mpmd/Schedule/ModuleSchedule.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::mpmd;
using schedule::Action;
using schedule::ActionKind;

namespace {

/// The actions a fragment stands for, in order (none if it is not a
/// pipeline action).
SmallVector<ActionKind, 2> getActionKinds(FragmentOp fragment) {
  bool forward = false, backward = false;
  for (auto origin : fragment.getOrigin().getAsRange<UserOriginAttr>()) {
    if (origin.getTransposeCount() == 0)
      forward = true;
    else
      backward = true;
  }
  if (!backward)
    return {ActionKind::kForward};
  if (fragment->hasAttr(kSplitDropTransferredAttrName))
    return {ActionKind::kWeightGradient};
  if (forward && !fragment->hasAttr(kRematAttrName))
    return {ActionKind::kForward, ActionKind::kBackward};
  return {ActionKind::kBackward};
}

} // namespace

FailureOr<schedule::Schedule> mlir::mpmd::getModuleSchedule(ModuleOp module) {
  func::FuncOp main = getMainFunction(module);
  TopologyAttr topology = main ? getTopology(main) : TopologyAttr();
  if (!topology)
    return module.emitError("expected a main function with a topology");
  FailureOr<FunctionSchedule> result = getFunctionSchedule(main, topology);
  if (failed(result))
    return failure();
  return std::move(result->schedule);
}

FailureOr<FunctionSchedule>
mlir::mpmd::getFunctionSchedule(func::FuncOp function, TopologyAttr topology) {
  FunctionSchedule functionSchedule;
  schedule::Schedule &result = functionSchedule.schedule;
  result.meshActions.resize(topology.getMeshes().size());
  llvm::DenseMap<int64_t, std::pair<int64_t, FragmentOp>> stageMesh;
  int64_t maxMicrobatch = -1;
  for (FragmentOp fragment : function.getBody().front().getOps<FragmentOp>()) {
    std::optional<uint32_t> counter = getCallCounter(fragment);
    if (!fragment.isUserFragment() || !counter)
      continue;
    int64_t mesh = *topology.getMeshIndex(fragment.getMeshName());
    int64_t stage = fragment.getStageId().value_or(mesh);
    auto [it, inserted] = stageMesh.try_emplace(stage, mesh, fragment);
    if (!inserted && it->second.first != mesh) {
      InFlightDiagnostic diag = fragment.emitError()
                                << "stage " << stage << " is on mesh \""
                                << fragment.getMeshName()
                                << "\" here and on mesh \""
                                << it->second.second.getMeshName()
                                << "\" elsewhere";
      diag.attachNote(it->second.second.getLoc()) << "the other fragment";
      return diag;
    }
    for (ActionKind kind : getActionKinds(fragment)) {
      Action action{kind, static_cast<int64_t>(*counter), stage};
      if (!functionSchedule.fragmentOf
               .try_emplace({kind, action.microbatch, stage}, fragment)
               .second) {
        return fragment.emitError() << "the program runs "
                                    << schedule::describe(action)
                                    << " twice; simulate it before merging "
                                       "microbatches";
      }
      result.meshActions[mesh].push_back(action);
    }
    maxMicrobatch = std::max<int64_t>(maxMicrobatch, *counter);
  }
  if (stageMesh.empty())
    return function.emitError("no pipeline action: no user fragment of the "
                              "function has a call_counter");
  // Stage ids need not start at 0 or be contiguous: their order counts.
  SmallVector<int64_t> stageIds;
  for (auto &entry : stageMesh)
    stageIds.push_back(entry.first);
  llvm::sort(stageIds);
  llvm::DenseMap<int64_t, int64_t> denseStage;
  for (auto [index, id] : llvm::enumerate(stageIds)) {
    denseStage[id] = index;
    result.stageMesh.push_back(stageMesh.at(id).first);
  }
  for (std::vector<Action> &actions : result.meshActions)
    for (Action &action : actions)
      action.stage = denseStage.at(action.stage);
  std::map<std::tuple<ActionKind, int64_t, int64_t>, FragmentOp> dense;
  for (auto &[key, fragment] : functionSchedule.fragmentOf) {
    auto [kind, microbatch, stage] = key;
    dense[{kind, microbatch, denseStage.at(stage)}] = fragment;
  }
  functionSchedule.fragmentOf = std::move(dense);
  result.numMicrobatches = maxMicrobatch + 1;
  return functionSchedule;
}
