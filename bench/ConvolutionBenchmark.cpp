//===- ConvolutionBenchmark.cpp - convolution vs sgemm of the same FLOPs --===//
//
// ResNet-50's three kinds of convolution, f32, batch 8, NHWC/HWIO (JAX's and
// Flax's layout), in the three forms a training step runs:
//   3x3 64->64 on 56x56 (stride 1, padding 1)
//   1x1 256->64 on 56x56
//   7x7 3->64 on 224x224 (stride 2, padding 3: the stem)
// and the example CNN's stem (3x3 3->32 on 32x32, batch 4: one microbatch
// of `mpmd example cnn --image 32 --channels 32 --batch 32 --microbatches 8`)
// forward, input gradient (JAX's form: the kernel reversed, then a
// convolution of the output gradient dilated by the stride) and filter
// gradient (JAX's form: batch and features swapped). Each is reported in
// GFLOP/s of the forward's multiply-adds (2 x output x window x input
// features), beside cblas_sgemm on a square GEMM of the same FLOPs; the
// ratio of the medians is what docs/measurements.md reports:
//   build/bench/mpmd-bench-convolution --benchmark_enable_random_interleaving=true \
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// Both sides use the same OpenBLAS threads (OPENBLAS_NUM_THREADS).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cmath>

using namespace mlir::mpmd::runtime;

namespace {

struct Shape2d {
  const char *name;
  int64_t batch, size, inFeatures, outFeatures, window, stride, padding;

