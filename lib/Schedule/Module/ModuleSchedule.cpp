//===- ModuleSchedule.cpp - The schedule a scheduled MPMD module runs -----===//

#include "mpmd/Schedule/ModuleSchedule.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"

#include <map>

using namespace mlir;
using namespace mlir::mpmd;
using schedule::Action;
using schedule::ActionKind;

namespace {

/// What the schedule reads from a fragment or a fragment call.
struct ActionSource {
  Operation *op;
  ArrayAttr origin;
  StringRef meshName;
  std::optional<int64_t> stage;
};

std::optional<ActionSource> getActionSource(Operation &op) {
  if (auto fragment = dyn_cast<FragmentOp>(op))
    return ActionSource{&op, fragment.getOriginAttr(), fragment.getMeshName(),
                        fragment.getStageId()};
  if (auto call = dyn_cast<FragmentCallOp>(op)) {
    std::optional<int64_t> stage;
    if (auto id = call->getAttrOfType<IntegerAttr>(kStageIdAttrName))
      stage = id.getInt();
    return ActionSource{&op, call.getOriginAttr(), call.getMeshName(), stage};
  }
  return std::nullopt;
}

/// The actions a fragment (call) stands for, in order.
SmallVector<ActionKind, 2> getActionKinds(const ActionSource &source) {
  bool forward = false, backward = false;
  for (auto origin : source.origin.getAsRange<UserOriginAttr>()) {
    if (origin.getTransposeCount() == 0)
      forward = true;
    else
      backward = true;
  }
  if (!backward)
    return {ActionKind::kForward};
  if (source.op->hasAttr(kSplitDropTransferredAttrName))
    return {ActionKind::kWeightGradient};
  if (forward && !source.op->hasAttr(kRematAttrName))
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
  // Stage id -> its mesh and the first op of the stage. Stage ids are user
  // integers (any int64): no hash map with reserved keys.
  std::map<int64_t, std::pair<int64_t, ActionSource>> stageMesh;
  int64_t maxMicrobatch = -1;
  for (Operation &op : function.getBody().front()) {
    std::optional<ActionSource> source = getActionSource(op);
    std::optional<uint32_t> counter = getCallCounter(&op);
    if (!source || source->origin.empty() || !counter)
      continue;
    int64_t mesh = *topology.getMeshIndex(source->meshName);
    int64_t stage = source->stage.value_or(mesh);
    auto [it, inserted] = stageMesh.try_emplace(stage, mesh, *source);
    if (!inserted && it->second.first != mesh) {
      InFlightDiagnostic diag = op.emitError()
                                << "stage " << stage << " is on mesh \""
                                << source->meshName << "\" here and on mesh \""
                                << it->second.second.meshName
                                << "\" elsewhere";
      diag.attachNote(it->second.second.op->getLoc()) << "the other fragment";
      return diag;
    }
    for (ActionKind kind : getActionKinds(*source)) {
      Action action{kind, static_cast<int64_t>(*counter), stage};
      if (!functionSchedule.fragmentOf
               .try_emplace({kind, action.microbatch, stage}, &op)
               .second) {
        return op.emitError() << "the program runs "
                              << schedule::describe(action)
                              << " twice; simulate it before merging "
                                 "microbatches";
      }
      result.meshActions[mesh].push_back(action);
    }
    maxMicrobatch = std::max<int64_t>(maxMicrobatch, *counter);
  }
  if (stageMesh.empty())
    return function.emitError("no pipeline action: no user fragment or "
                              "fragment call of the function has a "
                              "call_counter");
  // Stage ids need not start at 0 or be contiguous: their order counts.
  std::map<int64_t, int64_t> denseStage;
  for (auto &[id, meshAndSource] : stageMesh) {
    denseStage[id] = result.stageMesh.size();
    result.stageMesh.push_back(meshAndSource.first);
  }
  for (std::vector<Action> &actions : result.meshActions)
    for (Action &action : actions)
      action.stage = denseStage.at(action.stage);
  std::map<std::tuple<ActionKind, int64_t, int64_t>, Operation *> dense;
  for (auto &[key, fragment] : functionSchedule.fragmentOf) {
    auto [kind, microbatch, stage] = key;
    dense[{kind, microbatch, denseStage.at(stage)}] = fragment;
  }
  functionSchedule.fragmentOf = std::move(dense);
  result.numMicrobatches = maxMicrobatch + 1;
  return functionSchedule;
}
