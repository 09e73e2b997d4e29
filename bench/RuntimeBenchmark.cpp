//===- RuntimeBenchmark.cpp - Runtime kernels against their raw baselines -===//
//
// Each kernel beside the raw operation it must keep up with, on the same
// shape: dot_general f32 vs cblas_sgemm (plain and batched), elementwise
// add on 16M f32 vs memcpy of the same bytes, and a
// 64 MiB sum over rows or columns. The ratio of the medians is
// what docs/measurements.md reports (random interleaving spreads the load of a shared
// machine over both sides of each ratio):
//   build/bench/mpmd-bench-runtime --benchmark_enable_random_interleaving=true \
//       --benchmark_repetitions=12 --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstring>

using namespace mlir::mpmd::runtime;

namespace {

Tensor filled(DType dtype, Shape shape, float value) {
  Tensor tensor = Tensor::empty(dtype, std::move(shape));
  float *data = tensor.data<float>();
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    data[i] = value + static_cast<float>(i % 7);
  return tensor;
}

void setGemmCounters(benchmark::State &state, int64_t batches, int64_t n) {
  state.counters["GFLOP/s"] = benchmark::Counter(
      2.0 * batches * n * n * n * state.iterations() / 1e9,
      benchmark::Counter::kIsRate);
}

// dot_general [B,N,N] x [B,N,N] (B = 1: no batch dimension).
void BM_DotGeneralF32(benchmark::State &state) {
  int64_t batches = state.range(0), n = state.range(1);
  Shape shape = batches == 1 ? Shape{n, n} : Shape{batches, n, n};
  Tensor lhs = filled(DType::F32, shape, 0.5f), rhs = filled(DType::F32, shape, 0.25f);
  DotDimensions dims = batches == 1 ? DotDimensions{{}, {}, {1}, {0}}
                                    : DotDimensions{{0}, {0}, {2}, {1}};
  for (auto _ : state)
    benchmark::DoNotOptimize(dotGeneral(lhs, rhs, dims));
  setGemmCounters(state, batches, n);
}

// The same products as raw cblas_sgemm calls into a preallocated result.
void BM_CblasSgemm(benchmark::State &state) {
  int64_t batches = state.range(0), n = state.range(1);
  Tensor lhs = filled(DType::F32, {batches, n, n}, 0.5f),
         rhs = filled(DType::F32, {batches, n, n}, 0.25f),
         out = Tensor::empty(DType::F32, {batches, n, n});
  for (auto _ : state) {
    for (int64_t b = 0; b < batches; ++b)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                  lhs.data<float>() + b * n * n, n, rhs.data<float>() + b * n * n,
                  n, 0.0f, out.data<float>() + b * n * n, n);
    benchmark::DoNotOptimize(out.bytes());
  }
  setGemmCounters(state, batches, n);
}

constexpr int64_t kElementwiseSize = 16 << 20; // 16M f32 = 64 MiB per tensor

void setBytesCounter(benchmark::State &state) {
  state.SetBytesProcessed(state.iterations() * kElementwiseSize * 4);
}

// add into a buffer reused across iterations (what an executor with a
// buffer pool pays).
void BM_AddF32Into(benchmark::State &state) {
  Tensor lhs = filled(DType::F32, {kElementwiseSize}, 1.0f),
         rhs = filled(DType::F32, {kElementwiseSize}, 2.0f),
         out = filled(DType::F32, {kElementwiseSize}, 0.0f);
  for (auto _ : state) {
    binaryInto(BinaryKind::Add, lhs, rhs, out);
    benchmark::DoNotOptimize(out.bytes());
  }
  setBytesCounter(state);
}

// add with a freshly allocated result (what the interpreter pays today:
// the result's pages are faulted in on first touch).
void BM_AddF32Allocating(benchmark::State &state) {
  Tensor lhs = filled(DType::F32, {kElementwiseSize}, 1.0f),
         rhs = filled(DType::F32, {kElementwiseSize}, 2.0f);
  for (auto _ : state)
    benchmark::DoNotOptimize(binary(BinaryKind::Add, lhs, rhs));
  setBytesCounter(state);
}

// memcpy of one operand's bytes into a reused buffer.
void BM_Memcpy(benchmark::State &state) {
  Tensor from = filled(DType::F32, {kElementwiseSize}, 1.0f),
         to = filled(DType::F32, {kElementwiseSize}, 0.0f);
  for (auto _ : state) {
    std::memcpy(to.bytes(), from.bytes(), from.byteSize());
    benchmark::DoNotOptimize(to.bytes());
  }
  setBytesCounter(state);
}

// Sum of a 4096x4096 f32 matrix (64 MiB, as the add) over its rows
// (innermost dimension reduced) or its columns (innermost kept).
void BM_ReduceSumF32(benchmark::State &state) {
  int64_t reducedDim = state.range(0);
  Tensor operand = filled(DType::F32, {4096, 4096}, 1.0f);
  Tensor init = Tensor::zeros(DType::F32, {});
  for (auto _ : state)
    benchmark::DoNotOptimize(reduce(ReduceKind::Add, operand, init, {reducedDim}));
  setBytesCounter(state);
}

} // namespace

BENCHMARK(BM_ReduceSumF32)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DotGeneralF32)->Args({1, 512})->Args({8, 256})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CblasSgemm)->Args({1, 512})->Args({8, 256})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AddF32Into)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AddF32Allocating)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
