//===- ScheduleCommand.cpp - mpmd schedule --------------------------------===//
//
// Argument parsing and printing only: the schedules, the simulator and the
// renderers are the MPMDSchedule library's.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "CommandError.h"
#include "Commands.h"
#include "OutputFile.h"

#include "mpmd/Driver/ModuleFile.h"
#include "mpmd/Schedule/Generators.h"
#include "mpmd/Schedule/Render.h"
#include "mpmd/Schedule/ModuleSchedule.h"
#include "mpmd/Schedule/Simulator.h"

#include "llvm/Support/Path.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::mpmd::tools {

namespace {

using namespace mlir::mpmd::schedule;
using llvm::StringRef;

void printScheduleHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd schedule --schedule NAME --meshes P --microbatches M\n"
        "                     [--virtual-stages V] [--costs F,B,W[,T]] "
        "[--svg FILE]\n"
        "       mpmd schedule MODULE.mlir [--costs F,B,W[,T]] [--svg FILE]\n\n"
        "Simulates a built-in pipeline schedule, or the one an MPMD module "
        "runs after\nscheduling, and prints its makespan, the bubble "
        "fraction and peak live\nactivations of each mesh, and an ASCII "
        "timeline. A schedule in which some mesh\nwaits forever is reported "
        "as a deadlock, naming the actions involved.\n\n"
        "  MODULE.mlir          a scheduled MPMD module ('-': standard "
        "input); each user\n"
        "                       fragment of @main with a call_counter is an "
        "action:\n"
        "                       F (transpose count 0), B (1), W "
        "(split_drop_transferred);\n"
        "                       stage = its stage, else its mesh's "
        "position\n"
        "  --schedule NAME      one of (case-insensitive; '-' and '_' "
        "ignored):";
  // The names, wrapped at 80 columns under the option's description.
  constexpr size_t kIndent = 23, kWidth = 80;
  size_t column = kWidth;
  for (ScheduleKind kind : getAllScheduleKinds()) {
    StringRef name = getScheduleName(kind);
    if (column + 1 + name.size() > kWidth) {
      os << "\n" << std::string(kIndent - 1, ' ');
      column = kIndent - 1;
    }
    os << " " << name;
    column += 1 + name.size();
  }
  os << "\n"
        "  --meshes P           pipeline ranks\n"
        "  --microbatches M     microbatches per step\n"
        "  --virtual-stages V   stages per mesh (default 2 for ZB-V and "
        "DualPipeV, else 1)\n"
        "  --costs F,B,W[,T]    durations of a forward, a backward (input "
        "gradient) and a\n"
        "                       weight gradient, and the transfer latency "
        "between meshes\n"
        "                       (default 1,1,1,0); a backward without a "
        "split-off W lasts B+W\n"
        "  --svg FILE           also write the timeline as SVG to FILE\n";
}

struct ScheduleOptions {
  std::optional<std::string> schedule, meshes, microbatches, virtualStages,
      costs, svg, module;
  bool help = false;
};

llvm::Expected<ScheduleOptions> parseOptions(llvm::ArrayRef<StringRef> args) {
  ScheduleOptions options;
  if (llvm::Error error = parseArguments(
          args,
          {{"--schedule", &options.schedule},
           {"--meshes", &options.meshes},
           {"--microbatches", &options.microbatches},
           {"--virtual-stages", &options.virtualStages},
           {"--costs", &options.costs},
           {"--svg", &options.svg}},
          {}, options.help, options.module, "a module"))
    return std::move(error);
  if (options.svg)
    if (llvm::Error error =
            checkOutputPath("--svg", *options.svg, OutputKind::kFile))
      return std::move(error);
  return options;
}

llvm::Expected<ActionCosts> parseCosts(StringRef text) {
  llvm::SmallVector<StringRef, 4> parts;
  text.split(parts, ',');
  if (parts.size() != 3 && parts.size() != 4)
    return makeUsageError("--costs expects F,B,W or F,B,W,T (got '" + text +
                          "')");
  double values[4] = {0, 0, 0, 0};
  for (auto [part, value] : llvm::zip(parts, values))
    if (part.trim().getAsDouble(value))
      return makeUsageError("--costs: '" + part + "' is not a number");
  ActionCosts costs{values[0], values[1], values[2], values[3]};
  if (llvm::Error error = verifyCosts(costs))
    return makeUsageError(llvm::toString(std::move(error)));
  return costs;
}

llvm::Error writeSvg(StringRef path, const Schedule &schedule,
                     const SimulationResult &result, StringRef title) {
  std::string svg;
  llvm::raw_string_ostream os(svg);
  printSvgTimeline(schedule, result, title, os);
  return writeOutputFile(path, svg);
}

