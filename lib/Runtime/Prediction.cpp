//===- Prediction.cpp - The schedule simulator fed with a run -------------===//

#include "mpmd/Runtime/Prediction.h"

#include "mpmd/Runtime/Trace.h"
#include "mpmd/Support/Statistics.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Schedule/ModuleSchedule.h"
#include "mpmd/Schedule/Render.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

namespace mlir::mpmd::runtime {

namespace {

llvm::Error makePredictionError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The mean of the samples, or none.
struct Mean {
  double sum = 0;
  int64_t count = 0;
  void add(double value) {
    sum += value;
    ++count;
  }
  std::optional<double> get() const {
    return count ? std::optional<double>(sum / double(count)) : std::nullopt;
  }
};

} // namespace

llvm::Expected<PipelinePrediction>
predictWithScheduleSimulator(const Executable &executable,
                             const RunResult &result) {
  ModuleOp module = executable.getModule();
  func::FuncOp main = getMainFunction(module);
  // The schedule reader reports what it lacks as diagnostics; here they are
  // the reason there is no prediction, not errors of the run.
  std::string reason;
  FailureOr<FunctionSchedule> functionSchedule = failure();
  {
    ScopedDiagnosticHandler capture(module.getContext(), [&](Diagnostic &d) {
      if (reason.empty())
        reason = d.str();
      return success();
    });
    functionSchedule = getFunctionSchedule(main, getTopology(main));
  }
  if (failed(functionSchedule))
    return makePredictionError("no pipeline schedule: " + reason);

  // Which action each fragment is; a fragment that stands for two actions
  // (a forward merged with its backward) says nothing about either alone.
  llvm::DenseMap<Operation *, std::optional<schedule::ActionKind>> kindOf;
  for (const auto &[key, op] : functionSchedule->fragmentOf) {
    auto [it, inserted] = kindOf.try_emplace(op, std::get<0>(key));
    if (!inserted && it->second != std::get<0>(key))
      it->second = std::nullopt;
  }
  Mean forward, backward, weightGradient, transfer;
  const DeviceProgram &program = executable.getProgram();
  for (const ExecutedStep &executed : result.executed) {
    double duration = executed.endUs - executed.startUs;
    if (program.steps[executed.step].kind ==
        DeviceProgram::StepKind::kTransfer) {
      transfer.add(duration);
      continue;
    }
    auto it = kindOf.find(executable.getStepOp(executed.step));
    if (it == kindOf.end() || !it->second)
      continue;
    switch (*it->second) {
    case schedule::ActionKind::kForward: forward.add(duration); break;
    case schedule::ActionKind::kBackward: backward.add(duration); break;
    case schedule::ActionKind::kWeightGradient:
      weightGradient.add(duration);
      break;
    }
  }
  if (!forward.get() || !backward.get())
    return makePredictionError("no fragment of the run is a single forward "
                               "and a single backward to take costs from");

  PipelinePrediction prediction;
  prediction.schedule = std::move(functionSchedule->schedule);
  constexpr double kMicrosPerMilli = 1000;
  prediction.costs.forward = *forward.get() / kMicrosPerMilli;
  // Without split weight gradients a B action lasts backward + weight
  // gradient: the measured backwards are whole.
  prediction.costs.backward = *backward.get() / kMicrosPerMilli;
  prediction.costs.weightGradient =
      weightGradient.get().value_or(0) / kMicrosPerMilli;
  prediction.costs.transfer = transfer.get().value_or(0) / kMicrosPerMilli;
  llvm::Expected<schedule::SimulationResult> simulation =
      schedule::simulate(prediction.schedule, prediction.costs);
  if (!simulation)
    return simulation.takeError();
  prediction.simulation = std::move(*simulation);
  return prediction;
}

void printPrediction(const PipelinePrediction &prediction,
                     llvm::raw_ostream &os, int64_t width) {
  const schedule::ActionCosts &costs = prediction.costs;
  os << llvm::format("pipeline simulator, in ms (mean measured F %.3g, B "
                     "%.3g",
                     costs.forward, costs.backward);
  if (costs.weightGradient > 0)
    os << llvm::format(", W %.3g", costs.weightGradient);
  os << llvm::format(", transfer %.3g): makespan %.3f ms over the pipeline "
                     "actions\n",
                     costs.transfer, prediction.simulation.makespan);
  schedule::printAsciiTimeline(prediction.schedule, prediction.simulation, os,
                               width);
}

llvm::Error printRunReport(const Executable &executable,
                           const RunResult &result, llvm::raw_ostream &os) {
  const DeviceProgram &program = executable.getProgram();
  llvm::Expected<SimulatedRun> replay = replayMeasured(program, result);
  if (!replay)
    return replay.takeError();
  printRunSummary(program, result, &*replay, os);
  llvm::Expected<PipelinePrediction> prediction =
      predictWithScheduleSimulator(executable, result);
  if (prediction)
    printPrediction(*prediction, os);
  else
    os << "pipeline simulator: not applicable ("
       << llvm::toString(prediction.takeError()) << ")\n";
  return llvm::Error::success();
}

void printPlannedStep(double predictedSeconds, llvm::StringRef description,
                      llvm::ArrayRef<double> runStepsUs,
                      llvm::raw_ostream &os) {
  assert(!runStepsUs.empty() && "a planned step compares with a run");
  constexpr double kMicrosPerSecond = 1e6, kMicrosPerMilli = 1e3;
  const double predictedUs = predictedSeconds * kMicrosPerSecond;
  os << llvm::format("mpmd plan: predicted step %.3f ms",
                     predictedUs / kMicrosPerMilli);
  if (!description.empty())
    os << " (" << description << ")";
  const double measuredUs = runStepsUs.back();
  os << llvm::format("; measured %.3f ms, measured/predicted %.2f",
                     measuredUs / kMicrosPerMilli, measuredUs / predictedUs);
  if (runStepsUs.size() > 1) {
    const double fastestUs = *llvm::min_element(runStepsUs);
    const double medianUs = getMedian(runStepsUs.vec());
    os << llvm::format(" (fastest of %zu runs %.3f ms, %.2f; median %.3f ms, "
                       "%.2f)",
                       runStepsUs.size(), fastestUs / kMicrosPerMilli,
                       fastestUs / predictedUs, medianUs / kMicrosPerMilli,
                       medianUs / predictedUs);
  }
  os << "\n";
}

} // namespace mlir::mpmd::runtime
