//===- ExecutorTest.cpp - Running MPMD modules on virtual devices ---------===//

#include "mpmd/InitAllDialects.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Support/Statistics.h"
#include "mpmd/Runtime/Trace.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/JSON.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <chrono>
#include <mutex>
#include <fstream>
#include <random>
#include <thread>

#include <sched.h>

using namespace mlir;
using namespace mlir::mpmd::runtime;
using ::testing::HasSubstr;

namespace {

class ExecutorTest : public ::testing::Test {
protected:
  ExecutorTest() {
    DialectRegistry registry;
    mpmd::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.getDiagEngine().registerHandler([&](Diagnostic &diagnostic) {
      diagnostics += diagnostic.str() + "\n";
    });
  }

  std::unique_ptr<Executable> create(llvm::StringRef text) {
    module = parseSourceString<ModuleOp>(text, &context);
    if (!module)
      return nullptr;
    FailureOr<std::unique_ptr<Executable>> executable =
        Executable::create(*module);
    return succeeded(executable) ? std::move(*executable) : nullptr;
  }

  static Tensor vector(std::vector<float> values) {
    Tensor tensor = Tensor::empty(DType::F32, {int64_t(values.size())});
    std::copy(values.begin(), values.end(), tensor.data<float>());
    return tensor;
  }
  static std::vector<float> values(const Tensor &tensor) {
    return std::vector<float>(tensor.data<float>(),
                              tensor.data<float>() + tensor.numElements());
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string diagnostics;
};

/// Doubles on m0, transfers, squares on m1 (whose mesh has `m1Devices`).
std::string twoMeshProgram(int m1Devices, llvm::StringRef donor = "") {
  std::string text = R"mlir(
    #topology = #mpmd.topology<<"m0" : <["x"=1]>>, <"m1" : <["x"=M1]>>>
    !t0 = !mpmd.mesh_tensor<"m0", tensor<4xf32>>
    !t1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
    func.func @main(%x: !t0) -> (!t1, !t0) attributes {topology = #topology} {
      %0 = mpmd.fragment_call<mesh="m0", origin=["layer"]> @double(%x) {call_counter = 2 : ui32} : (!t0) -> !t0
      %1 = mpmd.transfer %0 : (!t0) -> !t1
      %2 = mpmd.fragment_call<mesh="m1", origin=["layer"(1)]> @square(%1) : (!t1) -> !t1
      %3 = mpmd.fragment<mesh="m0", origin=[]> (%0) (%a: tensor<4xf32>) {
        %n = stablehlo.negate %a : tensor<4xf32>
        mpmd.return %n : tensor<4xf32>
      } : (!t0) -> !t0
      return %2, %3 : !t1, !t0
    }
    func.func @double(%a: tensor<4xf32>) -> tensor<4xf32>
        attributes {mesh_shape = #sdy.mesh<["x"=1]>} {
      %r = stablehlo.add %a, %a : tensor<4xf32>
      return %r : tensor<4xf32>
    }
    func.func @square(%a: tensor<4xf32> DONOR) -> tensor<4xf32>
        attributes {mesh_shape = #sdy.mesh<["x"=M1]>} {
      %r = stablehlo.multiply %a, %a : tensor<4xf32>
      return %r : tensor<4xf32>
    }
  )mlir";
  for (size_t at; (at = text.find("M1")) != std::string::npos;)
    text.replace(at, 2, std::to_string(m1Devices));
  text.replace(text.find("DONOR"), 5, donor.str());
  return text;
}

TEST_F(ExecutorTest, RunsFragmentsAndTransfersAcrossMeshes) {
  std::unique_ptr<Executable> executable = create(twoMeshProgram(1));
  ASSERT_TRUE(executable) << diagnostics;
  const DeviceProgram &program = executable->getProgram();
  ASSERT_EQ(program.steps.size(), 4u);
  EXPECT_EQ(program.steps[0].name, "layer mb 2");
  EXPECT_EQ(program.steps[1].name, "transfer m0->m1");
  EXPECT_EQ(program.steps[2].name, "layer(1)");
  EXPECT_EQ(program.steps[3].name, "inferred");
  EXPECT_EQ(std::string({program.steps[0].letter, program.steps[1].letter,
                         program.steps[2].letter, program.steps[3].letter}),
            "FTBo");

  llvm::Expected<RunResult> result =
      executable->run({vector({1, 2, 3, -4})}, {});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  ASSERT_EQ(result->outputs.size(), 2u);
  EXPECT_EQ(values(result->outputs[0]), (std::vector<float>{4, 16, 36, 64}));
  EXPECT_EQ(values(result->outputs[1]), (std::vector<float>{-2, -4, -6, 8}));
  EXPECT_EQ(result->executed.size(), 4u);
  EXPECT_EQ(result->transferredBytes, 16);
  EXPECT_GT(result->stepUs, 0);
  for (const ExecutedStep &executed : result->executed) {
    EXPECT_LE(executed.startUs, executed.endUs);
    EXPECT_LE(executed.endUs, result->stepUs);
  }
  // x dies after `double`: m0 holds two 16-byte buffers at most.
  ASSERT_EQ(result->devices.size(), 2u);
  EXPECT_EQ(result->devices[0].peakBytes, 32);
}

TEST_F(ExecutorTest, ReplicatesFragmentsOverAMeshsDevices) {
  std::unique_ptr<Executable> executable = create(twoMeshProgram(3));
  ASSERT_TRUE(executable) << diagnostics;
  llvm::Expected<RunResult> result = executable->run({vector({1, 2, 3, 4})}, {});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(values(result->outputs[0]), (std::vector<float>{4, 16, 36, 64}));
  // 1 double + 1 negate on m0, 3 copies and 3 squares on m1's devices.
  EXPECT_EQ(result->executed.size(), 8u);
  EXPECT_EQ(result->transferredBytes, 48);
  EXPECT_EQ(result->devices.size(), 4u);
}

/// One fragment on a mesh of 2 devices: each device adds its partition id
/// to x, then the devices all-reduce (sum) over the mesh.
constexpr llvm::StringLiteral kAllReduceOverMesh = R"mlir(
    !t = !mpmd.mesh_tensor<"m0", tensor<4xf32>>
    func.func @main(%x: !t) -> !t
        attributes {topology = #mpmd.topology<<"m0" : <["x"=2]>>>} {
      %0 = mpmd.fragment<mesh="m0", origin=["spmd"]> (%x) (%a: tensor<4xf32>) {
        %p = stablehlo.partition_id : tensor<ui32>
        %pf = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
        %pb = stablehlo.broadcast_in_dim %pf, dims = [] : (tensor<f32>) -> tensor<4xf32>
        %s = stablehlo.add %a, %pb : tensor<4xf32>
        %r = "stablehlo.all_reduce"(%s) ({
        ^bb0(%l: tensor<f32>, %m: tensor<f32>):
          %sum = stablehlo.add %l, %m : tensor<f32>
          stablehlo.return %sum : tensor<f32>
        }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
            channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>,
            use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
        mpmd.return %r : tensor<4xf32>
      } : (!t) -> !t
      return %0 : !t
    }
  )mlir";

TEST_F(ExecutorTest, CollectivesOfAFragmentRunOverItsMeshsDevices) {
  std::unique_ptr<Executable> executable = create(kAllReduceOverMesh);
  ASSERT_TRUE(executable) << diagnostics;
  llvm::Expected<RunResult> result = executable->run({vector({1, 2, 3, 4})}, {});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  // (x + 0) + (x + 1).
  EXPECT_EQ(values(result->outputs[0]), (std::vector<float>{3, 5, 7, 9}));
  // What an MPI transport prepares: the one group, in global devices.
  EXPECT_EQ(executable->getCollectiveGroups(),
            (std::vector<std::vector<int64_t>>{{0, 1}}));
  // A program without body collectives needs none.
  std::unique_ptr<Executable> plain = create(twoMeshProgram(3));
  ASSERT_TRUE(plain) << diagnostics;
  EXPECT_TRUE(plain->getCollectiveGroups().empty());
}

TEST_F(ExecutorTest, ADeviceThatFailsAbortsTheCollectiveOfTheOthers) {
  std::unique_ptr<Executable> executable = create(kAllReduceOverMesh);
  ASSERT_TRUE(executable) << diagnostics;
  ExecutorOptions options;
  // Device 0 enters the all_reduce and waits for device 1, which fails
  // first: the run must end with device 1's error, not hang.
  options.faultForTesting = [](int64_t, int64_t, int64_t device) -> llvm::Error {
    if (device == 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      return llvm::createStringError("injected fault");
    }
    return llvm::Error::success();
  };
  llvm::Expected<RunResult> result =
      executable->run({vector({1, 2, 3, 4})}, options);
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_THAT(llvm::toString(result.takeError()),
              HasSubstr("fragment 'spmd' failed on device m0:1: injected fault"));
  EXPECT_THAT(diagnostics, HasSubstr("'stablehlo.all_reduce' op could not "
                                     "complete"));
}

TEST_F(ExecutorTest, DonatedOperandsFreeTheirBufferForTheResult) {
  // Without donation m1 holds the received copy and the square at once.
  std::unique_ptr<Executable> plain = create(twoMeshProgram(1));
  ASSERT_TRUE(plain) << diagnostics;
  llvm::Expected<RunResult> result = plain->run({vector({1, 2, 3, 4})}, {});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->devices[1].peakBytes, 32);

