//===- ParseBaseline.h - Parse+verify+print, what pipelines are compared to ===//
//
// The benchmarks of compiler pipelines report their time as a ratio to
// parse+verify+print of the same text: the physical limit of any pass over
// the module is to read and write it once. Shared by those benchmarks so
// that every ratio has the same baseline, with the timed pass loop and the
// `--print-module=N` main they all have.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_BENCH_PARSEBASELINE_H
#define MPMD_BENCH_PARSEBASELINE_H

#include "mpmd/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <memory>
#include <string>

namespace mlir::mpmd::bench {

/// A context with every dialect of mpmd loaded, single-threaded (the
/// benchmarks time one core).
inline std::unique_ptr<MLIRContext> makeBenchmarkContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  context->disableMultithreading();
  return context;
}

/// Times parse (with verification) and print of `text` per iteration; the
/// module's destruction is not timed. Reports `numOps` as the "ops" counter.
inline void timeParseVerifyPrint(benchmark::State &state, llvm::StringRef text,
                                 int64_t numOps) {
  std::unique_ptr<MLIRContext> context = makeBenchmarkContext();
  for (auto _ : state) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, context.get());
    if (!module) {
      state.SkipWithError("the generated program does not parse");
      return;
    }
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os);
    benchmark::DoNotOptimize(printed.data());
    state.PauseTiming();
    module = OwningOpRef<ModuleOp>();
    state.ResumeTiming();
  }
  state.counters["ops"] = static_cast<double>(numOps);
}

/// Times the passes `addPasses` adds on `text`, parsed anew each iteration:
/// the time excludes parsing and destroying the module and includes one
/// verification at the end (the pass manager's own verifier is off).
/// Reports `numOps` as the "ops" counter; `what` names the passes in the
/// error when they fail.
inline void timePasses(benchmark::State &state, llvm::StringRef text,
                       int64_t numOps, llvm::StringRef what,
                       llvm::function_ref<void(PassManager &)> addPasses) {
  std::unique_ptr<MLIRContext> context = makeBenchmarkContext();
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, context.get());
    PassManager pm(context.get());
    pm.enableVerifier(false);
    addPasses(pm);
    state.ResumeTiming();
    if (!module || failed(pm.run(*module)) || failed(verify(*module))) {
      state.SkipWithError((what + " failed").str().c_str());
      return;
    }
    state.PauseTiming();
    module = OwningOpRef<ModuleOp>();
    state.ResumeTiming();
  }
  state.counters["ops"] = static_cast<double>(numOps);
}

/// The sizes every pass benchmark runs at: ~1k, ~10k and ~100k ops.
inline void addOpCountArgs(benchmark::internal::Benchmark *benchmark) {
  benchmark->Arg(1000)
      ->Arg(10000)
      ->Arg(100000)
      ->Unit(benchmark::kMillisecond)
      ->MeasureProcessCPUTime();
}

/// The main of a pass benchmark: `--print-module=N` prints the program
/// generated for ~N ops (to time it with mpmd-opt), anything else runs the
/// registered benchmarks. Exit code 2 on a bad argument.
inline int runPassBenchmarkMain(
    int argc, char **argv,
    llvm::function_ref<std::string(int64_t targetOps)> generate) {
  if (argc == 2) {
    llvm::StringRef arg(argv[1]);
    if (arg.consume_front("--print-module=")) {
      int64_t targetOps = 0;
      if (arg.getAsInteger(10, targetOps) || targetOps <= 0) {
        llvm::errs() << "--print-module needs a positive op count\n";
        return 2;
      }
      llvm::outs() << generate(targetOps);
      return 0;
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

} // namespace mlir::mpmd::bench

#endif // MPMD_BENCH_PARSEBASELINE_H
