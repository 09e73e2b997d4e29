//===- PassOptionsTest.cpp - Tests of the pass option grammars ------------===//

#include "mpmd/Transforms/Common/PassOptions.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir::mpmd;

namespace {

std::string errorOf(llvm::Error error) {
  return llvm::toString(std::move(error));
}

TEST(PassOptionsTest, UserAssignmentWithStagesAndMemoryKinds) {
  auto map = parseUserAssignmentMap("f1@m1, f2@m2/1,t@m1#pinned_host,");
  ASSERT_TRUE(static_cast<bool>(map)) << errorOf(map.takeError());
  ASSERT_EQ(map->entries.size(), 3u);
  EXPECT_EQ(map->entries.at("f1"), (MeshAssignment{"m1", std::nullopt, std::nullopt}));
  EXPECT_EQ(map->entries.at("f2"), (MeshAssignment{"m2", std::nullopt, 1}));
  EXPECT_EQ(map->entries.at("t"), (MeshAssignment{"m1", "pinned_host", std::nullopt}));
  std::string printed;
  llvm::raw_string_ostream(printed) << *map;
  EXPECT_EQ(printed, "f1@m1,f2@m2/1,t@m1#pinned_host");
  // Printing and parsing again gives the same map.
  auto again = parseUserAssignmentMap(printed);
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ(*again, *map);
}

TEST(PassOptionsTest, UserAssignmentErrorsSayWhatIsWrong) {
  EXPECT_EQ(errorOf(parseUserAssignmentMap("f1").takeError()),
            "'f1': expected 'name@mesh'");
  EXPECT_EQ(errorOf(parseUserAssignmentMap("f1@m1/-1").takeError()),
            "'f1@m1/-1': the stage must be non-negative");
  EXPECT_EQ(errorOf(parseUserAssignmentMap("f1@m1/x").takeError()),
            "'f1@m1/x': the stage 'x' is not an integer");
  EXPECT_EQ(errorOf(parseUserAssignmentMap("f1@m1#hbm").takeError()),
            "'f1@m1#hbm': unknown memory kind 'hbm'; valid kinds are 'device' "
            "and 'pinned_host'");
  EXPECT_EQ(errorOf(parseUserAssignmentMap("f1@m@1").takeError()),
            "'f1@m@1': the mesh name 'm@1' contains '@', which is reserved");
  EXPECT_EQ(errorOf(parseUserAssignmentMap("f1@m1,f1@m2").takeError()),
            "'f1' is assigned more than once");
  EXPECT_EQ(errorOf(parseUserAssignmentMap("f1@m1,,f2@m2").takeError()),
            "empty entry in 'f1@m1,,f2@m2'");
  EXPECT_EQ(errorOf(parseUserAssignmentMap("@m1").takeError()),
            "'@m1': the name is empty");
}

TEST(PassOptionsTest, IndexedAssignment) {
  auto map = parseIndexedAssignmentMap("0@m1,1@m2#pinned_host");
  ASSERT_TRUE(static_cast<bool>(map));
  EXPECT_EQ(map->entries.at(1).memoryKind, "pinned_host");
  EXPECT_EQ(errorOf(parseIndexedAssignmentMap("a@m1").takeError()),
            "'a@m1': 'a' is not a non-negative index");
  EXPECT_EQ(errorOf(parseIndexedAssignmentMap("0@m1/2").takeError()),
            "'0@m1/2': a stage is not allowed here");
}

TEST(PassOptionsTest, EquishardingConstraint) {
  auto constraint = parseInputOutputEquishardingConstraint("3:0");
  ASSERT_TRUE(static_cast<bool>(constraint));
  EXPECT_EQ(constraint->input, 3);
  EXPECT_EQ(constraint->output, 0);
  EXPECT_EQ(errorOf(parseInputOutputEquishardingConstraint("3").takeError()),
            "'3': expected 'input:output' with non-negative indices");
}

} // namespace
