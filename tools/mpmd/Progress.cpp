//===- Progress.cpp - Progress of long subcommands on stderr --------------===//

#include "Progress.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>

namespace mlir::mpmd::tools {

namespace {

constexpr double kDefaultDelaySeconds = 2;

/// MPMD_PROGRESS_DELAY when it is a number >= 0 (tests set 0 to see every
/// line of a short command), else the default.
double getDelaySeconds() {
  const char *text = std::getenv("MPMD_PROGRESS_DELAY");
  double delay;
  if (!text || llvm::StringRef(text).getAsDouble(delay) || !(delay >= 0) ||
      std::isinf(delay))
    return kDefaultDelaySeconds;
  return delay;
}

} // namespace

Progress::Progress(llvm::StringRef command, bool quiet)
    : command(command.str()), quiet(quiet), delaySeconds(getDelaySeconds()),
      start(Clock::now()), previous(start) {}

void Progress::finished(const llvm::Twine &work) {
  Clock::time_point now = Clock::now();
  std::chrono::duration<double> took = now - previous, total = now - start;
  previous = now;
  if (quiet || total.count() < delaySeconds)
    return;
  llvm::errs() << "mpmd " << command << ": " << work << " done in "
               << llvm::format("%.2f s (%.2f s in all)\n", took.count(),
                               total.count());
}

} // namespace mlir::mpmd::tools
