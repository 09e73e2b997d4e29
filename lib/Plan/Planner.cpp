//===- Planner.cpp - Search of pipeline plans under a memory cap ----------===//

#include "mpmd/Plan/Planner.h"

#include "mpmd/Schedule/Simulator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace mlir::mpmd::plan {

namespace {

llvm::Error makePlanError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error verifyRequest(const PlanRequest &request) {
  const CostTable &costs = request.costs;
  if (costs.layers.empty())
    return makePlanError("the cost table has no layer");
  for (const LayerCost &layer : costs.layers) {
    const std::pair<const char *, double> named[] = {
        {"forward", layer.forward},
        {"backward", layer.backward},
        {"weight_gradient", layer.weightGradient},
        {"activation_bytes", layer.activationBytes},
        {"boundary_bytes", layer.boundaryBytes},
        {"parameter_bytes", layer.parameterBytes},
        {"accumulate", layer.accumulate},
        {"update", layer.update}};
    for (auto [name, value] : named)
      if (!std::isfinite(value) || value < 0)
        return makePlanError("layer '" + layer.name + "': " + name +
                             " must be a finite non-negative number");
  }
  if (costs.microbatches < 1)
    return makePlanError("the costs' microbatch count must be at least 1");
  if (!(costs.linkBandwidth > 0))
    return makePlanError("the link bandwidth must be positive");
  if (!std::isfinite(costs.linkLatency) || costs.linkLatency < 0 ||
      !std::isfinite(costs.actionOverhead) || costs.actionOverhead < 0)
    return makePlanError(
        "the link latency and the action overhead must be finite and "
        "non-negative");
  if (!std::isfinite(costs.computeFactor) || !(costs.computeFactor > 0))
    return makePlanError("the compute factor must be a finite positive number");
  if (request.meshDevices.empty())
    return makePlanError("no mesh to plan for");
  if (llvm::any_of(request.meshDevices, [](int64_t d) { return d < 1; }))
    return makePlanError("every mesh needs at least one device");
  if (!(request.memoryPerDevice > 0))
    return makePlanError("the memory per device must be positive");
  if (request.schedules.empty())
    return makePlanError("no schedule to try");
  if (request.microbatches.empty() ||
      llvm::any_of(request.microbatches, [](int64_t m) { return m < 1; }))
    return makePlanError("the microbatch counts must be at least 1");
  if (request.minMeshes < 1 ||
      request.minMeshes > static_cast<int64_t>(request.meshDevices.size()))
    return makePlanError("the fewest meshes must be between 1 and the " +
                         llvm::Twine(request.meshDevices.size()) +
                         " available");
  if (request.maxStagesPerMesh < 1 || request.maxCandidates < 1)
    return makePlanError(
        "the stages per mesh and the candidates must be at least 1");
  return llvm::Error::success();
}

/// Sums of the layer costs over ranges, in O(1) per range.
class LayerSums {
public:
  explicit LayerSums(const CostTable &costs) {
    const size_t layers = costs.layers.size();
    for (std::vector<double> *sums :
         {&forward, &backward, &weightGradient, &activation, &parameters,
          &accumulate, &update})
      sums->assign(layers + 1, 0);
    for (auto [i, layer] : llvm::enumerate(costs.layers)) {
      forward[i + 1] = forward[i] + layer.forward;
      backward[i + 1] = backward[i] + layer.backward;
      weightGradient[i + 1] = weightGradient[i] + layer.weightGradient;
      activation[i + 1] = activation[i] + layer.activationBytes;
      parameters[i + 1] = parameters[i] + layer.parameterBytes;
      accumulate[i + 1] = accumulate[i] + layer.accumulate;
      update[i + 1] = update[i] + layer.update;
    }
  }

  static double sum(const std::vector<double> &sums, int64_t first,
                    int64_t end) {
    return sums[end] - sums[first];
  }
  double work(int64_t first, int64_t end) const {
    return sum(forward, first, end) + sum(backward, first, end) +
           sum(weightGradient, first, end);
  }

