//===- SdyPropagationBenchmark.cpp - -sdy-propagation-pipeline vs parse ---===//
//
// Times `-sdy-propagation-pipeline` on generated StableHLO transformer
// training steps (TransformerStep.h) of ~1k, ~10k and ~100k ops, and
// parse+verify+print of the same text, so that their ratio and its growth
// can be reported (issue 12: at most 3x, linear). Each iteration parses a
// fresh module; the pipeline time excludes parsing and destroying the
// module, and includes one verification at the end.
//
//   mpmd-bench-sdy-propagation --print-module=10000 > step.mlir
//
// prints the ~10k-op module instead, for timing with mpmd-opt.
//
//===----------------------------------------------------------------------===//

#include "TransformerStep.h"

#include "ParseBaseline.h"

#include "mpmd/InitAllDialects.h"
#include "mpmd/Transforms/Sdy/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

using namespace mlir;

namespace {

mpmd::bench::TransformerStepShape shapeForOps(int64_t targetOps) {
  mpmd::bench::TransformerStepShape shape;
  shape.layers = std::max<int64_t>(
      1, targetOps / mpmd::bench::getTransformerStepOpsPerLayer());
  return shape;
}

void BM_ParseVerifyPrint(benchmark::State &state) {
  mpmd::bench::TransformerStep step =
      mpmd::bench::generateTransformerStep(shapeForOps(state.range(0)));
  mpmd::bench::timeParseVerifyPrint(state, step.text, step.numOps);
}

void BM_SdyPropagationPipeline(benchmark::State &state) {
  mpmd::bench::TransformerStep step =
      mpmd::bench::generateTransformerStep(shapeForOps(state.range(0)));
  mpmd::bench::timePasses(state, step.text, step.numOps,
                          "the propagation pipeline", [](PassManager &pm) {
                            sdy::addPropagationPipeline(
                                pm, sdy::PropagationPipelineOptions());
                          });
}

} // namespace


BENCHMARK(BM_ParseVerifyPrint)->Apply(mpmd::bench::addOpCountArgs);
BENCHMARK(BM_SdyPropagationPipeline)->Apply(mpmd::bench::addOpCountArgs);

int main(int argc, char **argv) {
  return mpmd::bench::runPassBenchmarkMain(argc, argv, [](int64_t targetOps) {
    return mpmd::bench::generateTransformerStep(shapeForOps(targetOps)).text;
  });
}
