//===- Trace.h - Traces and summaries of MPMD runs --------------*- C++ -*-===//
//
// What a run of the MPMD executor reports: a Chrome/Perfetto trace (one
// process per mesh, one track per device for its fragments and one for the
// copies it receives, transfers drawn as flows from the sending device), a
// text summary (step time, busy and bubble share per device, peak memory,
// transferred bytes) and the replay of the execution model with the
// measured durations, which says how far the run is from what its own step
// times allow.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_TRACE_H
#define MPMD_RUNTIME_TRACE_H

#include "mpmd/Runtime/DeviceProgram.h"
#include "mpmd/Runtime/Executor.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::mpmd::runtime {

/// Writes `result` as Chrome trace-event JSON (`chrome://tracing`,
/// ui.perfetto.dev). Times in microseconds; a fragment's args carry its
/// step and its kind letter (DeviceProgram::Step::letter), a transfer's its
/// step and bytes.
void writeChromeTrace(const DeviceProgram &program, const RunResult &result,
                      llvm::raw_ostream &os);

/// `simulate` fed with the durations `result` measured for each step on each
/// device: the step time the program's orders and dependencies allow with
/// these kernels, without the executor's overheads. O(steps x devices).
llvm::Expected<SimulatedRun> replayMeasured(const DeviceProgram &program,
                                            const RunResult &result);

/// The per-device table and totals; with a `replay` (may be null), its
/// makespan next to the measured step time and, per device, the measured
/// and the replayed timeline side by side (`width` columns, one letter per
/// fragment kind, see DeviceProgram::Step::letter).
void printRunSummary(const DeviceProgram &program, const RunResult &result,
                     const SimulatedRun *replay, llvm::raw_ostream &os,
                     int64_t width = 64);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_TRACE_H