  std::vector<double> forward, backward, weightGradient, activation, parameters,
      accumulate, update;
};

/// The latency of one transfer over the boundary after `lastLayer`, with
/// per-microbatch bytes scaled by `scale`.
double getTransferTime(const CostTable &costs, int64_t lastLayer,
                       double scale) {
  return costs.linkLatency +
         scale * costs.layers[lastLayer].boundaryBytes / costs.linkBandwidth;
}

/// The contiguous cut of the layers into `stages` stages that minimises the
/// largest `stageCost(stage, first, end)` (the cost of stage `stage` holding
/// layers [first, end)), or none when every cut has an infinite stage.
/// Returns each stage's first layer. O(stages x layers^2).
std::optional<std::vector<int64_t>>
cutLayers(int64_t layers, int64_t stages,
          llvm::function_ref<double(int64_t stage, int64_t first, int64_t end)>
              stageCost) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  // largest[s][e]: the largest cost of stages 0..s when they hold layers
  // [0, e); start[s][e]: the first layer of stage s in that cut.
  std::vector<std::vector<double>> largest(
      stages, std::vector<double>(layers + 1, kInfinity));
  std::vector<std::vector<int64_t>> start(stages,
                                          std::vector<int64_t>(layers + 1, 0));
  for (int64_t end = 1; end <= layers - stages + 1; ++end)
    largest[0][end] = stageCost(0, 0, end);
  for (int64_t stage = 1; stage < stages; ++stage) {
    for (int64_t end = stage + 1; end <= layers - (stages - 1 - stage); ++end) {
      for (int64_t first = stage; first < end; ++first) {
        double cost =
            std::max(largest[stage - 1][first], stageCost(stage, first, end));
        if (cost < largest[stage][end]) {
          largest[stage][end] = cost;
          start[stage][end] = first;
        }
      }
    }
  }
  if (largest[stages - 1][layers] == kInfinity)
    return std::nullopt;
  std::vector<int64_t> firstLayers(stages, 0);
  for (int64_t stage = stages - 1, end = layers; stage > 0; --stage) {
    firstLayers[stage] = start[stage][end];
    end = firstLayers[stage];
  }
  return firstLayers;
}

/// The cut for stages on `stageMesh`: the one whose slowest stage (its work
/// over its mesh's devices, its gradient sums (run at the step's end, one
/// per microbatch) and its outgoing boundary both ways) is fastest
/// among those whose stages each hold at most the memory cap of
/// parameters; when no cut does, the one with the fewest parameter bytes in
/// a stage, for the error to say how much memory the plan needs at least.
std::vector<int64_t> cutForLayout(const PlanRequest &request,
                                  const LayerSums &sums,
                                  const std::vector<int64_t> &stageMesh) {
  const int64_t layers = request.costs.layers.size();
  const int64_t stages = stageMesh.size();
  const double computeFactor = request.costs.computeFactor;
  auto parameterBytes = [&](int64_t, int64_t first, int64_t end) {
    return LayerSums::sum(sums.parameters, first, end);
  };
  std::optional<std::vector<int64_t>> fastest =
      cutLayers(layers, stages, [&](int64_t stage, int64_t first, int64_t end) {
        if (parameterBytes(stage, first, end) > request.memoryPerDevice)
          return std::numeric_limits<double>::infinity();
        double time =
            computeFactor *
            (sums.work(first, end) / request.meshDevices[stageMesh[stage]] +
             LayerSums::sum(sums.accumulate, first, end));
        if (end < layers)
          time += 2 * getTransferTime(request.costs, end - 1, 1);
        return time;
      });
  if (fastest)
    return std::move(*fastest);
  return *cutLayers(layers, stages, parameterBytes);
}

/// Simulates `built` with the layers cut at `firstLayers`.
/// Whether `built` runs weight gradients (W) as actions of their own.
bool hasWeightGradientActions(const schedule::Schedule &built) {
  return llvm::any_of(built.meshActions, [](const auto &actions) {
    return llvm::any_of(actions, [](const schedule::Action &action) {
      return action.kind == schedule::ActionKind::kWeightGradient;
    });
  });
}

