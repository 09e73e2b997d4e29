//===- PlanCommand.cpp - mpmd plan ----------------------------------------===//
//
// Argument parsing, the model's layers and printing only: the search is the
// MPMDPlan library's, the config text the examples'. The layers are the
// forward named computations of the model in program order; the model fixes
// the microbatch count (its mpmd.call ops), so a plan with another count
// says how to regenerate the model.
// Exit codes (CommandError.h): 2 for bad options, 1 for a model or cost
// file that cannot be planned (unknown names, no plan under the cap).
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "CommandError.h"
#include "Commands.h"
#include "OutputFile.h"

#include "mpmd/Driver/Config.h"
#include "mpmd/Driver/ModelLayers.h"
#include "mpmd/Driver/ModuleFile.h"
#include "mpmd/Driver/StepMeasurement.h"
#include "mpmd/Examples/ConfigText.h"
#include "mpmd/Plan/CostFile.h"
#include "mpmd/Plan/Planner.h"
#include "mpmd/Support/Statistics.h"
#include "mpmd/Transforms/Optimize/PipelineSchedule.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd::tools {

namespace {

using llvm::StringRef;

void printPlanHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd plan MODEL.mlir --costs COSTS.json --topology TOPOLOGY\n"
        "                 [--devices N] [--memory-per-device BYTES]\n"
        "                 [--microbatches M|auto] [--schedules all|LIST] "
        "[--measure K]\n"
        "                 -o CONFIG.json\n\n"
        "Chooses the pipeline for a model: how many meshes, stages per "
        "mesh, which\nlayers (the model's named computations, in program "
        "order) each stage holds,\nthe schedule and the microbatch count. "
        "Each candidate is simulated with the\nmeasured costs; those whose "
        "peak memory on some device exceeds the cap are\nrejected. Prints "
        "the best candidates and writes the best as an 'mpmd compile'\n"
        "configuration.\n\n"
        "  --costs FILE             per named computation costs ('mpmd "
        "profile')\n"
        "  --topology JSON          the meshes available, in pipeline order, "
        "as the\n"
        "                           config's topology: [[\"m0\", [[\"x\", "
        "1]]], ...]; a plan\n"
        "                           uses the first meshes\n"
        "  --devices N              use at most N devices (default: all)\n"
        "  --memory-per-device B    the bytes a device may hold at its peak "
        "(default:\n"
        "                           no limit)\n"
        "  --microbatches M|auto    the microbatch count (default: the "
        "model's), or auto\n"
        "                           to try 1, 2, 4, ..., 64\n"
        "  --schedules all|LIST     comma-separated schedule names (default: "
        "all);\n"
        "                           see 'mpmd schedule --help'\n"
        "  --measure K              compile and run the K fastest predicted of "
        "a "
        "short\n"
        "                           list (the best candidate of each schedule "
        "and mesh\n"
        "                           count, and its even cut) on this machine, "
        "5 runs each\n"
        "                           after a warm-up; the 4 fastest then run "
        "again in 5\n"
        "                           interleaved rounds, and the fastest median "
        "is written\n"
        "  -o FILE                  the configuration\n";
}

struct PlanOptions {
  std::optional<std::string> model, costs, topology, devices, memory,
      microbatches, schedules, measure, output;
  bool help = false;
};

llvm::Expected<std::vector<driver::TopologyMesh>>
parseTopologyOption(StringRef text) {
  // The config's parser, so that the topology reads as in a config.
  llvm::Expected<driver::Config> config = driver::parseConfig(
      ("{\"topology\": " + text + ", \"assignment\": {}}").str());
  if (!config)
    return makeUsageError("--topology: " + llvm::toString(config.takeError()));
  return std::move(config->topology);
}

