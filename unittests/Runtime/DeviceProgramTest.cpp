//===- DeviceProgramTest.cpp - Progress, replay and memory checks ---------===//
//
// Hand-built programs, including step orders no verified SSA module can
// express (the ones that deadlock).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/DeviceProgram.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace mlir::mpmd::runtime;
using ::testing::HasSubstr;

namespace {

using Kind = DeviceProgram::StepKind;

/// Two single-device meshes; values are 100 bytes unless said otherwise.
class ProgramBuilder {
public:
  ProgramBuilder() {
    program.meshes = {{"m0", 1}, {"m1", 1}};
    program.meshOrder.resize(2);
  }
  int64_t value(int64_t mesh, const std::string &name, int64_t bytes = 100) {
    program.values.push_back({mesh, bytes, name});
    return program.values.size() - 1;
  }
  int64_t input(int64_t mesh, const std::string &name, int64_t bytes = 100) {
    int64_t id = value(mesh, name, bytes);
    program.inputs.push_back(id);
    return id;
  }
  int64_t fragment(int64_t mesh, const std::string &name,
                   std::vector<int64_t> operands, std::vector<int64_t> results,
                   std::vector<bool> donatable = {}) {
    program.steps.push_back(
        {Kind::kFragment, mesh, operands, results, donatable, name});
    return program.steps.size() - 1;
  }
  int64_t transfer(int64_t to, const std::string &name, int64_t from,
                   int64_t result) {
    program.steps.push_back({Kind::kTransfer, to, {from}, {result}, {}, name});
    return program.steps.size() - 1;
  }
  /// Each mesh's order: its steps in program order.
  void orderByProgram() {
    for (auto &order : program.meshOrder)
      order.clear();
    for (size_t step = 0; step < program.steps.size(); ++step)
      program.meshOrder[program.steps[step].mesh].push_back(step);
  }