  std::unique_ptr<Executable> donating =
      create(twoMeshProgram(1, "{jax.buffer_donor = true}"));
  ASSERT_TRUE(donating) << diagnostics;
  EXPECT_EQ(donating->getProgram().steps[2].donatable,
            std::vector<bool>{true});
  result = donating->run({vector({1, 2, 3, 4})}, {});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(values(result->outputs[0]), (std::vector<float>{4, 16, 36, 64}));
  EXPECT_EQ(result->devices[1].peakBytes, 16);
}

TEST_F(ExecutorTest, AHandedOverBufferIsNotWrittenWhileItsSenderReadsIt) {
  // m1 receives %0 as a handover (it shares m0's buffer) and donates it to
  // `square`; m0 still negates %0 after that (its step is held back 20 ms).
  // The shared buffer must not be squared in place under m0's negate.
  std::unique_ptr<Executable> executable =
      create(twoMeshProgram(1, "{jax.buffer_donor = true}"));
  ASSERT_TRUE(executable) << diagnostics;
  ExecutorOptions options;
  options.beforeStepForTesting = [](int64_t step) {
    if (step == 3)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  };
  for (int run = 0; run < 3; ++run) {
    llvm::Expected<RunResult> result =
        executable->run({vector({1, 2, 3, 4})}, options);
    ASSERT_TRUE(static_cast<bool>(result))
        << llvm::toString(result.takeError());
    EXPECT_EQ(values(result->outputs[0]), (std::vector<float>{4, 16, 36, 64}));
    EXPECT_EQ(values(result->outputs[1]),
              (std::vector<float>{-2, -4, -6, -8}));
    // The handover moves the value's bytes without a copy engine: it lands
    // the moment both sides are there.
    for (const ExecutedStep &executed : result->executed)
      if (executed.step == 1)
        EXPECT_EQ(executed.startUs, executed.endUs);
  }
}

/// The CPUs the calling thread may run on.
std::vector<int> getThreadCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set))
      cpus.push_back(cpu);
  return cpus;
}

