//===- ShardingProjectionTest.cpp - Dimension shardings as factors --------===//

#include "mpmd/Transforms/Sdy/Propagation/ShardingProjection.h"
#include "mpmd/InitAllDialects.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::sdy;

namespace {

class ShardingProjectionTest : public ::testing::Test {
protected:
  ShardingProjectionTest() {
    DialectRegistry registry;
    mlir::mpmd::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    mesh = parse<MeshAttr>("#sdy.mesh<[\"x\"=2, \"y\"=4]>");
  }

  template <typename AttrT> AttrT parse(StringRef text) {
    return cast<AttrT>(parseAttribute(text, &context));
  }

  /// The axes of `sharding` printed as `"x", "y":(1)2`.
  std::string print(ArrayRef<AxisRefAttr> axes) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(axes, os, [&](AxisRefAttr axis) {
      os << "\"" << axis.getName() << "\"";
      if (SubAxisInfoAttr sub = axis.getSubAxisInfo())
        os << ":(" << sub.getPreSize() << ")" << sub.getSize();
    });
    return text;
  }

  MLIRContext context;
  MeshAttr mesh;
};

TEST_F(ShardingProjectionTest, SplitsAnAxisAcrossTheFactorsOfADimension) {
  auto rule = parse<OpShardingRuleAttr>(
      "#sdy.op_sharding_rule<([ij])->([i, j]) {i=4, j=2}>");
  auto sharding = parse<TensorShardingAttr>(
      "#sdy.sharding<mesh<[\"x\"=2, \"y\"=4]>, [{\"x\", \"y\"}]>");
  TensorFactorShardings factors =
      projectTensor(sharding, rule.getOperandMappings()[0],
                    rule.getFactorSizes(), mesh);
  EXPECT_EQ(print(factors.factors[0]->axes), "\"x\", \"y\":(1)2");
  EXPECT_EQ(print(factors.factors[1]->axes), "\"y\":(2)2");
  EXPECT_TRUE(factors.factors[0]->isClosed);
  EXPECT_FALSE(factors.factors[0]->isMinorMost);
  EXPECT_TRUE(factors.factors[1]->isMinorMost);

  // Onto the result's two dimensions, then back onto the merged one.
  TensorShardingAttr result = unprojectTensor(
      factors, rule.getResultMappings()[0], rule.getFactorSizes(), mesh,
      sharding.getMeshOrRef(), TensorShardingAttr());
  EXPECT_EQ(print(result.getDimShardings()[0].getAxes()), "\"x\", \"y\":(1)2");
  EXPECT_EQ(print(result.getDimShardings()[1].getAxes()), "\"y\":(2)2");
  TensorShardingAttr back = unprojectTensor(
      factors, rule.getOperandMappings()[0], rule.getFactorSizes(), mesh,
      sharding.getMeshOrRef(), sharding);
  EXPECT_EQ(back, sharding);
}

TEST_F(ShardingProjectionTest, CoprimeAxesOverflowAndCloseLaterFactors) {
  auto rule = parse<OpShardingRuleAttr>(
      "#sdy.op_sharding_rule<([ij])->([i, j]) {i=3, j=8}>");
  auto sharding = parse<TensorShardingAttr>(
      "#sdy.sharding<mesh<[\"x\"=2, \"y\"=4]>, [{\"x\", ?}]>");
  TensorFactorShardings factors =
      projectTensor(sharding, rule.getOperandMappings()[0],
                    rule.getFactorSizes(), mesh);
  EXPECT_TRUE(factors.factors[0]->axes.empty());
  EXPECT_EQ(print(factors.factors[0]->overflowAxes), "\"x\"");
  EXPECT_FALSE(factors.factors[0]->isClosed);
  EXPECT_TRUE(factors.factors[1]->axes.empty());
  EXPECT_TRUE(factors.factors[1]->isClosed);
  // The overflow axes stay on the dimension.
  TensorShardingAttr back = unprojectTensor(
      factors, rule.getOperandMappings()[0], rule.getFactorSizes(), mesh,
      sharding.getMeshOrRef(), sharding);
  EXPECT_EQ(print(back.getDimShardings()[0].getAxes()), "\"x\"");
}

TEST_F(ShardingProjectionTest, MissingShardingGivesEmptyFactors) {
  auto rule = parse<OpShardingRuleAttr>(
      "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>");
  TensorFactorShardings open = projectTensor(
      TensorShardingAttr(), rule.getOperandMappings()[0],
      rule.getFactorSizes(), mesh);
  EXPECT_FALSE(open.factors[0]->isClosed);
  EXPECT_TRUE(open.factors[1]->axes.empty());
  TensorFactorShardings closed =
      projectTensor(TensorShardingAttr(), rule.getOperandMappings()[0],
                    rule.getFactorSizes(), mesh, /*closedIfMissing=*/true);
  EXPECT_TRUE(closed.factors[0]->isClosed);
}

TEST_F(ShardingProjectionTest, SubAxisArithmetic) {
  auto x = AxisRefAttr::get(&context, "y", SubAxisInfoAttr());
  AxisRefAttr major = getPrefix(x, 2, mesh);
  EXPECT_EQ(print(major), "\"y\":(1)2");
  EXPECT_TRUE(isStrictPrefix(major, x, mesh));
  EXPECT_TRUE(contains(x, major, mesh));
  AxisRefAttr minor = getAxisRef(mesh, "y", 2, 2);
  EXPECT_FALSE(overlaps(major, minor, mesh));
  EXPECT_EQ(mergeContiguous(major, minor, mesh), x);
  EXPECT_EQ(getPrefixNotOverlapping(x, {minor}, mesh), major);
  EXPECT_EQ(getPrefixNotOverlapping(x, {major}, mesh), std::nullopt);
}

} // namespace
