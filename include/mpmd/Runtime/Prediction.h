//===- Prediction.h - The schedule simulator fed with a run -----*- C++ -*-===//
//
// The pipeline schedule simulator (lib/Schedule) predicts a schedule's
// timeline from one cost per action kind. After a run, those costs can be
// measured: the mean duration of the fragments that are one forward, one
// backward or one weight gradient, and of the copies. Simulating the
// module's schedule with them puts the model's prediction next to the
// measured timeline. Unlike `replayMeasured`, which replays every step with
// its own duration, this predicts from the pipeline model alone (pipeline
// actions only; optimizer and other fragments are outside the model).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_PREDICTION_H
#define MPMD_RUNTIME_PREDICTION_H

#include "mpmd/Runtime/Executor.h"
#include "mpmd/Schedule/Simulator.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mpmd::runtime {

struct PipelinePrediction {
  schedule::Schedule schedule;
  /// Mean measured durations, in milliseconds (the simulation's unit).
  schedule::ActionCosts costs;
  schedule::SimulationResult simulation;
};

/// Reads the pipeline schedule of the executable's @main (its fragment
/// calls with call counters), takes the mean measured cost of each action
/// kind from `result` and simulates it. Fails, saying why, when the module
/// has no pipeline schedule or the run measured no fragment that is a
/// single forward or backward. O(steps + actions).
llvm::Expected<PipelinePrediction>
predictWithScheduleSimulator(const Executable &executable,
                             const RunResult &result);

/// The costs, the predicted makespan and the simulator's text timeline.
void printPrediction(const PipelinePrediction &prediction,
                     llvm::raw_ostream &os, int64_t width = 64);

/// What `mpmd run --summary` prints after a run: the per-device table with
/// the replay of the measured step times (Trace.h), then the prediction of
/// the schedule simulator or why it does not apply. Fails only when the
/// replay fails.
llvm::Error printRunReport(const Executable &executable,
                           const RunResult &result, llvm::raw_ostream &os);

/// What `mpmd run --summary` prints for a configuration that `mpmd plan`
/// wrote (its "plan" section): the predicted step (`description`, the
/// planned candidate in words, may be empty) next to the measured step of
/// the reported run (the last of `runStepsUs`, one per run of `--repeat`)
/// and, for several runs, their fastest and median, with the ratios to the
/// prediction.
void printPlannedStep(double predictedSeconds, llvm::StringRef description,
                      llvm::ArrayRef<double> runStepsUs, llvm::raw_ostream &os);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_PREDICTION_H
