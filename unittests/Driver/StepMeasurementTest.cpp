//===- StepMeasurementTest.cpp - Tests of measureStep and StepRunner ------===//

#include "mpmd/Driver/StepMeasurement.h"

#include "mpmd/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mpmd;
using namespace mlir::mpmd::driver;

namespace {

/// Two layers of a 64x64 product each, one microbatch.
constexpr const char *kProgram = R"mlir(
func.func @main(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = mpmd.named_computation<"f"> (%x, %w) (%in: tensor<64x64xf32>, %wi: tensor<64x64xf32>) {
    %m = stablehlo.dot_general %in, %wi, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    mpmd.return %m : tensor<64x64xf32>
  } : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = mpmd.named_computation<"g"> (%a, %w) (%in: tensor<64x64xf32>, %wi: tensor<64x64xf32>) {
    %m = stablehlo.dot_general %in, %wi, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    mpmd.return %m : tensor<64x64xf32>
  } : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %b : tensor<64x64xf32>
}
)mlir";

constexpr const char *kConfig = R"({
  "topology": [["m0", [["x", 1]]], ["m1", [["x", 1]]]],
  "assignment": {"f": "m0", "g": "m1"}
})";

class StepMeasurementTest : public ::testing::Test {
protected:
  StepMeasurementTest() : context(makeRegistry()) {}
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }
  MLIRContext context;
};

TEST_F(StepMeasurementTest, FragmentTimeIsWhatTheDevicesComputedInTheStep) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  llvm::Expected<Config> config = parseConfig(kConfig);
  ASSERT_TRUE(static_cast<bool>(config)) << llvm::toString(config.takeError());
  llvm::Expected<MeasuredStep> step = measureStep(*module, *config, 2, 1);
  ASSERT_TRUE(static_cast<bool>(step)) << llvm::toString(step.takeError());
  EXPECT_GT(step->stepSeconds, 0);
  EXPECT_GT(step->fragmentSeconds, 0);
  // The two fragments run one after the other (g takes f's result), each
  // on its own device: together at most the step, which also holds the
  // transfer between them.
  EXPECT_LE(step->fragmentSeconds, step->stepSeconds);
}

TEST_F(StepMeasurementTest, RunnerRunsOneStepPerCallOnTheLoweredProgram) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  llvm::Expected<Config> config = parseConfig(kConfig);
  ASSERT_TRUE(static_cast<bool>(config)) << llvm::toString(config.takeError());
  llvm::Expected<std::unique_ptr<StepRunner>> runner =
      StepRunner::create(*module, *config, 1);
  ASSERT_TRUE(static_cast<bool>(runner)) << llvm::toString(runner.takeError());
  for (int run = 0; run < 3; ++run) {
    llvm::Expected<MeasuredStep> step = (*runner)->run();
    ASSERT_TRUE(static_cast<bool>(step)) << llvm::toString(step.takeError());
    EXPECT_GT(step->fragmentSeconds, 0);
    EXPECT_LE(step->fragmentSeconds, step->stepSeconds);
    EXPECT_GT(step->replaySeconds, 0);
  }
}

TEST_F(StepMeasurementTest, RunnerSaysWhyAConfigurationDoesNotLower) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  // "g" has no mesh.
  llvm::Expected<Config> config = parseConfig(R"({
    "topology": [["m0", [["x", 1]]], ["m1", [["x", 1]]]],
    "assignment": {"f": "m0"}
  })");
  ASSERT_TRUE(static_cast<bool>(config)) << llvm::toString(config.takeError());
  llvm::Expected<std::unique_ptr<StepRunner>> runner =
      StepRunner::create(*module, *config, 1);
  ASSERT_FALSE(static_cast<bool>(runner));
  EXPECT_NE(llvm::toString(runner.takeError())
                .find("the configuration does not lower: "),
            std::string::npos);
}

TEST_F(StepMeasurementTest, NoRunsIsAnError) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  llvm::Expected<Config> config = parseConfig(kConfig);
  ASSERT_TRUE(static_cast<bool>(config)) << llvm::toString(config.takeError());
  llvm::Expected<MeasuredStep> step = measureStep(*module, *config, 0, 1);
  ASSERT_FALSE(static_cast<bool>(step));
  EXPECT_EQ(llvm::toString(step.takeError()),
            "the measured runs must be at least 1");
}

} // namespace
