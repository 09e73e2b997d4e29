//===- MlpTest.cpp - The generated MLP training step ----------------------===//
//
// The MLP in the suite every example model passes (ExampleModelTests.h):
// its loss must match the plain C++ forward pass below, and every applied
// gradient central differences of that loss.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Examples/Mlp.h"

#include "ExampleModelTests.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::mpmd;
using namespace mlir::mpmd::examples;
using namespace mlir::mpmd::examples::testing;
using runtime::DType;
using runtime::Tensor;

namespace {

/// The loss of the model in plain loops: h = tanh(h w) but the last layer
/// linear, 0.5 * sum((h_L - y)^2) / B.
double plainLoopLoss(const MlpOptions &options,
                     const std::vector<Tensor> &args) {
  const int64_t rows = options.batch, width = options.width;
  std::vector<double> h(args[0].data<double>(),
                        args[0].data<double>() + rows * width);
  for (int64_t layer = 0; layer < options.layers; ++layer) {
    const double *w = args[2 + layer].data<double>();
    std::vector<double> next(rows * width, 0.0);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < width; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < width; ++k)
          sum += h[r * width + k] * w[k * width + j];
        next[r * width + j] = layer + 1 < options.layers ? std::tanh(sum) : sum;
      }
    h = std::move(next);
  }
  double loss = 0;
  for (int64_t i = 0; i < rows * width; ++i) {
    double diff = h[i] - args[1].data<double>()[i];
    loss += diff * diff;
  }
  return 0.5 * loss / rows;
}

struct MlpModel {
  using Options = MlpOptions;

  static llvm::Expected<ExampleModel> generate(const MlpOptions &options) {
    return generateMlp(options);
  }

  static MlpOptions smallF64() {
    MlpOptions options;
    options.layers = 3;
    options.width = 4;
    options.batch = 6;
    options.microbatches = 3;
    options.meshes = 2;
    options.elementType = ElementType::kF64;
    options.learningRate = 0.25;
    return options;
  }

  static void shrinkForOneLayer(MlpOptions &) {}

  /// x, y and the weights, each element uniform in (-scale, scale).
  static std::vector<Tensor> randomArguments(const MlpOptions &options,
                                             DType dtype, uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<Tensor> args;
    for (int i = 0; i < 2; ++i)
      args.push_back(
          randomTensor(dtype, {options.batch, options.width}, 1.0, random));
    for (int64_t i = 0; i < options.layers; ++i)
      args.push_back(
          randomTensor(dtype, {options.width, options.width}, 0.8, random));
    return args;
  }

  static double referenceLoss(const MlpOptions &options,
                              const std::vector<Tensor> &args) {
    return plainLoopLoss(options, args);
  }

  static size_t resultCount(const MlpOptions &options) {
    return options.layers + 1;
  }

  static std::string weightName(const MlpOptions &, size_t weight) {
    return "w_" + std::to_string(weight);
  }

  /// The bf16 roundings on the longest path from the inputs through the
  /// loss back to a gradient, each adding at most u relative error to
  /// first order (dot products accumulate wide and round once): x's
  /// conversion, then per layer forward the weight's conversion, z = h w
  /// and tanh (3), backward 1 - h^2 (2 roundings), dz and the two products
  /// dw and dh (3). The loss and the update are f32 (2^-24: negligible).
  static double bf16RoundingBound(const MlpOptions &options) {
    return 1 + (3 + 5) * options.layers;
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Mlp, ExampleModelTest, MlpModel);
INSTANTIATE_TYPED_TEST_SUITE_P(Mlp, MixedPrecisionExampleTest, MlpModel);

TEST(MlpConfigTest, WidthIsChecked) {
  MlpOptions options;
  options.width = -3;
  EXPECT_EQ(errorOf(generateMlp(options)), "width must be at least 1 (got -3)");
}

} // namespace