TEST_F(ExecutorTest, PinnedDeviceThreadsRunOnCoresOfTheirOwn) {
  std::unique_ptr<Executable> executable = create(twoMeshProgram(1));
  ASSERT_TRUE(executable) << diagnostics;
  const DeviceProgram &program = executable->getProgram();
  const std::vector<int> allowed = getThreadCpus();
  // Two devices spin (and so pin) only with a core each.
  const bool canPin =
      allowed.size() >= 2 && std::thread::hardware_concurrency() >= 2;
  for (bool pin : {true, false}) {
    SCOPED_TRACE(pin ? "pinned" : "not pinned");
    std::mutex mutex;
    std::vector<std::pair<int64_t, std::vector<int>>> stepCpus;
    ExecutorOptions options;
    options.pinDeviceThreads = pin;
    options.beforeStepForTesting = [&](int64_t step) {
      std::vector<int> cpus = getThreadCpus();
      std::lock_guard<std::mutex> lock(mutex);
      stepCpus.push_back({step, std::move(cpus)});
    };
    llvm::Expected<RunResult> result =
        executable->run({vector({1, 2, 3, 4})}, options);
    ASSERT_TRUE(static_cast<bool>(result))
        << llvm::toString(result.takeError());
    EXPECT_EQ(values(result->outputs[0]), (std::vector<float>{4, 16, 36, 64}));
    ASSERT_EQ(result->devices.size(), 2u);
    const int cpu0 = result->devices[0].pinnedCpu;
    const int cpu1 = result->devices[1].pinnedCpu;
    // The run says how it waited: two devices with a core each spin.
    EXPECT_EQ(result->spun, canPin);
    if (!result->spinStopReason.empty()) {
      EXPECT_GE(result->spinStoppedUs, 0);
      EXPECT_LE(result->spinStoppedUs, result->stepUs);
    }
    if (pin && canPin) {
      EXPECT_TRUE(llvm::is_contained(allowed, cpu0));
      EXPECT_TRUE(llvm::is_contained(allowed, cpu1));
      EXPECT_NE(cpu0, cpu1);
    } else {
      EXPECT_EQ(cpu0, -1);
      EXPECT_EQ(cpu1, -1);
    }
    // Each fragment ran on its device's core, or anywhere once the run
    // stopped spinning (a loaded machine); never on the other's core.
    ASSERT_EQ(stepCpus.size(), 3u);
    for (const auto &[step, cpus] : stepCpus) {
      int pinned = result->devices[program.steps[step].mesh].pinnedCpu;
      if (pinned >= 0 && cpus.size() == 1)
        EXPECT_EQ(cpus, std::vector<int>{pinned});
      else
        EXPECT_EQ(cpus, allowed);
    }
  }
}

TEST_F(ExecutorTest, RunsOfOneExecutableDrawTheSameRandomNumbers) {
  // The executor keeps its interpreters across runs; each run still draws
  // the rng streams of a fresh one.
  std::unique_ptr<Executable> executable = create(R"mlir(
    !t = !mpmd.mesh_tensor<"m0", tensor<f32>>
    !r = !mpmd.mesh_tensor<"m0", tensor<8xf32>>
    func.func @main(%lo: !t, %hi: !t) -> !r
        attributes {topology = #mpmd.topology<<"m0" : <["x"=1]>>>} {
      %0 = mpmd.fragment<mesh="m0", origin=["draw"]> (%lo, %hi)
          (%a: tensor<f32>, %b: tensor<f32>) {
        %shape = stablehlo.constant dense<8> : tensor<1xi64>
        %u = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<8xf32>
        mpmd.return %u : tensor<8xf32>
      } : (!t, !t) -> !r
      return %0 : !r
    }
  )mlir");
  ASSERT_TRUE(executable) << diagnostics;
  Tensor lo = Tensor::zeros(DType::F32, {}), hi = Tensor::empty(DType::F32, {});
  *hi.data<float>() = 1;
  llvm::Expected<RunResult> first = executable->run({lo, hi}, {});
  ASSERT_TRUE(static_cast<bool>(first)) << llvm::toString(first.takeError());
  llvm::Expected<RunResult> second = executable->run({lo, hi}, {});
  ASSERT_TRUE(static_cast<bool>(second)) << llvm::toString(second.takeError());
  EXPECT_EQ(values(first->outputs[0]), values(second->outputs[0]));
  // Two draws of one run differ (the values are random at all).
  std::vector<float> drawn = values(first->outputs[0]);
  EXPECT_NE(drawn.front(), drawn.back());
}

TEST_F(ExecutorTest, RefusesAProgramOverTheMemoryCapBeforeRunning) {
  std::unique_ptr<Executable> executable = create(twoMeshProgram(1));
  ASSERT_TRUE(executable) << diagnostics;
  ExecutorOptions options;
  options.deviceMemoryBytes = 24;
  llvm::Expected<RunResult> result =
      executable->run({vector({1, 2, 3, 4})}, options);
  ASSERT_FALSE(static_cast<bool>(result));
  std::string message = llvm::toString(result.takeError());
  EXPECT_THAT(message, HasSubstr("device memory exceeded on mesh m0 at "
                                 "'layer mb 2': 32 bytes live, the cap is 24"));
  EXPECT_THAT(message, HasSubstr("input 0 (16 B)"));
  options.deviceMemoryBytes = 32;
  EXPECT_TRUE(static_cast<bool>(executable->run({vector({1, 2, 3, 4})}, options)));
}

TEST_F(ExecutorTest, ChecksInputs) {
  std::unique_ptr<Executable> executable = create(twoMeshProgram(1));
  ASSERT_TRUE(executable) << diagnostics;
  llvm::Expected<RunResult> result = executable->run({}, {});
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_THAT(llvm::toString(result.takeError()),
              HasSubstr("the program takes 1 inputs, got 0"));
  result = executable->run({vector({1, 2, 3})}, {});
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_THAT(llvm::toString(result.takeError()),
              HasSubstr("input 0: expected tensor<4xf32>, got tensor<3xf32>"));
}

