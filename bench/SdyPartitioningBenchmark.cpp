//===- SdyPartitioningBenchmark.cpp - explicit reshards vs parse ----------===//
//
// Times `-sdy-insert-explicit-reshards="enable-full-version=true"` followed
// by `-sdy-resolve-permutation-factors` on generated StableHLO transformer
// training steps (TransformerStep.h) of ~1k, ~10k and ~100k ops whose
// shardings `-sdy-propagation-pipeline` filled in (once, untimed), and
// parse+verify+print of the same propagated text: issue 13 asks for the
// partitioner passes to be linear and at most 3x parse+print. Each
// iteration parses a fresh module; the pass time excludes parsing and
// destroying it, and includes one verification at the end. The halo
// benchmarks time the same pass on a chain of pads, slices and reverses
// that all take the halo-exchange path.
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

/// A chain of `numOps` ops on a tensor sharded over 4 devices: pads by
/// one at each end, slices back and reverses, each a halo exchange.
std::string getHaloChain(int64_t numOps) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const char *sharding =
      "{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}]>]>}";
  os << "sdy.mesh @mesh = <[\"x\"=4]>\n"
     << "func.func @main(%v0: tensor<64xf32> {sdy.sharding = "
        "#sdy.sharding<@mesh, [{\"x\"}]>}, %z: tensor<f32>) -> "
        "tensor<64xf32> {\n";
  int64_t next = 0;
  for (int64_t op = 0; op + 3 <= numOps; op += 3, next += 3) {
    os << "  %v" << next + 1 << " = stablehlo.pad %v" << next
       << ", %z, low = [1], high = [1], interior = [0] " << sharding
       << " : (tensor<64xf32>, tensor<f32>) -> tensor<66xf32>\n";
    os << "  %v" << next + 2 << " = stablehlo.slice %v" << next + 1
       << " [2:66] " << sharding << " : (tensor<66xf32>) -> tensor<64xf32>\n";
    os << "  %v" << next + 3 << " = stablehlo.reverse %v" << next + 2
       << ", dims = [0] " << sharding << " : tensor<64xf32>\n";
  }
  os << "  return %v" << next << " : tensor<64xf32>\n}\n";
  return text;
}

void BM_HaloParseVerifyPrint(benchmark::State &state) {
  mpmd::bench::timeParseVerifyPrint(state, getHaloChain(state.range(0)),
                                    state.range(0));
}

/// Every op of the chain becomes a manual computation of ~10-25 ops, so
/// this is compared with parsing the (smaller) input.
void BM_HaloExchange(benchmark::State &state) {
  mpmd::bench::timePasses(
      state, getHaloChain(state.range(0)), state.range(0),
      "-sdy-resolve-permutation-factors", [](PassManager &pm) {
        pm.addNestedPass<func::FuncOp>(
            sdy::createResolvePermutationFactorsPass());
      });
}

} // namespace


BENCHMARK(BM_ParseVerifyPrint)->Apply(mpmd::bench::addOpCountArgs);
BENCHMARK(BM_ExplicitReshards)->Apply(mpmd::bench::addOpCountArgs);
BENCHMARK(BM_HaloParseVerifyPrint)->Apply(mpmd::bench::addOpCountArgs);
BENCHMARK(BM_HaloExchange)->Apply(mpmd::bench::addOpCountArgs);

BENCHMARK_MAIN();
