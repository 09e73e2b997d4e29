//===- CostFileTest.cpp - The cost table's JSON ---------------------------===//

#include "mpmd/Plan/CostFile.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir::mpmd::plan;

namespace {

std::string errorOf(llvm::Error error) {
  return llvm::toString(std::move(error));
}

TEST(CostFileTest, WrittenFilesReadBackAsTheSameTable) {
  CostFile file;
  file.microbatches = 4;
  file.linkBandwidth = 2e9;
  file.linkLatency = 1e-5;
  file.computeFactor = 0.85;
  file.computations = {{"embed", 0, 1e-3, std::nullopt, 64, 32, 16, 5e-5, 7e-4},
                       {"embed", 1, 3e-3, 1e-3, 0, 0, 0},
                       {"head", 0, 2e-3, std::nullopt, 8, 4, 2}};
  llvm::Expected<CostFile> read = parseCostFile(writeCostFile(file));
  ASSERT_TRUE(static_cast<bool>(read)) << errorOf(read.takeError());
  llvm::Expected<CostTable> table = makeCostTable(*read, {"embed", "head"});
  ASSERT_TRUE(static_cast<bool>(table)) << errorOf(table.takeError());
  EXPECT_EQ(table->microbatches, 4);
  EXPECT_DOUBLE_EQ(table->linkBandwidth, 2e9);
  EXPECT_DOUBLE_EQ(table->linkLatency, 1e-5);
  EXPECT_DOUBLE_EQ(table->computeFactor, 0.85);
  ASSERT_EQ(table->layers.size(), 2u);
  const LayerCost &embed = table->layers[0];
  EXPECT_DOUBLE_EQ(embed.forward, 1e-3);
  EXPECT_DOUBLE_EQ(embed.backward, 2e-3);
  EXPECT_DOUBLE_EQ(embed.weightGradient, 1e-3);
  EXPECT_DOUBLE_EQ(embed.activationBytes, 64);
  EXPECT_DOUBLE_EQ(embed.boundaryBytes, 32);
  EXPECT_DOUBLE_EQ(embed.parameterBytes, 16);
  EXPECT_DOUBLE_EQ(embed.accumulate, 5e-5);
  EXPECT_DOUBLE_EQ(embed.update, 7e-4);
  EXPECT_DOUBLE_EQ(table->layers[1].update, 0);
  // No backward: an inference layer.
  EXPECT_DOUBLE_EQ(table->layers[1].backward, 0);
}

TEST(CostFileTest, BackwardWithoutSplitIsHalfWeightGradient) {
  llvm::Expected<CostFile> read = parseCostFile(
      R"({"microbatches": 1, "computations": [
            {"name": "a", "transpose_count": 0, "seconds": 1},
            {"name": "a", "transpose_count": 1, "seconds": 4}]})");
  ASSERT_TRUE(static_cast<bool>(read)) << errorOf(read.takeError());
  llvm::Expected<CostTable> table = makeCostTable(*read, {"a"});
  ASSERT_TRUE(static_cast<bool>(table)) << errorOf(table.takeError());
  EXPECT_DOUBLE_EQ(table->layers[0].backward, 2);
  EXPECT_DOUBLE_EQ(table->layers[0].weightGradient, 2);
  // Without a calibrated slowdown, devices do not slow each other down.
  EXPECT_DOUBLE_EQ(table->computeFactor, 1);
}

TEST(CostFileTest, ErrorsNameTheField) {
  EXPECT_EQ(errorOf(parseCostFile(R"({"computations": []})").takeError()),
            "costs.microbatches: expected a positive integer (the "
            "microbatches of the profiled step)");
  EXPECT_EQ(errorOf(parseCostFile(
                        R"({"microbatches": 1, "computations": [
                              {"name": "a", "transpose_count": 2,
                               "seconds": 1}]})")
                        .takeError()),
            "costs.computations[0].transpose_count: expected 0 or 1");
  EXPECT_EQ(errorOf(parseCostFile(
                        R"({"microbatches": 1, "computations": [
                              {"name": "a", "transpose_count": 1,
                               "seconds": 1, "weight_gradient_seconds": 2}]})")
                        .takeError()),
            "costs.computations[0].weight_gradient_seconds: exceeds the "
            "backward's seconds");
  EXPECT_EQ(errorOf(parseCostFile(R"({"microbatches": 1,
                                      "compute_factor": 0,
                                      "computations": []})")
                        .takeError()),
            "costs.compute_factor: must be positive");
  EXPECT_EQ(errorOf(parseCostFile(R"({"microbatches": 1,
                                      "concurrency_slowdown": 1.2,
                                      "computations": []})")
                        .takeError()),
            "costs.concurrency_slowdown: this cost file comes from an older "
            "'mpmd profile' (its factor is now compute_factor, measured "
            "differently); run 'mpmd profile' again");
  llvm::Expected<CostFile> read = parseCostFile(
      R"({"microbatches": 1, "computations": [
            {"name": "a", "transpose_count": 0, "seconds": 1}]})");
  ASSERT_TRUE(static_cast<bool>(read)) << errorOf(read.takeError());
  EXPECT_EQ(errorOf(makeCostTable(*read, {"b"}).takeError()),
            "costs.computations[0]: the model has no named computation 'a'");
}

} // namespace