TEST_F(ExecutorTest, RejectsWhatItCannotRun) {
  EXPECT_FALSE(create(R"mlir(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      return %x : tensor<4xf32>
    }
  )mlir"));
  EXPECT_THAT(diagnostics, HasSubstr("@main has no topology: not an MPMD program"));

  diagnostics.clear();
  EXPECT_FALSE(create(R"mlir(
    func.func @main(%x: tensor<4xf32>) -> !mpmd.mesh_tensor<"m0", tensor<4xf32>>
        attributes {topology = #mpmd.topology<<"m0" : <["x"=1]>>>} {
      %0 = mpmd.assign %x : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m0", tensor<4xf32>>
      return %0 : !mpmd.mesh_tensor<"m0", tensor<4xf32>>
    }
  )mlir"));
  EXPECT_THAT(diagnostics, HasSubstr("supports mesh tensors only, not 'tensor<4xf32>'"));

  // A fragment whose body the interpreter cannot run fails the run, naming
  // the op (diagnostic) and the fragment (error).
  diagnostics.clear();
  std::unique_ptr<Executable> executable = create(R"mlir(
    !t = !mpmd.mesh_tensor<"m0", tensor<4xf32>>
    func.func @main(%x: !t) -> !t
        attributes {topology = #mpmd.topology<<"m0" : <["x"=1]>>>} {
      %0 = mpmd.fragment<mesh="m0", origin=["bad"]> (%x) (%a: tensor<4xf32>) {
        %r = stablehlo.custom_call @unknown_kernel(%a) : (tensor<4xf32>) -> tensor<4xf32>
        mpmd.return %r : tensor<4xf32>
      } : (!t) -> !t
      return %0 : !t
    }
  )mlir");
  ASSERT_TRUE(executable) << diagnostics;
  llvm::Expected<RunResult> result = executable->run({vector({1, 2, 3, 4})}, {});
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_THAT(llvm::toString(result.takeError()),
              HasSubstr("fragment 'bad' failed on device m0:0"));
  EXPECT_THAT(diagnostics, HasSubstr("custom_call"));
}

TEST_F(ExecutorTest, WritesAChromeTraceAndASummary) {
  std::unique_ptr<Executable> executable = create(twoMeshProgram(1));
  ASSERT_TRUE(executable) << diagnostics;
  llvm::Expected<RunResult> result = executable->run({vector({1, 2, 3, 4})}, {});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());

  std::string trace;
  llvm::raw_string_ostream os(trace);
  writeChromeTrace(executable->getProgram(), *result, os);
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(trace);
  ASSERT_TRUE(static_cast<bool>(json)) << llvm::toString(json.takeError());
  const llvm::json::Array *events =
      json->getAsObject()->getArray("traceEvents");
  ASSERT_TRUE(events);
  int complete = 0, flowStarts = 0, flowEnds = 0;
  std::vector<std::string> names;
  for (const llvm::json::Value &event : *events) {
    const llvm::json::Object *object = event.getAsObject();
    llvm::StringRef phase = *object->getString("ph");
    complete += phase == "X";
    flowStarts += phase == "s";
    flowEnds += phase == "f";
    if (phase == "X")
      names.push_back(object->getString("name")->str());
  }
  EXPECT_EQ(complete, 4);
  EXPECT_EQ(flowStarts, 1);
  EXPECT_EQ(flowEnds, 1);
  llvm::sort(names);
  EXPECT_EQ(names, (std::vector<std::string>{"inferred", "layer mb 2",
                                             "layer(1)", "transfer m0->m1"}));

  llvm::Expected<SimulatedRun> replay =
      replayMeasured(executable->getProgram(), *result);
  ASSERT_TRUE(static_cast<bool>(replay)) << llvm::toString(replay.takeError());
  EXPECT_GT(replay->makespan, 0);
  EXPECT_LE(replay->makespan, result->stepUs * (1 + 1e-9));
  std::string summary;
  llvm::raw_string_ostream summaryOs(summary);
  printRunSummary(executable->getProgram(), *result, &*replay, summaryOs);
  EXPECT_THAT(summary, HasSubstr("step time: "));
  EXPECT_THAT(summary, HasSubstr("measured/replay"));
  EXPECT_THAT(summary, HasSubstr("3 fragment runs, 1 copies moving 16 B"));
  EXPECT_THAT(summary, HasSubstr("m1:0"));
  // The measured and replayed timelines side by side: m1 runs one backward
  // fragment ('B'), m0 a forward ('F') and an inferred one ('o'); each
  // fragment covers at least one column.
  EXPECT_THAT(summary, HasSubstr("timelines (one column = "));
  size_t m1Row = summary.find("m1:0     measured |");
  ASSERT_NE(m1Row, std::string::npos) << summary;
  std::string m1Measured = summary.substr(m1Row, summary.find('\n', m1Row) - m1Row);
  EXPECT_THAT(m1Measured, HasSubstr("B"));
  EXPECT_THAT(m1Measured, ::testing::Not(HasSubstr("F")));
  size_t m0Replay = summary.find("replay   |");
  ASSERT_NE(m0Replay, std::string::npos) << summary;
  std::string m0Replayed = summary.substr(m0Replay, summary.find('\n', m0Replay) - m0Replay);
  // m0's two fragments may share a column (they last microseconds); the
  // later one is drawn over the earlier.
  EXPECT_NE(m0Replayed.find_first_of("Fo"), std::string::npos) << m0Replayed;
  EXPECT_THAT(m0Replayed, ::testing::Not(HasSubstr("B")));
}

TEST_F(ExecutorTest, TheSummarySaysHowTheDevicesWaited) {
  std::unique_ptr<Executable> executable = create(twoMeshProgram(1));
  ASSERT_TRUE(executable) << diagnostics;
  RunResult result;
  result.stepUs = 4000;
  result.devices = {{0, 0, 0, 1000, /*pinnedCpu=*/0},
                    {1, 0, 0, 1000, /*pinnedCpu=*/1}};
  auto summarize = [&] {
    std::string summary;
    llvm::raw_string_ostream os(summary);
    printRunSummary(executable->getProgram(), result, nullptr, os);
    return summary;
  };
  // A run that never spun (one device, or more devices than cores) says
  // nothing about waiting.
  EXPECT_THAT(summarize(), ::testing::Not(HasSubstr("waiting:")));
  result.spun = true;
  EXPECT_THAT(summarize(),
              HasSubstr("waiting: spin, then park; device threads pinned to "
                        "CPUs 0, 1\n"));
  result.hostPreemptions = 2;
  EXPECT_THAT(summarize(),
              HasSubstr("pinned to CPUs 0, 1; kept through 2 preemptions with "
                        "no other process runnable\n"));
  result.hostPreemptions = 0;
  result.spinStoppedUs = 1500;
  result.spinStopReason = "a waiting device thread lost its core for 900 us";
  EXPECT_THAT(summarize(),
              HasSubstr("pinned to CPUs 0, 1; stopped spinning (and pinning) "
                        "at 1.500 ms: a waiting device thread lost its core "
                        "for 900 us\n"));
  result.devices[0].pinnedCpu = result.devices[1].pinnedCpu = -1;
  EXPECT_THAT(summarize(), HasSubstr("waiting: spin, then park; stopped"));
}

