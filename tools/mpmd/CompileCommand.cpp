//===- CompileCommand.cpp - mpmd compile ----------------------------------===//
//
// Argument parsing, files and printing only: the lowering is the MPMDDriver
// library's `lower`. Exit codes (CommandError.h): 1 bad IR or I/O (MLIR
// diagnostics), 2 bad command line or configuration.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "CommandError.h"
#include "Commands.h"
#include "OutputFile.h"
#include "Progress.h"

#include "mpmd/Driver/Compile.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Driver/ConfigShardings.h"
#include "mpmd/Driver/ModuleFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::mpmd::tools {

namespace {

using namespace mlir::mpmd::driver;
using llvm::StringRef;

void printCompileHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd compile MODEL.mlir --config CONFIG.json -o OUT.mlir\n"
        "                    [--dump-dir DIR] [--summary] [--quiet]\n\n"
        "Lowers an MPMD program (named computations, mpmd.call microbatches) "
        "with the\nmeshes, assignment, schedule and options of CONFIG.json "
        "(see\ndocs/config.md): import, optimize, sharding propagation, "
        "export.\n\n"
        "  MODEL.mlir       the program ('-': standard input)\n"
        "  --config FILE    the JSON configuration\n"
        "  -o FILE          the exported module ('-': standard output)\n"
        "  --dump-dir DIR   also write the IR after each phase to "
        "DIR/01-import.mlir,\n"
        "                   DIR/02-optimize.mlir, "
        "DIR/03-sharding-propagation.mlir,\n"
        "                   DIR/04-export.mlir\n"
        "  --summary        print, per mesh, fragment calls, distinct "
        "functions, transfers\n"
        "                   in and out (count, bytes) and reserved memory; "
        "per input and\n"
        "                   output, its mesh and sharding\n"
        "  --quiet          no progress on stderr (printed after 2 s: each "
        "phase and its\n"
        "                   time)\n\n"
        "Exit codes: 1 for errors in the program (MLIR diagnostics), 2 for "
        "errors in the\ncommand line or the configuration.\n";
}

struct CompileOptions {
  std::optional<std::string> model, config, output, dumpDir;
  bool summary = false;
  bool quiet = false;
  bool help = false;
};

llvm::Expected<CompileOptions> parseOptions(llvm::ArrayRef<StringRef> args) {
  CompileOptions options;
  if (llvm::Error error = parseArguments(
          args,
          {{"--config", &options.config},
           {"-o", &options.output},
           {"--dump-dir", &options.dumpDir}},
          {{"--summary", &options.summary}, {"--quiet", &options.quiet}},
          options.help, options.model, "a model"))
    return std::move(error);
  if (options.help)
    return options;
  for (auto [name, value] : {std::pair{"MODEL.mlir", &options.model},
                             std::pair{"--config", &options.config},
                             std::pair{"-o", &options.output}})
    if (!*value)
      return makeUsageError(llvm::Twine(name) +
                            " is required; see 'mpmd compile --help'");
  if (llvm::Error error =
          checkOutputPath("-o", *options.output, OutputKind::kFile))
    return std::move(error);
  if (options.dumpDir)
    if (llvm::Error error = checkOutputPath("--dump-dir", *options.dumpDir,
                                            OutputKind::kDirectory))
      return std::move(error);
  return options;
}

/// DIR/01-import.mlir, ...: the files of --dump-dir, created.
llvm::Expected<std::vector<std::string>> getPhaseDumpPaths(StringRef dir) {
  if (std::error_code error = llvm::sys::fs::create_directories(dir))
    return makeInputError("cannot create '" + dir + "': " + error.message());
  std::vector<std::string> paths;
  for (auto [index, phase] : llvm::enumerate(kAllPhases)) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(
        path,
        llvm::formatv("{0:02}-{1}.mlir", index + 1, getPhaseName(phase)).str());
    paths.push_back(path.str().str());
  }
  return paths;
}

int runCompile(const CompileOptions &options) {
  Progress progress("compile", options.quiet);
  llvm::Expected<Config> config = readConfigFile(*options.config);
  if (!config)
    return reportError("compile",
                       makeUsageError(llvm::toString(config.takeError())));
  std::string error;
  std::unique_ptr<driver::ModuleFile> file =
      driver::ModuleFile::read(*options.model, error);
  if (!file)
    return error.empty() ? kExitInputError // the parser reported why
                         : reportError("compile", makeInputError(error));
  ModuleOp module = file->getModule();
  progress.finished("reading the program");
  // A computation the assignment misses is a configuration error.
  if (failed(verifyAssignmentCoversModule(module, *config)))
    return kExitUsageError;
  // So are shardings that do not fit the program's inputs and outputs.
  if (func::FuncOp main = getMainFunction(module))
    if (llvm::Expected<ResolvedShardings> shardings =
            resolveShardings(main, *config);
        !shardings)
      return reportError("compile",
                         makeUsageError(llvm::toString(shardings.takeError())));
  LowerOptions lowerOptions;
  lowerOptions.keepPhaseTexts = options.dumpDir.has_value();
  lowerOptions.phaseDone = [&](Phase phase) {
    progress.finished("phase " + getPhaseName(phase));
  };
  FailureOr<Lowered> lowered = lower(module, *config, lowerOptions);
  if (failed(lowered))
    return kExitInputError; // the diagnostics say why
  // The phase dumps and the exported module: all of them or none.
  std::vector<std::string> dumpPaths;
  if (options.dumpDir) {
    llvm::Expected<std::vector<std::string>> paths =
        getPhaseDumpPaths(*options.dumpDir);
    if (!paths)
      return reportError("compile", paths.takeError());
    dumpPaths = std::move(*paths);
  }
  // The export text is printed once and serves its dump and the output.
  std::string exported = lowered->asText(Phase::kExport);
  std::vector<std::string> phaseTexts;
  for (Phase phase : ArrayRef(kAllPhases).take_front(dumpPaths.size()))
    if (phase != Phase::kExport)
      phaseTexts.push_back(lowered->asText(phase));
  std::vector<OutputText> outputs;
  for (auto [index, path] : llvm::enumerate(dumpPaths))
    outputs.push_back({path, index < phaseTexts.size()
                                 ? StringRef(phaseTexts[index])
                                 : StringRef(exported)});
  outputs.push_back({*options.output, exported});
  if (llvm::Error error = writeOutputFiles(outputs))
    return reportError("compile", std::move(error));
  if (options.summary)
    lowered->printSummary(llvm::outs());
  return kExitSuccess;
}

} // namespace

int runCompileCommand(llvm::ArrayRef<StringRef> args) {
  llvm::Expected<CompileOptions> options = parseOptions(args);
  if (!options)
    return reportError("compile", options.takeError());
  if (options->help) {
    printCompileHelp(llvm::outs());
    return kExitSuccess;
  }
  return runCompile(*options);
}

} // namespace mlir::mpmd::tools
