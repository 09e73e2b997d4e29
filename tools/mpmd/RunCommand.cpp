//===- RunCommand.cpp - mpmd run ------------------------------------------===//
//
// Argument parsing and printing only: inputs and outputs are MPMDRuntimeIO's
// (ProgramIO.h); plain modules run on the interpreter, MPMD programs on the
// executor (Executor.h, Trace.h), compiled and validated through the driver
// (Compile.h, Validate.h).
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "CommandError.h"
#include "Commands.h"
#include "RunCommand.h"

#include "OutputFile.h"
#include "Progress.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Driver/Compile.h"
#include "mpmd/Driver/Config.h"
#include "mpmd/Driver/ModuleFile.h"
#include "mpmd/Driver/Validate.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/Prediction.h"
#include "mpmd/Runtime/ProgramIO.h"
#include "mpmd/Runtime/Trace.h"
#include "mpmd/Support/Statistics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <cmath>
#include <csignal>
#include <cstdlib>
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
        "BYTES] [--repeat N]\n"
        "                [--quiet] [--timeout SECONDS] [--pin-threads auto|on|off]\n"
        "       mpirun -n R mpmd run ... --backend mpi [--devices-per-rank K]\n\n"
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
        "                       [-8, 7] (unsigned [0, 15]; within a quantized "
        "type's\n"
        "                       storage range), booleans 0/1\n"
        "  --outputs DIR        write output i to DIR/output_<i>.npy (bf16 "
        "as '<f4')\n"
        "  --print              print every value of each output\n"
        "  --config FILE        compile FILE (an unpartitioned model) with "
        "this 'mpmd compile'\n"
        "                       configuration, then run it on the executor\n"
        "  --validate           also run the unpartitioned model on one "
        "device and compare\n"
        "                       every output (needs --config); exit 3 on a "
        "mismatch\n"
        "  --tolerance T        the normwise relative tolerance of "
        "--validate (default per\n"
        "                       dtype: f64 1e-12, f32 1e-5, f16/bf16 1e-2, "
        "integers exact;\n"
        "                       at least that of the least precise float "
        "type computed)\n"
        "  --trace FILE         write a Chrome/Perfetto trace of the run "
        "(chrome://tracing)\n"
        "  --summary            print step time, busy and bubble share and "
        "peak memory per\n"
        "                       device, and the replay of the measured step "
        "times; with\n"
        "                       --repeat, the fastest and median step; with "
        "a config from\n"
        "                       'mpmd plan', its predicted step next to "
        "the measured ones\n"
        "  --device-memory N    per-device memory cap in bytes (suffixes K, "
        "M, G: powers of\n"
        "                       1024); a program that exceeds it is refused, "
        "naming the step\n"
        "                       and the largest live buffers\n"
        "  --repeat N           run N times and report the last run (the "
        "first ones warm\n"
        "                       the buffer pool and the caches)\n"
        "  --timeout S          fail when one run of the program takes longer "
        "than S seconds,\n"
        "                       naming where each device waits\n"
        "  --pin-threads P      pin each device thread to a core of its own "
        "while devices\n"
        "                       spin-wait: auto (default: when no other "
        "process is runnable\n"
        "                       as the run starts), on, off; 'waiting:' in "
        "--summary says\n"
        "                       what a run did\n"
        "  --backend B          threads (default: one process) or mpi (under "
        "mpirun: each rank\n"
        "                       runs its devices; rank 0 reports; --outputs "
        "writes per-rank\n"
        "                       shards with an index, --trace one file per "
        "rank)\n"
        "  --devices-per-rank K with --backend mpi: devices per rank "
        "(default 1)\n"
        "  --quiet              no progress on stderr (printed after 2 s: "
        "each compile phase\n"
        "                       and run, and its time)\n\n"
        "Every option is checked before anything runs; the outputs and the "
        "trace are\nwritten only when the run succeeds. Exit codes: 1 for "
        "errors in the program or\nan input, 2 in the command line or the "
        "configuration, 3 for a --validate\nmismatch.\n";
}

/// Prints the error of `mpmd run` and returns its exit code.
int fail(llvm::Error error) { return reportError("run", std::move(error)); }

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