/// The schedule of a built-in generator (`--schedule`, `--meshes`, ...).
llvm::Expected<Schedule> buildBuiltinSchedule(const ScheduleOptions &options,
                                              std::string &title) {
  for (auto [name, value] :
       {std::pair{"--schedule", &options.schedule},
        std::pair{"--meshes", &options.meshes},
        std::pair{"--microbatches", &options.microbatches}})
    if (!*value)
      return makeUsageError(llvm::Twine(name) +
                            " is required; see 'mpmd schedule --help'");

  std::optional<ScheduleKind> kind = parseScheduleKind(*options.schedule);
  if (!kind)
    return makeUsageError("unknown schedule '" + *options.schedule +
                          "'; expected one of " + getScheduleNameList());
  ScheduleParams params;
  llvm::Expected<int64_t> meshes =
      parseIntegerOption("--meshes", *options.meshes);
  if (!meshes)
    return meshes.takeError();
  params.meshes = *meshes;
  llvm::Expected<int64_t> microbatches =
      parseIntegerOption("--microbatches", *options.microbatches);
  if (!microbatches)
    return microbatches.takeError();
  params.microbatches = *microbatches;
  params.stagesPerMesh = getDefaultStagesPerMesh(*kind);
  if (options.virtualStages) {
    llvm::Expected<int64_t> stagesPerMesh =
        parseIntegerOption("--virtual-stages", *options.virtualStages);
    if (!stagesPerMesh)
      return stagesPerMesh.takeError();
    params.stagesPerMesh = *stagesPerMesh;
  }
  title = getScheduleName(*kind).str() + ", p=" +
          std::to_string(params.meshes) + ", v=" +
          std::to_string(params.stagesPerMesh) + ", m=" +
          std::to_string(params.microbatches);
  // Invalid generator parameters come from the command line.
  llvm::Expected<Schedule> schedule = buildSchedule(*kind, params);
  if (!schedule)
    return makeUsageError(llvm::toString(schedule.takeError()));
  return schedule;
}

/// The schedule the main function of a scheduled MPMD module runs; IR
/// errors are printed as MLIR diagnostics.
llvm::Expected<Schedule> readModuleSchedule(const ScheduleOptions &options,
                                            std::string &title) {
  for (auto [name, value] :
       {std::pair{"--schedule", &options.schedule},
        std::pair{"--meshes", &options.meshes},
        std::pair{"--microbatches", &options.microbatches},
        std::pair{"--virtual-stages", &options.virtualStages}})
    if (*value)
      return makeUsageError(llvm::Twine(name) +
                            " is not used with a module: the module gives the "
                            "schedule");
  std::string error;
  std::unique_ptr<driver::ModuleFile> file =
      driver::ModuleFile::read(*options.module, error);
  if (!file)
    return makeInputError(
        error.empty() ? "cannot parse '" + *options.module + "'" : error);
  FailureOr<Schedule> schedule = getModuleSchedule(file->getModule());
  if (failed(schedule))
    return makeInputError("'" + *options.module + "' holds no valid schedule");
  title = llvm::sys::path::filename(*options.module).str();
  return std::move(*schedule);
}

llvm::Error runSchedule(llvm::ArrayRef<StringRef> args) {
  llvm::Expected<ScheduleOptions> options = parseOptions(args);
  if (!options)
    return options.takeError();
  if (options->help) {
    printScheduleHelp(llvm::outs());
    return llvm::Error::success();
  }
  ActionCosts costs;
  if (options->costs) {
    llvm::Expected<ActionCosts> parsed = parseCosts(*options->costs);
    if (!parsed)
      return parsed.takeError();
    costs = *parsed;
  }
  std::string title;
  llvm::Expected<Schedule> schedule =
      options->module ? readModuleSchedule(*options, title)
                      : buildBuiltinSchedule(*options, title);
  if (!schedule)
    return schedule.takeError();
  llvm::Expected<SimulationResult> result = simulate(*schedule, costs);
  if (!result)
    return result.takeError();

  if (options->svg)
    if (llvm::Error error = writeSvg(*options->svg, *schedule, *result, title))
      return error;
  llvm::raw_ostream &os = llvm::outs();
  os << "schedule " << title << "; costs F=" << formatTime(costs.forward)
     << " B=" << formatTime(costs.backward)
     << " W=" << formatTime(costs.weightGradient)
     << " T=" << formatTime(costs.transfer) << "\n";
  printSummary(*result, os);
  os << "\n";
  printAsciiTimeline(*schedule, *result, os);
  return llvm::Error::success();
}

} // namespace

int runScheduleCommand(llvm::ArrayRef<StringRef> args) {
  if (llvm::Error error = runSchedule(args))
    return reportError("schedule", std::move(error));
  return kExitSuccess;
}

} // namespace mlir::mpmd::tools
