//===- RunCommand.cpp - mpmd run ------------------------------------------===//
//
// Argument parsing and printing only: inputs and outputs are MPMDRuntimeIO's
// (ProgramIO.h), the execution the interpreter's.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "Commands.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/InitAllDialects.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/ProgramIO.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::mpmd::tools {

namespace {

void printRunHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd run FILE.mlir [--function NAME] (--inputs A.npy,B.npy | "
        "--random-inputs SEED)\n"
        "                [--outputs DIR] [--print]\n\n"
        "Runs a function of FILE.mlir ('-': standard input) on the runtime's "
        "interpreter\nand prints one line per output: its type, min, max, "
        "mean and first values.\n\n"
        "  --function NAME      the function to run (default main)\n"
        "  --inputs A,B,...     one .npy file per argument, in order; bf16 "
        "arguments read\n"
        "                       '<f4' files (NumPy has no bf16)\n"
        "  --random-inputs SEED seeded random arguments: floats in [-1, 1), "
        "integers in\n"
        "                       [-8, 7] (unsigned [0, 15]), booleans 0/1\n"
        "  --outputs DIR        write output i to DIR/output_<i>.npy (bf16 "
        "as '<f4')\n"
        "  --print              print every value of each output\n";
}

int fail(const llvm::Twine &message) {
  llvm::errs() << "mpmd run: error: " << message << "\n";
  return 1;
}

/// The arguments of `function`, or the input files or seed, as tensors.
std::optional<std::vector<runtime::Tensor>>
loadArguments(func::FuncOp function, const std::optional<std::string> &inputs,
              const std::optional<std::string> &randomSeed) {
  std::vector<runtime::TensorSpec> specs;
  for (BlockArgument argument : function.getArguments()) {
    FailureOr<runtime::TensorSpec> spec =
        runtime::getTensorSpec(argument.getType(), argument.getLoc());
    if (failed(spec))
      return std::nullopt;
    specs.push_back(*spec);
  }
  if (randomSeed) {
    uint64_t seed;
    if (llvm::StringRef(*randomSeed).getAsInteger(10, seed)) {
      fail("--random-inputs expects an unsigned integer seed (got '" +
           *randomSeed + "')");
      return std::nullopt;
    }
    return runtime::randomInputs(seed, specs);
  }
  llvm::SmallVector<llvm::StringRef> parts;
  if (inputs && !inputs->empty())
    llvm::StringRef(*inputs).split(parts, ',');
  if (!inputs && !specs.empty()) {
    fail("@" + function.getSymName() + " takes " + llvm::Twine(specs.size()) +
         " argument(s): give --inputs A.npy,... or --random-inputs SEED");
    return std::nullopt;
  }
  std::vector<std::string> paths(parts.begin(), parts.end());
  llvm::Expected<std::vector<runtime::Tensor>> tensors =
      runtime::readInputs(paths, specs);
  if (!tensors) {
    fail(llvm::toString(tensors.takeError()));
    return std::nullopt;
  }
  return std::move(*tensors);
}

} // namespace

int runRunCommand(llvm::ArrayRef<llvm::StringRef> args) {
  std::optional<std::string> path, functionName, inputs, randomSeed, outputs;
  bool print = false, help = false;
  if (llvm::Error error =
          parseArguments(args,
                         {{"--function", &functionName},
                          {"--inputs", &inputs},
                          {"--random-inputs", &randomSeed},
                          {"--outputs", &outputs}},
                         {{"--print", &print}}, help, path, "an input file"))
    return fail(llvm::toString(std::move(error)) + "; see 'mpmd run --help'");
  if (help) {
    printRunHelp(llvm::outs());
    return 0;
  }
  if (!path)
    return fail("no input file; see 'mpmd run --help'");
  if (inputs && randomSeed)
    return fail("give --inputs or --random-inputs, not both");
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(*path, &error);
  if (!file)
    return fail(error);

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, llvm::errs());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1; // the parser reported why

  std::string name = functionName.value_or("main");
  auto function = module->lookupSymbol<func::FuncOp>(name);
  if (!function || function.isExternal())
    return fail("no function @" + name + " with a body in " + *path);
  // MPMD EXECUTOR: an MPMD program (a function with a topology, as export
  // leaves @main) goes to the MPMD executor here, with its inputs loaded by
  // ProgramIO.h against its mesh tensors' local types; plain functions run
  // on the interpreter below.
  if (isMpmdFunction(function))
    return fail("MPMD programs need the executor (not yet available)");

  std::optional<std::vector<runtime::Tensor>> arguments =
      loadArguments(function, inputs, randomSeed);
  if (!arguments)
    return 1;
  runtime::Interpreter interpreter(*module);
  FailureOr<std::vector<runtime::Tensor>> results =
      interpreter.run(function, *arguments);
  if (failed(results))
    return 1; // the interpreter reported why, at the op

  if (outputs)
    if (llvm::Error error = runtime::writeOutputs(*outputs, *results))
      return fail(llvm::toString(std::move(error)));
  for (auto [index, result] : llvm::enumerate(*results))
    llvm::outs() << "output " << index << ": "
                 << runtime::summarize(result, print ? result.numElements() : 6)
                 << "\n";
  return 0;
}

} // namespace mlir::mpmd::tools