/// Writes the outputs and the trace once the run succeeded, so that a failed
/// run leaves nothing at the output paths.
llvm::Error writeRunFiles(const RunOptions &options,
                          llvm::ArrayRef<runtime::Tensor> outputs,
                          const runtime::Executable *executable,
                          const runtime::RunResult *result) {
  if (options.outputs)
    if (llvm::Error error = runtime::writeOutputs(*options.outputs, outputs))
      return error;
  if (!options.trace)
    return llvm::Error::success();
  std::string trace;
  llvm::raw_string_ostream os(trace);
  runtime::writeChromeTrace(executable->getProgram(), *result, os);
  return writeOutputFile(*options.trace, trace);
}


/// Runs an MPMD program on the executor; `reference`, when set, is the
/// unpartitioned model `--validate` compares with.
int runOnExecutor(const runtime::Executable &executable, ModuleOp reference,
                  const RunOptions &options, Progress &progress) {
  llvm::Expected<std::vector<runtime::Tensor>> arguments =
      loadArguments("@main", executable.getInputSpecs(), options);
  if (!arguments)
    return fail(arguments.takeError());
  // Earlier runs of --repeat warm the buffer pool and the caches; the last
  // one is reported.
  std::optional<runtime::RunResult> result;
  // Wall time of each call of `run` (what an embedder's call costs: the
  // Python overhead benchmark compares with it).
  double totalWallUs = 0, minWallUs = std::numeric_limits<double>::infinity();
  // The executor's step of each run: their fastest and median are what a
  // planned step compares with on a machine whose speed moves.
  std::vector<double> runStepsUs;
  for (int64_t run = 1; run <= options.repeat; ++run) {
    auto start = std::chrono::steady_clock::now();
    llvm::Expected<runtime::RunResult> ran =
        executable.run(*arguments, options.executor);
    double wallUs = std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    if (!ran)
      return fail(ran.takeError());
    totalWallUs += wallUs;
    minWallUs = std::min(minWallUs, wallUs);
    runStepsUs.push_back(ran->stepUs);
    result = std::move(*ran);
    progress.finished("run " + llvm::Twine(run) + "/" +
                      llvm::Twine(options.repeat));
  }

  printOutputs(result->outputs, options.print);
  if (options.repeat > 1)
    llvm::outs() << llvm::format(
        "runs: %lld, wall time per run: mean %.1f us, min %.1f us\n",
        static_cast<long long>(options.repeat),
        totalWallUs / double(options.repeat), minWallUs);
  if (options.summary) {
    if (llvm::Error error =
            runtime::printRunReport(executable, *result, llvm::outs()))
      return fail(std::move(error));
    if (options.repeat > 1)
      llvm::outs() << llvm::format(
          "fastest step of %lld runs: %.3f ms, median %.3f ms\n",
          static_cast<long long>(options.repeat),
          *llvm::min_element(runStepsUs) / 1e3,
          getMedian(runStepsUs) / 1e3);
    if (options.plannedStepSeconds)
      runtime::printPlannedStep(*options.plannedStepSeconds,
                                options.plannedDescription, runStepsUs,
                                llvm::outs());
  }
  if (reference) {
    llvm::Expected<driver::ValidationReport> report =
        driver::validateAgainstReference(reference, *arguments, result->outputs,
                                         options.tolerance);
    if (!report)
      return fail(report.takeError());
    progress.finished("validation");
    report->print(llvm::outs());
    if (!report->passed())
      return kExitValidationMismatch;
  }
  if (llvm::Error error =
          writeRunFiles(options, result->outputs, &executable, &*result))
    return fail(std::move(error));
  return kExitSuccess;
}

#ifdef MPMD_ENABLE_MPI
/// The hash every rank of an MPI run must share: the program's and the
/// configuration's bytes.
llvm::Expected<uint64_t>
hashProgramAndConfig(llvm::StringRef path,
                     const std::optional<std::string> &configPath) {
  uint64_t hash = 0;
  for (std::optional<std::string> file :
       {std::optional<std::string>(path.str()), configPath}) {
    if (!file)
      continue;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(*file);
    if (!buffer)
      return makeInputError("cannot read '" + *file +
                            "': " + buffer.getError().message());
    hash = llvm::xxh3_64bits(llvm::arrayRefFromStringRef(
               (*buffer)->getBuffer())) ^
           (hash * 0x9e3779b97f4a7c15ULL);
  }
  return hash;
}
#endif

