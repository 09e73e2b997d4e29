//===- MlpTest.cpp - The generated MLP training step ----------------------===//
//
// The backward is derived by hand in the generator, so these tests prove it
// numerically: the interpreter runs the unpartitioned @main (f64) and the
// gradients it applies, (w - w') / lr, must match central differences of the
// loss it returns; the loss must match a plain C++ forward pass. The config
// must parse as an `mpmd compile` config with the documented placement, and
// bad sizes must be errors.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Examples/Mlp.h"

#include "ExampleTesting.h"

#include "mpmd/Driver/Config.h"
#include "mpmd/Schedule/Generators.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <map>
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
double referenceLoss(const MlpOptions &options, const std::vector<Tensor> &args) {
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

class MlpTest : public InterpretedExampleTest {
protected:
  void generate(const MlpOptions &options) { parse(generateMlp(options)); }

  /// x, y and the weights, each element uniform in (-scale, scale).
  std::vector<Tensor> randomArguments(const MlpOptions &options, DType dtype,
                                      uint64_t seed) {
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
};

MlpOptions smallF64() {
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

TEST_F(MlpTest, UpdateFollowsFiniteDifferenceGradientOfTheLoss) {
  const MlpOptions options = smallF64();
  generate(options);
  std::vector<Tensor> args = randomArguments(options, DType::F64, 7);
  std::vector<Tensor> results = runMain(args);
  ASSERT_EQ(results.size(), static_cast<size_t>(options.layers + 1));
  const double loss = results[0].data<double>()[0];
  EXPECT_NEAR(loss, referenceLoss(options, args), 1e-12);

  expectUpdateFollowsLossGradient(
      args, results, options.learningRate,
      [](size_t layer) { return "w_" + std::to_string(layer); });
}

TEST_F(MlpTest, MicrobatchesAccumulateToTheFullBatchStep) {
  MlpOptions options = smallF64();
  options.layers = 2;
  options.microbatches = 1;
  generate(options);
  std::vector<Tensor> args = randomArguments(options, DType::F64, 11);
  std::vector<Tensor> whole = runMain(args);
  options.microbatches = 6;
  generate(options);
  expectSameResults(whole, runMain(args), 1e-12);
}

TEST_F(MlpTest, OneLayerAndF32) {
  MlpOptions options = smallF64();
  options.layers = 1;
  options.meshes = 1;
  options.elementType = ElementType::kF32;
  generate(options);
  std::vector<Tensor> args = randomArguments(options, DType::F32, 3);
  std::vector<Tensor> results = runMain(args);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].dtype(), DType::F32);
  EXPECT_NEAR(results[0].data<float>()[0],
              referenceLoss(options, widenToF64(args)), 1e-5);
}

TEST(MlpConfigTest, ContiguousStagesOneMeshEach) {
  MlpOptions options;
  options.layers = 5;
  options.meshes = 2;
  llvm::Expected<ExampleModel> example = generateMlp(options);
  ASSERT_TRUE(static_cast<bool>(example)) << errorOf(std::move(example));
  llvm::Expected<driver::Config> config = driver::parseConfig(example->config);
  ASSERT_TRUE(static_cast<bool>(config)) << llvm::toString(config.takeError());
  ASSERT_EQ(config->topology.size(), 2u);
  EXPECT_EQ(config->topology[1], (driver::TopologyMesh{"m1", {{"x", 1}}}));
  // Layer i on mesh floor(i * P / L), stage = that mesh.
  const std::map<std::string, MeshAssignment> expected = {
      {"layer_0", {"m0", std::nullopt, 0}}, {"layer_1", {"m0", std::nullopt, 0}},
      {"layer_2", {"m0", std::nullopt, 0}}, {"layer_3", {"m1", std::nullopt, 1}},
      {"layer_4", {"m1", std::nullopt, 1}}};
  EXPECT_EQ(config->assignment.entries, expected);
  EXPECT_EQ(config->pipelineSchedule, PipelineSchedule::k1F1B);
  EXPECT_TRUE(config->options.inferTransfers);
}

TEST(MlpConfigTest, GeneratedSchedulesGetTheirLayout) {
  MlpOptions options;
  options.layers = 4;
  options.meshes = 2;
  options.schedule = {"interleaved", /*generated=*/true};
  llvm::Expected<ExampleModel> example = generateMlp(options);
  ASSERT_TRUE(static_cast<bool>(example)) << errorOf(std::move(example));
  llvm::Expected<driver::Config> config = driver::parseConfig(example->config);
  ASSERT_TRUE(static_cast<bool>(config)) << llvm::toString(config.takeError());
  EXPECT_EQ(config->generatedSchedule, "Interleaved1F1B");
  // Looping: stage s on mesh s mod P.
  EXPECT_EQ(config->assignment.entries.at("layer_2"),
            (MeshAssignment{"m0", std::nullopt, 2}));
  EXPECT_EQ(config->assignment.entries.at("layer_3"),
            (MeshAssignment{"m1", std::nullopt, 3}));

  options.schedule = {"ZB-V", /*generated=*/true};
  example = generateMlp(options);
  ASSERT_TRUE(static_cast<bool>(example)) << errorOf(std::move(example));
  config = driver::parseConfig(example->config);
  ASSERT_TRUE(static_cast<bool>(config)) << llvm::toString(config.takeError());
  EXPECT_TRUE(config->generatedScheduleNeedsSplit);
  // V-shape: the last stage back on mesh 0.
  EXPECT_EQ(config->assignment.entries.at("layer_2"),
            (MeshAssignment{"m1", std::nullopt, 2}));
  EXPECT_EQ(config->assignment.entries.at("layer_3"),
            (MeshAssignment{"m0", std::nullopt, 3}));
}

TEST(MlpConfigTest, BadSizesAreErrors) {
  auto errorFor = [](auto change) {
    MlpOptions options;
    change(options);
    return errorOf(generateMlp(options));
  };
  EXPECT_EQ(errorFor([](MlpOptions &o) { o.batch = 10; }),
            "the batch (10) is not divisible by the microbatches (4)");
  EXPECT_EQ(errorFor([](MlpOptions &o) { o.layers = 0; }),
            "layers must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](MlpOptions &o) { o.width = -3; }),
            "width must be at least 1 (got -3)");
  EXPECT_EQ(errorFor([](MlpOptions &o) { o.microbatches = 0; }),
            "microbatches must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](MlpOptions &o) { o.meshes = 0; }),
            "meshes must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](MlpOptions &o) { o.meshes = 5; }),
            "4 layers cannot fill 5 meshes; every mesh needs a layer");
  EXPECT_EQ(errorFor([](MlpOptions &o) {
              o.meshes = 4;
              o.schedule = {"Interleaved1F1B", true};
            }),
            "4 layers cannot fill 8 stages (2 per mesh for Interleaved1F1B); "
            "every stage needs a layer");
  // The schedule's own conditions, in its words.
  EXPECT_EQ(errorFor([](MlpOptions &o) {
              o.microbatches = 2;
              o.schedule = {"DualPipeV", true};
            }),
            "DualPipeV needs at least twice as many microbatches as meshes "
            "(got m=2, p=2)");
  EXPECT_EQ(errorFor([](MlpOptions &o) { o.schedule = {"ZB-H9", true}; }),
            "unknown generated schedule 'ZB-H9'; expected one of " +
                schedule::getScheduleNameList());
  EXPECT_EQ(errorFor([](MlpOptions &o) { o.learningRate = std::numeric_limits<double>::infinity(); }),
            "the learning rate must be a finite number");
  EXPECT_EQ(errorFor([](MlpOptions &o) {
              o.layers = 2000;
              o.microbatches = 1000;
              o.batch = 1000;
            }),
            "2000 layers x 1000 microbatches exceed 1000000 layer calls, the "
            "most this generator writes");
}

} // namespace
