//===- MergeFragmentsTest.cpp - Tests of the fragment-merge utility -------===//

#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/MergeFragments.h"
#include "mpmd/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mpmd;

namespace {

class MergeFragmentsTest : public ::testing::Test {
protected:
  MergeFragmentsTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses a module whose @main holds the fragments under test.
  OwningOpRef<ModuleOp> parse(StringRef body) {
    std::string text =
        "!t = tensor<4xf32>\n"
        "!m = !mpmd.mesh_tensor<\"m1\", tensor<4xf32>>\n"
        "#topology = #mpmd.topology<<\"m1\": <[\"x\"=2]>>>\n" +
        body.str();
    return parseSourceString<ModuleOp>(text, &context);
  }

  SmallVector<FragmentOp> fragments(ModuleOp module) {
    SmallVector<FragmentOp> result;
    module.walk([&](FragmentOp op) { result.push_back(op); });
    return result;
  }

  MLIRContext context;
};

constexpr StringLiteral kTwoFragments = R"mlir(
func.func @main(%arg0: !m, %arg1: !m) -> (!m, !m) attributes {topology = #topology} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"], stage=0> (%arg0, %arg1) {call_counter = 1 : ui32, mpmd.inferred_by = ["a"], remat} (%a: !t, %b: !t) {
    %1 = stablehlo.add %a, %b : !t
    mpmd.return %1, %a : !t, !t
  } : (!m, !m) -> (!m, !m)
  %2 = mpmd.fragment<mesh="m1", origin=[]> (%0#0, %arg1, %0#1) {mpmd.control_operand_start_idx = 2 : i64, call_counter = 2 : ui32, mpmd.inferred_by = ["b"]} (%a: !t, %b: !t, %c: !t) {
    %3 = stablehlo.multiply %a, %b : !t
    mpmd.return %3 : !t
  } : (!m, !m, !m) -> !m
  return %2, %0#0 : !m, !m
}
)mlir";

TEST_F(MergeFragmentsTest, AttributesFollowTheUserFragment) {
  OwningOpRef<ModuleOp> module = parse(kTwoFragments);
  ASSERT_TRUE(module);
  SmallVector<FragmentOp> ops = fragments(*module);
  ASSERT_EQ(ops.size(), 2u);
  FragmentSummary merged = FragmentSummary::merge(FragmentSummary(ops[0]),
                                                  FragmentSummary(ops[1]));
  // The user fragment's counter wins; inferred_by goes with a user side;
  // other attributes are kept; merge-specific ones are not summarised.
  auto counter = dyn_cast_or_null<IntegerAttr>(merged.getAttr("call_counter"));
  ASSERT_TRUE(counter);
  EXPECT_EQ(counter.getInt(), 1);
  EXPECT_FALSE(merged.hasAttr(kInferredByAttrName));
  EXPECT_TRUE(merged.hasAttr(kRematAttrName));
  EXPECT_FALSE(merged.hasAttr(kControlOperandStartIdxAttrName));
  EXPECT_TRUE(merged.isUserFragment());
  EXPECT_EQ(merged.getStageId().getInt(), 0);
}

TEST_F(MergeFragmentsTest, MergeRewiresDropsControlEdgesAndKeepsOtherResults) {
  OwningOpRef<ModuleOp> module = parse(kTwoFragments);
  ASSERT_TRUE(module);
  SmallVector<FragmentOp> ops = fragments(*module);
  ASSERT_EQ(ops.size(), 2u);
  // Result 0 is also returned: it stays; result 1 only feeds a control
  // operand of the consumer: it goes with that operand.
  ASSERT_EQ(findMergePlacement(ops[0], ops[1]),
            std::optional(MergePlacement::kAtConsumer));
  IRRewriter rewriter(&context);
  MergeFragmentsOptions options;
  FragmentOp merged = mergeFragments(ops[0], ops[1], rewriter, options);
  ASSERT_TRUE(succeeded(verify(*module)));
  EXPECT_EQ(merged->getNumOperands(), 2u);
  EXPECT_EQ(merged->getNumResults(), 2u);
  EXPECT_FALSE(merged->hasAttr(kControlOperandStartIdxAttrName));
  EXPECT_EQ(merged.getStageId(), std::optional<int64_t>(0));
  EXPECT_EQ(merged.getOrigin().size(), 1u);
  auto ret = cast<func::ReturnOp>(
      module->lookupSymbol<func::FuncOp>("main").getBody().front().getTerminator());
  EXPECT_EQ(ret.getOperand(0), merged->getResult(1));
  EXPECT_EQ(ret.getOperand(1), merged->getResult(0));
}

TEST_F(MergeFragmentsTest, BothBodyReuseChoicesGiveTheSameProgram) {
  std::string printed[2];
  for (int keepProducer = 0; keepProducer < 2; ++keepProducer) {
    OwningOpRef<ModuleOp> module = parse(kTwoFragments);
    ASSERT_TRUE(module);
    SmallVector<FragmentOp> ops = fragments(*module);
    IRRewriter rewriter(&context);
    FailureOr<FragmentOp> merged =
        tryMergeFragments(ops[0], ops[1], rewriter,
                          /*allowMovingTransfers=*/false, keepProducer);
    ASSERT_TRUE(succeeded(merged));
    ASSERT_TRUE(succeeded(verify(*module)));
    llvm::raw_string_ostream os(printed[keepProducer]);
    module->print(os);
  }
  EXPECT_EQ(printed[0], printed[1]);
}

TEST_F(MergeFragmentsTest, OriginsUnionInOrder) {
  Builder builder(&context);
  auto origin = [&](StringRef name, int64_t transpose) {
    return UserOriginAttr::get(&context, name, transpose);
  };
  ArrayAttr lhs = builder.getArrayAttr({origin("f", 0), origin("g", 1)});
  ArrayAttr rhs = builder.getArrayAttr({origin("g", 1), origin("f", 1)});
  ArrayAttr merged = mergeOrigins(lhs, rhs);
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0], origin("f", 0));
  EXPECT_EQ(merged[1], origin("g", 1));
  EXPECT_EQ(merged[2], origin("f", 1));
}

} // namespace
