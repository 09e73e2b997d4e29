//===- ExecutorBenchmark.cpp - Costs of the MPMD executor -----------------===//
//
// * dispatch: a chain of N fragment calls of an empty function (it returns
//   its argument) on one mesh; time per call = run time / N, i.e. what the
//   executor adds to every fragment (bookkeeping, the lock, an interpreter
//   frame), thread start-up amortized over N.
// * mlp: a compute-bound MLP training step (`mpmd example mlp`: 8 layers of
//   512x512, batch 1024 in 8 microbatches, 1F1B) compiled for 1 or 2 meshes
//   of one device (one core) each. Counters: the measured step time and its
//   ratio to the replay of the execution model with the measured step
//   durations (1.0 = no executor overhead on the critical path).
// * transformer: the same for `mpmd example transformer` (4 pre-norm
//   blocks, width 128, MLP 512, 64 sequences of 32 in 8 microbatches).
//
//===----------------------------------------------------------------------===//

#include "ExampleLowering.h"

#include "mpmd/Examples/Mlp.h"
#include "mpmd/Examples/Transformer.h"
#include "mpmd/InitAllDialects.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Runtime/Trace.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cmath>

using namespace mlir;
using namespace mlir::mpmd;
using namespace mlir::mpmd::runtime;

namespace {

std::string emptyFragmentChain(int64_t calls) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "!t = !mpmd.mesh_tensor<\"m0\", tensor<f32>>\n"
        "func.func @main(%v0: !t) -> !t attributes {topology = "
        "#mpmd.topology<<\"m0\" : <[\"x\"=1]>>>} {\n";
  for (int64_t i = 0; i < calls; ++i)
    os << "  %v" << i + 1 << " = mpmd.fragment_call<mesh=\"m0\", "
       << "origin=[\"empty\"]> @empty(%v" << i << ") : (!t) -> !t\n";
  os << "  return %v" << calls << " : !t\n}\n"
     << "func.func @empty(%a: tensor<f32>) -> tensor<f32> attributes "
        "{mesh_shape = #sdy.mesh<[\"x\"=1]>} {\n  return %a : tensor<f32>\n}\n";
  return text;
}

void BM_EmptyFragmentCallDispatch(benchmark::State &state) {
  const int64_t calls = state.range(0);
  DialectRegistry registry;
  mpmd::registerAllDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(emptyFragmentChain(calls), &context);
  FailureOr<std::unique_ptr<Executable>> executable =
      Executable::create(*module);
  if (!module || failed(executable)) {
    state.SkipWithError("cannot build the program");
    return;
  }
  Tensor input = Tensor::zeros(DType::F32, {});
  for (auto _ : state) {
    llvm::Expected<RunResult> result = (*executable)->run({input}, {});
    if (!result) {
      state.SkipWithError(llvm::toString(result.takeError()).c_str());
      return;
    }
    benchmark::DoNotOptimize(result->outputs);
  }
  state.counters["per_call"] = benchmark::Counter(
      double(calls) * state.iterations(),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_EmptyFragmentCallDispatch)
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// Deterministic values in [-scale, scale].
Tensor filled(Shape shape, double scale, int64_t seed) {
  Tensor tensor = Tensor::empty(DType::F32, std::move(shape));
  float *data = tensor.data<float>();
  for (int64_t i = 0, e = tensor.numElements(); i < e; ++i)
    data[i] = float(scale * std::sin(0.7 * double(i) + double(seed)));
  return tensor;
}

/// Compiles `example` with its config, then times runs of the exported
/// program on deterministic inputs.
void runTrainingStep(benchmark::State &state,
                     llvm::Expected<examples::ExampleModel> example) {
  DialectRegistry registry;
  mpmd::registerAllDialects(registry);
  MLIRContext context(registry);
  llvm::Expected<driver::Lowered> lowered =
      bench::lowerExample(context, std::move(example));
  if (!lowered) {
    state.SkipWithError(llvm::toString(lowered.takeError()).c_str());
    return;
  }
  FailureOr<std::unique_ptr<Executable>> executable = lowered->compile();
  if (failed(executable)) {
    state.SkipWithError("cannot compile the model");
    return;
  }
  std::vector<Tensor> inputs;
  for (auto [index, spec] : llvm::enumerate((*executable)->getInputSpecs()))
    inputs.push_back(filled(spec.shape, index < 2 ? 1.0 : 0.05, index));

  double stepUs = 0, replayUs = 0;
  for (auto _ : state) {
    llvm::Expected<RunResult> result = (*executable)->run(inputs, {});
    llvm::Expected<SimulatedRun> replay =
        result ? replayMeasured((*executable)->getProgram(), *result)
               : llvm::Expected<SimulatedRun>(result.takeError());
    if (!replay) {
      state.SkipWithError(llvm::toString(replay.takeError()).c_str());
      return;
    }
    stepUs += result->stepUs;
    replayUs += replay->makespan;
  }
  state.counters["step_ms"] = stepUs / 1000 / state.iterations();
  state.counters["measured_over_replay"] = stepUs / replayUs;
}

void BM_MlpStep(benchmark::State &state) {
  examples::MlpOptions options;
  options.layers = 8;
  options.width = 512;
  options.batch = 1024;
  options.microbatches = 8;
  options.meshes = state.range(0);
  runTrainingStep(state, examples::generateMlp(options));
}
BENCHMARK(BM_MlpStep)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_TransformerStep(benchmark::State &state) {
  examples::TransformerOptions options;
  options.layers = 4;
  options.sequence = 32;
  options.dim = 128;
  options.ffn = 512;
  options.batch = 64;
  options.microbatches = 8;
  options.meshes = state.range(0);
  runTrainingStep(state, examples::generateTransformer(options));
}
BENCHMARK(BM_TransformerStep)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
