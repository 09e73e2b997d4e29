//===- FragmentRulesTest.cpp - FragmentInfo and rule grammars -------------===//

#include "mpmd/Transforms/Optimize/FragmentRules.h"

#include "mpmd/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mpmd;

namespace {

std::string errorOf(llvm::Error error) {
  return llvm::toString(std::move(error));
}

template <typename T> std::string print(const T &value) {
  std::string text;
  llvm::raw_string_ostream(text) << value;
  return text;
}

TEST(FragmentRulesTest, FragmentInfoRoundTrip) {
  constexpr llvm::StringLiteral kText =
      R"(FragmentInfo(origins=["f","g"(1)],stage=2,call_counter=3,)"
      R"(split_type=kKeepTransferred,mesh_name="m1"))";
  auto info = parseFragmentInfo(kText);
  ASSERT_TRUE(static_cast<bool>(info)) << errorOf(info.takeError());
  EXPECT_EQ(info->origins,
            (std::vector<FragmentOrigin>{{"f", 0}, {"g", 1}}));
  EXPECT_EQ(info->stageId, 2);
  EXPECT_EQ(info->callCounter, 3);
  EXPECT_EQ(info->splitType, SplitFragmentType::kKeepTransferred);
  EXPECT_EQ(info->meshName, "m1");
  EXPECT_EQ(print(*info), kText);
}

TEST(FragmentRulesTest, FragmentInfoFieldsAreOptionalInAnyOrderWithSpaces) {
  auto info = parseFragmentInfo(
      R"( FragmentInfo( origins = [ "g"(1) , "f" ] , mesh_name = "m2" ,)"
      R"( split_type = kDropTransferred , call_counter = 0 ) )");
  ASSERT_TRUE(static_cast<bool>(info)) << errorOf(info.takeError());
  // Origins are sorted; absent fields are absent.
  EXPECT_EQ(print(*info),
            R"(FragmentInfo(origins=["f","g"(1)],call_counter=0,)"
            R"(split_type=kDropTransferred,mesh_name="m2"))");
  EXPECT_FALSE(info->stageId);

  auto minimal = parseFragmentInfo(R"(FragmentInfo(origins=[]))");
  ASSERT_TRUE(static_cast<bool>(minimal));
  EXPECT_EQ(*minimal, FragmentInfo{});
  EXPECT_EQ(print(*minimal), "FragmentInfo(origins=[])");
}

TEST(FragmentRulesTest, QuotesAndBackslashesAreEscaped) {
  FragmentInfo info;
  info.origins = {{R"(a"b\c)", 0}};
  info.meshName = "m1";
  std::string printed = print(info);
  EXPECT_EQ(printed, R"(FragmentInfo(origins=["a\"b\\c"],mesh_name="m1"))");
  auto parsed = parseFragmentInfo(printed);
  ASSERT_TRUE(static_cast<bool>(parsed));
  EXPECT_EQ(*parsed, info);
}

TEST(FragmentRulesTest, FragmentInfoErrorsGivePositions) {
  EXPECT_EQ(errorOf(parseFragmentInfo("Info(origins=[])").takeError()),
            "expected 'FragmentInfo' at position 0 (near 'Info(origins=[])') "
            "in 'Info(origins=[])'");
  EXPECT_EQ(errorOf(parseFragmentInfo(R"(FragmentInfo(stage=1))").takeError()),
            "expected 'origins' at position 13 (near 'stage=1)') in "
            "'FragmentInfo(stage=1)'");
  EXPECT_EQ(
      errorOf(parseFragmentInfo(R"(FragmentInfo(origins=["f"],stage=x))")
                  .takeError()),
      "expected an integer at position 33 (near 'x)') in "
      "'FragmentInfo(origins=[\"f\"],stage=x)'");
  EXPECT_EQ(
      errorOf(parseFragmentInfo(R"(FragmentInfo(origins=["f"],stage=-1))")
                  .takeError()),
      "a stage must be non-negative at position 33 (near '-1)') in "
      "'FragmentInfo(origins=[\"f\"],stage=-1)'");
  EXPECT_EQ(
      errorOf(parseFragmentInfo(R"(FragmentInfo(origins=["f"],stage=1,stage=2))")
                  .takeError()),
      "'stage' is given twice at position 35 (near 'stage=2)') in "
      "'FragmentInfo(origins=[\"f\"],stage=1,stage=2)'");
  EXPECT_EQ(
      errorOf(parseFragmentInfo(R"(FragmentInfo(origins=["f"],color=1))")
                  .takeError()),
      "expected a field, one of stage, call_counter, split_type or mesh_name "
      "at position 27 (near 'color=1)') in "
      "'FragmentInfo(origins=[\"f\"],color=1)'");
  EXPECT_EQ(
      errorOf(parseFragmentInfo(R"(FragmentInfo(origins=["f"],split_type=kAll))")
                  .takeError()),
      "expected a split type, kKeepTransferred or kDropTransferred at "
      "position 38 (near 'kAll)') in "
      "'FragmentInfo(origins=[\"f\"],split_type=kAll)'");
  EXPECT_EQ(errorOf(parseFragmentInfo(R"(FragmentInfo(origins=["f)")
                        .takeError()),
            "unterminated string at position 24 (near end of text) in "
            "'FragmentInfo(origins=[\"f'");
  EXPECT_EQ(errorOf(parseFragmentInfo(R"(FragmentInfo(origins=["f"]) x)")
                        .takeError()),
            "unexpected text after the end at position 28 (near 'x') in "
            "'FragmentInfo(origins=[\"f\"]) x'");
}