/// A GPipe step over `meshes` single-device meshes in a chain and
/// `microbatches` microbatches: forward fragments mesh by mesh with a
/// transfer between neighbours, then the backward ones in reverse; output k
/// is microbatch k's backward result on m0. Every fragment reads its mesh's
/// weight, so weights live through the step and activations pile up.
std::string pipelineProgram(int meshes, int microbatches) {
  auto type = [](int mesh) {
    return "!mpmd.mesh_tensor<\"m" + std::to_string(mesh) +
           "\", tensor<64xf32>>";
  };
  std::string topology, arguments, body, results, resultTypes;
  for (int mesh = 0; mesh < meshes; ++mesh) {
    topology += std::string(mesh ? ", " : "") + "<\"m" + std::to_string(mesh) +
                "\" : <[\"x\"=1]>>";
    arguments += ", %w" + std::to_string(mesh) + ": " + type(mesh);
  }
  int next = 0;
  auto call = [&](const std::string &callee, int mesh, const std::string &in,
                  int microbatch, bool backward) {
    std::string value = "%v" + std::to_string(next++);
    std::string origin = "\"stage" + std::to_string(mesh) + "\"" +
                         (backward ? "(1)" : "");
    body += value + " = mpmd.fragment_call<mesh=\"m" + std::to_string(mesh) +
            "\", origin=[" + origin + "]> @" + callee + "(" + in + ", %w" +
            std::to_string(mesh) + ") {call_counter = " +
            std::to_string(microbatch) + " : ui32} : (" + type(mesh) + ", " +
            type(mesh) + ") -> " + type(mesh) + "\n";
    return value;
  };
  auto transfer = [&](const std::string &in, int from, int to) {
    std::string value = "%v" + std::to_string(next++);
    body += value + " = mpmd.transfer " + in + " : (" + type(from) + ") -> " +
            type(to) + "\n";
    return value;
  };
  std::vector<std::string> activations;
  for (int microbatch = 0; microbatch < microbatches; ++microbatch) {
    std::string value = "%x";
    for (int mesh = 0; mesh < meshes; ++mesh) {
      if (mesh)
        value = transfer(value, mesh - 1, mesh);
      value = call("forward", mesh, value, microbatch, false);
    }
    activations.push_back(value);
  }
  for (int microbatch = 0; microbatch < microbatches; ++microbatch) {
    std::string value = activations[microbatch];
    for (int mesh = meshes - 1; mesh >= 0; --mesh) {
      value = call("backward", mesh, value, microbatch, true);
      if (mesh)
        value = transfer(value, mesh, mesh - 1);
    }
    results += std::string(microbatch ? ", " : "") + value;
    resultTypes += std::string(microbatch ? ", " : "") + type(0);
  }
  return "func.func @main(%x: " + type(0) + arguments + ") -> (" +
         resultTypes + ") attributes {topology = #mpmd.topology<" + topology +
         ">} {\n" + body + "return " + results + " : " + resultTypes +
         "\n}\n" + R"mlir(
    func.func @forward(%a: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<64xf32>
        attributes {mesh_shape = #sdy.mesh<["x"=1]>} {
      %m = stablehlo.multiply %a, %w : tensor<64xf32>
      %r = stablehlo.tanh %m : tensor<64xf32>
      return %r : tensor<64xf32>
    }
    func.func @backward(%a: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<64xf32>
        attributes {mesh_shape = #sdy.mesh<["x"=1]>} {
      %m = stablehlo.multiply %a, %w : tensor<64xf32>
      %r = stablehlo.cosine %m : tensor<64xf32>
      return %r : tensor<64xf32>
    }
  )mlir";
}

/// Resident bytes of this process (Linux), 0 where unknown.
int64_t getResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t totalPages = 0, residentPages = 0;
  statm >> totalPages >> residentPages;
  return residentPages * 4096;
}

//===----------------------------------------------------------------------===//
// SPMD meshes: shards, partitioned fragments, relayouts
//===----------------------------------------------------------------------===//

/// Replaces each `key` of `text` by its value.
std::string substitute(
    std::string text,
    llvm::ArrayRef<std::pair<llvm::StringRef, std::string>> replacements) {
  for (auto [key, value] : replacements)
    for (size_t at; (at = text.find(key.str())) != std::string::npos;)
      text.replace(at, key.size(), value);
  return text;
}

/// Small integers (exact in f32 sums) in a tensor of `shape`.
Tensor integers(Shape shape, int modulus, int offset) {
  Tensor tensor = Tensor::empty(DType::F32, shape);
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    tensor.data<float>()[i] = float(i % modulus - offset);
  return tensor;
}