/// Runs an MPMD program on the chosen backend.
int runMpmdProgram(const runtime::Executable &executable, ModuleOp reference,
                   RunOptions &options, Progress &progress,
                   llvm::StringRef path,
                   const std::optional<std::string> &configPath) {
  if (options.backend == "threads")
    return runOnExecutor(executable, reference, options, progress);
#ifdef MPMD_ENABLE_MPI
  llvm::Expected<uint64_t> hash = hashProgramAndConfig(path, configPath);
  if (!hash)
    return fail(hash.takeError());
  return runOnMpi(executable, reference, options, *hash, progress);
#else
  return fail(makeUsageError("this mpmd was built without MPI"));
#endif
}

/// Parses and checks every option before any work: a bad value or an
/// unwritable output path fails here, not after a long run.
llvm::Error parseRunOptions(llvm::ArrayRef<llvm::StringRef> args,
                            RunOptions &options,
                            std::optional<std::string> &path,
                            std::optional<std::string> &functionName,
                            std::optional<std::string> &configPath,
                            bool &help) {
  std::optional<std::string> randomSeed, tolerance, deviceMemory, repeat,
      backend, devicesPerRank, timeout, pinThreads;
  if (llvm::Error error = parseArguments(args,
                                         {{"--function", &functionName},
                                          {"--inputs", &options.inputs},
                                          {"--random-inputs", &randomSeed},
                                          {"--outputs", &options.outputs},
                                          {"--config", &configPath},
                                          {"--tolerance", &tolerance},
                                          {"--trace", &options.trace},
                                          {"--device-memory", &deviceMemory},
                                          {"--repeat", &repeat},
                                          {"--backend", &backend},
                                          {"--devices-per-rank",
                                           &devicesPerRank},
                                          {"--timeout", &timeout},
                                          {"--pin-threads", &pinThreads}},
                                         {{"--print", &options.print},
                                          {"--summary", &options.summary},
                                          {"--validate", &options.validate},
                                          {"--quiet", &options.quiet}},
                                         help, path, "an input file"))
    return makeUsageError(llvm::toString(std::move(error)) +
                          "; see 'mpmd run --help'");
  if (help)
    return llvm::Error::success();
  if (!path)
    return makeUsageError("no input file; see 'mpmd run --help'");
  if (options.inputs && randomSeed)
    return makeUsageError("give --inputs or --random-inputs, not both");
  if (randomSeed) {
    uint64_t seed;
    if (llvm::StringRef(*randomSeed).getAsInteger(10, seed))
      return makeUsageError(
          "--random-inputs expects an unsigned integer seed (got '" +
          *randomSeed + "')");
    options.randomSeed = seed;
  }
  if (options.validate && !configPath)
    return makeUsageError("--validate needs --config: the reference is the "
                          "unpartitioned model that the configuration "
                          "compiles");
  if (tolerance) {
    double value;
    if (!options.validate)
      return makeUsageError("--tolerance applies to --validate");
    if (llvm::StringRef(*tolerance).getAsDouble(value) || !(value >= 0) ||
        std::isinf(value))
      return makeUsageError("--tolerance expects a finite number >= 0 (got '" +
                            *tolerance + "')");
    options.tolerance = value;
  }
  if (configPath && functionName)
    return makeUsageError(
        "--config compiles and runs @main; --function does not apply");
  if (deviceMemory) {
    options.executor.deviceMemoryBytes = parseBytes(*deviceMemory);
    if (!options.executor.deviceMemoryBytes)
      return makeUsageError(
          "--device-memory expects bytes, e.g. 1048576 or 64M (got '" +
          *deviceMemory + "')");
  }
  if (pinThreads) {
    if (*pinThreads == "on" || *pinThreads == "off")
      options.executor.pinDeviceThreads = *pinThreads == "on";
    else if (*pinThreads != "auto")
      return makeUsageError("--pin-threads expects 'auto', 'on' or 'off' (got '" +
                            *pinThreads + "')");
  }
  if (repeat && (llvm::StringRef(*repeat).getAsInteger(10, options.repeat) ||
                 options.repeat < 1))
    return makeUsageError("--repeat expects a count >= 1 (got '" + *repeat +
                          "')");
  if (backend) {
    if (*backend != "threads" && *backend != "mpi")
      return makeUsageError("--backend expects 'threads' or 'mpi' (got '" +
                            *backend + "')");
#ifndef MPMD_ENABLE_MPI
    if (*backend == "mpi")
      return makeUsageError("this mpmd was built without MPI "
                            "(MPMD_ENABLE_MPI=OFF): --backend mpi is not "
                            "available");
#endif
    options.backend = *backend;
  }
  if (devicesPerRank) {
    if (options.backend != "mpi")
      return makeUsageError("--devices-per-rank applies to --backend mpi");
    if (llvm::StringRef(*devicesPerRank)
            .getAsInteger(10, options.devicesPerRank) ||
        options.devicesPerRank < 1)
      return makeUsageError("--devices-per-rank expects a count >= 1 (got '" +
                            *devicesPerRank + "')");
  }
  if (timeout) {
    double seconds;
    if (llvm::StringRef(*timeout).getAsDouble(seconds) || !(seconds > 0) ||
        std::isinf(seconds))
      return makeUsageError("--timeout expects seconds > 0 (got '" + *timeout +
                            "')");
    options.executor.timeoutSeconds = seconds;
    // The step is bounded: a device stuck in a kernel is not waited for.
    options.executor.onTimeout = [](const std::string &message) {
      llvm::errs() << "mpmd run: error: " + message + "\n";
      std::_Exit(kExitInputError);
    };
  }
  if (options.outputs)
    if (llvm::Error error = checkOutputPath("--outputs", *options.outputs,
                                            OutputKind::kDirectory))
      return error;
  if (options.trace)
    if (llvm::Error error =
            checkOutputPath("--trace", *options.trace, OutputKind::kFile))
      return error;
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::vector<runtime::Tensor>>
loadArguments(const llvm::Twine &what,
              llvm::ArrayRef<runtime::TensorSpec> specs,
              const RunOptions &options,
              const std::function<bool(size_t)> &isNeeded) {
  if (options.randomSeed) {
    std::vector<runtime::Tensor> tensors =
        runtime::randomInputs(*options.randomSeed, specs);
    if (isNeeded)
      for (auto [index, tensor] : llvm::enumerate(tensors))
        if (!isNeeded(index))
          tensor = runtime::Tensor();
    return tensors;
  }
  if (!options.inputs && !specs.empty())
    return makeUsageError(
        what + " takes " + llvm::Twine(specs.size()) +
        " argument(s): give --inputs A.npy,... or --random-inputs SEED");
  llvm::SmallVector<llvm::StringRef> parts;
  if (options.inputs && !options.inputs->empty())
    llvm::StringRef(*options.inputs).split(parts, ',');
  std::vector<std::string> paths(parts.begin(), parts.end());
  if (!isNeeded || paths.size() != specs.size())
    return runtime::readInputs(paths, specs);
  // Only the needed files are read, each checked against its spec.
  std::vector<runtime::Tensor> tensors(specs.size());
  for (size_t index = 0; index < specs.size(); ++index) {
    if (!isNeeded(index))
      continue;
    llvm::Expected<std::vector<runtime::Tensor>> one =
        runtime::readInputs({paths[index]}, {specs[index]});
    if (!one)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "input " + std::to_string(index) + ": " +
                                         llvm::toString(one.takeError()));
    tensors[index] = std::move(one->front());
  }
  return tensors;
}