TEST(FragmentRulesTest, MergeRuleRoundTrip) {
  constexpr llvm::StringLiteral kText =
      R"(FragmentMergeRule(sources=[FragmentInfo(origins=["f"],mesh_name="m1"),)"
      R"(FragmentInfo(origins=["g"(1)],mesh_name="m1")],)"
      R"(target=FragmentInfo(origins=["f","g"(1)],call_counter=1,mesh_name="m1")))";
  auto rule = parseFragmentMergeRule(kText);
  ASSERT_TRUE(static_cast<bool>(rule)) << errorOf(rule.takeError());
  ASSERT_EQ(rule->sources.size(), 2u);
  EXPECT_EQ(rule->sources[1].origins,
            (std::vector<FragmentOrigin>{{"g", 1}}));
  EXPECT_EQ(rule->target.callCounter, 1);
  EXPECT_EQ(print(*rule), kText);
}

TEST(FragmentRulesTest, MergeRuleErrors) {
  EXPECT_EQ(
      errorOf(parseFragmentMergeRule(
                  R"(FragmentMergeRule(sources=[FragmentInfo(origins=["f"])],)"
                  R"(target=FragmentInfo(origins=["f"])))")
                  .takeError()),
      "a merge rule needs at least two fragments at position 27 (near "
      "'FragmentInfo(origins=[\"f...') in "
      "'FragmentMergeRule(sources=[FragmentInfo(origins=[\"f\"])],"
      "target=FragmentInfo(origins=[\"f\"]))'");
  EXPECT_EQ(
      errorOf(parseFragmentMergeRule(
                  R"(FragmentMergeRule(sources=[FragmentInfo(origins=["f"]),)"
                  R"(FragmentInfo(origins=["g"])],target=FragmentInfo(origins=[])))")
                  .takeError()),
      "a rule cannot name a fragment without origins at position 91 (near "
      "'FragmentInfo(origins=[])...') in "
      "'FragmentMergeRule(sources=[FragmentInfo(origins=[\"f\"]),"
      "FragmentInfo(origins=[\"g\"])],target=FragmentInfo(origins=[]))'");
  EXPECT_EQ(
      errorOf(parseFragmentMergeRule(
                  R"(FragmentMergeRule(sources=[FragmentInfo(origins=["f"]),)"
                  R"(FragmentInfo(origins=["g"])]))")
                  .takeError()),
      "expected ',' at position 83 (near ')') in "
      "'FragmentMergeRule(sources=[FragmentInfo(origins=[\"f\"]),"
      "FragmentInfo(origins=[\"g\"])])'");
}

TEST(FragmentRulesTest, ScheduleRuleRoundTripAndErrors) {
  constexpr llvm::StringLiteral kText =
      R"(FragmentScheduleRule(ordered_fragments=[)"
      R"(FragmentInfo(origins=["f"],call_counter=0,mesh_name="m1")->)"
      R"(FragmentInfo(origins=["g"],mesh_name="m1")->)"
      R"(FragmentInfo(origins=["f"(1)],call_counter=0,mesh_name="m1")]))";
  auto rule = parseFragmentScheduleRule(kText);
  ASSERT_TRUE(static_cast<bool>(rule)) << errorOf(rule.takeError());
  ASSERT_EQ(rule->orderedFragments.size(), 3u);
  EXPECT_EQ(print(*rule), kText);

  EXPECT_EQ(
      errorOf(parseFragmentScheduleRule(
                  R"(FragmentScheduleRule(ordered_fragments=[)"
                  R"(FragmentInfo(origins=["f"]),FragmentInfo(origins=["g"])]))")
                  .takeError()),
      "expected ']' at position 67 (near ',FragmentInfo(origins=[\"...') in "
      "'FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=[\"f\"]),"
      "FragmentInfo(origins=[\"g\"])])'");
}

TEST(FragmentRulesTest, GetAndSetFragmentInfo) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      R"mlir(
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>
func.func @main(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %0 = mpmd.fragment<mesh="m1", origin=["g"(1), "f"], stage=1> (%arg0)
      {call_counter = 2 : ui32, split_drop_transferred} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1) -> !m1
  return %0 : !m1
}
)mlir",
      &context);
  ASSERT_TRUE(module);
  FragmentOp fragment;
  module->walk([&](FragmentOp op) { fragment = op; });
  ASSERT_TRUE(fragment);
  FragmentInfo info = getFragmentInfo(fragment);
  EXPECT_EQ(print(info),
            R"(FragmentInfo(origins=["f","g"(1)],stage=1,call_counter=2,)"
            R"(split_type=kDropTransferred,mesh_name="m1"))");

  auto target = parseFragmentInfo(
      R"(FragmentInfo(origins=["h"],split_type=kKeepTransferred,mesh_name="m1"))");
  ASSERT_TRUE(static_cast<bool>(target));
  setFragmentInfo(fragment, *target);
  EXPECT_EQ(getFragmentInfo(fragment), *target);
  EXPECT_FALSE(fragment->hasAttr("split_drop_transferred"));
  EXPECT_FALSE(fragment->hasAttr("call_counter"));
}

} // namespace
