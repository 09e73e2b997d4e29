//===- Render.h - Text and SVG views of a simulated schedule ----*- C++ -*-===//

#ifndef MPMD_SCHEDULE_RENDER_H
#define MPMD_SCHEDULE_RENDER_H

#include "mpmd/Schedule/Simulator.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::mpmd::schedule {

/// Prints the makespan, then per mesh its busy time, bubble fraction, active
/// bubble fraction and peak live activations, then the total bubble fraction.
void printSummary(const SimulationResult &result, llvm::raw_ostream &os);

/// The ASCII timeline: a time ruler, then one row per mesh. When every start
/// and end is an integer and the makespan is at most `maxColumns`, one column
/// is one time unit; otherwise a time unit is the fewest whole columns (up to
/// 16) that put every start and end on a column within `maxColumns` (two for
/// half units), else the makespan is scaled to `maxColumns`. An
/// action is drawn over its columns as its label, kind letter then microbatch
/// (`F3`), cut to the columns it has and padded with '-'; the kind letter is
/// upper case on a mesh's even chunks and lower case on odd ones (the second
/// stage of a mesh in interleaved and V schedules). '.' is idle time.
void printAsciiTimeline(const Schedule &schedule,
                        const SimulationResult &result, llvm::raw_ostream &os,
                        int64_t maxColumns = 160);

/// A standalone SVG: one row per mesh, one rectangle per action coloured by
/// kind (odd chunks lighter), labelled with its microbatch, a time axis and a
/// legend. `title` is drawn above it.
void printSvgTimeline(const Schedule &schedule, const SimulationResult &result,
                      llvm::StringRef title, llvm::raw_ostream &os);

} // namespace mlir::mpmd::schedule

#endif // MPMD_SCHEDULE_RENDER_H
