//===- SessionTest.cpp - Tests of the MLIR-free driver for embedders ------===//

#include "mpmd/Driver/Session.h"

#include <gtest/gtest.h>

using namespace mlir::mpmd;
using namespace mlir::mpmd::session;

namespace {

constexpr const char *kProgram = R"mlir(
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = mpmd.named_computation<"f"> (%x) (%in: tensor<2x3xf32>) {
    %m = stablehlo.multiply %in, %in : tensor<2x3xf32>
    mpmd.return %m : tensor<2x3xf32>
  } : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = mpmd.named_computation<"g"> (%a) (%in: tensor<2x3xf32>) {
    %s = stablehlo.add %in, %in : tensor<2x3xf32>
    mpmd.return %s : tensor<2x3xf32>
  } : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %b : tensor<2x3xf32>
}
)mlir";

constexpr const char *kConfig = R"({
  "topology": [["m0", [["x", 1]]], ["m1", [["x", 2]]]],
  "assignment": {"f": "m0", "g": "m1"}
})";

std::shared_ptr<const CompiledProgram> compileProgram() {
  Outcome<std::shared_ptr<Program>> program = Program::parse(kProgram, "p.mlir");
  EXPECT_TRUE(program.ok());
  Outcome<std::shared_ptr<const ParsedConfig>> config =
      ParsedConfig::parse(kConfig);
  EXPECT_TRUE(config.ok());
  Outcome<std::shared_ptr<const LoweredProgram>> lowered =
      program.value()->lower(*config.value(), /*keepPhaseTexts=*/false);
  EXPECT_TRUE(lowered.ok());
  Outcome<std::shared_ptr<const CompiledProgram>> compiled =
      lowered.value()->compile();
  EXPECT_TRUE(compiled.ok());
  return compiled.value();
}

TEST(SessionTest, ParseErrorsCarryTheirLocation) {
  Outcome<std::shared_ptr<Program>> program = Program::parse(
      "func.func @main() {\n  %0 = stablehlo.bogus\n}\n", "bad.mlir");
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.error().kind, ErrorKind::kProgram);
  ASSERT_FALSE(program.error().diagnostics.empty());
  const driver::DiagnosticRecord &first = program.error().diagnostics.front();
  EXPECT_EQ(first.severity, "error");
  EXPECT_EQ(first.file, "bad.mlir");
  EXPECT_EQ(first.line, 2);
}

TEST(SessionTest, ConfigErrorsNameTheField) {
  Outcome<std::shared_ptr<const ParsedConfig>> config =
      ParsedConfig::parse(R"({"topology": [["m0", [["x", 0]]]]})");
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().kind, ErrorKind::kConfig);
  EXPECT_NE(config.error().message.find("config.topology[0]"),
            std::string::npos);
}

TEST(SessionTest, MissingAssignmentIsAConfigErrorAtTheComputation) {
  Outcome<std::shared_ptr<Program>> program = Program::parse(kProgram, "p.mlir");
  ASSERT_TRUE(program.ok());
  Outcome<std::shared_ptr<const ParsedConfig>> config = ParsedConfig::parse(
      R"({"topology": [["m0", [["x", 1]]]], "assignment": {"f": "m0"}})");
  ASSERT_TRUE(config.ok());
  Outcome<std::shared_ptr<const LoweredProgram>> lowered =
      program.value()->lower(*config.value(), false);
  ASSERT_FALSE(lowered.ok());
  EXPECT_EQ(lowered.error().kind, ErrorKind::kConfig);
  ASSERT_EQ(lowered.error().diagnostics.size(), 1u);
  EXPECT_EQ(lowered.error().diagnostics[0].line, 7);
}

TEST(SessionTest, RunsAndDescribesTheExecutable) {
  std::shared_ptr<const CompiledProgram> compiled = compileProgram();
  ASSERT_EQ(compiled->getMeshes().size(), 2u);
  EXPECT_EQ(compiled->getMeshes()[1].numDevices, 2);
  EXPECT_EQ(compiled->getInputMeshes(), std::vector<int64_t>{0});
  EXPECT_EQ(compiled->getOutputMeshes(), std::vector<int64_t>{1});

  runtime::Tensor input = runtime::Tensor::zeros(runtime::DType::F32, {2, 3});
  for (int64_t i = 0; i < 6; ++i)
    input.data<float>()[i] = float(i);
  Outcome<std::shared_ptr<const ProgramRun>> run =
      compiled->run({input}, std::nullopt);
  ASSERT_TRUE(run.ok());
  const runtime::Tensor &output = run.value()->getOutputs().at(0);
  for (int64_t i = 0; i < 6; ++i)
    EXPECT_EQ(output.data<float>()[i], 2.0f * float(i * i));
  // The caller's input buffer is never written.
  EXPECT_EQ(input.data<float>()[5], 5.0f);
  EXPECT_NE(run.value()->getChromeTrace().find("traceEvents"),
            std::string::npos);
}

TEST(SessionTest, BadInputsAreInputErrors) {
  std::shared_ptr<const CompiledProgram> compiled = compileProgram();
  Outcome<std::shared_ptr<const ProgramRun>> run = compiled->run(
      {runtime::Tensor::zeros(runtime::DType::F64, {2, 3})}, std::nullopt);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().kind, ErrorKind::kInput);
  EXPECT_EQ(run.error().message,
            "input 0: expected tensor<2x3xf32>, got tensor<2x3xf64>");
}

TEST(SessionTest, SimulatesBuiltinSchedules) {
  Outcome<ScheduleSimulation> simulation =
      simulateSchedule("1F1B", 4, 8, std::nullopt, {}, {});
  ASSERT_TRUE(simulation.ok());
  EXPECT_EQ(simulation.value().title, "1F1B, p=4, v=1, m=8");
  EXPECT_EQ(simulation.value().result.meshes[0].peakLiveActivations, 4);
  Outcome<ScheduleSimulation> unknown =
      simulateSchedule("nope", 4, 8, std::nullopt, {}, {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().kind, ErrorKind::kConfig);
}

} // namespace
