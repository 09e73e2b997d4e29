//===- ImportBenchmark.cpp - Import pipeline vs parse+print ---------------===//
//
// Times the import pipeline (named computations → fragments, mesh inference,
// merging, call inlining) on synthetic programs of ~10k and ~100k ops, and
// parse+verify+print of the same text, so their ratio can be reported.
// Each iteration parses a fresh module; the pipeline time excludes parsing,
// and neither time includes destroying the module (the pipeline's output is
// ~3x larger than its input: its destruction is not import work).
// The pipeline verifies the module once, at the end (what the `mpmd` driver
// does); `BM_ImportPipelineVerifyEach` verifies after every pass, as
// `mpmd-opt` does by default.
//
//===----------------------------------------------------------------------===//

#include "SyntheticProgram.h"

#include "ParseBaseline.h"

#include "mpmd/InitAllDialects.h"
#include "mpmd/Transforms/Import/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <chrono>

using namespace mlir;

namespace {

/// About 18 ops per layer (fwd, bwd, glue, accumulation, update) with 8
/// microbatches on 4 meshes.
mpmd::bench::SyntheticProgramShape shapeForOps(int64_t targetOps) {
  mpmd::bench::SyntheticProgramShape shape;
  shape.microbatches = 8;
  shape.meshes = 4;
  shape.layers = std::max<int64_t>(shape.meshes, targetOps / 18);
  return shape;
}

void BM_ParseVerifyPrint(benchmark::State &state) {
  mpmd::bench::SyntheticProgram program =
      mpmd::bench::generateSyntheticProgram(shapeForOps(state.range(0)));
  mpmd::bench::timeParseVerifyPrint(state, program.text, program.numOps);
}

void runImportPipeline(benchmark::State &state, bool verifyEachPass) {
  mpmd::bench::SyntheticProgram program =
      mpmd::bench::generateSyntheticProgram(shapeForOps(state.range(0)));
  auto context = mpmd::bench::makeBenchmarkContext();
  mpmd::ImportOptions options;
  options.nameToMeshAssignment =
      cantFail(mpmd::parseUserAssignmentMap(program.assignment));
  // The glue between layers on different meshes needs transfers.
  options.inferMeshOptions.inferTransfers = true;
  int64_t opsAfter = 0;
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(program.text, context.get());
    PassManager pm(context.get());
    pm.enableVerifier(verifyEachPass);
    mpmd::addImportPipeline(pm, options);
    state.ResumeTiming();
    if (!module || failed(pm.run(*module)) ||
        (!verifyEachPass && failed(verify(*module)))) {
      state.SkipWithError("the import pipeline failed");
      return;
    }
    state.PauseTiming();
    opsAfter = 0;
    module->walk([&](Operation *) { ++opsAfter; });
    module = OwningOpRef<ModuleOp>();
    state.ResumeTiming();
  }
  state.counters["ops"] = static_cast<double>(program.numOps);
  state.counters["ops_after"] = static_cast<double>(opsAfter);
}

void BM_ImportPipeline(benchmark::State &state) {
  runImportPipeline(state, /*verifyEachPass=*/false);
}

void BM_ImportPipelineVerifyEach(benchmark::State &state) {
  runImportPipeline(state, /*verifyEachPass=*/true);
}

} // namespace

BENCHMARK(BM_ParseVerifyPrint)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();
BENCHMARK(BM_ImportPipeline)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();
BENCHMARK(BM_ImportPipelineVerifyEach)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();

BENCHMARK_MAIN();