llvm::Expected<std::vector<schedule::ScheduleKind>>
parseSchedulesOption(StringRef text) {
  if (text == "all")
    return std::vector<schedule::ScheduleKind>(schedule::getAllScheduleKinds());
  std::vector<schedule::ScheduleKind> kinds;
  llvm::SmallVector<StringRef> names;
  text.split(names, ',');
  for (StringRef name : names) {
    std::optional<schedule::ScheduleKind> kind =
        schedule::parseScheduleKind(name.trim());
    if (!kind)
      return makeUsageError("--schedules: unknown schedule '" + name.trim() +
                            "'; expected all or some of " +
                            schedule::getScheduleNameList());
    kinds.push_back(*kind);
  }
  return kinds;
}

/// The request's options; the costs and layers are filled in later.
llvm::Error fillRequestOptions(const PlanOptions &options,
                               const driver::ModelLayers &layers,
                               plan::PlanRequest &request,
                               std::vector<driver::TopologyMesh> &topology) {
  llvm::Expected<std::vector<driver::TopologyMesh>> meshes =
      parseTopologyOption(*options.topology);
  if (!meshes)
    return meshes.takeError();
  topology = std::move(*meshes);
  std::optional<int64_t> maxDevices;
  if (options.devices) {
    llvm::Expected<int64_t> devices =
        parseIntegerOption("--devices", *options.devices);
    if (!devices)
      return devices.takeError();
    maxDevices = *devices;
  }
  int64_t used = 0;
  for (const driver::TopologyMesh &mesh : topology) {
    int64_t devices = 1;
    for (const auto &axis : mesh.axes)
      devices *= axis.second;
    if (maxDevices && used + devices > *maxDevices) {
      if (request.meshDevices.empty())
        return makeUsageError("--devices " + llvm::Twine(*maxDevices) +
                              " is fewer than the first mesh's " +
                              llvm::Twine(devices));
      break;
    }
    used += devices;
    request.meshDevices.push_back(devices);
  }
  if (options.memory) {
    double bytes;
    if (StringRef(*options.memory).getAsDouble(bytes) || !(bytes > 0))
      return makeUsageError("--memory-per-device expects a positive number "
                            "of bytes (got '" +
                            *options.memory + "')");
    request.memoryPerDevice = bytes;
  }
  if (!options.microbatches) {
    request.microbatches = {layers.microbatches};
  } else if (*options.microbatches == "auto") {
    request.microbatches = plan::getAutoMicrobatchCounts();
  } else {
    llvm::Expected<int64_t> microbatches =
        parseIntegerOption("--microbatches", *options.microbatches);
    if (!microbatches)
      return microbatches.takeError();
    if (*microbatches < 1)
      return makeUsageError("--microbatches must be at least 1 (got " +
                            llvm::Twine(*microbatches) + ")");
    request.microbatches = {*microbatches};
  }
  llvm::Expected<std::vector<schedule::ScheduleKind>> schedules =
      parseSchedulesOption(options.schedules.value_or("all"));
  if (!schedules)
    return schedules.takeError();
  request.schedules = std::move(*schedules);
  return llvm::Error::success();
}

/// A built-in schedule of the compiler for one stage per mesh, else the
/// generated one (as `mpmd example` chooses).
llvm::json::Value getConfigSchedule(const plan::PlanCandidate &candidate) {
  StringRef name = schedule::getScheduleName(candidate.schedule);
  if (candidate.stagesPerMesh == 1)
    if (std::optional<PipelineSchedule> builtin =
            symbolizePipelineSchedule(name))
      return stringifyPipelineSchedule(*builtin).str();
  return llvm::json::Object{{"generated", name}};
}

/// `note`, when not empty, follows the candidate's description.
std::string writePlanConfig(const plan::PlanCandidate &best,
                            const std::vector<driver::TopologyMesh> &topology,
                            const std::vector<std::string> &layerNames,
                            StringRef note = "") {
  std::vector<examples::ConfigMesh> meshes;
  for (int64_t mesh = 0; mesh < best.meshes; ++mesh)
    meshes.push_back(
        {topology[mesh].name, topology[mesh].axes, topology[mesh].deviceIds});
  std::vector<examples::ConfigPlacement> assignment;
  for (auto [stage, planned] : llvm::enumerate(best.stages))
    for (int64_t layer = planned.firstLayer; layer < planned.endLayer; ++layer)
      assignment.push_back(
          {layerNames[layer], planned.mesh, static_cast<int64_t>(stage)});
  // What `mpmd run --config ... --summary` compares the measured step with.
  llvm::json::Object plan{
      {"step_seconds", best.stepTime},
      {"bubble_fraction", best.bubbleFraction},
      {"peak_bytes", std::ceil(best.peakMemory)},
      {"description", plan::describeCandidate(best) + note.str()}};
  return examples::writeCompileConfig(meshes, assignment,
                                      getConfigSchedule(best), {}, plan);
}

