//===- ValidateTest.cpp - compile(), run and reference replay -------------===//

#include "mpmd/Driver/Compile.h"
#include "mpmd/Driver/Validate.h"
#include "mpmd/InitAllDialects.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Runtime/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlir;
using namespace mlir::mpmd;
using namespace mlir::mpmd::driver;
using runtime::DType;
using runtime::Tensor;

namespace {

/// Two layers over two meshes, with an unlabelled op between them.
constexpr const char *kProgram = R"mlir(
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<f32>) {
  %a = mpmd.named_computation<"f"> (%x, %w) (%in: tensor<4x8xf32>, %wi: tensor<8x8xf32>) {
    %d = stablehlo.dot_general %in, %wi, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    mpmd.return %d : tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %t = stablehlo.tanh %a : tensor<4x8xf32>
  %b = mpmd.named_computation<"g"> (%t) (%in: tensor<4x8xf32>) {
    %s = stablehlo.sine %in : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%b init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
  return %b, %sum : tensor<4x8xf32>, tensor<f32>
}
)mlir";

constexpr const char *kConfig = R"({
  "topology": [["m0", [["x", 1]]], ["m1", [["x", 2]]]],
  "assignment": {"f": "m0", "g": "m1"},
  "partitioning_options": {"mpmd_infer_transfers": true}
})";

Tensor filled(runtime::Shape shape, double phase) {
  Tensor tensor = Tensor::empty(DType::F32, std::move(shape));
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    tensor.data<float>()[i] = float(std::sin(0.3 * double(i) + phase));
  return tensor;
}

class ValidateTest : public ::testing::Test {
protected:
  ValidateTest() : context(makeRegistry()) {}
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }
  MLIRContext context;
};

TEST_F(ValidateTest, ACompiledRunMatchesTheUnpartitionedProgram) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  llvm::Expected<Config> config = parseConfig(kConfig);
  ASSERT_TRUE(static_cast<bool>(config)) << llvm::toString(config.takeError());
  FailureOr<Lowered> lowered = lower(*module, *config);
  ASSERT_TRUE(succeeded(lowered));
  FailureOr<std::unique_ptr<runtime::Executable>> executable =
      lowered->compile();
  ASSERT_TRUE(succeeded(executable));
  EXPECT_EQ((*executable)->getProgram().meshes.size(), 2u);
  EXPECT_EQ((*executable)->getProgram().meshes[1].numDevices, 2);

  std::vector<Tensor> inputs = {filled({4, 8}, 0.0), filled({8, 8}, 1.0)};
  llvm::Expected<runtime::RunResult> result = (*executable)->run(inputs, {});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());

  llvm::Expected<ValidationReport> report =
      validateAgainstReference(*module, inputs, result->outputs, std::nullopt);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  ASSERT_EQ(report->outputs.size(), 2u);
  EXPECT_TRUE(report->passed());
  EXPECT_EQ(report->outputs[0].tolerance, 1e-5);

  // A wrong element fails the output it is in, and only that one.
  std::vector<Tensor> tampered = {result->outputs[0].clone(),
                                  result->outputs[1]};
  tampered[0].data<float>()[5] += 0.01f;
  report = validateAgainstReference(*module, inputs, tampered, std::nullopt);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  EXPECT_FALSE(report->passed());
  EXPECT_FALSE(report->outputs[0].passed);
  EXPECT_TRUE(report->outputs[1].passed);
  EXPECT_NEAR(report->outputs[0].difference.maxAbsolute, 0.01, 1e-6);
  // The miss is not the program's conditioning: one ulp on the inputs
  // moves the reference far less than the tolerance.
  ASSERT_TRUE(report->outputs[0].referenceSensitivity.has_value());
  EXPECT_LT(*report->outputs[0].referenceSensitivity, 1e-5);
  EXPECT_FALSE(report->outputs[1].referenceSensitivity.has_value());
  // ... unless the tolerance allows it.
  report = validateAgainstReference(*module, inputs, tampered, 0.1);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  EXPECT_TRUE(report->passed());

  std::string text;
  llvm::raw_string_ostream os(text);
  report->print(os);
  EXPECT_NE(text.find("validation: PASS (2 outputs"), std::string::npos) << text;

  // Outputs that do not line up with the reference are an error.
  llvm::Expected<ValidationReport> mismatch = validateAgainstReference(
      *module, inputs, {result->outputs[0]}, std::nullopt);
  ASSERT_FALSE(static_cast<bool>(mismatch));
  EXPECT_EQ(llvm::toString(mismatch.takeError()),
            "the partitioned program has 1 outputs, the unpartitioned one 2");
}

TEST_F(ValidateTest, AMissOnIllConditionedInputsSaysSo) {
  // sin(x * 1e8): one ulp of x near 1 moves the sine's argument by ~12.
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %scale = stablehlo.constant dense<1.0e8> : tensor<8xf32>
  %big = stablehlo.multiply %x, %scale : tensor<8xf32>
  %s = stablehlo.sine %big : tensor<8xf32>
  return %s : tensor<8xf32>
}
)mlir",
                                                              &context);
  ASSERT_TRUE(module);
  Tensor x = filled({8}, 0.5);
  runtime::Interpreter interpreter(*module);
  FailureOr<std::vector<Tensor>> outputs =
      interpreter.run(cast<func::FuncOp>(module->lookupSymbol("main")), {x});
  ASSERT_TRUE(succeeded(outputs));
  (*outputs)[0] = (*outputs)[0].clone();
  (*outputs)[0].data<float>()[3] += 0.01f;
  llvm::Expected<ValidationReport> report =
      validateAgainstReference(*module, {x}, *outputs, std::nullopt);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  ASSERT_FALSE(report->passed());
  ASSERT_TRUE(report->outputs[0].referenceSensitivity.has_value());
  EXPECT_GT(*report->outputs[0].referenceSensitivity, 0.1);
  std::string text;
  llvm::raw_string_ostream os(text);
  report->print(os);
  EXPECT_NE(text.find("validation: FAIL (1 outputs"), std::string::npos)
      << text;
  EXPECT_NE(text.find("note: the unpartitioned program itself is that "
                      "sensitive: when its floating-point inputs move by one "
                      "ulp, output 0 moves by up to "),
            std::string::npos)
      << text;
}

TEST(ToleranceTest, DefaultsFollowTheDtype) {
  EXPECT_EQ(getDefaultTolerance(DType::F64), 1e-12);
  EXPECT_EQ(getDefaultTolerance(DType::F32), 1e-5);
  EXPECT_EQ(getDefaultTolerance(DType::BF16), 1e-2);
  EXPECT_EQ(getDefaultTolerance(DType::I32), 0);
}

} // namespace
