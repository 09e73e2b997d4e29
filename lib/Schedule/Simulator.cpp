//===- Simulator.cpp - Progress proof and timing of a schedule ------------===//

#include "mpmd/Schedule/Simulator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace mlir::mpmd::schedule {

namespace {

constexpr int64_t kAbsent = -1;

/// The actions of a schedule numbered in mesh order (mesh 0's list, then mesh
/// 1's, ...), and a table from (kind, microbatch, stage) to that number.
class ActionGraph {
public:
  /// Fails unless every action is in range, on its stage's mesh, and unique.
  static llvm::Expected<ActionGraph> build(const Schedule &schedule);

  int64_t size() const { return actions.size(); }
  const Action &getAction(int64_t id) const { return actions[id]; }
  int64_t getMesh(int64_t id) const { return meshOf[id]; }
  /// The id of (kind, mb, stage), or kAbsent.
  int64_t find(ActionKind kind, int64_t mb, int64_t stage) const {
    if (mb < 0 || mb >= microbatches || stage < 0 || stage >= stages)
      return kAbsent;
    return idOfSlot[slot(kind, mb, stage)];
  }
  /// The action that runs before `id` on its mesh, or kAbsent.
  int64_t getMeshPredecessor(int64_t id) const {
    return id > 0 && meshOf[id - 1] == meshOf[id] ? id - 1 : kAbsent;
  }
  int64_t getMeshSuccessor(int64_t id) const {
    return id + 1 < size() && meshOf[id + 1] == meshOf[id] ? id + 1 : kAbsent;
  }
  /// The data dependencies of an action (Schedule.h), present or not.
  llvm::SmallVector<Action, 2> getDependencies(const Action &action) const;
  /// The ids of the present actions that depend on `action`.
  llvm::SmallVector<int64_t, 2> getDependents(const Action &action) const;
  /// Whether B(mb, s) has its weight gradient split off.
  bool hasWeightGradient(const Action &action) const {
    return find(ActionKind::kWeightGradient, action.microbatch, action.stage) !=
           kAbsent;
  }

private:
  int64_t slot(ActionKind kind, int64_t mb, int64_t stage) const {
    return (static_cast<int64_t>(kind) * microbatches + mb) * stages + stage;
  }

