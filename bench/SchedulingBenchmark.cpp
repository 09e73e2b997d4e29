//===- SchedulingBenchmark.cpp - -mpmd-pipeline-scheduler at scale --------===//
//
// Times the pipeline scheduler on fragment-level programs as the import
// pipeline leaves them: `meshes` pipeline stages (one per mesh) and
// `microbatches` microbatches in program order, each microbatch a forward
// fragment per mesh with transfers between consecutive meshes, then the
// backward fragments in reverse, each using the incoming gradient and its
// forward's result. That is 2·meshes·microbatches scheduling units and about
// as many transfers. Each iteration schedules a fresh copy of the module
// (the copy is not timed). Upstream's pairwise scheduler would compare
// ~(2·microbatches)² pairs per mesh, each with a DFS.
//
//===----------------------------------------------------------------------===//

#include "mpmd/InitAllDialects.h"
#include "mpmd/Transforms/Optimize/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <string>

using namespace mlir;

namespace {

std::string meshType(int64_t mesh) {
  return "!mpmd.mesh_tensor<\"m" + std::to_string(mesh) + "\", tensor<8xf32>>";
}

std::string generatePipeline(int64_t meshes, int64_t microbatches) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "#topology = #mpmd.topology<";
  for (int64_t m = 0; m < meshes; ++m)
    os << (m ? ", " : "") << "<\"m" << m << "\": <[\"x\"=2]>>";
  os << ">\n";
  os << "func.func @main(%arg0: " << meshType(0) << ") -> (";
  for (int64_t i = 0; i < microbatches; ++i)
    os << (i ? ", " : "") << meshType(0);
  os << ") attributes {topology = #topology} {\n";
  int64_t next = 0;
  auto fresh = [&] { return "%v" + std::to_string(next++); };
  std::vector<std::string> results;
  for (int64_t i = 0; i < microbatches; ++i) {
    std::vector<std::string> forwards;
    std::string value = "%arg0";
    for (int64_t m = 0; m < meshes; ++m) {
      if (m > 0) {
        std::string transfer = fresh();
        os << "  " << transfer << " = mpmd.transfer " << value << " : ("
           << meshType(m - 1) << ") -> " << meshType(m) << "\n";
        value = transfer;
      }
      std::string forward = fresh();
      os << "  " << forward << " = mpmd.fragment<mesh=\"m" << m
         << "\", origin=[\"layer" << m << "\"]> (" << value
         << ") {call_counter = " << i << " : ui32} (%a: tensor<8xf32>) {\n"
         << "    %r = stablehlo.add %a, %a : tensor<8xf32>\n"
         << "    mpmd.return %r : tensor<8xf32>\n"
         << "  } : (" << meshType(m) << ") -> " << meshType(m) << "\n";
      forwards.push_back(forward);
      value = forward;
    }
    for (int64_t m = meshes - 1; m >= 0; --m) {
      if (m < meshes - 1) {
        std::string transfer = fresh();
        os << "  " << transfer << " = mpmd.transfer " << value << " : ("
           << meshType(m + 1) << ") -> " << meshType(m) << "\n";
        value = transfer;
      }
      std::string backward = fresh();
      os << "  " << backward << " = mpmd.fragment<mesh=\"m" << m
         << "\", origin=[\"layer" << m << "\"(1)]> (" << value << ", "
         << forwards[m] << ") {call_counter = " << i
         << " : ui32} (%g: tensor<8xf32>, %f: tensor<8xf32>) {\n"
         << "    %r = stablehlo.multiply %g, %f : tensor<8xf32>\n"
         << "    mpmd.return %r : tensor<8xf32>\n"
         << "  } : (" << meshType(m) << ", " << meshType(m) << ") -> "
         << meshType(m) << "\n";
      value = backward;
    }
    results.push_back(value);
  }
  os << "  return ";
  for (size_t i = 0; i < results.size(); ++i)
    os << (i ? ", " : "") << results[i];
  os << " : ";
  for (size_t i = 0; i < results.size(); ++i)
    os << (i ? ", " : "") << meshType(0);
  os << "\n}\n";
  return text;
}

void runScheduler(benchmark::State &state, mpmd::PipelineSchedule schedule) {
  int64_t meshes = state.range(0), microbatches = state.range(1);
  DialectRegistry registry;
  mpmd::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.disableMultithreading();
  OwningOpRef<ModuleOp> original =
      parseSourceString<ModuleOp>(generatePipeline(meshes, microbatches),
                                  &context);
  if (!original) {
    state.SkipWithError("the generated program does not parse");
    return;
  }
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> module = original->clone();
    PassManager pm(&context);
    pm.enableVerifier(false);
    mpmd::PipelineSchedulerPassOptions options;
    options.mustHappenBefore = schedule;
    pm.addNestedPass<func::FuncOp>(mpmd::createPipelineSchedulerPass(options));
    state.ResumeTiming();
    if (failed(pm.run(*module))) {
      state.SkipWithError("the scheduler failed");
      return;
    }
    state.PauseTiming();
    module = nullptr; // Destruction is not part of the scheduling time.
    state.ResumeTiming();
  }
  state.counters["units"] = static_cast<double>(2 * meshes * microbatches);
}

void BM_Schedule1F1B(benchmark::State &state) {
  runScheduler(state, mpmd::PipelineSchedule::k1F1B);
}

void BM_ScheduleGPipe(benchmark::State &state) {
  runScheduler(state, mpmd::PipelineSchedule::kGPipe);
}

} // namespace

BENCHMARK(BM_Schedule1F1B)
    ->Args({8, 256})
    ->Args({32, 256})
    ->Args({64, 256})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();
BENCHMARK(BM_ScheduleGPipe)
    ->Args({8, 256})
    ->Args({32, 256})
    ->Args({64, 256})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();

BENCHMARK_MAIN();