/// a (4x8) @ w (8x6) on one mesh. Partitioned: the contraction dimension
/// is split by SPLIT, each device multiplies its slices and the partial
/// products are summed by an all_reduce over GROUPS; rows of `a` and of the
/// result may be split by ROWS. Unpartitioned: the same shardings on the
/// types, a body on global shapes without a collective.
constexpr llvm::StringLiteral kMatmulProgram = R"mlir(
    sdy.mesh @mesh = <MESH>
    !a = !mpmd.mesh_tensor<"m", tensor<4x8xf32>, sharding=<@mesh, [{ROWS}, {SPLIT}]>>
    !w = !mpmd.mesh_tensor<"m", tensor<8x6xf32>, sharding=<@mesh, [{SPLIT}, {}]>>
    !r = !mpmd.mesh_tensor<"m", tensor<4x6xf32>, sharding=<@mesh, [{ROWS}, {}]>>
    func.func @main(%a: !a, %w: !w) -> !r
        attributes {topology = #mpmd.topology<<"m" : <MESH>>>} {
      %0 = mpmd.fragment_call<mesh="m", origin=["matmul"]> @matmul(%a, %w) : (!a, !w) -> !r
      return %0 : !r
    }
    func.func @matmul(%a: tensor<LOCAL_A>, %w: tensor<LOCAL_W>) -> tensor<LOCAL_R>
        attributes {mesh_shape = #sdy.mesh<MESH>} {
      %p = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<LOCAL_A>, tensor<LOCAL_W>) -> tensor<LOCAL_R>
      REDUCE
      return %r : tensor<LOCAL_R>
    }
  )mlir";

constexpr llvm::StringLiteral kAllReduce = R"mlir(
      %r = "stablehlo.all_reduce"(%p) ({
      ^bb0(%l: tensor<f32>, %m: tensor<f32>):
        %sum = stablehlo.add %l, %m : tensor<f32>
        stablehlo.return %sum : tensor<f32>
      }) {replica_groups = dense<GROUPS> : tensor<GROUP_TYPE>,
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>,
          use_global_device_ids} : (tensor<LOCAL_R>) -> tensor<LOCAL_R>)mlir";

struct MatmulCase {
  std::string mesh, rows, split;
  int64_t rowShards, splitShards;
  std::string groups, groupType;
};

std::string matmulProgram(const MatmulCase &c, bool partitioned) {
  int64_t rows = partitioned ? 4 / c.rowShards : 4;
  int64_t inner = partitioned ? 8 / c.splitShards : 8;
  std::string localA = std::to_string(rows) + "x" + std::to_string(inner);
  std::string localW = std::to_string(inner) + "x6";
  std::string localR = std::to_string(rows) + "x6";
  std::string reduce =
      partitioned ? substitute(kAllReduce.str(), {{"GROUPS", c.groups},
                                                  {"GROUP_TYPE", c.groupType}})
                  : "%r = stablehlo.negate %p : tensor<LOCAL_R>\n"
                    "      %r2 = stablehlo.negate %r : tensor<LOCAL_R>";
  std::string text = substitute(kMatmulProgram.str(), {{"REDUCE", reduce}});
  if (!partitioned)
    text = substitute(text, {{"return %r : tensor<LOCAL_R>",
                              "return %r2 : tensor<LOCAL_R>"}});
  return substitute(text, {{"MESH", c.mesh},
                           {"ROWS", c.rows},
                           {"SPLIT", c.split},
                           {"LOCAL_A", localA + "xf32"},
                           {"LOCAL_W", localW + "xf32"},
                           {"LOCAL_R", localR + "xf32"}});
}

TEST_F(ExecutorTest, PartitionedFragmentsRunOnShardsWithCollectives) {
  std::vector<MatmulCase> cases = {
      // Row-parallel over 2 and 4 devices of one axis.
      {"[\"x\"=2]", "", "\"x\"", 1, 2, "[[0, 1]]", "1x2xi64"},
      {"[\"x\"=4]", "", "\"x\"", 1, 4, "[[0, 1, 2, 3]]", "1x4xi64"},
      // Rows of a and of the result by x, the contraction by y: the
      // all_reduce runs within each row of the 2x2 mesh.
      {"[\"x\"=2, \"y\"=2]", "\"x\"", "\"y\"", 2, 2, "[[0, 1], [2, 3]]",
       "2x2xi64"},
  };
  Tensor a = integers({4, 8}, 7, 3), w = integers({8, 6}, 5, 2);
  for (const MatmulCase &c : cases) {
    SCOPED_TRACE(c.mesh);
    std::unique_ptr<Executable> reference = create(matmulProgram(c, false));
    ASSERT_TRUE(reference) << diagnostics;
    EXPECT_FALSE(reference->runsOnShards(0));
    llvm::Expected<RunResult> expected = reference->run({a, w}, {});
    ASSERT_TRUE(static_cast<bool>(expected))
        << llvm::toString(expected.takeError());

    std::unique_ptr<Executable> executable = create(matmulProgram(c, true));
    ASSERT_TRUE(executable) << diagnostics;
    EXPECT_TRUE(executable->runsOnShards(0));
    // Each device holds 1/N of w (8x6 f32, 192 B); replicated, all of it.
    int64_t devices = c.rowShards * c.splitShards;
    EXPECT_EQ(executable->getProgram().values[1].bytes, 192 / c.splitShards);
    EXPECT_EQ(reference->getProgram().values[1].bytes, 192);
    llvm::Expected<RunResult> result = executable->run({a, w}, {});
    ASSERT_TRUE(static_cast<bool>(result))
        << llvm::toString(result.takeError());
    EXPECT_EQ(values(result->outputs[0]), values(expected->outputs[0]));
    // a (128 B), w (192 B) and the result (96 B) cut in shards.
    ASSERT_EQ(result->devices.size(), size_t(devices));
    for (const DeviceUsage &usage : result->devices)
      EXPECT_EQ(usage.peakBytes,
                128 / devices + 192 / c.splitShards + 96 / c.rowShards);
  }
}