void printCandidates(const std::vector<plan::PlanCandidate> &candidates,
                     const std::vector<driver::TopologyMesh> &topology,
                     const std::vector<std::string> &layerNames,
                     llvm::raw_ostream &os) {
  os << llvm::formatv("{0,-4}{1,-30}{2,-8}{3,-13}{4,-14}{5,-12}{6,-8}{7}\n",
                      "#", "schedule", "meshes", "stages/mesh", "microbatches",
                      "step (ms)", "bubble", "peak bytes");
  for (auto [rank, candidate] : llvm::enumerate(candidates))
    os << llvm::formatv("{0,-4}{1,-30}{2,-8}{3,-13}{4,-14}{5,-12}{6,-8}{7}\n",
                        rank + 1, schedule::getScheduleName(candidate.schedule),
                        candidate.meshes, candidate.stagesPerMesh,
                        candidate.microbatches,
                        llvm::formatv("{0:g4}", candidate.stepTime * 1e3).str(),
                        llvm::formatv("{0:P1}", candidate.bubbleFraction).str(),
                        llvm::formatv("{0:F0}", candidate.peakMemory).str());
  const plan::PlanCandidate &best = candidates.front();
  os << "best: " << plan::describeCandidate(best) << "\n";
  for (auto [stage, planned] : llvm::enumerate(best.stages)) {
    os << "  stage " << stage << " on " << topology[planned.mesh].name << ": "
       << layerNames[planned.firstLayer];
    if (planned.endLayer - planned.firstLayer > 1)
      os << " .. " << layerNames[planned.endLayer - 1];
    os << "\n";
  }
}

/// "1/1/2/4": the layers of each stage, in forward order.
std::string formatCut(const plan::PlanCandidate &candidate) {
  std::string text;
  for (const plan::PlannedStage &stage : candidate.stages)
    text += (text.empty() ? "" : "/") +
            std::to_string(stage.endLayer - stage.firstLayer);
  return text;
}

/// `--measure`'s finals: how many of the fastest measured candidates run
/// again, in how many interleaved rounds, each round the fastest of how
/// many steps.
constexpr size_t kFinalists = 4;
constexpr int64_t kFinalRounds = 5;
constexpr int64_t kRunsPerFinalRound = 3;

struct FinalsResult {
  /// The short list's index of the finalist with the fastest median round.
  size_t winner = 0;
  double medianSeconds = 0;
};