void printOutputs(llvm::ArrayRef<runtime::Tensor> results, bool print) {
  for (auto [index, result] : llvm::enumerate(results))
    llvm::outs() << "output " << index << ": "
                 << runtime::summarize(result, print ? result.numElements() : 6)
                 << "\n";
}

llvm::Error installInjectedFault(RunOptions &options, int64_t rank) {
  const char *value = std::getenv("MPMD_INJECT_FAULT");
  if (!value || !*value)
    return llvm::Error::success();
  llvm::SmallVector<llvm::StringRef> fields;
  llvm::StringRef(value).split(fields, ':');
  int64_t faultRank = 0, fragment = 0;
  if (fields.size() != 3 || fields[0].getAsInteger(10, faultRank) ||
      fields[1].getAsInteger(10, fragment) || fragment < 1 ||
      !llvm::is_contained({"error", "kill", "stall"}, fields[2]))
    return makeUsageError("MPMD_INJECT_FAULT expects RANK:N:KIND with KIND "
                          "error, kill or stall (got '" +
                          llvm::Twine(value) + "')");
  if (faultRank != rank)
    return llvm::Error::success();
  std::string kind = fields[2].str();
  auto counter = std::make_shared<std::atomic<int64_t>>(0);
  options.executor.faultForTesting =
      [counter, fragment, kind](int64_t, int64_t, int64_t) -> llvm::Error {
    if (++*counter != fragment)
      return llvm::Error::success();
    if (kind == "kill")
      std::raise(SIGKILL);
    // A device that stops responding: what --timeout is for.
    if (kind == "stall")
      std::this_thread::sleep_for(std::chrono::seconds(60));
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "injected fault (MPMD_INJECT_FAULT)");
  };
  return llvm::Error::success();
}

