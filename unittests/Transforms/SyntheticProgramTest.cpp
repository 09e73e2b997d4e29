//===- SyntheticProgramTest.cpp - The benchmark generator makes valid IR --===//

#include "SyntheticProgram.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

TEST(SyntheticProgramTest, ParsesVerifiesAndCountsItsOps) {
  DialectRegistry registry;
  mpmd::registerAllDialects(registry);
  MLIRContext context(registry);
  for (int64_t layers : {1, 3, 8}) {
    mpmd::bench::SyntheticProgramShape shape;
    shape.layers = layers;
    shape.microbatches = 3;
    shape.meshes = 2;
    mpmd::bench::SyntheticProgram program =
        mpmd::bench::generateSyntheticProgram(shape);
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(program.text, &context);
    ASSERT_TRUE(module) << program.text;
    int64_t ops = 0, named = 0, calls = 0;
    module->walk([&](Operation *op) {
      ++ops;
      named += isa<mpmd::NamedComputationOp>(op);
      calls += isa<mpmd::CallOp>(op);
    });
    EXPECT_EQ(ops, program.numOps);
    EXPECT_EQ(named, 2 * layers);
    EXPECT_EQ(calls, 3);
  }
}

TEST(SyntheticProgramTest, AssignsContiguousStages) {
  mpmd::bench::SyntheticProgramShape shape;
  shape.layers = 4;
  shape.meshes = 2;
  EXPECT_EQ(mpmd::bench::generateSyntheticProgram(shape).assignment,
            "layer_0@m0,layer_1@m0,layer_2@m1,layer_3@m1");
}

} // namespace