/// Runs the finalists (`ranks` into `shortList`) in kFinalRounds rounds,
/// each finalist in each round the fastest of kRunsPerFinalRound steps, the
/// order rotating from round to round so that a change of the machine's
/// speed reaches all alike; prints each one's median round and range and
/// returns the fastest median. A finalist that fails to run again is left
/// out; fails when none runs. O(ranks x (lowering + rounds x runs steps)).
llvm::Expected<FinalsResult>
runFinals(const std::vector<plan::PlanCandidate> &shortList,
          llvm::ArrayRef<size_t> ranks, ModuleOp model,
          const std::vector<driver::TopologyMesh> &topology,
          const std::vector<std::string> &layerNames, llvm::raw_ostream &os) {
  constexpr uint64_t kInputSeed = 1;
  struct Finalist {
    size_t rank;
    std::unique_ptr<driver::StepRunner> runner;
    std::vector<double> rounds;
  };
  std::vector<Finalist> finalists;
  for (size_t rank : ranks) {
    llvm::Expected<driver::Config> config = driver::parseConfig(
        writePlanConfig(shortList[rank], topology, layerNames));
    if (!config)
      return config.takeError();
    llvm::Expected<std::unique_ptr<driver::StepRunner>> runner =
        driver::StepRunner::create(model, *config, kInputSeed);
    if (!runner) {
      llvm::consumeError(runner.takeError()); // it ran in the first pass
      continue;
    }
    // A warm-up step, as in the first pass.
    llvm::Expected<driver::MeasuredStep> warmUp = (*runner)->run();
    if (!warmUp) {
      llvm::consumeError(warmUp.takeError());
      continue;
    }
    finalists.push_back({rank, std::move(*runner), {}});
  }
  for (int64_t round = 0; round < kFinalRounds; ++round)
    for (size_t i = 0; i < finalists.size(); ++i) {
      Finalist &finalist = finalists[(i + round) % finalists.size()];
      if (!finalist.runner)
        continue;
      std::optional<double> best;
      for (int64_t run = 0; run < kRunsPerFinalRound; ++run) {
        llvm::Expected<driver::MeasuredStep> step = finalist.runner->run();
        if (!step) {
          llvm::consumeError(step.takeError());
          finalist.runner.reset();
          break;
        }
        best = std::min(best.value_or(step->stepSeconds), step->stepSeconds);
      }
      if (finalist.runner)
        finalist.rounds.push_back(*best);
    }
  os << "finals (the " << ranks.size() << " fastest measured, " << kFinalRounds
     << " interleaved rounds, each the fastest of " << kRunsPerFinalRound
     << " runs):\n"
     << llvm::formatv("{0,-4}{1,-67}{2,-16}{3,-16}{4}\n", "#", "candidate",
                      "layers", "median (ms)", "range (ms)");
  std::optional<FinalsResult> result;
  for (Finalist &finalist : finalists) {
    if (finalist.rounds.size() != static_cast<size_t>(kFinalRounds))
      continue;
    double median = getMedian(finalist.rounds);
    const plan::PlanCandidate &candidate = shortList[finalist.rank];
    os << llvm::formatv(
        "{0,-4}{1,-67}{2,-16}{3,-16}{4}\n", finalist.rank + 1,
        plan::describeCandidate(candidate), formatCut(candidate),
        llvm::formatv("{0:F3}", median * 1e3).str(),
        llvm::formatv("{0:F3}-{1:F3}",
                      *llvm::min_element(finalist.rounds) * 1e3,
                      *llvm::max_element(finalist.rounds) * 1e3)
            .str());
    if (!result || median < result->medianSeconds)
      result = FinalsResult{finalist.rank, median};
  }
  if (!result)
    return makeInputError("--measure: none of the finalists ran again");
  return *result;
}

