//===- ParseBaseline.h - Parse+verify+print, what pipelines are compared to ===//
//
// The benchmarks of compiler pipelines report their time as a ratio to
// parse+verify+print of the same text: the physical limit of any pass over
// the module is to read and write it once. Shared by those benchmarks so
// that every ratio has the same baseline.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_BENCH_PARSEBASELINE_H
#define MPMD_BENCH_PARSEBASELINE_H

#include "mpmd/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
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

} // namespace mlir::mpmd::bench

#endif // MPMD_BENCH_PARSEBASELINE_H
