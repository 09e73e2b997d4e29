//===- ExecutorBenchmark.cpp - Costs of the MPMD executor -----------------===//
//
// * dispatch: a chain of N fragment calls of an empty function (it returns
//   its argument) on one mesh; time per call = run time / N, i.e. what the
//   executor adds to every fragment (bookkeeping, the lock, an interpreter
//   frame), thread start-up amortized over N.
//
//===----------------------------------------------------------------------===//

#include "mpmd/InitAllDialects.h"
#include "mpmd/Runtime/Executor.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

using namespace mlir;
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

} // namespace

BENCHMARK_MAIN();
