//===- Progress.h - Progress of long subcommands on stderr -----*- C++ -*-===//
//
// `mpmd compile` and `mpmd run` can work for minutes on a large program; a
// silent terminal looks like a hang. Once a command has run for the
// progress delay (2 s, or MPMD_PROGRESS_DELAY seconds), each finished piece
// of work (a compile phase, a run) is one line on stderr with its time:
// "mpmd compile: optimize done in 1.84 s (3.02 s in all)". Short commands
// print nothing; `--quiet` silences it altogether. Standard output (the
// results) is never touched.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TOOLS_MPMD_PROGRESS_H
#define MPMD_TOOLS_MPMD_PROGRESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <chrono>
#include <string>

namespace mlir::mpmd::tools {

class Progress {
public:
  /// Starts the command's clock; `quiet` silences every report.
  Progress(llvm::StringRef command, bool quiet);

  /// Reports that `work` finished, having started when the previous piece
  /// of work finished (or when the command started).
  void finished(const llvm::Twine &work);

private:
  using Clock = std::chrono::steady_clock;

  std::string command;
  bool quiet;
  double delaySeconds;
  Clock::time_point start, previous;
};

} // namespace mlir::mpmd::tools

#endif // MPMD_TOOLS_MPMD_PROGRESS_H