/// x (4x8 f32) on m0 with sharding SOURCE, transferred to m1 with sharding
/// TARGET; on m1 each device adds 100 x its partition id to its shard
/// (local shape LOCAL), so that the output tells which device held what.
constexpr llvm::StringLiteral kRelayoutProgram = R"mlir(
    sdy.mesh @mesh0 = <M0>
    sdy.mesh @mesh1 = <M1>
    !t0 = !mpmd.mesh_tensor<"m0", tensor<4x8xf32>SOURCE>
    !t1 = !mpmd.mesh_tensor<"m1", tensor<4x8xf32>TARGET>
    func.func @main(%x: !t0) -> !t1
        attributes {topology = #mpmd.topology<<"m0" : <M0>>, <"m1" : <M1>>>} {
      %1 = mpmd.transfer %x : (!t0) -> !t1
      %2 = mpmd.fragment_call<mesh="m1", origin=["mark"]> @mark(%1) : (!t1) -> !t1
      return %2 : !t1
    }
    func.func @mark(%a: tensor<LOCALxf32>) -> tensor<LOCALxf32>
        attributes {mesh_shape = #sdy.mesh<M1>} {
      %p = stablehlo.partition_id : tensor<ui32>
      %pf = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
      %c = stablehlo.constant dense<100.0> : tensor<f32>
      %m = stablehlo.multiply %pf, %c : tensor<f32>
      %pb = stablehlo.broadcast_in_dim %m, dims = [] : (tensor<f32>) -> tensor<LOCALxf32>
      %s = stablehlo.add %a, %pb : tensor<LOCALxf32>
      return %s : tensor<LOCALxf32>
    }
  )mlir";

struct RelayoutCase {
  std::string name, m0, m1, source, target, local;
  /// The device of m1 that holds element (row, column) of the output (the
  /// first holder when replicated).
  std::function<int64_t(int64_t, int64_t)> owner;
  /// Per device of m1: the bytes it receives, and from how many devices.
  int64_t bytesPerDevice, piecesPerDevice;
};

TEST_F(ExecutorTest, TransfersMoveOnlyThePiecesEachDeviceNeeds) {
  std::vector<RelayoutCase> cases = {
      {"rows to columns", "[\"x\"=2]", "[\"y\"=2]",
       ", sharding=<@mesh0, [{\"x\"}, {}]>",
       ", sharding=<@mesh1, [{}, {\"y\"}]>", "4x4",
       [](int64_t, int64_t column) { return column / 4; }, 64, 2},
      {"sharded to replicated", "[\"x\"=2]", "[\"y\"=2]",
       ", sharding=<@mesh0, [{\"x\"}, {}]>", "", "4x8",
       [](int64_t, int64_t) { return 0; }, 128, 2},
      {"replicated to sharded", "[\"x\"=2]", "[\"y\"=2]", "",
       ", sharding=<@mesh1, [{}, {\"y\"}]>", "4x4",
       [](int64_t, int64_t column) { return column / 4; }, 64, 1},
      {"2 devices to 4", "[\"x\"=2]", "[\"y\"=4]",
       ", sharding=<@mesh0, [{\"x\"}, {}]>",
       ", sharding=<@mesh1, [{}, {\"y\"}]>", "4x2",
       [](int64_t, int64_t column) { return column / 2; }, 32, 2},
      {"2x2 mesh, both dimensions to rows only", "[\"x\"=2, \"y\"=2]",
       "[\"a\"=2, \"b\"=2]", ", sharding=<@mesh0, [{\"x\"}, {\"y\"}]>",
       ", sharding=<@mesh1, [{\"b\"}, {}]>", "2x8",
       // b is the minor axis: devices 0 and 2 hold rows 0-1.
       [](int64_t row, int64_t) { return row / 2; }, 64, 2},
  };
  Tensor x = integers({4, 8}, 32, 0);
  for (const RelayoutCase &c : cases) {
    SCOPED_TRACE(c.name);
    std::unique_ptr<Executable> executable =
        create(substitute(kRelayoutProgram.str(), {{"M0", c.m0},
                                                   {"M1", c.m1},
                                                   {"SOURCE", c.source},
                                                   {"TARGET", c.target},
                                                   {"LOCAL", c.local}}));
    ASSERT_TRUE(executable) << diagnostics;
    llvm::Expected<RunResult> result = executable->run({x}, {});
    ASSERT_TRUE(static_cast<bool>(result))
        << llvm::toString(result.takeError());
    std::vector<float> expected;
    for (int64_t row = 0; row < 4; ++row)
      for (int64_t column = 0; column < 8; ++column)
        expected.push_back(float(row * 8 + column) +
                           100.0f * float(c.owner(row, column)));
    EXPECT_EQ(values(result->outputs[0]), expected);

    const DeviceProgram &program = executable->getProgram();
    const DeviceProgram::Step &transfer = program.steps[0];
    int64_t receivers = program.meshes[1].numDevices;
    EXPECT_EQ(result->transferredBytes, c.bytesPerDevice * receivers);
    for (int64_t device = 0; device < receivers; ++device) {
      EXPECT_EQ(program.getReceivedBytes(transfer, device), c.bytesPerDevice);
      EXPECT_EQ(int64_t(program.getSourceDevices(transfer, device).size()),
                c.piecesPerDevice);
    }
    int64_t transfers = 0;
    for (const ExecutedStep &executed : result->executed)
      if (executed.step == 0) {
        ++transfers;
        EXPECT_EQ(executed.bytes, c.bytesPerDevice);
      }
    EXPECT_EQ(transfers, receivers);
  }
}

TEST_F(ExecutorTest, ReplicatedSourcesSpreadTheirSends) {
  std::unique_ptr<Executable> executable = create(substitute(
      kRelayoutProgram.str(), {{"M0", "[\"x\"=2]"},
                               {"M1", "[\"y\"=2]"},
                               {"SOURCE", ""},
                               {"TARGET", ", sharding=<@mesh1, [{}, {\"y\"}]>"},
                               {"LOCAL", "4x4"}}));
  ASSERT_TRUE(executable) << diagnostics;
  const DeviceProgram &program = executable->getProgram();
  // Both devices of m0 hold x: device d of m1 takes its shard from d.
  for (int64_t device = 0; device < 2; ++device)
    EXPECT_EQ(program.getSourceDevices(program.steps[0], device),
              (llvm::SmallVector<int64_t, 4>{device}));
}

