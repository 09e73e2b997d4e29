//===- PartitionFragmentBodiesBenchmark.cpp - SPMD fragments vs parse -----===//
//
// Times `-mpmd-partition-fragment-bodies` on exported MPMD programs and
// parse+verify+print of the same text (issue 13: partitioner passes linear
// in ops and at most 3x parse+print). The programs are `mpmd example
// transformer` training steps on two meshes of data=2, model=2 with tp+dp
// sharding rules, lowered once (untimed) by `mpmd compile` with the pass
// off, which is exactly the pass's input: it is the last pass of the
// export phase that changes IR. The argument is the number of layers; the
// "ops" counter is the op count of the exported module. Each iteration
// parses a fresh module; the pass time excludes parsing and destroying it,
// and includes one verification at the end.
//
//===----------------------------------------------------------------------===//

#include "ExampleLowering.h"
#include "ParseBaseline.h"

#include "mpmd/Examples/Transformer.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "mlir/Parser/Parser.h"

using namespace mlir;

namespace {

/// The exported, unpartitioned text of an L-layer transformer step and its
/// op count; empty on failure.
std::pair<std::string, int64_t> getExportedStep(int64_t layers) {
  mpmd::examples::TransformerOptions options;
  options.layers = layers;
  options.sequence = 8;
  options.dim = 16;
  options.ffn = 32;
  options.batch = 8;
  options.microbatches = 4;
  options.meshes = 2;
  options.parallelism.meshShape = {{"data", 2}, {"model", 2}};
  options.parallelism.sharding = mpmd::examples::ExampleSharding::kTensorAndData;
  auto context = mpmd::bench::makeBenchmarkContext();
  llvm::Expected<mpmd::driver::Lowered> lowered = mpmd::bench::lowerExample(
      *context, mpmd::examples::generateTransformer(options),
      [](mpmd::driver::Config &config) {
        config.options.partitionFragmentBodies = false;
      });
  if (!lowered) {
    llvm::consumeError(lowered.takeError());
    return {};
  }
  int64_t numOps = 0;
  lowered->getModule().walk([&](Operation *) { ++numOps; });
  return {lowered->asText(), numOps};
}

void BM_ParseVerifyPrint(benchmark::State &state) {
  auto [text, numOps] = getExportedStep(state.range(0));
  if (text.empty()) {
    state.SkipWithError("lowering the example failed");
    return;
  }
  mpmd::bench::timeParseVerifyPrint(state, text, numOps);
}

void BM_PartitionFragmentBodies(benchmark::State &state) {
  auto [text, numOps] = getExportedStep(state.range(0));
  if (text.empty()) {
    state.SkipWithError("lowering the example failed");
    return;
  }
  mpmd::bench::timePasses(state, text, numOps,
                          "-mpmd-partition-fragment-bodies",
                          [](PassManager &pm) {
                            pm.addPass(mpmd::createPartitionFragmentBodiesPass());
                          });
}

/// Layers: about 2k, 15k and 120k ops exported.
void addLayerArgs(benchmark::internal::Benchmark *benchmark) {
  benchmark->Arg(8)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond)
      ->MeasureProcessCPUTime();
}

} // namespace

BENCHMARK(BM_ParseVerifyPrint)->Apply(addLayerArgs);
BENCHMARK(BM_PartitionFragmentBodies)->Apply(addLayerArgs);

BENCHMARK_MAIN();