llvm::Expected<PlanCandidate> scoreSchedule(
    const PlanRequest &request, const LayerSums &sums,
    schedule::ScheduleKind kind, const schedule::ScheduleParams &params,
    const schedule::Schedule &built, const std::vector<int64_t> &firstLayers) {
  const CostTable &costs = request.costs;
  const int64_t layers = costs.layers.size();
  const int64_t stages = built.getNumStages();
  const double scale =
      static_cast<double>(costs.microbatches) / params.microbatches;
  const double computeFactor = request.costs.computeFactor;
  PlanCandidate candidate;
  candidate.schedule = kind;
  candidate.meshes = params.meshes;
  candidate.stagesPerMesh = params.stagesPerMesh;
  candidate.microbatches = params.microbatches;
  // An action pays the overhead once: without W actions, B (which then
  // lasts backward + weight gradient) pays it in its backward part.
  const bool splitsWeightGradients = hasWeightGradientActions(built);
  std::vector<schedule::StageCosts> stageCosts(stages);
  std::vector<double> meshParameters(params.meshes, 0);
  std::vector<double> meshUpdate(params.meshes, 0);
  for (int64_t stage = 0; stage < stages; ++stage) {
    const int64_t first = firstLayers[stage];
    const int64_t end = stage + 1 < stages ? firstLayers[stage + 1] : layers;
    const int64_t mesh = built.stageMesh[stage];
    const double perDevice = computeFactor * scale / request.meshDevices[mesh];
    schedule::StageCosts &stageCost = stageCosts[stage];
    stageCost.forward = costs.actionOverhead +
                        perDevice * LayerSums::sum(sums.forward, first, end);
    stageCost.backward = costs.actionOverhead +
                         perDevice * LayerSums::sum(sums.backward, first, end);
    stageCost.weightGradient =
        (splitsWeightGradients ? costs.actionOverhead : 0) +
        perDevice * LayerSums::sum(sums.weightGradient, first, end);
    stageCost.transferToNext =
        end < layers ? getTransferTime(costs, end - 1, scale) : 0;
    stageCost.activationBytes = scale / request.meshDevices[mesh] *
                                LayerSums::sum(sums.activation, first, end);
    meshParameters[mesh] += LayerSums::sum(sums.parameters, first, end);
    // The compiler sums a stage's weight gradients over the microbatches in
    // its mesh's last backward fragment, with the update: all m sums of a
    // step end it, none lengthens an earlier action.
    meshUpdate[mesh] +=
        computeFactor *
        (params.microbatches * LayerSums::sum(sums.accumulate, first, end) +
         LayerSums::sum(sums.update, first, end));
    candidate.stages.push_back({mesh, first, end});
  }
  llvm::Expected<schedule::SimulationResult> simulation =
      schedule::simulate(built, stageCosts);
  if (!simulation)
    return simulation.takeError();
  // Each mesh sums its gradients and updates its weights after its last
  // action.
  double busy = 0;
  candidate.stepTime = simulation->makespan;
  for (auto [mesh, stats] : llvm::enumerate(simulation->meshes)) {
    candidate.stepTime =
        std::max(candidate.stepTime, stats.lastEnd + meshUpdate[mesh]);
    busy += stats.busy + meshUpdate[mesh];
    candidate.peakMemory = std::max(
        candidate.peakMemory, meshParameters[mesh] + stats.peakActivationBytes);
  }
  candidate.bubbleFraction =
      candidate.stepTime > 0
          ? 1 - busy / (candidate.stepTime * double(params.meshes))
          : 0;
  return candidate;
}

/// A lower bound of the step time of `built` under the cut: the busiest
/// mesh's work. O(stages).
double getBusiestMeshWork(const PlanRequest &request, const LayerSums &sums,
                          const schedule::Schedule &built,
                          const schedule::ScheduleParams &params,
                          const std::vector<int64_t> &firstLayers) {
  const int64_t layers = request.costs.layers.size();
  const double scale =
      static_cast<double>(request.costs.microbatches) / params.microbatches;
  const double computeFactor = request.costs.computeFactor;
  std::vector<double> work(params.meshes, 0);
  for (int64_t stage = 0; stage < built.getNumStages(); ++stage) {
    const int64_t mesh = built.stageMesh[stage];
    const int64_t end =
        stage + 1 < built.getNumStages() ? firstLayers[stage + 1] : layers;
    const int64_t first = firstLayers[stage];
    work[mesh] +=
        params.microbatches *
            (2 * request.costs.actionOverhead +
             computeFactor *
                 (scale * sums.work(first, end) / request.meshDevices[mesh] +
                  LayerSums::sum(sums.accumulate, first, end))) +
        computeFactor * LayerSums::sum(sums.update, first, end);
  }
  return *std::max_element(work.begin(), work.end());
}

