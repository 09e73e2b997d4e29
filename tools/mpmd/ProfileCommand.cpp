//===- ProfileCommand.cpp - mpmd profile ----------------------------------===//
//
// Argument parsing and the output file only: the profile is the driver's
// (mpmd/Driver/ModelProfile.h).
// Exit codes (CommandError.h): 2 for bad options, 1 for a model that
// cannot be read or run.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "CommandError.h"
#include "Commands.h"
#include "OutputFile.h"

#include "mpmd/Driver/ModelProfile.h"
#include "mpmd/Driver/ModuleFile.h"
#include "mpmd/Plan/CostFile.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::mpmd::tools {

namespace {

using llvm::StringRef;

void printProfileHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd profile MODEL.mlir [--random-inputs SEED] -o "
        "COSTS.json\n\n"
        "Runs the unpartitioned model's @main on the interpreter (once to "
        "warm up, seven\ntimes timed) and writes, per named computation and "
        "transpose count, its mean time\nper microbatch and, for forwards, "
        "the bytes of its parameters, of the\nactivations its backward "
        "takes and of what it sends to the next layer, with the\nwork "
        "around the layers (gradient sums, optimizer update) charged to "
        "them,\nthe executor's per-fragment and per-transfer costs "
        "measured on this machine and\nhow much slower (or faster) the "
        "executor's fragments compute the model than\nthe profile (its "
        "even split over two meshes with 1F1B, compiled and run in\nturns "
        "with the timed runs): the cost file of 'mpmd plan --costs'.\n\n"
        "  --random-inputs SEED  seeded random arguments (default 0)\n"
        "  -o FILE               the cost file\n";
}

llvm::Error runProfile(llvm::ArrayRef<StringRef> args) {
  std::optional<std::string> model, seedText, output;
  bool help = false;
  if (llvm::Error error = parseArguments(
          args, {{"--random-inputs", &seedText}, {"-o", &output}}, {}, help,
          model, "a model"))
    return error;
  if (help) {
    printProfileHelp(llvm::outs());
    return llvm::Error::success();
  }
  if (!model)
    return makeUsageError("a model is required; see 'mpmd profile --help'");
  if (!output)
    return makeUsageError("-o is required; see 'mpmd profile --help'");
  if (llvm::Error error = checkOutputPath("-o", *output, OutputKind::kFile))
    return error;
  uint64_t seed = 0;
  if (seedText && StringRef(*seedText).getAsInteger(10, seed))
    return makeUsageError("--random-inputs expects a non-negative integer "
                          "(got '" +
                          *seedText + "')");

  std::string openError;
  std::unique_ptr<driver::ModuleFile> file =
      driver::ModuleFile::read(*model, openError);
  if (!file)
    return makeInputError(openError.empty() ? "cannot parse '" + *model + "'"
                                            : openError);
  llvm::Expected<plan::CostFile> costs =
      driver::profileModel(file->getModule(), seed);
  if (!costs)
    return makeInputError("'" + *model +
                          "': " + llvm::toString(costs.takeError()));
  return writeOutputFile(*output, plan::writeCostFile(*costs));
}

} // namespace

int runProfileCommand(llvm::ArrayRef<StringRef> args) {
  if (llvm::Error error = runProfile(args))
    return reportError("profile", std::move(error));
  return kExitSuccess;
}

} // namespace mlir::mpmd::tools
