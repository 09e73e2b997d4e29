//===- mpmd.cpp - The mpmd driver: one subcommand per task ----------------===//
//
// `mpmd <command> [options]`; `mpmd --help` lists the commands and
// `mpmd <command> --help` their options. Exit codes: CommandError.h.
//
//===----------------------------------------------------------------------===//

#include "CommandError.h"
#include "Commands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cxxabi.h>
#include <exception>
#include <vector>

using namespace mlir::mpmd::tools;

namespace {

struct Command {
  llvm::StringRef name;
  llvm::StringRef summary;
  int (*run)(llvm::ArrayRef<llvm::StringRef> args);
};

const Command kCommands[] = {
    {"compile",
     "lower a program with a JSON config: import, optimize, sharding "
     "propagation, export",
     runCompileCommand},
    {"schedule",
     "simulate a pipeline schedule: makespan, bubbles, peak activations, "
     "timeline",
     runScheduleCommand},
    {"interpret",
     "run the argument-free functions of a module, with check ops as "
     "assertions",
     runInterpretCommand},
    {"example",
     "write an example model (an MLP or transformer training step) and "
     "its compile config",
     runExampleCommand},
    {"profile",
     "time each named computation of a model on the interpreter: the costs "
     "of 'plan'",
     runProfileCommand},
    {"plan",
     "choose meshes, stages, schedule and microbatches from measured costs "
     "under a memory cap",
     runPlanCommand},
    {"run",
     "run a program on .npy or seeded inputs (MPMD programs on virtual "
     "devices)",
     runRunCommand},
    {"gather",
     "assemble an output from the per-rank shards of 'mpmd run --backend "
     "mpi'",
     runGatherCommand},
    {"trace-merge",
     "join the per-rank traces of 'mpmd run --backend mpi' into one timeline",
     runTraceMergeCommand},
};

constexpr const char *kBugReportMessage =
    "PLEASE report this bug to the mpmd issue tracker with the command line, "
    "its input files and the stack trace above.\n";

void printUsage(llvm::raw_ostream &os) {
  os << "usage: mpmd <command> [options]\n"
        "       mpmd --version\n\ncommands:\n";
  for (const Command &command : kCommands)
    os << llvm::format("  %-10s %s\n", command.name.str().c_str(),
                       command.summary.str().c_str());
  os << "\n'mpmd <command> --help' describes a command's options.\n"
        "Exit codes: 0 success, 1 error in the program or an input, 2 error "
        "in the\ncommand line or the configuration, 3 'mpmd run --validate' "
        "mismatch,\n70 internal error (a bug in mpmd).\n";
}

/// The runtime and the libraries are built without exceptions, but the C++
/// library may still throw (std::bad_alloc, std::system_error from
/// std::thread): whatever escapes, on any thread, ends here instead of in
/// an abort with no message.
[[noreturn]] void handleUncaughtException() {
  llvm::errs() << "mpmd: internal error: uncaught exception";
  if (std::type_info *type = abi::__cxa_current_exception_type()) {
    int status = 0;
    char *name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
    llvm::errs() << " of type " << (status == 0 ? name : type->name());
    std::free(name);
  }
  llvm::errs() << "\n";
  llvm::sys::PrintStackTrace(llvm::errs());
  llvm::errs() << kBugReportMessage;
  llvm::errs().flush();
  std::_Exit(kExitInternalError);
}

} // namespace

int main(int argc, char **argv) {
  // A crash prints a stack trace and where to report it, as mpmd-opt does.
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::setBugReportMsg(kBugReportMessage);
  std::set_terminate(handleUncaughtException);

  std::vector<llvm::StringRef> args(argv + 1, argv + argc);
  if (args.empty()) {
    printUsage(llvm::errs());
    return kExitUsageError;
  }
  if (args.front() == "--help" || args.front() == "-h") {
    printUsage(llvm::outs());
    return kExitSuccess;
  }
  if (args.front() == "--version") {
    llvm::outs() << "mpmd " MPMD_VERSION " (LLVM " LLVM_VERSION_STRING ")\n";
    return kExitSuccess;
  }
  for (const Command &command : kCommands)
    if (args.front() == command.name)
      return command.run(llvm::ArrayRef(args).drop_front());
  llvm::errs() << "mpmd: error: unknown command '" << args.front()
               << "'; see 'mpmd --help'\n";
  return kExitUsageError;
}