/// Faster first, then less memory, then fewer meshes. Times equal up to
/// rounding (the same work summed in another order) are a tie.
bool isBetter(const PlanCandidate &a, const PlanCandidate &b) {
  constexpr double kRelativeTolerance = 1e-9;
  if (std::abs(a.stepTime - b.stepTime) >
      kRelativeTolerance * std::max(a.stepTime, b.stepTime))
    return a.stepTime < b.stepTime;
  return std::tie(a.peakMemory, a.meshes) < std::tie(b.peakMemory, b.meshes);
}

std::string formatBytes(double bytes) {
  return llvm::formatv("{0}", static_cast<int64_t>(std::ceil(bytes))).str();
}

} // namespace

std::vector<int64_t> getAutoMicrobatchCounts() {
  return {1, 2, 4, 8, 16, 32, 64};
}

std::string describeCandidate(const PlanCandidate &candidate) {
  return llvm::formatv(
             "{0}, {1} mesh{2} x {3} stage{4}, {5} microbatch{6}",
             schedule::getScheduleName(candidate.schedule), candidate.meshes,
             candidate.meshes == 1 ? "" : "es", candidate.stagesPerMesh,
             candidate.stagesPerMesh == 1 ? "" : "s", candidate.microbatches,
             candidate.microbatches == 1 ? "" : "es")
      .str();
}

llvm::Expected<PlanCandidate>
evaluatePlan(const PlanRequest &request, schedule::ScheduleKind kind,
             const schedule::ScheduleParams &params,
             const std::vector<int64_t> &stageFirstLayers) {
  if (llvm::Error error = verifyRequest(request))
    return std::move(error);
  if (params.meshes > static_cast<int64_t>(request.meshDevices.size()))
    return makePlanError(llvm::Twine(params.meshes) + " meshes, but " +
                         llvm::Twine(request.meshDevices.size()) +
                         " are available");
  llvm::Expected<schedule::Schedule> built =
      schedule::buildSchedule(kind, params);
  if (!built)
    return built.takeError();
  const int64_t layers = request.costs.layers.size();
  bool increasing =
      static_cast<int64_t>(stageFirstLayers.size()) == built->getNumStages() &&
      !stageFirstLayers.empty() && stageFirstLayers.front() == 0 &&
      stageFirstLayers.back() < layers;
  for (size_t i = 1; increasing && i < stageFirstLayers.size(); ++i)
    increasing = stageFirstLayers[i - 1] < stageFirstLayers[i];
  if (!increasing)
    return makePlanError(
        "the cut must give each of the " + llvm::Twine(built->getNumStages()) +
        " stages at least one of the " + llvm::Twine(layers) + " layers");
  return scoreSchedule(request, LayerSums(request.costs), kind, params, *built,
                       stageFirstLayers);
}

