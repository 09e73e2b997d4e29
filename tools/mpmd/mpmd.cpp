//===- mpmd.cpp - The mpmd driver: one subcommand per task ----------------===//
//
// `mpmd <command> [options]`; `mpmd --help` lists the commands and
// `mpmd <command> --help` their options.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

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
    {"run",
     "run a program on .npy or seeded inputs (MPMD programs on virtual "
     "devices)",
     runRunCommand},
};

void printUsage(llvm::raw_ostream &os) {
  os << "usage: mpmd <command> [options]\n\ncommands:\n";
  for (const Command &command : kCommands)
    os << llvm::format("  %-10s %s\n", command.name.str().c_str(),
                       command.summary.str().c_str());
  os << "\n'mpmd <command> --help' describes a command's options.\n";
}

} // namespace

int main(int argc, char **argv) {
  std::vector<llvm::StringRef> args(argv + 1, argv + argc);
  if (args.empty()) {
    printUsage(llvm::errs());
    return 1;
  }
  if (args.front() == "--help" || args.front() == "-h") {
    printUsage(llvm::outs());
    return 0;
  }
  for (const Command &command : kCommands)
    if (args.front() == command.name)
      return command.run(llvm::ArrayRef(args).drop_front());
  llvm::errs() << "mpmd: error: unknown command '" << args.front()
               << "'; see 'mpmd --help'\n";
  return 1;
}