  DeviceProgram program;
};

/// F on m0 (1 time unit each) feeds G on m1 (2 units each) through
/// transfers (0.5 units), for two microbatches.
ProgramBuilder makeTwoStagePipeline() {
  ProgramBuilder b;
  int64_t x = b.input(0, "x");
  int64_t a0 = b.value(0, "a0"), a1 = b.value(0, "a1");
  int64_t r0 = b.value(1, "r0"), r1 = b.value(1, "r1");
  int64_t y0 = b.value(1, "y0"), y1 = b.value(1, "y1");
  b.fragment(0, "F0", {x}, {a0});
  b.transfer(1, "T0", a0, r0);
  b.fragment(0, "F1", {x}, {a1});
  b.transfer(1, "T1", a1, r1);
  b.fragment(1, "G0", {r0}, {y0});
  b.fragment(1, "G1", {r1}, {y1});
  b.program.outputs = {y0, y1};
  b.orderByProgram();
  return b;
}

double pipelineDuration(const DeviceProgram &program, int64_t step, int64_t,
                        int64_t) {
  const std::string &name = program.steps[step].name;
  return name[0] == 'F' ? 1.0 : name[0] == 'G' ? 2.0 : 0.5;
}

TEST(DeviceProgramTest, ReplaysAPipelineExactly) {
  ProgramBuilder b = makeTwoStagePipeline();
  ASSERT_FALSE(verifyStructure(b.program));
  auto duration = [&](int64_t step, int64_t mesh, int64_t device) {
    return pipelineDuration(b.program, step, mesh, device);
  };
  // Receives issued up front: T1 copies while G0 runs.
  // F0 [0,1] T0 [1,1.5] F1 [1,2] T1 [2,2.5] G0 [1.5,3.5] G1 [3.5,5.5].
  llvm::Expected<SimulatedRun> run = simulate(b.program, duration);
  ASSERT_TRUE(static_cast<bool>(run)) << llvm::toString(run.takeError());
  EXPECT_DOUBLE_EQ(run->makespan, 5.5);
  EXPECT_EQ(run->timings.size(), 6u);

  // m1 issues T1 only after G0: the copy lands at 4.0 and G1 ends at 6.0.
  b.program.meshOrder[1] = {1, 4, 3, 5};
  run = simulate(b.program, duration);
  ASSERT_TRUE(static_cast<bool>(run)) << llvm::toString(run.takeError());
  EXPECT_DOUBLE_EQ(run->makespan, 6.0);
}

TEST(DeviceProgramTest, RefusesOrdersThatDeadlockAndNamesTheCycle) {
  // m0 runs A (needs y from m1) before B (makes x); m1 runs C (needs x)
  // before D (makes y): each waits for the other.
  ProgramBuilder b;
  int64_t in0 = b.input(0, "in0"), in1 = b.input(1, "in1");
  int64_t x = b.value(0, "x"), y = b.value(1, "y");
  int64_t xOn1 = b.value(1, "x@m1"), yOn0 = b.value(0, "y@m0");
  int64_t a = b.value(0, "a"), c = b.value(1, "c");
  int64_t stepA = b.fragment(0, "A", {yOn0}, {a});
  int64_t stepB = b.fragment(0, "B", {in0}, {x});
  int64_t stepC = b.fragment(1, "C", {xOn1}, {c});
  int64_t stepD = b.fragment(1, "D", {in1}, {y});
  int64_t toM1 = b.transfer(1, "x to m1", x, xOn1);
  int64_t toM0 = b.transfer(0, "y to m0", y, yOn0);
  b.program.outputs = {a, c};
  b.program.meshOrder = {{toM0, stepA, stepB}, {toM1, stepC, stepD}};
  ASSERT_FALSE(verifyStructure(b.program));

  llvm::Error error = verifyProgress(b.program);
  ASSERT_TRUE(static_cast<bool>(error));
  std::string message = llvm::toString(std::move(error));
  EXPECT_THAT(message, HasSubstr("deadlock"));
  EXPECT_THAT(message, HasSubstr("m0:0 waits at 'A' for y@m0 from 'D' on m1:0"));
  EXPECT_THAT(message, HasSubstr("m1:0 waits at 'C' for x@m1 from 'B' on m0:0"));

  // Swapping each mesh's two fragments makes it run.
  b.program.meshOrder = {{toM0, stepB, stepA}, {toM1, stepD, stepC}};
  EXPECT_FALSE(verifyProgress(b.program));
}

TEST(DeviceProgramTest, MultiDeviceMeshesReceiveFromTheMatchingDevice) {
  // m0 has 2 devices, m1 has 4: m1's device 3 receives from m0's device 1.
  ProgramBuilder b;
  b.program.meshes = {{"m0", 2}, {"m1", 4}};
  int64_t x = b.input(0, "x");
  int64_t a = b.value(0, "a"), r = b.value(1, "r"), y = b.value(1, "y");
  b.fragment(0, "F", {x}, {a});
  b.transfer(1, "T", a, r);
  b.fragment(1, "G", {r}, {y});
  b.program.outputs = {y};
  b.orderByProgram();
  auto duration = [&](int64_t step, int64_t mesh, int64_t device) {
    // Device 1 of m0 is slow: m1's odd devices wait for it.
    return step == 0 && device == 1 ? 10.0 : 1.0;
  };
  llvm::Expected<SimulatedRun> run = simulate(b.program, duration);
  ASSERT_TRUE(static_cast<bool>(run)) << llvm::toString(run.takeError());
  EXPECT_DOUBLE_EQ(run->makespan, 12.0);
  for (const StepTiming &timing : run->timings)
    if (timing.step == 2)
      EXPECT_DOUBLE_EQ(timing.end, timing.device % 2 ? 12.0 : 3.0)
          << "device " << timing.device;
}

TEST(DeviceProgramTest, AReceiverWaitsForEveryPieceOfItsShard) {
  // A relayout between two 2-device meshes: each device of m1 gets a piece
  // from both devices of m0, so both wait for m0's slow device 1.
  ProgramBuilder b;
  b.program.meshes = {{"m0", 2}, {"m1", 2}};
  int64_t x = b.input(0, "x");
  int64_t a = b.value(0, "a"), r = b.value(1, "r"), y = b.value(1, "y");
  b.fragment(0, "F", {x}, {a});
  int64_t transfer = b.transfer(1, "T", a, r);
  b.program.steps[transfer].pieces = {{0, 0, 25}, {1, 0, 25}, {0, 1, 25},
                                      {1, 1, 25}};
  b.fragment(1, "G", {r}, {y});
  b.program.outputs = {y};
  b.orderByProgram();
  ASSERT_FALSE(static_cast<bool>(verifyStructure(b.program)));
  EXPECT_EQ(b.program.getSourceDevices(b.program.steps[transfer], 1),
            (llvm::SmallVector<int64_t, 4>{0, 1}));
  EXPECT_EQ(b.program.getReceivedBytes(b.program.steps[transfer], 1), 50);
  auto duration = [&](int64_t step, int64_t, int64_t device) {
    return step == 0 && device == 1 ? 10.0 : 1.0;
  };
  llvm::Expected<SimulatedRun> run = simulate(b.program, duration);
  ASSERT_TRUE(static_cast<bool>(run)) << llvm::toString(run.takeError());
  for (const StepTiming &timing : run->timings)
    if (timing.step == 2)
      EXPECT_DOUBLE_EQ(timing.end, 12.0) << "device " << timing.device;

}

TEST(DeviceProgramTest, TransferPiecesMustServeEveryReceiverOnce) {
  ProgramBuilder b;
  b.program.meshes = {{"m0", 2}, {"m1", 2}};
  int64_t x = b.input(0, "x");
  int64_t r = b.value(1, "r");
  int64_t transfer = b.transfer(1, "T", x, r);
  b.program.outputs = {r};
  b.orderByProgram();
  auto errorWith = [&](std::vector<DeviceProgram::TransferPiece> pieces) {
    b.program.steps[transfer].pieces = std::move(pieces);
    llvm::Error error = verifyStructure(b.program);
    return error ? llvm::toString(std::move(error)) : "no error";
  };
  EXPECT_EQ(errorWith({{0, 0, 100}, {1, 1, 100}}), "no error");
  EXPECT_THAT(errorWith({{0, 0, 100}}),
              HasSubstr("transfer 'T' has no piece for some receiving device"));
  EXPECT_THAT(errorWith({{1, 1, 100}, {0, 0, 100}}),
              HasSubstr("transfer 'T' has pieces out of order or twice"));
  EXPECT_THAT(errorWith({{0, 0, 100}, {2, 1, 100}}),
              HasSubstr("transfer 'T' has a piece between devices its meshes "
                        "lack"));
}

TEST(DeviceProgramTest, StructureErrorsAreNamed) {
  ProgramBuilder b = makeTwoStagePipeline();
  b.program.meshOrder[1].pop_back();
  llvm::Error error = verifyStructure(b.program);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_THAT(llvm::toString(std::move(error)),
              HasSubstr("step 'G1' appears 0 times in its mesh's order"));

  b = makeTwoStagePipeline();
  b.program.steps[2].results = {b.program.steps[0].results.front()};
  error = verifyStructure(b.program);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_THAT(llvm::toString(std::move(error)),
              HasSubstr("value a0 is produced twice (again by step 'F1')"));

  b = makeTwoStagePipeline();
  b.program.steps[4].operands = {0};
  error = verifyStructure(b.program);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_THAT(llvm::toString(std::move(error)),
              HasSubstr("step 'G0' reads x, which lives on another mesh"));
}

TEST(DeviceProgramTest, MemoryPeaksFollowLastUsesAndDonation) {
  // x -> a -> b -> c on one mesh: at most two buffers live at a time.
  ProgramBuilder b;
  int64_t x = b.input(0, "x");
  int64_t a = b.value(0, "a"), v = b.value(0, "b"), c = b.value(0, "c");
  b.fragment(0, "f", {x}, {a});
  b.fragment(0, "g", {a}, {v});
  b.fragment(0, "h", {v}, {c});
  b.program.outputs = {c};
  b.orderByProgram();
  llvm::Expected<std::vector<int64_t>> peak = checkMemory(b.program, {});
  ASSERT_TRUE(static_cast<bool>(peak)) << llvm::toString(peak.takeError());
  EXPECT_EQ((*peak)[0], 200);

  // Donating each operand lets each result take its place.
  for (DeviceProgram::Step &step : b.program.steps)
    step.donatable = {true};
  peak = checkMemory(b.program, int64_t(100));
  ASSERT_TRUE(static_cast<bool>(peak)) << llvm::toString(peak.takeError());
  EXPECT_EQ((*peak)[0], 100);

  // Without donation, a 150-byte cap fails at the first step, naming it.
  for (DeviceProgram::Step &step : b.program.steps)
    step.donatable.clear();
  peak = checkMemory(b.program, int64_t(150));
  ASSERT_FALSE(static_cast<bool>(peak));
  std::string message = llvm::toString(peak.takeError());
  EXPECT_THAT(message, HasSubstr("device memory exceeded on mesh m0 at 'f': "
                                 "200 bytes live, the cap is 150"));
  EXPECT_THAT(message, HasSubstr("x (100 B)"));
  EXPECT_THAT(message, HasSubstr("a (100 B)"));

  peak = checkMemory(b.program, int64_t(50));
  ASSERT_FALSE(static_cast<bool>(peak));
  EXPECT_THAT(llvm::toString(peak.takeError()),
              HasSubstr("by the program inputs alone"));
}

TEST(DeviceProgramTest, MemoryBoundHoldsWhateverTheCopiesTiming) {
  // m0 sends a0 and a1 to m1 and hears nothing back: a copy may land after
  // m0 made the next value, so m0 may hold x, a0 and a1 at once.
  ProgramBuilder pipeline = makeTwoStagePipeline();
  llvm::Expected<std::vector<int64_t>> peak = checkMemory(pipeline.program, {});
  ASSERT_TRUE(static_cast<bool>(peak)) << llvm::toString(peak.takeError());
  EXPECT_EQ((*peak)[0], 300);
  EXPECT_EQ((*peak)[1], 300);

  // Here m0 waits for z, made on m1 by a fragment reading a0's copy: from
  // then on m0 knows a0 was copied and frees it before making a1.
  ProgramBuilder b;
  int64_t x = b.input(0, "x");
  int64_t a0 = b.value(0, "a0"), a1 = b.value(0, "a1");
  int64_t r0 = b.value(1, "r0"), y = b.value(1, "y", 1);
  int64_t z = b.value(0, "z", 1), h = b.value(0, "h", 1);
  b.fragment(0, "F0", {x}, {a0});
  b.transfer(1, "T0", a0, r0);
  b.fragment(1, "G", {r0}, {y});
  b.transfer(0, "T1", y, z);
  b.fragment(0, "H", {z}, {h});
  b.fragment(0, "F1", {x}, {a1});
  b.program.outputs = {h, a1};
  b.orderByProgram();
  peak = checkMemory(b.program, {});
  ASSERT_TRUE(static_cast<bool>(peak)) << llvm::toString(peak.takeError());
  // x + a0 + z at T1's issue; x + h + a1 at F1.
  EXPECT_EQ((*peak)[0], 201);

  // The same on meshes of 2 devices, where each device of m1 receives a
  // piece of a0 from both devices of m0: a device of m0 then hears back
  // from one receiver only, never knows the other's piece landed, and the
  // bound keeps a0 to the end (x + a0 + h + a1 at F1).
  b.program.meshes = {{"m0", 2}, {"m1", 2}};
  b.program.steps[1].pieces = {{0, 0, 50}, {1, 0, 50}, {0, 1, 50}, {1, 1, 50}};
  peak = checkMemory(b.program, {});
  ASSERT_TRUE(static_cast<bool>(peak)) << llvm::toString(peak.takeError());
  EXPECT_EQ((*peak)[0], 301);
}

} // namespace
