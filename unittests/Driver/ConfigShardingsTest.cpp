//===- ConfigShardingsTest.cpp - The config's shardings of a program ------===//

#include "mpmd/Driver/ConfigShardings.h"

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mpmd;
using namespace mlir::mpmd::driver;

namespace {

/// Inputs named by their locations, as JAX names them; the last has no
/// name.
constexpr const char *kProgram = R"mlir(
func.func @main(%x: tensor<8x4xf32> loc("x"), %w1: tensor<4x16xf32> loc("params['w1']"),
                %w2: tensor<16x4xf32> loc("params['w2']"), %b: tensor<6xf32>)
    -> (tensor<8x4xf32>, tensor<6xf32>) {
  return %x, %b : tensor<8x4xf32>, tensor<6xf32>
}
)mlir";

constexpr const char *kTopology =
    R"("topology": [["m0", [["data", 2], ["model", 2]]], ["m1", [["data", 2], ["model", 2]]]])";

class ConfigShardingsTest : public ::testing::Test {
protected:
  ConfigShardingsTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kProgram, &context);
  }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }
  func::FuncOp main() { return module->lookupSymbol<func::FuncOp>("main"); }

  /// The resolved shardings of the config with `fields`, printed (`-` for
  /// none), or the error.
  std::string resolve(const std::string &fields) {
    llvm::Expected<Config> config =
        parseConfig(std::string("{") + kTopology + ", " + fields + "}");
    if (!config)
      return "config: " + llvm::toString(config.takeError());
    llvm::Expected<ResolvedShardings> shardings =
        resolveShardings(main(), *config);
    if (!shardings)
      return llvm::toString(shardings.takeError());
    std::string text;
    llvm::raw_string_ostream os(text);
    for (auto *list : {&shardings->inputs, &shardings->outputs}) {
      for (sdy::TensorShardingAttr sharding : *list) {
        if (sharding)
          os << sharding;
        else
          os << "-";
        os << "\n";
      }
      os << "|\n";
    }
    return text;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ConfigShardingsTest, InputNamesAreLocationNames) {
  EXPECT_EQ(getInputName(main(), 0), "x");
  EXPECT_EQ(getInputName(main(), 1), "params['w1']");
  EXPECT_EQ(getInputName(main(), 3), "");
}

TEST_F(ConfigShardingsTest, ExplicitShardingsRulesAndFsdp) {
  // in_shardings first; the first applying rule for the others; the fsdp
  // rule shards the largest dimension "data" divides (16 of w2) and skips
  // %b (6 elements < min_size). A topology mesh name means @mesh.
  EXPECT_EQ(resolve(R"(
      "in_shardings": ["#sdy.sharding<@m0, [{\"data\"}, {?}]>"],
      "out_shardings": [null, [["model"]]],
      "sharding_rules": [{"match": "w1", "sharding": [null, "model"]},
                         {"fsdp": ["data"], "min_size": 8}])"),
            "#sdy.sharding<@mesh, [{\"data\"}, {?}]>\n"
            "#sdy.sharding<@mesh, [{}, {\"model\"}]>\n"
            "#sdy.sharding<@mesh, [{\"data\"}, {}]>\n"
            "-\n|\n"
            "-\n#sdy.sharding<@mesh, [{\"model\"}]>\n|\n");
  // The first rule that applies decides; fsdp over two axes needs 4 | dim.
  EXPECT_EQ(resolve(R"("sharding_rules": [
      {"fsdp": ["data", "model"]}, {"match": ".", "sharding": [null, null]}])"),
            "#sdy.sharding<@mesh, [{\"data\", \"model\"}, {}]>\n"
            "#sdy.sharding<@mesh, [{}, {\"data\", \"model\"}]>\n"
            "#sdy.sharding<@mesh, [{\"data\", \"model\"}, {}]>\n"
            "-\n|\n-\n-\n|\n");
}

TEST_F(ConfigShardingsTest, ShardingsThatDoNotFitTheProgram) {
  EXPECT_EQ(resolve(R"("in_shardings": [null, null, null, null, null])"),
            "config.in_shardings[4]: @main has 4 inputs");
  EXPECT_EQ(resolve(R"("out_shardings": [null, null, null])"),
            "config.out_shardings[2]: @main has 2 outputs");
  EXPECT_EQ(resolve(R"("in_shardings": [["data"]])"),
            "config.in_shardings[0]: sharding doesn't match tensor rank: 1 != "
            "2 (for input 0 ('x') of type tensor<8x4xf32>)");
  EXPECT_EQ(resolve(R"("out_shardings": [null, [["data", "model"]]])"),
            "config.out_shardings[1]: dim 0 with size 6 is not divisible by "
            "its sharded size 4 (for output 1 of type tensor<6xf32>)");
  EXPECT_EQ(resolve(R"("in_shardings": ["#sdy.sharding<@m9, [{}, {}]>"])"),
            "config.in_shardings[0]: unknown mesh @m9; meshes are @mesh, @m0, "
            "@m1");
  EXPECT_EQ(
      resolve(R"("in_shardings": ["#sdy.sharding<@mesh, [{\"z\"}, {}]>"])"),
      "config.in_shardings[0]: unknown axis name: \"z\" (for input 0 "
      "('x') of type tensor<8x4xf32>)");
  EXPECT_EQ(
      resolve(
          R"("in_shardings": ["#sdy.sharding<@mesh, [{\"data\"}, {\"data\"}]>"])")
          .substr(0, 24),
      "config.in_shardings[0]: ");
  EXPECT_EQ(resolve(R"("in_shardings": ["#sdy.sharding<@mesh"])").substr(0, 38),
            "config.in_shardings[0]: not a sharding");
  EXPECT_EQ(resolve(R"("sharding_rules": [{"match": "^w3", "sharding": []}])"),
            "config.sharding_rules[0].match: \"^w3\" matches no input of @main "
            "(inputs are named 'x', 'params['w1']', 'params['w2']')");
}

TEST_F(ConfigShardingsTest, ConflictingShardingsAreErrors) {
  EXPECT_EQ(resolve(R"("in_shardings": [null, [["model"], null]],
      "sharding_rules": [{"match": "w1", "sharding": [null, ["model"]]}])"),
            "config.in_shardings[1]: gives input 1 ('params['w1']') "
            "#sdy.sharding<@mesh, [{\"model\"}, {}]>, but "
            "config.sharding_rules[0] gives it #sdy.sharding<@mesh, [{}, "
            "{\"model\"}]>");
  // Agreeing is fine.
  EXPECT_EQ(resolve(R"("in_shardings": [null, [null, ["model"]]],
      "sharding_rules": [{"match": "w1", "sharding": [null, ["model"]]}])")
                .substr(0, 2),
            "-\n");
  // A sharding the program already has must agree too.
  main().setArgAttr(0, sdy::SdyDialect::kShardingAttrName,
                    sdy::TensorShardingAttr::getFullyOpen(
                        &context, FlatSymbolRefAttr::get(&context, "mesh"), 2));
  EXPECT_EQ(resolve(R"("in_shardings": [[["data"], null]])"),
            "config.in_shardings[0]: gives input 0 ('x') #sdy.sharding<@mesh, "
            "[{\"data\"}, {}]>, but the program gives it #sdy.sharding<@mesh, "
            "[{?}, {?}]>");
}

} // namespace
