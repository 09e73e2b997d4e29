//===- CompileTest.cpp - Tests of lower(): phases and named shardings -----===//

#include "mpmd/Driver/Compile.h"

#include "mpmd/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mpmd;
using namespace mlir::mpmd::driver;

namespace {

/// Two layers, one microbatch; input 1 is sharded by the user.
constexpr const char *kProgram = R"mlir(
func.func @main(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = mpmd.named_computation<"f"> (%x, %w) (%in: tensor<4x8xf32>, %wi: tensor<4x8xf32>) {
    %m = stablehlo.multiply %in, %wi : tensor<4x8xf32>
    mpmd.return %m : tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = mpmd.named_computation<"g"> (%a) (%in: tensor<4x8xf32>) {
    %s = stablehlo.sine %in : tensor<4x8xf32>
    mpmd.return %s : tensor<4x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
)mlir";

constexpr const char *kConfig = R"({
  "topology": [["m0", [["x", 2]]], ["m1", [["x", 2]]]],
  "assignment": {"f": "m0", "g": "m1"},
  "output_assignment": ["m1#pinned_host"]
})";

class CompileTest : public ::testing::Test {
protected:
  CompileTest() : context(makeRegistry()) {}
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }
  MLIRContext context;
};

TEST_F(CompileTest, LowerKeepsEachPhaseAndTheInputModule) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  llvm::Expected<Config> config = parseConfig(kConfig);
  ASSERT_TRUE(static_cast<bool>(config)) << llvm::toString(config.takeError());
  LowerOptions options;
  options.keepPhaseTexts = true;
  FailureOr<Lowered> lowered = lower(*module, *config, options);
  ASSERT_TRUE(succeeded(lowered));

  // Fragments after import and optimize, fragment calls after export.
  EXPECT_NE(lowered->asText(Phase::kImport).find("mpmd.fragment<mesh=\"m0\""),
            std::string::npos);
  EXPECT_NE(lowered->asText(Phase::kOptimize).find("mpmd.fragment<"),
            std::string::npos);
  EXPECT_EQ(lowered->asText(Phase::kOptimize).find("mpmd.fragment_call"),
            std::string::npos);
  EXPECT_NE(lowered->asText(Phase::kExport)
                .find("mpmd.fragment_call<mesh=\"m1\", origin=[\"g\"]>"),
            std::string::npos);
  // Without keepPhaseTexts only the export text is there (printed on
  // demand), and it is the same.
  FailureOr<Lowered> plain = lower(*module, *config);
  ASSERT_TRUE(succeeded(plain));
  EXPECT_TRUE(plain->asText(Phase::kImport).empty());
  EXPECT_EQ(plain->asText(), lowered->asText(Phase::kExport));
  // The input module is not lowered in place.
  std::string input;
  llvm::raw_string_ostream(input) << *module;
  EXPECT_EQ(input.find("mpmd.fragment"), std::string::npos);

  FunctionNamedShardings shardings = lowered->functionNamedShardings();
  ASSERT_EQ(shardings.inputs.size(), 2u);
  EXPECT_EQ(shardings.inputs[0].meshName, "m0");
  EXPECT_FALSE(shardings.inputs[0].sharding);
  EXPECT_EQ(shardings.inputs[0].memoryKind, std::nullopt);
  ASSERT_EQ(shardings.outputs.size(), 1u);
  EXPECT_EQ(shardings.outputs[0].meshName, "m1");
  EXPECT_EQ(shardings.outputs[0].memoryKind, "pinned_host");
}

TEST_F(CompileTest, MissingComputationIsReportedByName) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  llvm::Expected<Config> config = parseConfig(
      R"({"topology": [["m0", [["x", 2]]]], "assignment": {"f": "m0"}})");
  ASSERT_TRUE(static_cast<bool>(config));
  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors.push_back(diagnostic.str());
    return success();
  });
  EXPECT_TRUE(failed(lower(*module, *config)));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "named computation 'g' is missing from config.assignment");
}

TEST_F(CompileTest, AnErrorAPassReportsAndGoesOnFailsTheLowering) {
  // A named computation outside an MPMD function: the validation reports it
  // and, as upstream, lets the pipeline go on; the lowering still fails.
  std::string program = std::string(kProgram) + R"mlir(
func.func @helper(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = mpmd.named_computation<"f"> (%x) (%in: tensor<4x8xf32>) {
    %n = stablehlo.negate %in : tensor<4x8xf32>
    mpmd.return %n : tensor<4x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}
)mlir";
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(program, &context);
  ASSERT_TRUE(module);
  llvm::Expected<Config> config = parseConfig(kConfig);
  ASSERT_TRUE(static_cast<bool>(config));
  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    errors.push_back(diagnostic.str());
    return success();
  });
  EXPECT_TRUE(failed(lower(*module, *config)));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.front().find("named ops can only be used in MPMD functions"),
            std::string::npos)
      << errors.front();
}

} // namespace
