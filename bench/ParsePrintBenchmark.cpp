//===- ParsePrintBenchmark.cpp - The floor every compile phase is measured against ===//
//
// Parsing, verifying and printing a synthetic program: the time any pass
// pipeline over the same module is compared with.
//
//===----------------------------------------------------------------------===//

#include "SyntheticProgram.h"

#include "mpmd/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

using namespace mlir;

namespace {

/// Layers such that the module has about `targetOps` operations.
mpmd::bench::SyntheticProgramShape shapeForOps(int64_t targetOps) {
  mpmd::bench::SyntheticProgramShape shape;
  shape.microbatches = 8;
  shape.meshes = 4;
  // About 18 ops per layer (fwd, bwd, glue, accumulation, update).
  shape.layers = std::max<int64_t>(shape.meshes, targetOps / 18);
  return shape;
}

void BM_ParseVerifyPrint(benchmark::State &state) {
  mpmd::bench::SyntheticProgram program =
      mpmd::bench::generateSyntheticProgram(shapeForOps(state.range(0)));
  DialectRegistry registry;
  mpmd::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.disableMultithreading();
  for (auto _ : state) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(program.text, &context);
    if (!module) {
      state.SkipWithError("the generated program does not parse");
      return;
    }
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os);
    benchmark::DoNotOptimize(printed.data());
  }
  state.counters["ops"] = static_cast<double>(program.numOps);
  state.counters["ops_per_s"] = benchmark::Counter(
      static_cast<double>(program.numOps), benchmark::Counter::kIsIterationInvariantRate);
}

} // namespace

BENCHMARK(BM_ParseVerifyPrint)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