int runRunCommand(llvm::ArrayRef<llvm::StringRef> args) {
  std::optional<std::string> path, functionName, configPath;
  RunOptions options;
  bool help = false;
  if (llvm::Error error =
          parseRunOptions(args, options, path, functionName, configPath, help))
    return fail(std::move(error));
  if (help) {
    printRunHelp(llvm::outs());
    return kExitSuccess;
  }
  Progress progress("run", options.quiet);
  std::optional<driver::Config> config;
  if (configPath) {
    llvm::Expected<driver::Config> parsed = driver::readConfigFile(*configPath);
    if (!parsed)
      return fail(makeUsageError(llvm::toString(parsed.takeError())));
    config = std::move(*parsed);
    if (config->plan) {
      options.plannedStepSeconds = config->plan->stepSeconds;
      options.plannedDescription = config->plan->description;
    }
  }
  std::string error;
  std::unique_ptr<driver::ModuleFile> file =
      driver::ModuleFile::read(*path, error);
  if (!file)
    return error.empty() ? kExitInputError // the parser reported why
                         : fail(makeInputError(error));
  ModuleOp module = file->getModule();
  progress.finished("reading the program");

  std::string name = functionName.value_or("main");
  auto function = module.lookupSymbol<func::FuncOp>(name);
  if (!function || function.isExternal())
    return fail(
        makeInputError("no function @" + name + " with a body in " + *path));
  // A fragment function of an exported module is a plain function: it runs
  // alone on the interpreter.
  bool mpmdProgram = config || isMpmdFunction(function);
  if (mpmdProgram && name != "main")
    return fail(makeUsageError("the MPMD executor runs @main, not @" + name));
  if (!mpmdProgram &&
      (options.trace || options.summary || options.executor.deviceMemoryBytes ||
       options.repeat != 1 || options.executor.timeoutSeconds ||
       options.executor.pinDeviceThreads || options.backend != "threads"))
    return fail(makeUsageError(
        "--trace, --summary, --device-memory, --repeat, --timeout, "
        "--pin-threads and --backend apply to MPMD programs (an exported "
        "module, or a model "
        "with --config)"));
  if (options.backend == "threads")
    if (llvm::Error error = installInjectedFault(options, 0))
      return fail(std::move(error));

  if (config) {
    driver::LowerOptions lowerOptions;
    lowerOptions.phaseDone = [&](driver::Phase phase) {
      progress.finished("compile phase " + driver::getPhaseName(phase));
    };
    FailureOr<driver::Lowered> lowered =
        driver::lower(module, *config, lowerOptions);
    if (failed(lowered))
      return kExitInputError; // the diagnostics say why
    FailureOr<std::unique_ptr<runtime::Executable>> executable =
        lowered->compile();
    if (failed(executable))
      return kExitInputError;
    return runMpmdProgram(**executable, options.validate ? module : ModuleOp(),
                          options, progress, *path, configPath);
  }
  if (mpmdProgram) {
    FailureOr<std::unique_ptr<runtime::Executable>> executable =
        runtime::Executable::create(module);
    if (failed(executable))
      return kExitInputError;
    return runMpmdProgram(**executable, ModuleOp(), options, progress, *path,
                          std::nullopt);
  }

  FailureOr<std::vector<runtime::TensorSpec>> specs =
      runtime::getArgumentSpecs(function);
  if (failed(specs))
    return kExitInputError;
  llvm::Expected<std::vector<runtime::Tensor>> arguments =
      loadArguments("@" + name, *specs, options);
  if (!arguments)
    return fail(arguments.takeError());
  runtime::Interpreter interpreter(module);
  FailureOr<std::vector<runtime::Tensor>> results =
      interpreter.run(function, *arguments);
  if (failed(results))
    return kExitInputError; // the interpreter reported why, at the op
  progress.finished("run");

  printOutputs(*results, options.print);
  if (llvm::Error error = writeRunFiles(options, *results, nullptr, nullptr))
    return fail(std::move(error));
  return kExitSuccess;
}

} // namespace mlir::mpmd::tools
