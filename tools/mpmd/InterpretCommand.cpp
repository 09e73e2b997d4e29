//===- InterpretCommand.cpp - mpmd interpret ------------------------------===//
//
// Argument parsing and printing only: the interpreter is MPMDRuntime's.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "CommandError.h"
#include "Commands.h"

#include "mpmd/InitAllDialects.h"
#include "mpmd/Runtime/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::mpmd::tools {

namespace {

void printInterpretHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd interpret FILE.mlir [--split-input-file] "
        "[--probe-output-dir DIR]\n\n"
        "Runs every public function without arguments in FILE.mlir ('-': "
        "standard\ninput) on the runtime's interpreter, with check.* ops "
        "as assertions, and\nprints 'PASS: @name' or 'FAIL: @name: <the "
        "first failed check>' per function.\nExits with 1 when any "
        "function fails or cannot be interpreted.\n\n"
        "  --split-input-file      run each '// -----' separated chunk as "
        "its own module\n"
        "  --probe-output-dir DIR  where interpreter.probe writes its .npy "
        "files (created\n"
        "                          if missing; default: a temporary "
        "directory, removed\n"
        "                          at exit)\n";
}

/// Runs the functions of one module; false when any failed.
bool interpretModule(ModuleOp module, const runtime::InterpreterOptions &options,
                     llvm::raw_ostream &os) {
  bool allPassed = true;
  runtime::Interpreter interpreter(module, options);
  for (auto function : module.getOps<func::FuncOp>()) {
    if (function.isExternal() || function.isPrivate() ||
        function.getNumArguments() != 0)
      continue;
    interpreter.resetCheckFailures();
    FailureOr<std::vector<runtime::Tensor>> results = interpreter.run(function, {});
    if (failed(results)) {
      os << "FAIL: @" << function.getSymName()
         << ": cannot be interpreted (see the error above)\n";
      os.flush();
      allPassed = false;
    } else if (const std::optional<std::string> &failure =
                   interpreter.getFirstCheckFailure()) {
      os << "FAIL: @" << function.getSymName() << ": " << *failure << "\n";
      allPassed = false;
    } else {
      os << "PASS: @" << function.getSymName() << "\n";
    }
  }
  return allPassed;
}

} // namespace

int runInterpretCommand(llvm::ArrayRef<llvm::StringRef> args) {
  std::optional<std::string> path, probeDirectory;
  bool splitInputFile = false, help = false;
  if (llvm::Error error =
          parseArguments(args,
                         {{"--probe-output-dir", &probeDirectory},
                          {"-probe-output-dir", &probeDirectory}},
                         {{"--split-input-file", &splitInputFile},
                          {"-split-input-file", &splitInputFile}},
                         help, path, "an input file"))
    return reportError("interpret",
                       makeUsageError(llvm::toString(std::move(error)) +
                                      "; see 'mpmd interpret --help'"));
  if (help) {
    printInterpretHelp(llvm::outs());
    return kExitSuccess;
  }
  if (!path)
    return reportError(
        "interpret",
        makeUsageError("no input file; see 'mpmd interpret --help'"));
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(*path, &error);
  if (!file)
    return reportError("interpret", makeInputError(error));
  // Probes need a directory even when the command line names none (as in
  // StableHLO's interpreter tests): a temporary one, removed at exit.
  runtime::InterpreterOptions options;
  llvm::SmallString<128> temporaryProbes;
  if (probeDirectory) {
    if (std::error_code code = llvm::sys::fs::create_directories(*probeDirectory))
      return reportError("interpret",
                         makeUsageError("cannot create --probe-output-dir " +
                                        *probeDirectory + ": " + code.message()));
    options.probeDirectory = *probeDirectory;
  } else {
    if (std::error_code code = llvm::sys::fs::createUniqueDirectory(
            "mpmd-probes", temporaryProbes))
      return reportError("interpret",
                         makeInputError("cannot create a temporary probe "
                                        "directory: " + code.message()));
    options.probeDirectory = std::string(temporaryProbes);
  }
  llvm::scope_exit removeTemporaryProbes([&] {
    if (!temporaryProbes.empty())
      (void)llvm::sys::fs::remove_directories(temporaryProbes);
  });

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  bool allPassed = true;
  auto processChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                          llvm::raw_ostream &os) -> LogicalResult {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, llvm::errs());
    OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module) {
      allPassed = false;
      return success(); // the parser reported why; go on with other chunks
    }
    allPassed &= interpretModule(*module, options, os);
    os.flush(); // keep the lines in order with the errors on stderr
    return success();
  };
  if (splitInputFile)
    (void)splitAndProcessBuffer(std::move(file), processChunk, llvm::outs());
  else
    (void)processChunk(std::move(file), llvm::outs());
  llvm::outs().flush();
  return allPassed ? kExitSuccess : kExitInputError;
}

} // namespace mlir::mpmd::tools
