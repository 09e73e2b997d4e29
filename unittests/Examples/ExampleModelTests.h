//===- ExampleModelTests.h - Tests every example model passes ---*- C++ -*-===//
//
// A type-parameterized suite each model's test file instantiates with its
// `Model` description:
//   using Options;                     // MlpOptions, ...
//   static llvm::Expected<ExampleModel> generate(const Options &);
//   static Options smallF64();         // small sizes, f64, lr 0.25
//   static void shrinkForOneLayer(Options &);  // sizes a 1-layer model needs
//   static std::vector<runtime::Tensor>
//   randomArguments(const Options &, runtime::DType, uint64_t seed);
//   static double referenceLoss(const Options &, const std::vector<Tensor> &);
//   static size_t resultCount(const Options &);  // loss + updated weights
//   static std::string weightName(const Options &, size_t weight);
// The backward of every model is derived by hand in its generator; these
// tests prove it numerically, check the microbatch accumulation and the
// f32 path, and check the config's placement and the errors for the sizes
// and schedules every model shares.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_UNITTESTS_EXAMPLES_EXAMPLEMODELTESTS_H
#define MPMD_UNITTESTS_EXAMPLES_EXAMPLEMODELTESTS_H

#include "ExampleTesting.h"

#include "mpmd/Driver/Config.h"
#include "mpmd/Schedule/Generators.h"

#include "gtest/gtest.h"

#include <limits>
#include <map>

namespace mlir::mpmd::examples::testing {

template <typename Model>
class ExampleModelTest : public InterpretedExampleTest {
protected:
  using Options = typename Model::Options;

  void generate(const Options &options) { parse(Model::generate(options)); }

  /// The config of `options`, parsed as `mpmd compile` parses it.
  static driver::Config parseConfigOf(const Options &options) {
    llvm::Expected<ExampleModel> example = Model::generate(options);
    EXPECT_TRUE(static_cast<bool>(example)) << errorOf(std::move(example));
    if (!example)
      return {};
    llvm::Expected<driver::Config> config =
        driver::parseConfig(example->config);
    EXPECT_TRUE(static_cast<bool>(config)) << llvm::toString(
        config ? llvm::Error::success() : config.takeError());
    return config ? std::move(*config) : driver::Config();
  }

