//===- SdyPartitioningBenchmark.cpp - explicit reshards vs parse ----------===//
//
// Times `-sdy-insert-explicit-reshards="enable-full-version=true"` followed
// by `-sdy-resolve-permutation-factors` on generated StableHLO transformer
// training steps (TransformerStep.h) of ~1k, ~10k and ~100k ops whose
// shardings `-sdy-propagation-pipeline` filled in (once, untimed), and
// parse+verify+print of the same propagated text: issue 13 asks for the
// partitioner passes to be linear and at most 3x parse+print. Each
// iteration parses a fresh module; the pass time excludes parsing and
// destroying it, and includes one verification at the end.
//
//===----------------------------------------------------------------------===//

#include "TransformerStep.h"

#include "ParseBaseline.h"

#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"
#include "mpmd/Transforms/Sdy/Pipelines.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace {

/// The propagated text of a transformer step of about `targetOps` ops, and
/// its op count.
std::pair<std::string, int64_t> getPropagatedStep(int64_t targetOps) {
  mpmd::bench::TransformerStepShape shape;
  shape.layers = std::max<int64_t>(
      1, targetOps / mpmd::bench::getTransformerStepOpsPerLayer());
  mpmd::bench::TransformerStep step =
      mpmd::bench::generateTransformerStep(shape);
  auto context = mpmd::bench::makeBenchmarkContext();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(step.text, context.get());
  PassManager pm(context.get());
  sdy::addPropagationPipeline(pm, sdy::PropagationPipelineOptions());
  if (!module || failed(pm.run(*module)))
    return {};
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return {text, step.numOps};
}

void BM_ParseVerifyPrint(benchmark::State &state) {
  auto [text, numOps] = getPropagatedStep(state.range(0));
  if (text.empty()) {
    state.SkipWithError("propagating the generated program failed");
    return;
  }
  mpmd::bench::timeParseVerifyPrint(state, text, numOps);
}

void BM_ExplicitReshards(benchmark::State &state) {
  auto [text, numOps] = getPropagatedStep(state.range(0));
  if (text.empty()) {
    state.SkipWithError("propagating the generated program failed");
    return;
  }
  mpmd::bench::timePasses(
      state, text, numOps, "the partitioner passes", [](PassManager &pm) {
        sdy::InsertExplicitReshardsPassOptions options;
        options.enableFullVersion = true;
        pm.addNestedPass<func::FuncOp>(
            sdy::createInsertExplicitReshardsPass(options));
        pm.addNestedPass<func::FuncOp>(
            sdy::createResolvePermutationFactorsPass());
      });
}

} // namespace


BENCHMARK(BM_ParseVerifyPrint)->Apply(mpmd::bench::addOpCountArgs);
BENCHMARK(BM_ExplicitReshards)->Apply(mpmd::bench::addOpCountArgs);

BENCHMARK_MAIN();