/// `--measure K`: compiles and runs the `count` fastest predicted of the
/// short list with the model's microbatch count, prints their measured
/// steps (or why one does not run), runs the kFinalists fastest of them
/// again (`runFinals`) and returns the finals' winner with a note saying
/// its median step; fails when none runs.
llvm::Expected<std::pair<plan::PlanCandidate, std::string>>
measureShortList(const plan::PlanRequest &request, int64_t count,
                 ModuleOp model, const driver::ModelLayers &layers,
                 const std::vector<driver::TopologyMesh> &topology,
                 llvm::raw_ostream &os) {
  constexpr int64_t kRuns = 5;
  constexpr uint64_t kInputSeed = 1;
  // Only the model's count runs without regenerating the model.
  if (!llvm::is_contained(request.microbatches, layers.microbatches))
    return makeUsageError("--measure runs the model's " +
                          llvm::Twine(layers.microbatches) +
                          " microbatches, which --microbatches leaves out");
  plan::PlanRequest runnable = request;
  runnable.microbatches = {layers.microbatches};
  llvm::Expected<std::vector<plan::PlanCandidate>> shortList =
      plan::searchBestPerSchedule(runnable);
  if (!shortList)
    return shortList.takeError();
  if (static_cast<int64_t>(shortList->size()) > count)
    shortList->resize(count);
  // What every candidate's devices compute, as profiled: all microbatches'
  // layers, gradient sums and updates. A candidate's fragments over it are
  // the factor of the computed times its own run saw, the cost file's
  // compute factor where the model and the run agree.
  double profiledWork = 0;
  for (const plan::LayerCost &layer : request.costs.layers)
    profiledWork +=
        request.costs.microbatches *
            (layer.forward + layer.backward + layer.weightGradient) +
        layers.microbatches * layer.accumulate + layer.update;
  os << "measured on this machine (fastest of " << kRuns
     << " runs after a warm-up, random inputs " << kInputSeed
     << "; compute: its fragments over the profile of the same work, "
        "against the costs' "
     << llvm::formatv("{0:F3}", request.costs.computeFactor) << "):\n"
     << llvm::formatv("{0,-4}{1,-67}{2,-16}{3,-16}{4,-14}{5,-13}{6}\n", "#",
                      "candidate", "layers", "predicted (ms)", "measured (ms)",
                      "replay (ms)", "compute");
  std::optional<size_t> fastest;
  std::vector<driver::MeasuredStep> steps(shortList->size());
  for (auto [rank, candidate] : llvm::enumerate(*shortList)) {
    llvm::Expected<driver::Config> config =
        driver::parseConfig(writePlanConfig(candidate, topology, layers.names));
    if (!config)
      return config.takeError();
    llvm::Expected<driver::MeasuredStep> step =
        driver::measureStep(model, *config, kRuns, kInputSeed);
    if (!step) {
      os << llvm::formatv("{0,-4}{1,-67}{2,-16}not measured: {3}\n", rank + 1,
                          plan::describeCandidate(candidate),
                          formatCut(candidate),
                          llvm::toString(step.takeError()));
      continue;
    }
    steps[rank] = *step;
    os << llvm::formatv(
        "{0,-4}{1,-67}{2,-16}{3,-16}{4,-14}{5,-13}{6}\n", rank + 1,
        plan::describeCandidate(candidate), formatCut(candidate),
        llvm::formatv("{0:F3}", candidate.stepTime * 1e3).str(),
        llvm::formatv("{0:F3}", step->stepSeconds * 1e3).str(),
        llvm::formatv("{0:F3}", step->replaySeconds * 1e3).str(),
        profiledWork > 0
            ? llvm::formatv("{0:F3}", step->fragmentSeconds / profiledWork)
                  .str()
            : "-");
    if (!fastest || step->stepSeconds < steps[*fastest].stepSeconds)
      fastest = rank;
  }
  if (!fastest)
    return makeInputError("--measure: none of the " +
                          llvm::Twine(shortList->size()) +
                          " candidates measured runs here");
  // The first measurements each saw the machine for a fraction of a second,
  // one after the other; on a machine whose speed moves between seconds the
  // fastest of them is partly the luckiest. The few fastest run again in
  // interleaved rounds and the median round decides.
  std::vector<size_t> measuredRanks;
  for (size_t rank = 0; rank < steps.size(); ++rank)
    if (steps[rank].stepSeconds > 0)
      measuredRanks.push_back(rank);
  llvm::sort(measuredRanks, [&](size_t a, size_t b) {
    return std::pair(steps[a].stepSeconds, a) <
           std::pair(steps[b].stepSeconds, b);
  });
  double chosenSeconds = steps[*fastest].stepSeconds;
  if (measuredRanks.size() > 1) {
    measuredRanks.resize(std::min<size_t>(measuredRanks.size(), kFinalists));
    llvm::Expected<FinalsResult> finals = runFinals(
        *shortList, measuredRanks, model, topology, layers.names, os);
    if (!finals)
      return finals.takeError();
    fastest = finals->winner;
    chosenSeconds = finals->medianSeconds;
  }
  const plan::PlanCandidate &chosen = (*shortList)[*fastest];
  os << "fastest measured: " << plan::describeCandidate(chosen) << ", layers "
     << formatCut(chosen) << "\n";
  return std::pair{chosen, llvm::formatv("; measured {0:F3} ms when planned",
                                         chosenSeconds * 1e3)
                               .str()};
}

