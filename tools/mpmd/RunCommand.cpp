//===- RunCommand.cpp - mpmd run ------------------------------------------===//
//
// Argument parsing and printing only: inputs and outputs are MPMDRuntimeIO's
// (ProgramIO.h); plain modules run on the interpreter, MPMD programs on the
// executor (Executor.h, Trace.h), compiled and validated through the driver
// (Compile.h, Validate.h).
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "Commands.h"

#include "ModuleFile.h"
#include "OutputFile.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Driver/Compile.h"
#include "mpmd/Driver/Config.h"
#include "mpmd/Driver/Validate.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/Prediction.h"
#include "mpmd/Runtime/ProgramIO.h"
#include "mpmd/Runtime/Trace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace mlir::mpmd::tools {

namespace {

void printRunHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd run FILE.mlir [--function NAME] (--inputs A.npy,B.npy | "
        "--random-inputs SEED)\n"
        "                [--outputs DIR] [--print]\n"
        "                [--config CONFIG.json [--validate [--tolerance T]]]\n"
        "                [--trace TRACE.json] [--summary] [--device-memory "
        "BYTES] [--repeat N]\n\n"
        "Runs a program and prints one line per output: its type, min, max, "
        "mean and\nfirst values. A plain module runs FUNCTION on the "
        "interpreter. An MPMD program\n(an exported module, or FILE lowered "
        "with --config as 'mpmd compile' does)\nruns @main on the MPMD "
        "executor: one virtual device (thread) per device of\nthe topology, "
        "fragments replicated over a mesh's devices.\n\n"
        "  --function NAME      the function to run (default main)\n"
        "  --inputs A,B,...     one .npy file per argument, in order; bf16 "
        "arguments read\n"
        "                       '<f4' files (NumPy has no bf16)\n"
        "  --random-inputs SEED seeded random arguments: floats in [-1, 1), "
        "integers in\n"
        "                       [-8, 7] (unsigned [0, 15]), booleans 0/1\n"
        "  --outputs DIR        write output i to DIR/output_<i>.npy (bf16 "
        "as '<f4')\n"
        "  --print              print every value of each output\n"
        "  --config FILE        compile FILE (an unpartitioned model) with "
        "this 'mpmd compile'\n"
        "                       configuration, then run it on the executor\n"
        "  --validate           also run the unpartitioned model on one "
        "device and compare\n"
        "                       every output (needs --config); exit 1 on a "
        "mismatch\n"
        "  --tolerance T        the normwise relative tolerance of "
        "--validate (default per\n"
        "                       dtype: f64 1e-12, f32 1e-5, f16/bf16 1e-2, "
        "integers exact)\n"
        "  --trace FILE         write a Chrome/Perfetto trace of the run "
        "(chrome://tracing)\n"
        "  --summary            print step time, busy and bubble share and "
        "peak memory per\n"
        "                       device, and the replay of the measured step "
        "times\n"
        "  --device-memory N    per-device memory cap in bytes (suffixes K, "
        "M, G: powers of\n"
        "                       1024); a program that exceeds it is refused, "
        "naming the step\n"
        "                       and the largest live buffers\n"
        "  --repeat N           run N times and report the last run (the "
        "first ones warm\n"
        "                       the buffer pool and the caches)\n";
}

int fail(const llvm::Twine &message) {
  llvm::errs() << "mpmd run: error: " << message << "\n";
  return 1;
}

/// The argument types of `function`; none after a diagnostic.
std::optional<std::vector<runtime::TensorSpec>>
getArgumentSpecs(func::FuncOp function) {
  std::vector<runtime::TensorSpec> specs;
  for (BlockArgument argument : function.getArguments()) {
    FailureOr<runtime::TensorSpec> spec =
        runtime::getTensorSpec(argument.getType(), argument.getLoc());
    if (failed(spec))
      return std::nullopt;
    specs.push_back(*spec);
  }
  return specs;
}

/// The arguments of `what` (a function), from the input files or the seed.
std::optional<std::vector<runtime::Tensor>>
loadArguments(const llvm::Twine &what,
              llvm::ArrayRef<runtime::TensorSpec> specs,
              const std::optional<std::string> &inputs,
              const std::optional<std::string> &randomSeed) {
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
    fail(what + " takes " + llvm::Twine(specs.size()) +
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

/// `N`, `NK`, `NM` or `NG` (powers of 1024) as bytes.
std::optional<int64_t> parseBytes(llvm::StringRef text) {
  int64_t scale = 1;
  if (!text.empty()) {
    switch (llvm::toUpper(text.back())) {
    case 'K': scale = int64_t(1) << 10; break;
    case 'M': scale = int64_t(1) << 20; break;
    case 'G': scale = int64_t(1) << 30; break;
    default: break;
    }
    if (scale != 1)
      text = text.drop_back();
  }
  int64_t value;
  if (text.getAsInteger(10, value) || value < 0 ||
      value > std::numeric_limits<int64_t>::max() / scale)
    return std::nullopt;
  return value * scale;
}

struct RunOptions {
  std::optional<std::string> inputs, randomSeed, outputs, trace, tolerance;
  int64_t repeat = 1;
  bool print = false, summary = false, validate = false;
  runtime::ExecutorOptions executor;
};

void printOutputs(llvm::ArrayRef<runtime::Tensor> results, bool print) {
  for (auto [index, result] : llvm::enumerate(results))
    llvm::outs() << "output " << index << ": "
                 << runtime::summarize(result, print ? result.numElements() : 6)
                 << "\n";
}

/// Runs an MPMD program on the executor; `reference`, when set, is the
/// unpartitioned model `--validate` compares with.
int runOnExecutor(const runtime::Executable &executable, ModuleOp reference,
                  const RunOptions &options) {
  std::optional<std::vector<runtime::Tensor>> arguments =
      loadArguments("@main", executable.getInputSpecs(), options.inputs,
                    options.randomSeed);
  if (!arguments)
    return 1;
  // Earlier runs of --repeat warm the buffer pool and the caches; the last
  // one is reported.
  llvm::Expected<runtime::RunResult> result =
      executable.run(*arguments, options.executor);
  for (int64_t run = 1; result && run < options.repeat; ++run)
    result = executable.run(*arguments, options.executor);
  if (!result)
    return fail(llvm::toString(result.takeError()));

  if (options.outputs)
    if (llvm::Error error = runtime::writeOutputs(*options.outputs,
                                                  result->outputs))
      return fail(llvm::toString(std::move(error)));
  printOutputs(result->outputs, options.print);

  const runtime::DeviceProgram &program = executable.getProgram();
  if (options.trace) {
    std::string trace;
    llvm::raw_string_ostream os(trace);
    runtime::writeChromeTrace(program, *result, os);
    if (llvm::Error error = writeOutputFile(*options.trace, trace))
      return fail(llvm::toString(std::move(error)));
  }
  if (options.summary) {
    llvm::Expected<runtime::SimulatedRun> replay =
        runtime::replayMeasured(program, *result);
    if (!replay)
      return fail(llvm::toString(replay.takeError()));
    runtime::printRunSummary(program, *result, &*replay, llvm::outs());
    llvm::Expected<runtime::PipelinePrediction> prediction =
        runtime::predictWithScheduleSimulator(executable, *result);
    if (prediction)
      runtime::printPrediction(*prediction, llvm::outs());
    else
      llvm::outs() << "pipeline simulator: not applicable ("
                   << llvm::toString(prediction.takeError()) << ")\n";
  }
  if (!reference)
    return 0;

  std::optional<double> tolerance;
  if (options.tolerance) {
    double value;
    if (llvm::StringRef(*options.tolerance).getAsDouble(value) ||
        !(value >= 0) || std::isinf(value))
      return fail("--tolerance expects a finite number >= 0 (got '" +
                  *options.tolerance + "')");
    tolerance = value;
  }
  llvm::Expected<driver::ValidationReport> report =
      driver::validateAgainstReference(reference, *arguments, result->outputs,
                                       tolerance);
  if (!report)
    return fail(llvm::toString(report.takeError()));
  report->print(llvm::outs());
  return report->passed() ? 0 : 1;
}

} // namespace

int runRunCommand(llvm::ArrayRef<llvm::StringRef> args) {
  std::optional<std::string> path, functionName, configPath, deviceMemory,
      repeat;
  RunOptions options;
  bool help = false;
  if (llvm::Error error = parseArguments(
          args,
          {{"--function", &functionName},
           {"--inputs", &options.inputs},
           {"--random-inputs", &options.randomSeed},
           {"--outputs", &options.outputs},
           {"--config", &configPath},
           {"--tolerance", &options.tolerance},
           {"--trace", &options.trace},
           {"--device-memory", &deviceMemory},
           {"--repeat", &repeat}},
          {{"--print", &options.print},
           {"--summary", &options.summary},
           {"--validate", &options.validate}},
          help, path, "an input file"))
    return fail(llvm::toString(std::move(error)) + "; see 'mpmd run --help'");
  if (help) {
    printRunHelp(llvm::outs());
    return 0;
  }
  if (!path)
    return fail("no input file; see 'mpmd run --help'");
  if (options.inputs && options.randomSeed)
    return fail("give --inputs or --random-inputs, not both");
  if (options.validate && !configPath)
    return fail("--validate needs --config: the reference is the "
                "unpartitioned model that the configuration compiles");
  if (options.tolerance && !options.validate)
    return fail("--tolerance applies to --validate");
  if (deviceMemory) {
    options.executor.deviceMemoryBytes = parseBytes(*deviceMemory);
    if (!options.executor.deviceMemoryBytes)
      return fail("--device-memory expects bytes, e.g. 1048576 or 64M (got '" +
                  *deviceMemory + "')");
  }
  if (repeat && (llvm::StringRef(*repeat).getAsInteger(10, options.repeat) ||
                 options.repeat < 1))
    return fail("--repeat expects a count >= 1 (got '" + *repeat + "')");
  std::string error;
  std::unique_ptr<ModuleFile> file = ModuleFile::read(*path, error);
  if (!file)
    return error.empty() ? 1 /* the parser reported why */ : fail(error);
  ModuleOp module = file->getModule();

  std::string name = functionName.value_or("main");
  auto function = module.lookupSymbol<func::FuncOp>(name);
  if (!function || function.isExternal())
    return fail("no function @" + name + " with a body in " + *path);
  if (configPath && functionName)
    return fail("--config compiles and runs @main; --function does not apply");
  // A fragment function of an exported module is a plain function: it runs
  // alone on the interpreter.
  bool mpmdProgram = configPath || isMpmdFunction(function);
  if (mpmdProgram && name != "main")
    return fail("the MPMD executor runs @main, not @" + name);
  if (!mpmdProgram && (options.trace || options.summary ||
                      options.executor.deviceMemoryBytes || repeat))
    return fail("--trace, --summary, --device-memory and --repeat apply to "
                "MPMD programs (an exported module, or a model with --config)");

  if (configPath) {
    llvm::Expected<driver::Config> config = driver::readConfigFile(*configPath);
    if (!config) {
      llvm::errs() << "mpmd run: error: " << llvm::toString(config.takeError())
                   << "\n";
      return 2;
    }
    FailureOr<driver::Lowered> lowered = driver::lower(module, *config);
    if (failed(lowered))
      return 1; // the diagnostics say why
    FailureOr<std::unique_ptr<runtime::Executable>> executable =
        lowered->compile();
    if (failed(executable))
      return 1;
    return runOnExecutor(**executable,
                         options.validate ? module : ModuleOp(), options);
  }
  if (mpmdProgram) {
    FailureOr<std::unique_ptr<runtime::Executable>> executable =
        runtime::Executable::create(module);
    if (failed(executable))
      return 1;
    return runOnExecutor(**executable, ModuleOp(), options);
  }

  std::optional<std::vector<runtime::TensorSpec>> specs =
      getArgumentSpecs(function);
  if (!specs)
    return 1;
  std::optional<std::vector<runtime::Tensor>> arguments =
      loadArguments("@" + name, *specs, options.inputs, options.randomSeed);
  if (!arguments)
    return 1;
  runtime::Interpreter interpreter(module);
  FailureOr<std::vector<runtime::Tensor>> results =
      interpreter.run(function, *arguments);
  if (failed(results))
    return 1; // the interpreter reported why, at the op

  if (options.outputs)
    if (llvm::Error error = runtime::writeOutputs(*options.outputs, *results))
      return fail(llvm::toString(std::move(error)));
  printOutputs(*results, options.print);
  return 0;
}

} // namespace mlir::mpmd::tools