  /// The generator's error for the default options changed by `change`.
  template <typename Change>
  static std::string errorFor(Change change) {
    Options options;
    change(options);
    return errorOf(Model::generate(options));
  }
};

TYPED_TEST_SUITE_P(ExampleModelTest);

TYPED_TEST_P(ExampleModelTest, UpdateFollowsFiniteDifferenceGradientOfTheLoss) {
  const auto options = TypeParam::smallF64();
  this->generate(options);
  std::vector<runtime::Tensor> args =
      TypeParam::randomArguments(options, runtime::DType::F64, 5);
  std::vector<runtime::Tensor> results = this->runMain(args);
  ASSERT_EQ(results.size(), TypeParam::resultCount(options));
  EXPECT_NEAR(results[0].template data<double>()[0],
              TypeParam::referenceLoss(options, args), 1e-12);
  this->expectUpdateFollowsLossGradient(
      args, results, options.learningRate,
      [&](size_t weight) { return TypeParam::weightName(options, weight); });
}

TYPED_TEST_P(ExampleModelTest, MicrobatchesAccumulateToTheFullBatchStep) {
  auto options = TypeParam::smallF64();
  options.batch = 4;
  options.microbatches = 1;
  this->generate(options);
  std::vector<runtime::Tensor> args =
      TypeParam::randomArguments(options, runtime::DType::F64, 9);
  std::vector<runtime::Tensor> whole = this->runMain(args);
  options.microbatches = 4;
  this->generate(options);
  this->expectSameResults(whole, this->runMain(args), 1e-12);
}

TYPED_TEST_P(ExampleModelTest, OneLayerOneMeshInF32) {
  auto options = TypeParam::smallF64();
  options.layers = 1;
  options.meshes = 1;
  options.elementType = ElementType::kF32;
  TypeParam::shrinkForOneLayer(options);
  this->generate(options);
  std::vector<runtime::Tensor> args =
      TypeParam::randomArguments(options, runtime::DType::F32, 3);
  std::vector<runtime::Tensor> results = this->runMain(args);
  ASSERT_EQ(results.size(), TypeParam::resultCount(options));
  EXPECT_EQ(results[0].dtype(), runtime::DType::F32);
  EXPECT_NEAR(results[0].template data<float>()[0],
              TypeParam::referenceLoss(options, this->widenToF64(args)), 1e-5);
}

TYPED_TEST_P(ExampleModelTest, ContiguousStagesOneMeshEach) {
  typename TypeParam::Options options;
  options.layers = 3;
  options.meshes = 2;
  const driver::Config config = this->parseConfigOf(options);
  ASSERT_EQ(config.topology.size(), 2u);
  EXPECT_EQ(config.topology[1], (driver::TopologyMesh{"m1", {{"x", 1}}, {}}));
  // Layer i on mesh floor(i * P / L), stage = that mesh.
  const std::map<std::string, MeshAssignment> expected = {
      {"layer_0", {"m0", std::nullopt, 0}},
      {"layer_1", {"m0", std::nullopt, 0}},
      {"layer_2", {"m1", std::nullopt, 1}}};
  EXPECT_EQ(config.assignment.entries, expected);
  EXPECT_EQ(config.pipelineSchedule, PipelineSchedule::k1F1B);
  EXPECT_TRUE(config.options.inferTransfers);
}

TYPED_TEST_P(ExampleModelTest, GeneratedSchedulesGetTheirLayout) {
  typename TypeParam::Options options;
  options.layers = 4;
  options.meshes = 2;
  options.schedule = {"interleaved", /*generated=*/true};
  driver::Config config = this->parseConfigOf(options);
  EXPECT_EQ(config.generatedSchedule, "Interleaved1F1B");
  // Looping: stage s on mesh s mod P.
  EXPECT_EQ(config.assignment.entries["layer_2"],
            (MeshAssignment{"m0", std::nullopt, 2}));
  EXPECT_EQ(config.assignment.entries["layer_3"],
            (MeshAssignment{"m1", std::nullopt, 3}));

  options.schedule = {"ZB-V", /*generated=*/true};
  config = this->parseConfigOf(options);
  EXPECT_EQ(config.generatedSchedule, "ZB-V");
  EXPECT_TRUE(config.generatedScheduleNeedsSplit);
  // V-shape: the last stage back on mesh 0.
  EXPECT_EQ(config.assignment.entries["layer_2"],
            (MeshAssignment{"m1", std::nullopt, 2}));
  EXPECT_EQ(config.assignment.entries["layer_3"],
            (MeshAssignment{"m0", std::nullopt, 3}));
}

TYPED_TEST_P(ExampleModelTest, SharedSizesAndSchedulesAreChecked) {
  using Options = typename TypeParam::Options;
  auto errorFor = [](auto change) {
    return ExampleModelTest<TypeParam>::errorFor(change);
  };
  EXPECT_EQ(errorFor([](Options &o) { o.layers = 0; }),
            "layers must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](Options &o) { o.batch = 6; }),
            "the batch (6) is not divisible by the microbatches (4)");
  EXPECT_EQ(errorFor([](Options &o) { o.microbatches = 0; }),
            "microbatches must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](Options &o) { o.meshes = 0; }),
            "meshes must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](Options &o) { o.meshes = 5; }),
            "4 layers cannot fill 5 meshes; every mesh needs a layer");
  EXPECT_EQ(errorFor([](Options &o) {
              o.meshes = 4;
              o.schedule = {"Interleaved1F1B", true};
            }),
            "4 layers cannot fill 8 stages (2 per mesh for Interleaved1F1B); "
            "every stage needs a layer");
  // The schedule's own conditions, in its words.
  EXPECT_EQ(errorFor([](Options &o) {
              o.microbatches = 2;
              o.schedule = {"DualPipeV", true};
            }),
            "DualPipeV needs at least twice as many microbatches as meshes "
            "(got m=2, p=2)");
  EXPECT_EQ(errorFor([](Options &o) { o.schedule = {"ZB-H9", true}; }),
            "unknown generated schedule 'ZB-H9'; expected one of " +
                schedule::getScheduleNameList());
  EXPECT_EQ(errorFor([](Options &o) {
              o.learningRate = std::numeric_limits<double>::infinity();
            }),
            "the learning rate must be a finite number");
  EXPECT_EQ(errorFor([](Options &o) { o.learningRate = NAN; }),
            "the learning rate must be a finite number");
  EXPECT_EQ(errorFor([](Options &o) {
              o.layers = 2000;
              o.microbatches = 1000;
              o.batch = 1000;
            }),
            "2000 layers x 1000 microbatches exceed 1000000 layer calls, the "
            "most this generator writes");
}

REGISTER_TYPED_TEST_SUITE_P(ExampleModelTest,
                            UpdateFollowsFiniteDifferenceGradientOfTheLoss,
                            MicrobatchesAccumulateToTheFullBatchStep,
                            OneLayerOneMeshInF32, ContiguousStagesOneMeshEach,
                            GeneratedSchedulesGetTheirLayout,
                            SharedSizesAndSchedulesAreChecked);

/// Mixed-precision bf16 (ElementType::kBF16), for the models that write it.
/// Besides the members above, `Model` has
///   static double bf16RoundingBound(const Options &);
/// the relative error, in units of bf16's unit roundoff u = 2^-8, that the
/// roundings of its bf16 step may add to the loss and to each gradient (its
/// derivation next to it). The step is checked against the f64 step of the
/// same values, whose gradients the suite above proves.
template <typename Model>
class MixedPrecisionExampleTest : public ExampleModelTest<Model> {};

TYPED_TEST_SUITE_P(MixedPrecisionExampleTest);

TYPED_TEST_P(MixedPrecisionExampleTest,
             Bf16StepFollowsTheF64StepWithinBf16Rounding) {
  constexpr double kBf16UnitRoundoff = 0x1p-8;
  auto options = TypeParam::smallF64();
  // f32 values (the bf16 step's master types), and the same in f64.
  std::vector<runtime::Tensor> narrow;
  for (const runtime::Tensor &arg :
       TypeParam::randomArguments(options, runtime::DType::F64, 5))
    narrow.push_back(runtime::convert(arg, runtime::DType::F32));
  const std::vector<runtime::Tensor> wide = this->widenToF64(narrow);
  this->generate(options);
  const std::vector<runtime::Tensor> exact = this->runMain(wide);
  options.elementType = ElementType::kBF16;
  this->generate(options);
  const std::vector<runtime::Tensor> mixed =
      this->widenToF64(this->runMain(narrow));
  ASSERT_EQ(mixed.size(), TypeParam::resultCount(options));
  ASSERT_EQ(exact.size(), mixed.size());
  const double bound =
      TypeParam::bf16RoundingBound(options) * kBf16UnitRoundoff;
  const double exactLoss = exact[0].template data<double>()[0];
  EXPECT_LE(std::abs(mixed[0].template data<double>()[0] - exactLoss),
            bound * std::abs(exactLoss));
  // Each gradient, (w - w') / lr, normwise.
  for (size_t weight = 0; weight + 1 < exact.size(); ++weight) {
    const double *w = wide[2 + weight].template data<double>();
    const double *exactUpdated = exact[1 + weight].template data<double>();
    const double *mixedUpdated = mixed[1 + weight].template data<double>();
    double difference = 0, norm = 0;
    for (int64_t i = 0; i < exact[1 + weight].numElements(); ++i) {
      const double exactGradient =
          (w[i] - exactUpdated[i]) / options.learningRate;
      const double mixedGradient =
          (w[i] - mixedUpdated[i]) / options.learningRate;
      difference +=
          (mixedGradient - exactGradient) * (mixedGradient - exactGradient);
      norm += exactGradient * exactGradient;
    }
    EXPECT_LE(std::sqrt(difference), bound * std::sqrt(norm))
        << "dloss/d" << TypeParam::weightName(options, weight) << ": "
        << std::sqrt(difference / norm) / kBf16UnitRoundoff << " u";
  }
}

TYPED_TEST_P(MixedPrecisionExampleTest, Bf16StepKeepsF32MasterTypes) {
  auto options = TypeParam::smallF64();
  options.elementType = ElementType::kBF16;
  this->generate(options);
  const std::vector<runtime::Tensor> results = this->runMain(
      TypeParam::randomArguments(options, runtime::DType::F32, 3));
  ASSERT_EQ(results.size(), TypeParam::resultCount(options));
  for (const runtime::Tensor &result : results)
    EXPECT_EQ(result.dtype(), runtime::DType::F32);
}

REGISTER_TYPED_TEST_SUITE_P(MixedPrecisionExampleTest,
                            Bf16StepFollowsTheF64StepWithinBf16Rounding,
                            Bf16StepKeepsF32MasterTypes);

} // namespace mlir::mpmd::examples::testing

#endif // MPMD_UNITTESTS_EXAMPLES_EXAMPLEMODELTESTS_H
