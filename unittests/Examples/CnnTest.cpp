//===- CnnTest.cpp - The generated convolutional training step ------------===//
//
// The CNN in the suite every example model passes (ExampleModelTests.h):
// its loss must match the plain C++ forward pass below (so the
// convolutions, the channel norm, the pooling and the head mean what the
// header says), and every applied gradient central differences of that loss
// (so the hand-derived backward, the convolution gradients and
// select_and_scatter included, is right).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Examples/Cnn.h"

#include "ExampleModelTests.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::mpmd;
using namespace mlir::mpmd::examples;
using namespace mlir::mpmd::examples::testing;
using runtime::DType;
using runtime::Tensor;

namespace {

/// A 3x3 convolution padded by 1 of an image [side, side, in] with a
/// kernel [3, 3, in, out] (HWIO).
std::vector<double> conv3x3(const std::vector<double> &image, int64_t side,
                            int64_t in, const double *kernel, int64_t out) {
  std::vector<double> result(side * side * out, 0.0);
  for (int64_t y = 0; y < side; ++y)
    for (int64_t x = 0; x < side; ++x)
      for (int64_t kh = 0; kh < 3; ++kh)
        for (int64_t kw = 0; kw < 3; ++kw) {
          const int64_t sy = y + kh - 1, sx = x + kw - 1;
          if (sy < 0 || sy >= side || sx < 0 || sx >= side)
            continue;
          for (int64_t ci = 0; ci < in; ++ci)
            for (int64_t co = 0; co < out; ++co)
              result[(y * side + x) * out + co] +=
                  image[(sy * side + sx) * in + ci] *
                  kernel[((kh * 3 + kw) * in + ci) * out + co];
        }
  return result;
}

/// relu((z - mean) / sqrt(var + 1e-5)) over the `channels` of each position.
std::vector<double> normRelu(const std::vector<double> &z, int64_t channels) {
  std::vector<double> out(z.size());
  for (size_t p = 0; p < z.size(); p += channels) {
    double mean = 0, var = 0;
    for (int64_t c = 0; c < channels; ++c)
      mean += z[p + c] / channels;
    for (int64_t c = 0; c < channels; ++c)
      var += (z[p + c] - mean) * (z[p + c] - mean) / channels;
    for (int64_t c = 0; c < channels; ++c)
      out[p + c] = std::max(0.0, (z[p + c] - mean) / std::sqrt(var + 1e-5));
  }
  return out;
}

/// The loss in plain loops, one image at a time, with the header's math.
double plainLoopLoss(const CnnOptions &options,
                     const std::vector<Tensor> &args) {
  const int64_t s = options.image, p = s / 2, c = options.channels;
  const int64_t k = options.classes, in = kCnnInputChannels;
  auto weight = [&](int64_t index) { return args[2 + index].data<double>(); };
  double loss = 0;
  for (int64_t b = 0; b < options.batch; ++b) {
    const double *x = args[0].data<double>() + b * s * s * in;
    std::vector<double> a =
        normRelu(conv3x3({x, x + s * s * in}, s, in, weight(0), c), c);
    std::vector<double> h(p * p * c, -INFINITY);
    for (int64_t y = 0; y < s; ++y)
      for (int64_t xx = 0; xx < s; ++xx)
        for (int64_t ch = 0; ch < c; ++ch) {
          double &pooled = h[((y / 2) * p + xx / 2) * c + ch];
          pooled = std::max(pooled, a[(y * s + xx) * c + ch]);
        }
    for (int64_t layer = 1; layer < options.layers; ++layer) {
      std::vector<double> r = normRelu(conv3x3(h, p, c, weight(layer), c), c);
      for (size_t i = 0; i < h.size(); ++i)
        h[i] += r[i];
    }
    const double *head = weight(options.layers);
    const double *target = args[1].data<double>() + b * k;
    for (int64_t j = 0; j < k; ++j) {
      double o = 0;
      for (int64_t ch = 0; ch < c; ++ch) {
        double g = 0;
        for (int64_t q = 0; q < p * p; ++q)
          g += h[q * c + ch] / (p * p);
        o += g * head[ch * k + j];
      }
      loss += (o - target[j]) * (o - target[j]);
    }
  }
  return 0.5 * loss / options.batch;
}

struct CnnModel {
  using Options = CnnOptions;

  static llvm::Expected<ExampleModel> generate(const CnnOptions &options) {
    return generateCnn(options);
  }

  /// B=2 images of 4x4, C=3 channels, K=2 outputs, L=3 in two microbatches.
  static CnnOptions smallF64() {
    CnnOptions options;
    options.layers = 3;
    options.image = 4;
    options.channels = 3;
    options.classes = 2;
    options.batch = 2;
    options.microbatches = 2;
    options.meshes = 2;
    options.elementType = ElementType::kF64;
    options.learningRate = 0.25;
    return options;
  }

  /// The smallest image the stem's 2x2 pooling takes.
  static void shrinkForOneLayer(CnnOptions &options) { options.image = 2; }

  /// x, y (in (-1, 1)) and the weights (in (-0.6, 0.6)).
  static std::vector<Tensor> randomArguments(const CnnOptions &options,
                                             DType dtype, uint64_t seed) {
    const int64_t c = options.channels;
    std::mt19937_64 random(seed);
    std::vector<Tensor> args;
    args.push_back(randomTensor(
        dtype, {options.batch, options.image, options.image, kCnnInputChannels},
        1.0, random));
    args.push_back(
        randomTensor(dtype, {options.batch, options.classes}, 1.0, random));
    for (int64_t i = 0; i < options.layers; ++i)
      args.push_back(randomTensor(
          dtype, {3, 3, i == 0 ? kCnnInputChannels : c, c}, 0.6, random));
    args.push_back(randomTensor(dtype, {c, options.classes}, 0.6, random));
    return args;
  }

  static double referenceLoss(const CnnOptions &options,
                              const std::vector<Tensor> &args) {
    return plainLoopLoss(options, args);
  }

  /// The loss, the updated convolutions and the updated head.
  static size_t resultCount(const CnnOptions &options) {
    return 2 + options.layers;
  }

  static std::string weightName(const CnnOptions &options, size_t weight) {
    return static_cast<int64_t>(weight) == options.layers
               ? std::string("head")
               : "conv_" + std::to_string(weight);
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Cnn, ExampleModelTest, CnnModel);

TEST(CnnConfigTest, ModelSizesAreChecked) {
  auto errorFor = [](auto change) {
    CnnOptions options;
    change(options);
    return errorOf(generateCnn(options));
  };
  EXPECT_EQ(errorFor([](CnnOptions &o) { o.image = 0; }),
            "image must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](CnnOptions &o) { o.image = 7; }),
            "the image side (7) must be even: the stem pools 2x2 windows");
  EXPECT_EQ(errorFor([](CnnOptions &o) { o.channels = 0; }),
            "channels must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](CnnOptions &o) { o.classes = -2; }),
            "classes must be at least 1 (got -2)");
}

} // namespace