TEST_F(ExecutorTest, ShardedWeightsShowTheirShareInTheMemoryCheck) {
  MatmulCase c{"[\"x\"=4]", "", "\"x\"", 1, 4, "[[0, 1, 2, 3]]", "1x4xi64"};
  std::unique_ptr<Executable> executable = create(matmulProgram(c, true));
  ASSERT_TRUE(executable) << diagnostics;
  llvm::Expected<std::vector<int64_t>> peak =
      checkMemory(executable->getProgram(), std::nullopt);
  ASSERT_TRUE(static_cast<bool>(peak)) << llvm::toString(peak.takeError());
  // a and w in quarters, the 4x6 result whole on each device.
  EXPECT_EQ(*peak, (std::vector<int64_t>{128 / 4 + 192 / 4 + 96}));
  // A cap between the sharded and the replicated footprint passes.
  ExecutorOptions options;
  options.deviceMemoryBytes = 200;
  llvm::Expected<RunResult> result = executable->run(
      {integers({4, 8}, 7, 3), integers({8, 6}, 5, 2)}, options);
  EXPECT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
}

TEST_F(ExecutorTest, ADeviceFailingOnShardsAbortsItsMeshsCollective) {
  // Devices 0, 1 and 3 enter the all_reduce of the row-parallel matmul and
  // wait for device 2, which fails: every device stops with its error.
  MatmulCase c{"[\"x\"=4]", "", "\"x\"", 1, 4, "[[0, 1, 2, 3]]", "1x4xi64"};
  std::unique_ptr<Executable> executable = create(matmulProgram(c, true));
  ASSERT_TRUE(executable) << diagnostics;
  ExecutorOptions options;
  options.faultForTesting = [](int64_t, int64_t,
                               int64_t device) -> llvm::Error {
    if (device == 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      return llvm::createStringError("injected fault");
    }
    return llvm::Error::success();
  };
  llvm::Expected<RunResult> result = executable->run(
      {integers({4, 8}, 7, 3), integers({8, 6}, 5, 2)}, options);
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_THAT(llvm::toString(result.takeError()),
              HasSubstr("fragment 'matmul' failed on device m:2: injected "
                        "fault"));
  EXPECT_THAT(diagnostics, HasSubstr("'stablehlo.all_reduce' op could not "
                                     "complete"));
}

TEST_F(ExecutorTest, RejectsLayoutsItCannotRun) {
  // Unreduced axes at a fragment boundary.
  EXPECT_FALSE(create(R"mlir(
    sdy.mesh @mesh = <["x"=2]>
    !t = !mpmd.mesh_tensor<"m", tensor<4xf32>, sharding=<@mesh, [{}], unreduced={"x"}>>
    func.func @main(%x: !t) -> !t
        attributes {topology = #mpmd.topology<<"m" : <["x"=2]>>>} {
      return %x : !t
    }
  )mlir"));
  EXPECT_THAT(diagnostics,
              HasSubstr("value input 0 with sharding #sdy.sharding<@mesh, "
                        "[{}], unreduced={\"x\"}> on mesh \"m\" has unreduced "
                        "axes"));
}

TEST_F(ExecutorTest, RandomDelaysChangeNeitherResultsNorMemory) {
  constexpr int kMeshes = 4, kMicrobatches = 6, kRuns = 1000;
  std::unique_ptr<Executable> executable =
      create(pipelineProgram(kMeshes, kMicrobatches));
  ASSERT_TRUE(executable) << diagnostics;
  llvm::Expected<std::vector<int64_t>> peaks =
      checkMemory(executable->getProgram(), std::nullopt);
  ASSERT_TRUE(static_cast<bool>(peaks)) << llvm::toString(peaks.takeError());
  std::vector<Tensor> inputs;
  for (int input = 0; input <= kMeshes; ++input) {
    std::vector<float> data(64);
    for (int i = 0; i < 64; ++i)
      data[i] = 0.01f * float(i - 32 + input);
    inputs.push_back(vector(data));
  }
  llvm::Expected<RunResult> reference = executable->run(inputs, {});
  ASSERT_TRUE(static_cast<bool>(reference))
      << llvm::toString(reference.takeError());

  // The cap is exactly the proven peak: any buffer held longer than the
  // static walk allows, or copied in earlier, fails a run.
  ExecutorOptions options;
  options.deviceMemoryBytes = *llvm::max_element(*peaks);
  // Every other step waits up to 100 us, on whichever thread runs it.
  options.beforeStepForTesting = [](int64_t) {
    thread_local std::minstd_rand random(
        std::hash<std::thread::id>()(std::this_thread::get_id()));
    if (random() % 2)
      std::this_thread::sleep_for(std::chrono::microseconds(random() % 100));
  };
  [[maybe_unused]] int64_t warmResidentBytes = 0;
  for (int run = 0; run < kRuns; ++run) {
    llvm::Expected<RunResult> result = executable->run(inputs, options);
    ASSERT_TRUE(static_cast<bool>(result))
        << "run " << run << ": " << llvm::toString(result.takeError());
    ASSERT_EQ(result->outputs.size(), reference->outputs.size());
    for (auto [output, expected] :
         llvm::zip(result->outputs, reference->outputs))
      ASSERT_EQ(values(output), values(expected)) << "run " << run;
    for (const DeviceUsage &device : result->devices)
      ASSERT_LE(device.peakBytes, (*peaks)[device.mesh]) << "run " << run;
    // The buffer pool and the allocator settle in the first runs.
    if (run == kRuns / 10)
      warmResidentBytes = getResidentBytes();
  }
  // Sanitizers keep freed memory in quarantine: resident size says nothing
  // there, and LeakSanitizer checks at exit instead.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  EXPECT_LT(getResidentBytes() - warmResidentBytes, 4 << 20);
#endif
}

// The median that `mpmd run --summary` and `mpmd plan --measure` report:
// of unsorted runs, the middle one, or the mean of the middle two.
TEST(RunStatisticsTest, MedianOfRuns) {
  EXPECT_EQ(mlir::mpmd::getMedian({}), 0.0);
  EXPECT_EQ(mlir::mpmd::getMedian({7.0}), 7.0);
  EXPECT_EQ(mlir::mpmd::getMedian({30.0, 10.0, 20.0}), 20.0);
  EXPECT_EQ(mlir::mpmd::getMedian({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(mlir::mpmd::getMedian({5.0, 5.0, 100.0, 5.0, 1.0}), 5.0);
}

} // namespace