llvm::Error runPlan(llvm::ArrayRef<StringRef> args) {
  PlanOptions options;
  if (llvm::Error error =
          parseArguments(args,
                         {{"--costs", &options.costs},
                          {"--topology", &options.topology},
                          {"--devices", &options.devices},
                          {"--memory-per-device", &options.memory},
                          {"--microbatches", &options.microbatches},
                          {"--schedules", &options.schedules},
                          {"--measure", &options.measure},
                          {"-o", &options.output}},
                         {}, options.help, options.model, "a model"))
    return error;
  if (options.help) {
    printPlanHelp(llvm::outs());
    return llvm::Error::success();
  }
  for (auto [name, value] : {std::pair{"a model", &options.model},
                             std::pair{"--costs", &options.costs},
                             std::pair{"--topology", &options.topology},
                             std::pair{"-o", &options.output}})
    if (!*value)
      return makeUsageError(llvm::Twine(name) +
                            " is required; see 'mpmd plan --help'");
  if (llvm::Error error =
          checkOutputPath("-o", *options.output, OutputKind::kFile))
    return error;

  std::string openError;
  std::unique_ptr<driver::ModuleFile> file =
      driver::ModuleFile::read(*options.model, openError);
  if (!file)
    return makeInputError(openError.empty()
                              ? "cannot parse '" + *options.model + "'"
                              : openError);
  const driver::ModelLayers layers = driver::getModelLayers(file->getModule());
  if (layers.names.empty())
    return makeInputError("'" + *options.model +
                          "' has no named computation to plan");
  plan::PlanRequest request;
  std::vector<driver::TopologyMesh> topology;
  if (llvm::Error error =
          fillRequestOptions(options, layers, request, topology))
    return error;

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> costText =
      llvm::MemoryBuffer::getFile(*options.costs, /*IsText=*/true);
  if (!costText)
    return makeInputError("cannot read '" + *options.costs +
                          "': " + costText.getError().message());
  llvm::Expected<plan::CostFile> costs =
      plan::parseCostFile((*costText)->getBuffer());
  if (!costs)
    return makeInputError(*options.costs + ": " +
                          llvm::toString(costs.takeError()));
  llvm::Expected<plan::CostTable> table =
      plan::makeCostTable(*costs, layers.names);
  if (!table)
    return makeInputError(*options.costs + ": " +
                          llvm::toString(table.takeError()));
  request.costs = std::move(*table);
  std::optional<int64_t> measured;
  if (options.measure) {
    llvm::Expected<int64_t> count =
        parseIntegerOption("--measure", *options.measure);
    if (!count)
      return count.takeError();
    if (*count < 1)
      return makeUsageError("--measure must be at least 1 (got " +
                            llvm::Twine(*count) + ")");
    measured = *count;
  }

  llvm::Expected<std::vector<plan::PlanCandidate>> candidates =
      plan::searchPlans(request);
  if (!candidates)
    return makeInputError(llvm::toString(candidates.takeError()));
  printCandidates(*candidates, topology, layers.names, llvm::outs());
  plan::PlanCandidate best = candidates->front();
  std::string note;
  if (measured) {
    llvm::Expected<std::pair<plan::PlanCandidate, std::string>> fastest =
        measureShortList(request, *measured, file->getModule(), layers,
                         topology, llvm::outs());
    if (!fastest)
      return fastest.takeError();
    std::tie(best, note) = std::move(*fastest);
  }
  if (best.microbatches != layers.microbatches)
    llvm::outs() << "note: the model runs " << layers.microbatches
                 << " microbatches; this plan needs " << best.microbatches
                 << ": regenerate the model with them before compiling\n";
  return writeOutputFile(*options.output,
                         writePlanConfig(best, topology, layers.names, note));
}

} // namespace

int runPlanCommand(llvm::ArrayRef<StringRef> args) {
  if (llvm::Error error = runPlan(args))
    return reportError("plan", std::move(error));
  return kExitSuccess;
}

} // namespace mlir::mpmd::tools