  int64_t stages = 0;
  int64_t microbatches = 0;
  std::vector<Action> actions;
  std::vector<int64_t> meshOf;
  std::vector<int64_t> idOfSlot;
};

llvm::Expected<ActionGraph> ActionGraph::build(const Schedule &schedule) {
  ActionGraph graph;
  graph.stages = schedule.getNumStages();
  graph.microbatches = schedule.numMicrobatches;
  const int64_t meshes = schedule.getNumMeshes();
  if (graph.microbatches < 0)
    return makeScheduleError("the schedule has a negative number of microbatches (" +
                     llvm::Twine(graph.microbatches) + ")");
  for (auto [stage, mesh] : llvm::enumerate(schedule.stageMesh))
    if (mesh < 0 || mesh >= meshes)
      return makeScheduleError("stage " + llvm::Twine(stage) + " is on mesh " +
                       llvm::Twine(mesh) + ", but the schedule has " +
                       llvm::Twine(meshes) + " meshes");
  graph.idOfSlot.assign(3 * graph.microbatches * graph.stages, kAbsent);
  size_t actionCount = 0;
  for (const std::vector<Action> &actions : schedule.meshActions)
    actionCount += actions.size();
  graph.actions.reserve(actionCount);
  graph.meshOf.reserve(actionCount);
  for (int64_t mesh = 0; mesh < meshes; ++mesh) {
    for (const Action &action : schedule.meshActions[mesh]) {
      // Built only for an error: this loop runs once per action.
      auto where = [&] {
        return "mesh " + std::to_string(mesh) + " runs " + describe(action);
      };
      if (action.stage < 0 || action.stage >= graph.stages)
        return makeScheduleError(where() + ", but the schedule has " +
                         llvm::Twine(graph.stages) + " stages");
      if (action.microbatch < 0 || action.microbatch >= graph.microbatches)
        return makeScheduleError(where() + ", but the schedule has " +
                         llvm::Twine(graph.microbatches) + " microbatches");
      if (schedule.stageMesh[action.stage] != mesh)
        return makeScheduleError(where() + ", but stage " + llvm::Twine(action.stage) +
                         " is on mesh " +
                         llvm::Twine(schedule.stageMesh[action.stage]));
      int64_t &id = graph.idOfSlot[graph.slot(action.kind, action.microbatch,
                                              action.stage)];
      if (id != kAbsent)
        return makeScheduleError(where() + " twice");
      id = graph.actions.size();
      graph.actions.push_back(action);
      graph.meshOf.push_back(mesh);
    }
  }
  return graph;
}

llvm::SmallVector<Action, 2>
ActionGraph::getDependencies(const Action &action) const {
  const int64_t mb = action.microbatch, stage = action.stage;
  switch (action.kind) {
  case ActionKind::kForward:
    if (stage == 0)
      return {};
    return {{ActionKind::kForward, mb, stage - 1}};
  case ActionKind::kBackward:
    if (stage + 1 == stages)
      return {{ActionKind::kForward, mb, stage}};
    return {{ActionKind::kForward, mb, stage},
            {ActionKind::kBackward, mb, stage + 1}};
  case ActionKind::kWeightGradient:
    return {{ActionKind::kBackward, mb, stage}};
  }
  llvm_unreachable("unknown action kind");
}

llvm::SmallVector<int64_t, 2>
ActionGraph::getDependents(const Action &action) const {
  const int64_t mb = action.microbatch, stage = action.stage;
  llvm::SmallVector<int64_t, 2> dependents;
  auto addIfPresent = [&](ActionKind kind, int64_t atStage) {
    if (int64_t id = find(kind, mb, atStage); id != kAbsent)
      dependents.push_back(id);
  };
  switch (action.kind) {
  case ActionKind::kForward:
    addIfPresent(ActionKind::kForward, stage + 1);
    addIfPresent(ActionKind::kBackward, stage);
    break;
  case ActionKind::kBackward:
    addIfPresent(ActionKind::kBackward, stage - 1);
    addIfPresent(ActionKind::kWeightGradient, stage);
    break;
  case ActionKind::kWeightGradient:
    break;
  }
  return dependents;
}

/// The cycle of waits through `stuck` (actions that never become ready):
/// walks from one stuck action to a stuck action it waits for until an
/// action repeats, and names the actions of the cycle in waiting order.
std::string describeWaitCycle(const ActionGraph &graph,
                              const std::vector<bool> &stuck) {
  auto stuckPredecessor = [&](int64_t id) -> std::pair<int64_t, bool> {
    if (int64_t previous = graph.getMeshPredecessor(id);
        previous != kAbsent && stuck[previous])
      return {previous, /*isDataDependency=*/false};
    for (const Action &dependency :
         graph.getDependencies(graph.getAction(id))) {
      int64_t dependencyId =
          graph.find(dependency.kind, dependency.microbatch, dependency.stage);
      if (stuck[dependencyId])
        return {dependencyId, /*isDataDependency=*/true};
    }
    llvm_unreachable("a stuck action waits for a stuck action");
  };
  // Position of each visited action in the walk.
  std::vector<int64_t> visitedAt(graph.size(), kAbsent);
  std::vector<std::pair<int64_t, bool>> walk;
  int64_t current = std::find(stuck.begin(), stuck.end(), true) - stuck.begin();
  while (visitedAt[current] == kAbsent) {
    visitedAt[current] = walk.size();
    auto [next, isDataDependency] = stuckPredecessor(current);
    walk.push_back({current, isDataDependency});
    current = next;
  }
  auto onMesh = [&](int64_t id) {
    return describe(graph.getAction(id)) + " on mesh " +
           std::to_string(graph.getMesh(id));
  };
  // "X needs Y, which runs after Z, ..., which needs X".
  const int64_t first = visitedAt[current];
  std::string text = "deadlock: a cycle of waits: " + onMesh(walk[first].first);
  for (int64_t i = first; i < static_cast<int64_t>(walk.size()); ++i) {
    int64_t next =
        i + 1 < static_cast<int64_t>(walk.size()) ? walk[i + 1].first : current;
    text += i == first ? " " : ", which ";
    text += walk[i].second ? "needs " : "runs after ";
    text += onMesh(next);
  }
  return text;
}

/// A topological order of all actions (mesh-order and data edges), or the
/// deadlock that prevents one. O(actions).
llvm::Expected<std::vector<int64_t>>
computeProgressOrder(const ActionGraph &graph) {
  std::vector<int64_t> waitingFor(graph.size(), 0);
  for (int64_t id = 0; id < graph.size(); ++id) {
    const Action &action = graph.getAction(id);
    waitingFor[id] = graph.getMeshPredecessor(id) != kAbsent;
    for (const Action &dependency : graph.getDependencies(action)) {
      if (graph.find(dependency.kind, dependency.microbatch,
                     dependency.stage) == kAbsent)
        return makeScheduleError("deadlock: mesh " + llvm::Twine(graph.getMesh(id)) +
                         " waits forever at " + describe(action) +
                         ": it needs " + describe(dependency) +
                         ", which no mesh runs");
      ++waitingFor[id];
    }
  }
  std::vector<int64_t> order;
  order.reserve(graph.size());
  for (int64_t id = 0; id < graph.size(); ++id)
    if (waitingFor[id] == 0)
      order.push_back(id);
  for (size_t next = 0; next < order.size(); ++next) {
    int64_t id = order[next];
    auto release = [&](int64_t successor) {
      if (--waitingFor[successor] == 0)
        order.push_back(successor);
    };
    if (int64_t successor = graph.getMeshSuccessor(id); successor != kAbsent)
      release(successor);
    for (int64_t dependent : graph.getDependents(graph.getAction(id)))
      release(dependent);
  }
  if (static_cast<int64_t>(order.size()) == graph.size())
    return order;
  std::vector<bool> stuck(graph.size(), false);
  for (int64_t id = 0; id < graph.size(); ++id)
    stuck[id] = waitingFor[id] > 0;
  return makeScheduleError(describeWaitCycle(graph, stuck));
}

/// An error naming the first cost of `named` that is negative or not finite;
/// `where` prefixes the message ("stage 3: ").
llvm::Error
verifyNamedCosts(llvm::ArrayRef<std::pair<const char *, double>> named,
                 const llvm::Twine &where) {
  for (auto [name, cost] : named)
    if (!std::isfinite(cost) || cost < 0)
      return makeScheduleError(where + "the " + name +
                               " cost must be a finite non-negative number "
                               "(got " +
                               formatTime(cost) + ")");
  return llvm::Error::success();
}

} // namespace

