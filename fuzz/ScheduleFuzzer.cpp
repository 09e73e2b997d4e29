//===- ScheduleFuzzer.cpp - The command line of mpmd schedule -------------===//
//
// Input: the arguments of `mpmd schedule`, separated by whitespace
// ("--schedule zb-v --meshes 4 --microbatches 8 --costs 1,2,1"). Runs the
// command as the driver does: option parsing, the schedule generators, the
// simulator and the text renderers; a bad command line must be an error.
// Skipped: inputs that would write an SVG file, and valid schedules of more
// than a few thousand actions (generating and printing them is slow, not
// wrong). Standard input (a module given as '-') is empty.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdint>
#include <fcntl.h>
#include <unistd.h>

namespace {

/// Parameters past this that stay within the generators' action bound make
/// slow schedules; larger ones test the bound and are refused fast.
constexpr int64_t kLargestFastParameter = 16;
constexpr int64_t kSmallestRefusedParameter = 10'000'000;

bool isSkipped(llvm::ArrayRef<llvm::StringRef> args) {
  return llvm::any_of(args, [](llvm::StringRef arg) {
    // The value of `--name=value` or a whole argument (find gives npos).
    llvm::StringRef text = arg.substr(arg.find('=') + 1);
    int64_t value;
    return arg.starts_with("--svg") ||
           (!text.getAsInteger(10, value) && value > kLargestFastParameter &&
            value < kSmallestRefusedParameter);
  });
}

void redirect(const char *path, int flags, int fd) {
  int file = open(path, flags);
  dup2(file, fd);
  close(file);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // The command prints its timelines on standard output.
  redirect("/dev/null", O_WRONLY, STDOUT_FILENO);
  redirect("/dev/null", O_RDONLY, STDIN_FILENO);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SmallVector<llvm::StringRef> args;
  llvm::SplitString(llvm::StringRef(reinterpret_cast<const char *>(data), size),
                    args);
  if (isSkipped(args))
    return 0;
  mlir::mpmd::tools::runScheduleCommand(args);
  return 0;
}