llvm::Expected<std::vector<PlanCandidate>>
searchPlans(const PlanRequest &request) {
  if (llvm::Error error = verifyRequest(request))
    return std::move(error);
  const LayerSums sums(request.costs);
  const int64_t layers = request.costs.layers.size();
  // Sorted best first, at most maxCandidates.
  std::vector<PlanCandidate> best;
  std::optional<PlanCandidate> leastMemory;
  // The cut depends on the meshes of the stages only, not on the schedule.
  std::map<std::vector<int64_t>, std::vector<int64_t>> cutOfLayout;
  const int64_t maxMeshes =
      std::min<int64_t>(request.meshDevices.size(), layers);
  for (int64_t meshes = request.minMeshes; meshes <= maxMeshes; ++meshes) {
    for (int64_t stagesPerMesh = 1; stagesPerMesh <= request.maxStagesPerMesh &&
                                    meshes * stagesPerMesh <= layers;
         ++stagesPerMesh) {
      for (schedule::ScheduleKind kind : request.schedules) {
        for (int64_t microbatches : request.microbatches) {
          schedule::ScheduleParams params{meshes, microbatches, stagesPerMesh};
          // Schedules reject the parameters they do not support (v, m).
          llvm::Expected<schedule::Schedule> built =
              schedule::buildSchedule(kind, params);
          if (!built) {
            llvm::consumeError(built.takeError());
            continue;
          }
          // On one mesh no backward fragment sends a gradient to another
          // mesh, so the compiler splits none from its weight gradient and
          // a schedule with W actions does not compile.
          if (meshes == 1 && hasWeightGradientActions(*built))
            continue;
          auto [cut, isNew] = cutOfLayout.try_emplace(built->stageMesh);
          if (isNew)
            cut->second = cutForLayout(request, sums, built->stageMesh);
          const bool full =
              static_cast<int64_t>(best.size()) == request.maxCandidates;
          if (full && getBusiestMeshWork(request, sums, *built, params,
                                         cut->second) >= best.back().stepTime)
            continue;
          llvm::Expected<PlanCandidate> candidate =
              scoreSchedule(request, sums, kind, params, *built, cut->second);
          if (!candidate)
            return candidate.takeError();
          if (!leastMemory || candidate->peakMemory < leastMemory->peakMemory)
            leastMemory = *candidate;
          if (candidate->peakMemory > request.memoryPerDevice ||
              (full && !isBetter(*candidate, best.back())))
            continue;
          if (full)
            best.pop_back();
          best.insert(llvm::upper_bound(best, *candidate, isBetter),
                      std::move(*candidate));
        }
      }
    }
  }
  if (!leastMemory)
    return makePlanError(
        "no schedule can be built for these meshes and microbatch counts");
  if (best.empty())
    return makePlanError(
        "no plan fits in " + formatBytes(request.memoryPerDevice) +
        " bytes per device; the smallest feasible memory is " +
        formatBytes(leastMemory->peakMemory) + " bytes per device (" +
        describeCandidate(*leastMemory) + ")");
  return best;
}

std::vector<int64_t> getEvenCut(int64_t layers, int64_t stages) {
  std::vector<int64_t> firstLayers;
  const int64_t base = layers / stages, extra = layers % stages;
  for (int64_t stage = 0, first = 0; stage < stages; ++stage) {
    firstLayers.push_back(first);
    first += base + (stage < extra ? 1 : 0);
  }
  return firstLayers;
}

llvm::Expected<std::vector<PlanCandidate>>
searchBestPerSchedule(const PlanRequest &request) {
  if (llvm::Error error = verifyRequest(request))
    return std::move(error);
  const int64_t layers = request.costs.layers.size();
  std::vector<PlanCandidate> shortList;
  const int64_t maxMeshes =
      std::min<int64_t>(request.meshDevices.size(), layers);
  for (schedule::ScheduleKind kind : request.schedules) {
    for (int64_t meshes = request.minMeshes; meshes <= maxMeshes; ++meshes) {
      PlanRequest alone = request;
      alone.schedules = {kind};
      alone.meshDevices.resize(meshes);
      alone.minMeshes = meshes;
      alone.maxCandidates = 1;
      llvm::Expected<std::vector<PlanCandidate>> best = searchPlans(alone);
      if (!best) {
        llvm::consumeError(best.takeError());
        continue;
      }
      PlanCandidate &planned = best->front();
      std::vector<int64_t> plannedCut;
      for (const PlannedStage &stage : planned.stages)
        plannedCut.push_back(stage.firstLayer);
      const std::vector<int64_t> evenCut =
          getEvenCut(layers, static_cast<int64_t>(planned.stages.size()));
      const schedule::ScheduleParams params{
          planned.meshes, planned.microbatches, planned.stagesPerMesh};
      shortList.push_back(std::move(planned));
      if (evenCut == plannedCut)
        continue;
      llvm::Expected<PlanCandidate> even =
          evaluatePlan(request, kind, params, evenCut);
      if (!even)
        return even.takeError();
      if (even->peakMemory <= request.memoryPerDevice)
        shortList.push_back(std::move(*even));
    }
  }
  // No schedule has a candidate: the search over all of them says why
  // (the least memory a candidate needs).
  if (shortList.empty())
    return searchPlans(request);
  llvm::sort(shortList, isBetter);
  return shortList;
}

} // namespace mlir::mpmd::plan