llvm::Error verifyCosts(const ActionCosts &costs) {
  return verifyNamedCosts({{"forward", costs.forward},
                           {"backward", costs.backward},
                           {"weight-gradient", costs.weightGradient},
                           {"transfer", costs.transfer}},
                          "");
}

llvm::Error verifyProgress(const Schedule &schedule) {
  llvm::Expected<ActionGraph> graph = ActionGraph::build(schedule);
  if (!graph)
    return graph.takeError();
  return computeProgressOrder(*graph).takeError();
}

double SimulationResult::getTotalBubbleFraction() const {
  if (makespan <= 0 || meshes.empty())
    return 0;
  double busy = 0;
  for (const MeshStats &mesh : meshes)
    busy += mesh.busy;
  return 1 - busy / (makespan * meshes.size());
}

llvm::Expected<SimulationResult> simulate(const Schedule &schedule,
                                          const ActionCosts &costs) {
  if (llvm::Error error = verifyCosts(costs))
    return std::move(error);
  const StageCosts uniform{costs.forward, costs.backward, costs.weightGradient,
                           costs.transfer, /*activationBytes=*/1};
  return simulate(schedule,
                  std::vector<StageCosts>(schedule.getNumStages(), uniform));
}

llvm::Expected<SimulationResult>
simulate(const Schedule &schedule, llvm::ArrayRef<StageCosts> stageCosts) {
  if (static_cast<int64_t>(stageCosts.size()) != schedule.getNumStages())
    return makeScheduleError("the costs name " +
                             llvm::Twine(stageCosts.size()) +
                             " stages, but the schedule has " +
                             llvm::Twine(schedule.getNumStages()));
  for (auto [stage, costs] : llvm::enumerate(stageCosts))
    if (llvm::Error error =
            verifyNamedCosts({{"forward", costs.forward},
                              {"backward", costs.backward},
                              {"weight-gradient", costs.weightGradient},
                              {"transfer", costs.transferToNext},
                              {"activation-bytes", costs.activationBytes}},
                             "stage " + llvm::Twine(stage) + ": "))
      return std::move(error);
  llvm::Expected<ActionGraph> graph = ActionGraph::build(schedule);
  if (!graph)
    return graph.takeError();
  llvm::Expected<std::vector<int64_t>> order = computeProgressOrder(*graph);
  if (!order)
    return order.takeError();

  auto durationOf = [&](const Action &action) {
    const StageCosts &costs = stageCosts[action.stage];
    switch (action.kind) {
    case ActionKind::kForward:
      return costs.forward;
    case ActionKind::kBackward:
      return graph->hasWeightGradient(action)
                 ? costs.backward
                 : costs.backward + costs.weightGradient;
    case ActionKind::kWeightGradient:
      return costs.weightGradient;
    }
    llvm_unreachable("unknown action kind");
  };
  std::vector<double> start(graph->size()), end(graph->size());
  for (int64_t id : *order) {
    const Action &action = graph->getAction(id);
    double ready = 0;
    if (int64_t previous = graph->getMeshPredecessor(id); previous != kAbsent)
      ready = end[previous];
    for (const Action &dependency : graph->getDependencies(action)) {
      int64_t dependencyId =
          graph->find(dependency.kind, dependency.microbatch, dependency.stage);
      // The boundary crossed lies after the lower of the two stages.
      double latency =
          graph->getMesh(dependencyId) == graph->getMesh(id)
              ? 0
              : stageCosts[std::min(dependency.stage, action.stage)]
                    .transferToNext;
      ready = std::max(ready, end[dependencyId] + latency);
    }
    start[id] = ready;
    end[id] = ready + durationOf(action);
  }

  SimulationResult result;
  result.meshes.resize(schedule.getNumMeshes());
  result.timeline.resize(schedule.getNumMeshes());
  for (auto [timed, actions] : llvm::zip(result.timeline, schedule.meshActions))
    timed.reserve(actions.size());
  for (int64_t id = 0; id < graph->size(); ++id) {
    result.timeline[graph->getMesh(id)].push_back(
        {graph->getAction(id), start[id], end[id]});
    result.makespan = std::max(result.makespan, end[id]);
  }
  for (auto [stats, timed] : llvm::zip(result.meshes, result.timeline)) {
    int64_t live = 0;
    double liveBytes = 0;
    for (const TimedAction &entry : timed) {
      stats.busy += entry.end - entry.start;
      const double bytes = stageCosts[entry.action.stage].activationBytes;
      switch (entry.action.kind) {
      case ActionKind::kForward:
        stats.peakLiveActivations = std::max(stats.peakLiveActivations, ++live);
        liveBytes += bytes;
        stats.peakActivationBytes =
            std::max(stats.peakActivationBytes, liveBytes);
        break;
      case ActionKind::kBackward:
        if (!graph->hasWeightGradient(entry.action)) {
          --live;
          liveBytes -= bytes;
        }
        break;
      case ActionKind::kWeightGradient:
        --live;
        liveBytes -= bytes;
        break;
      }
    }
    if (timed.empty())
      continue;
    stats.firstStart = timed.front().start;
    stats.lastEnd = timed.back().end;
    if (result.makespan > 0)
      stats.bubbleFraction = 1 - stats.busy / result.makespan;
    double window = stats.lastEnd - stats.firstStart;
    if (window > 0)
      stats.activeBubbleFraction = 1 - stats.busy / window;
  }
  return result;
}

} // namespace mlir::mpmd::schedule