  int64_t outSize() const {
    return (size + 2 * padding - window) / stride + 1;
  }
  double flops() const {
    return 2.0 * batch * outSize() * outSize() * window * window * inFeatures *
           outFeatures;
  }
};

const Shape2d kShapes[] = {
    {"3x3_64_56", 8, 56, 64, 64, 3, 1, 1},
    {"1x1_256_56", 8, 56, 256, 64, 1, 1, 0},
    {"7x7_3_224_s2", 8, 224, 3, 64, 7, 2, 3},
    {"3x3_3_32", 4, 32, 3, 32, 3, 1, 1},
};
constexpr int64_t kNumShapes = sizeof(kShapes) / sizeof(kShapes[0]);

// The input gradient also with im2col forced (InputGradientGather), to
// show what col2im saves on strided convolutions; on the stems, where Auto
// runs the few-result-features kernel, with the GEMM paths it replaces
// forced (InputGradientScatter, col2im, on the 7x7; im2col on the 3x3).
// The filter gradient with the canonical im2col forced
// (FilterGradientGather: x and the output gradient transposed first), to
// show what the transposed im2col saves.
// On the 3-channel stems, where Auto runs the direct kernel, the forward
// with im2col forced (ForwardGather) and the filter gradient with the
// transposed im2col forced (FilterGradientTransposed): what it replaces;
// on the 64- and 256-channel shapes the direct kernel forced on the
// forward (ForwardDirect), which Auto leaves to sgemm.
enum class Pass {
  Forward,
  InputGradient,
  FilterGradient,
  InputGradientGather,
  FilterGradientGather,
  ForwardGather,
  FilterGradientTransposed,
  ForwardDirect,
  InputGradientScatter
};

Tensor filled(Shape shape) {
  Tensor tensor = Tensor::empty(DType::F32, std::move(shape));
  float *data = tensor.data<float>();
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    data[i] = static_cast<float>(i % 13) * 0.125f - 0.75f;
  return tensor;
}

ConvolutionDimensions nhwc(int64_t stride, int64_t low, int64_t high) {
  ConvolutionDimensions d;
  d.inputBatch = 0;
  d.inputSpatial = {1, 2};
  d.inputFeature = 3;
  d.kernelSpatial = {0, 1};
  d.kernelInputFeature = 2;
  d.kernelOutputFeature = 3;
  d.outputBatch = 0;
  d.outputSpatial = {1, 2};
  d.outputFeature = 3;
  d.strides = {stride, stride};
  d.lhsDilation = d.rhsDilation = {1, 1};
  d.paddingLow = {low, low};
  d.paddingHigh = {high, high};
  d.reversal = {false, false};
  return d;
}

void setCounters(benchmark::State &state, double flops) {
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}

void BM_Convolution(benchmark::State &state) {
  const Shape2d &s = kShapes[state.range(0)];
  auto pass = static_cast<Pass>(state.range(1));
  int64_t n = s.batch, h = s.size, c = s.inFeatures, o = s.outFeatures,
          k = s.window, stride = s.stride, p = s.padding, oh = s.outSize();
  Shape x{n, h, h, c}, w{k, k, c, o}, y{n, oh, oh, o};
  int64_t dilatedOut = (oh - 1) * stride + 1;
  if (pass == Pass::Forward || pass == Pass::ForwardGather ||
      pass == Pass::ForwardDirect) {
    Tensor lhs = filled(x), rhs = filled(w);
    ConvolutionDimensions d = nhwc(stride, p, p);
    ConvolutionPath path = pass == Pass::Forward         ? ConvolutionPath::Auto
                           : pass == Pass::ForwardGather ? ConvolutionPath::Gather
                                                         : ConvolutionPath::Direct;
    for (auto _ : state)
      benchmark::DoNotOptimize(convolution(lhs, rhs, d, y, path));
  } else if (pass == Pass::InputGradient || pass == Pass::InputGradientGather ||
             pass == Pass::InputGradientScatter) {
    // dx = conv(dy dilated by the stride, reverse(w) with i and o swapped).
    Tensor dy = filled(y), rhs = filled(w);
    int64_t low = k - 1 - p, high = h + k - 1 - dilatedOut - low;
    ConvolutionDimensions d = nhwc(1, low, high);
    d.lhsDilation = {stride, stride};
    std::swap(d.kernelInputFeature, d.kernelOutputFeature);
    ConvolutionPath path = pass == Pass::InputGradient ? ConvolutionPath::Auto
                           : pass == Pass::InputGradientGather
                               ? ConvolutionPath::Gather
                               : ConvolutionPath::Scatter;
    for (auto _ : state)
      benchmark::DoNotOptimize(
          convolution(dy, reverse(rhs, {0, 1}), d, x, path));
  } else {
    // dw = conv(x as [f, 0, 1, b], dy as [i, 0, 1, o]) -> [0, 1, b, f].
    Tensor lhs = filled(x), dy = filled(y);
    ConvolutionDimensions d = nhwc(1, p, dilatedOut - h + k - p - 1);
    d.inputBatch = 3;
    d.inputFeature = 0;
    d.kernelInputFeature = 0;
    d.kernelOutputFeature = 3;
    d.kernelSpatial = {1, 2};
    d.outputSpatial = {0, 1};
    d.outputBatch = 2;
    d.outputFeature = 3;
    d.rhsDilation = {stride, stride};
    ConvolutionPath path = pass == Pass::FilterGradient
                               ? ConvolutionPath::Auto
                           : pass == Pass::FilterGradientGather
                               ? ConvolutionPath::Gather
                               : ConvolutionPath::GatherTransposed;
    for (auto _ : state)
      benchmark::DoNotOptimize(convolution(lhs, dy, d, w, path));
  }
  setCounters(state, s.flops());
}

// cblas_sgemm on an n x n x n product with the convolution's FLOPs.
void BM_SgemmSameFlops(benchmark::State &state) {
  const Shape2d &s = kShapes[state.range(0)];
  int64_t n = std::llround(std::cbrt(s.flops() / 2));
  Tensor a = filled({n, n}), b = filled({n, n}), out = filled({n, n});
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                a.data<float>(), n, b.data<float>(), n, 0.0f,
                out.data<float>(), n);
    benchmark::DoNotOptimize(out.bytes());
  }
  setCounters(state, 2.0 * n * n * n);
}

void convolutionArguments(benchmark::internal::Benchmark *b) {
  b->ArgNames({"shape", "pass"});
  for (int64_t shape = 0; shape < kNumShapes; ++shape)
    for (int64_t pass = 0; pass < 3; ++pass)
      b->Args({shape, pass});
  for (int64_t shape : {2, 3})
    b->Args({shape, static_cast<int64_t>(Pass::InputGradientGather)});
  b->Args({2, static_cast<int64_t>(Pass::InputGradientScatter)});
  for (int64_t shape = 0; shape < 3; ++shape)
    b->Args({shape, static_cast<int64_t>(Pass::FilterGradientGather)});
  for (int64_t shape : {2, 3})
    for (Pass pass : {Pass::ForwardGather, Pass::FilterGradientTransposed})
      b->Args({shape, static_cast<int64_t>(pass)});
  for (int64_t shape : {0, 1})
    b->Args({shape, static_cast<int64_t>(Pass::ForwardDirect)});
}

} // namespace

BENCHMARK(BM_Convolution)
    ->Apply(convolutionArguments)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_SgemmSameFlops)
    ->ArgName("shape")
    ->DenseRange(0, kNumShapes - 1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK_MAIN();
