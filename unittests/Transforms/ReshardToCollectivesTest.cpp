//===- ReshardToCollectivesTest.cpp - Every reshard of small meshes -------===//
//
// Runs -sdy-reshard-to-collectives on every pair of shardings of a rank-2
// (or rank-3) tensor over small meshes, power-of-two and not, with
// sub-axes and device orders: the collectives must verify (each op's
// out_sharding is what it makes of its operand's), leave no reshard, and
// end on exactly the requested sharding.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/InitAllDialects.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::sdy;

namespace {

using Dims = std::vector<std::vector<std::string>>;

/// Every way to put some of `pool` (axis texts, e.g. `"x":(1)2`) on `rank`
/// dimensions, in every order; the caller filters overlapping choices.
void enumerate(const std::vector<std::string> &pool, size_t next, Dims &dims,
               std::vector<Dims> &all) {
  if (next == pool.size()) {
    all.push_back(dims);
    return;
  }
  enumerate(pool, next + 1, dims, all);
  for (auto &dim : dims)
    for (size_t position = 0; position <= dim.size(); ++position) {
      dim.insert(dim.begin() + position, pool[next]);
      enumerate(pool, next + 1, dims, all);
      dim.erase(dim.begin() + position);
    }
}

std::string printSharding(StringRef mesh, const Dims &dims) {
  std::string text = "#sdy.sharding<@" + mesh.str() + ", [";
  for (size_t d = 0; d < dims.size(); ++d) {
    text += d ? ", {" : "{";
    for (size_t i = 0; i < dims[d].size(); ++i)
      text += (i ? ", " : "") + dims[d][i];
    text += "}";
  }
  return text + "]>";
}

class ReshardToCollectivesTest : public ::testing::Test {
protected:
  ReshardToCollectivesTest() {
    DialectRegistry registry;
    mlir::mpmd::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Valid shardings of a `rank` tensor with axes from `pool` on `meshes`
  /// (the first mesh resolves them).
  std::vector<Dims> shardings(StringRef meshes,
                              const std::vector<std::string> &pool,
                              int64_t rank) {
    std::vector<Dims> all, valid;
    Dims dims(rank);
    enumerate(pool, 0, dims, all);
    for (const Dims &candidate : all) {
      std::string text = meshes.str() + "\nfunc.func @f(%a: " + type(rank) +
                         " {sdy.sharding = " + printSharding("m", candidate) +
                         "}) {\n  return\n}\n";
      ScopedDiagnosticHandler silence(&context,
                                      [](Diagnostic &) { return success(); });
      if (parseSourceString<ModuleOp>(text, &context))
        valid.push_back(candidate);
    }
    return valid;
  }

  static std::string type(int64_t rank) {
    std::string text = "tensor<";
    for (int64_t d = 0; d < rank; ++d)
      text += "48x";
    return text + "f32>";
  }

  struct Stats {
    int64_t pairs = 0;
    int64_t maxCollectives = 0;
  };

  /// Reshards each of `shardings` on @m to each on `outMesh` and checks the
  /// result.
  void checkAllPairs(StringRef meshes, StringRef outMesh,
                     const std::vector<Dims> &all, int64_t rank,
                     Stats &stats) {
    for (const Dims &in : all)
      for (const Dims &out : all) {
        std::string outText = printSharding(outMesh, out);
        std::string text =
            meshes.str() + "\nfunc.func @f(%a: " + type(rank) +
            " {sdy.sharding = " + printSharding("m", in) + "}) -> " +
            type(rank) + " {\n  %r = sdy.reshard %a " +
            outText.substr(strlen("#sdy.sharding")) + " : " + type(rank) +
            "\n  return %r : " + type(rank) + "\n}\n";
        OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
        ASSERT_TRUE(module) << text;
        PassManager pm(&context);
        pm.addNestedPass<func::FuncOp>(createReshardToCollectivesPass());
        ASSERT_TRUE(succeeded(pm.run(*module))) << text;
        ASSERT_TRUE(succeeded(verify(*module))) << text;
        auto function = *module->getOps<func::FuncOp>().begin();
        int64_t collectives = 0;
        bool reshardLeft = false;
        function.walk([&](Operation *op) {
          collectives += isa<CollectiveOpInterface>(op);
          reshardLeft |= isa<ReshardOp>(op);
        });
        EXPECT_FALSE(reshardLeft) << text;
        Value result = function.front().getTerminator()->getOperand(0);
        auto expected =
            cast<TensorShardingAttr>(parseAttribute(outText, &context));
        TensorShardingAttr actual = getSharding(result);
        if (expected.isFullyReplicated()) {
          // Gathered on the input's mesh, or the input itself.
          EXPECT_TRUE(!actual || actual.isFullyReplicated()) << text;
        } else {
          ASSERT_TRUE(actual) << text;
          EXPECT_EQ(actual.getMesh(function), expected.getMesh(function))
              << text;
          for (auto [got, want] : llvm::zip(actual.getDimShardings(),
                                            expected.getDimShardings()))
            EXPECT_EQ(got.getAxes(), want.getAxes()) << text;
        }
        ++stats.pairs;
        stats.maxCollectives = std::max(stats.maxCollectives, collectives);
      }
  }

  MLIRContext context;
};

TEST_F(ReshardToCollectivesTest, EveryPairOnThreeAxesOfTwoRankTwo) {
  StringRef meshes = "sdy.mesh @m = <[\"x\"=2, \"y\"=2, \"z\"=2]>";
  std::vector<Dims> all = shardings(meshes, {"\"x\"", "\"y\"", "\"z\""}, 2);
  EXPECT_EQ(all.size(), 49u);
  Stats stats;
  checkAllPairs(meshes, "m", all, 2, stats);
  EXPECT_EQ(stats.pairs, 49 * 49);
  // Slice, permute, all-to-all, gather: one round is enough.
  EXPECT_LE(stats.maxCollectives, 4);
}

TEST_F(ReshardToCollectivesTest, EveryPairOnThreeAxesOfTwoRankThree) {
  StringRef meshes = "sdy.mesh @m = <[\"x\"=2, \"y\"=2, \"z\"=2]>";
  std::vector<Dims> all = shardings(meshes, {"\"x\"", "\"y\"", "\"z\""}, 3);
  EXPECT_EQ(all.size(), 106u);
  Stats stats;
  checkAllPairs(meshes, "m", all, 3, stats);
  EXPECT_EQ(stats.pairs, 106 * 106);
}

TEST_F(ReshardToCollectivesTest, EveryPairWithSubAxes) {
  StringRef meshes = "sdy.mesh @m = <[\"x\"=4, \"y\"=2]>";
  std::vector<Dims> all = shardings(
      meshes, {"\"x\"", "\"x\":(1)2", "\"x\":(2)2", "\"y\""}, 2);
  Stats stats;
  checkAllPairs(meshes, "m", all, 2, stats);
  EXPECT_GT(stats.pairs, 0);
}

TEST_F(ReshardToCollectivesTest, EveryPairOnANonPowerOfTwoMesh) {
  StringRef meshes = "sdy.mesh @m = <[\"x\"=3, \"y\"=2]>";
  std::vector<Dims> all = shardings(meshes, {"\"x\"", "\"y\""}, 2);
  EXPECT_EQ(all.size(), 11u);
  Stats stats;
  checkAllPairs(meshes, "m", all, 2, stats);
  EXPECT_GT(stats.pairs, 0);
}

TEST_F(ReshardToCollectivesTest, EveryPairWithSubAxesThatDoNotNest) {
  // "x":(1)2 and "x":(1)3 of "x"=6 cannot be cut into common pieces.
  StringRef meshes = "sdy.mesh @m = <[\"x\"=6, \"y\"=2]>";
  std::vector<Dims> all =
      shardings(meshes,
                {"\"x\"", "\"x\":(1)2", "\"x\":(2)3", "\"x\":(1)3",
                 "\"x\":(3)2", "\"y\""},
                2);
  Stats stats;
  checkAllPairs(meshes, "m", all, 2, stats);
  EXPECT_GT(stats.pairs, 0);
}

TEST_F(ReshardToCollectivesTest, EveryPairOntoAnotherDeviceOrder) {
  StringRef meshes = "sdy.mesh @m = <[\"x\"=2, \"y\"=2]>\n"
                     "sdy.mesh @r = <[\"x\"=2, \"y\"=2], "
                     "device_ids=[3, 2, 1, 0]>";
  std::vector<Dims> all = shardings(meshes, {"\"x\"", "\"y\""}, 2);
  Stats stats;
  checkAllPairs(meshes, "r", all, 2, stats);
  EXPECT_GT(stats.pairs, 0);
}

} // namespace
