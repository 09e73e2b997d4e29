//===- RenderTest.cpp - Text and SVG views of simulated schedules ---------===//

#include "mpmd/Schedule/Render.h"
#include "mpmd/Schedule/Generators.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir::mpmd::schedule;

namespace {

struct Simulated {
  Schedule schedule;
  SimulationResult result;
};

Simulated simulateBuilt(ScheduleKind kind, ScheduleParams params,
                        ActionCosts costs) {
  llvm::Expected<Schedule> schedule = buildSchedule(kind, params);
  EXPECT_TRUE(static_cast<bool>(schedule));
  llvm::Expected<SimulationResult> result = simulate(*schedule, costs);
  EXPECT_TRUE(static_cast<bool>(result));
  return {std::move(*schedule), std::move(*result)};
}

TEST(ScheduleRenderTest, AsciiOneColumnPerUnit) {
  // F = 1, full B = 3: forwards show their letter only, backwards their
  // label padded with '-'.
  Simulated simulated = simulateBuilt(ScheduleKind::kOneFOneB, {2, 3, 1},
                                      ActionCosts{1, 2, 1, 0});
  std::string text;
  llvm::raw_string_ostream os(text);
  printAsciiTimeline(simulated.schedule, simulated.result, os);
  EXPECT_EQ(text, "time   0         10\n"
                  "mesh 0 FF...B0-FB1-.B2-\n"
                  "mesh 1 .FB0-FB1-FB2-...\n");
}

TEST(ScheduleRenderTest, AsciiLowerCaseForOddChunksAndHalfUnits) {
  // Interleaved, p = 2, v = 2, m = 2: mesh 0 runs all four forwards first;
  // stages 2 and 3 are the meshes' second chunks (lower case). Half units:
  // two columns per unit.
  Simulated simulated = simulateBuilt(ScheduleKind::kInterleavedOneFOneB,
                                      {2, 2, 2}, ActionCosts{0.5, 0.5, 0.5, 0});
  std::string text;
  llvm::raw_string_ostream os(text);
  printAsciiTimeline(simulated.schedule, simulated.result, os);
  EXPECT_EQ(text, "time   0         5\n"
                  "mesh 0 FFff..b0.b1B0B1\n"
                  "mesh 1 .FFfb0fb1B0B1..\n");
  // Too wide for 10 columns: scaled to fit, and actions narrower than a
  // column after rounding (the second forward of mesh 0) vanish.
  text.clear();
  printAsciiTimeline(simulated.schedule, simulated.result, os,
                     /*maxColumns=*/10);
  EXPECT_EQ(text, "time   0\n"
                  "mesh 0 Fff.b.bB0B\n"
                  "mesh 1 .FfbfbBB1.\n");
}

TEST(ScheduleRenderTest, SummaryListsEveryMesh) {
  Simulated simulated =
      simulateBuilt(ScheduleKind::kOneFOneB, {4, 8, 1}, ActionCosts{});
  std::string text;
  llvm::raw_string_ostream os(text);
  printSummary(simulated.result, os);
  EXPECT_EQ(text,
            "makespan 33, total bubble 27.27%\n"
            "mesh         busy   bubble  active bubble  peak activations\n"
            "0              24   27.27%         27.27%                 4\n"
            "1              24   27.27%         20.00%                 3\n"
            "2              24   27.27%         11.11%                 2\n"
            "3              24   27.27%          0.00%                 1\n");
}

TEST(ScheduleRenderTest, SvgHasOneRectanglePerAction) {
  Simulated simulated =
      simulateBuilt(ScheduleKind::kZeroBubbleH1, {2, 2, 1}, ActionCosts{});
  std::string text;
  llvm::raw_string_ostream os(text);
  printSvgTimeline(simulated.schedule, simulated.result, "ZB-H1 <p=2>", os);
  EXPECT_EQ(text.find("<svg "), 0u);
  EXPECT_NE(text.find("ZB-H1 &lt;p=2&gt; (makespan 7, bubble 14.29%)"),
            std::string::npos);
  size_t actionRects = 0;
  for (size_t at = text.find("<title>"); at != std::string::npos;
       at = text.find("<title>", at + 1))
    ++actionRects;
  EXPECT_EQ(actionRects, 2u * 2u * 3u);
  EXPECT_NE(text.find("<title>W(mb 1, stage 1) 6-7</title>"),
            std::string::npos);
  EXPECT_EQ(text.substr(text.size() - 7), "</svg>\n");
}

} // namespace
