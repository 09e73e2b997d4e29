//===- ParallelInterpreterTest.cpp - interpreter.run_parallel on threads --===//
//
// The lit tests (test/Runtime/Collectives/) check each collective's values;
// these run parallel programs under ThreadSanitizer (scripts/test.sh --tsan)
// and check that a failing process stops the others with its error.
//
//===----------------------------------------------------------------------===//

#include "mpmd/InitAllDialects.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Runtime/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <mutex>

using namespace mlir;
using namespace mlir::mpmd::runtime;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

class ParallelInterpreterTest : public ::testing::Test {
protected:
  ParallelInterpreterTest() {
    DialectRegistry registry;
    mpmd::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.allowUnregisteredDialects();
    context.getDiagEngine().registerHandler([&](Diagnostic &diagnostic) {
      std::lock_guard<std::mutex> lock(diagnosticsMutex);
      diagnostics += diagnostic.str() + "\n";
      for (Diagnostic &note : diagnostic.getNotes())
        diagnostics += "note: " + note.str() + "\n";
    });
  }

  /// Runs @main of `text`; its check failure, "" when all passed, or
  /// "error" when it could not run.
  std::string runMain(llvm::StringRef text) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    if (!module)
      return "parse error";
    Interpreter interpreter(*module);
    auto main = module->lookupSymbol<func::FuncOp>("main");
    if (failed(interpreter.run(main, {})))
      return "error";
    return interpreter.getFirstCheckFailure().value_or("");
  }

  MLIRContext context;
  std::mutex diagnosticsMutex;
  std::string diagnostics;
};

TEST_F(ParallelInterpreterTest, CollectivesInALoopMeetOncePerIteration) {
  // Four processes add their partition id to a running all-reduced sum
  // sixteen times, then gather and permute the result.
  std::string failure = runMain(R"mlir(
    func.func @step(%x: tensor<2xi64>) -> tensor<8xi64> {
      %zero = stablehlo.constant dense<0> : tensor<i64>
      %count = stablehlo.constant dense<16> : tensor<i64>
      %one = stablehlo.constant dense<1> : tensor<i64>
      %r:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i64>, tensor<2xi64>
      cond {
        %lt = stablehlo.compare LT, %i, %count : (tensor<i64>, tensor<i64>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %s = "stablehlo.all_reduce"(%acc) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
        ^bb0(%a: tensor<i64>, %b: tensor<i64>):
          %t = stablehlo.maximum %a, %b : tensor<i64>
          stablehlo.return %t : tensor<i64>
        }) : (tensor<2xi64>) -> tensor<2xi64>
        %n = stablehlo.add %i, %one : tensor<i64>
        %p = stablehlo.partition_id : tensor<ui32>
        %pi = stablehlo.convert %p : (tensor<ui32>) -> tensor<i64>
        %pb = stablehlo.broadcast_in_dim %pi, dims = [] : (tensor<i64>) -> tensor<2xi64>
        %next = stablehlo.add %s, %pb : tensor<2xi64>
        stablehlo.return %n, %next : tensor<i64>, tensor<2xi64>
      }
      %g = "stablehlo.all_gather"(%r#1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2xi64>) -> tensor<8xi64>
      %q = "stablehlo.collective_permute"(%g) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8xi64>) -> tensor<8xi64>
      return %q : tensor<8xi64>
    }
    func.func @main() {
      %x = stablehlo.constant dense<[0, 100]> : tensor<2xi64>
      %r:4 = "interpreter.run_parallel"(%x, %x, %x, %x) {programs = [[@step, @step, @step, @step]]}
          : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
          -> (tensor<8xi64>, tensor<8xi64>, tensor<8xi64>, tensor<8xi64>)
      // Each iteration takes the maximum (the previous sum + 3) and adds
      // the partition id: after 16, 15 * 3 + id.
      check.expect_eq_const %r#0, dense<[45, 145, 46, 146, 47, 147, 48, 148]> : tensor<8xi64>
      check.expect_eq_const %r#3, dense<[45, 145, 46, 146, 47, 147, 48, 148]> : tensor<8xi64>
      func.return
    }
  )mlir");
  EXPECT_EQ(failure, "") << diagnostics;
}

TEST_F(ParallelInterpreterTest, AFailingProcessStopsTheOthersWithItsError) {
  // Process 1 cannot run its program (an unsupported op); the others wait
  // at an all_reduce it never reaches and must stop, not hang.
  std::string failure = runMain(R"mlir(
    func.func @ok(%x: tensor<2xf32>) -> tensor<2xf32> {
      %s = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %t = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) : (tensor<2xf32>) -> tensor<2xf32>
      return %s : tensor<2xf32>
    }
    func.func @broken(%x: tensor<2xf32>) -> tensor<2xf32> {
      %y = "test.unknown"(%x) : (tensor<2xf32>) -> tensor<2xf32>
      %s = "stablehlo.all_reduce"(%y) <{replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %t = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) : (tensor<2xf32>) -> tensor<2xf32>
      return %s : tensor<2xf32>
    }
    func.func @main() {
      %x = stablehlo.constant dense<1.0> : tensor<2xf32>
      %r:3 = "interpreter.run_parallel"(%x, %x, %x) {programs = [[@ok], [@broken], [@ok]]}
          : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
      func.return
    }
  )mlir");
  EXPECT_EQ(failure, "error");
  EXPECT_THAT(diagnostics,
              HasSubstr("'test.unknown' is not supported by the interpreter"));
  EXPECT_THAT(diagnostics, HasSubstr("in process (1, 0) of this parallel run"));
  // The stopped processes' own errors are not reported.
  EXPECT_THAT(diagnostics, Not(HasSubstr("could not complete")));
}

TEST_F(ParallelInterpreterTest, ProcessesThatNeverMeetAreReportedNotHung) {
  // Process 0 gathers with process 1, which ends without a collective.
  std::string failure = runMain(R"mlir(
    func.func @gather(%x: tensor<2xf32>) -> tensor<4xf32> {
      %g = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<4xf32>
      return %g : tensor<4xf32>
    }
    func.func @skip(%x: tensor<2xf32>) -> tensor<4xf32> {
      %c = stablehlo.concatenate %x, %x, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
      return %c : tensor<4xf32>
    }
    func.func @main() {
      %x = stablehlo.constant dense<1.0> : tensor<2xf32>
      %r:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@gather], [@skip]]}
          : (tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>)
      func.return
    }
  )mlir");
  EXPECT_EQ(failure, "error");
  EXPECT_THAT(diagnostics,
              HasSubstr("'stablehlo.all_gather' op could not complete: "
                        "process (1, 0) ended its program without joining "
                        "'stablehlo.all_gather' of the group "
                        "{process (0, 0), process (1, 0)}"));
}

TEST_F(ParallelInterpreterTest, CheckFailuresOfAProcessAreReported) {
  std::string failure = runMain(R"mlir(
    func.func @f() -> tensor<ui32> {
      %p = stablehlo.replica_id : tensor<ui32>
      check.expect_eq_const %p, dense<0> : tensor<ui32>
      return %p : tensor<ui32>
    }
    func.func @main() {
      %r:2 = "interpreter.run_parallel"() {programs = [[@f], [@f]]} : () -> (tensor<ui32>, tensor<ui32>)
      func.return
    }
  )mlir");
  EXPECT_THAT(failure, HasSubstr("process (1, 0): check.expect_eq_const"));
}

TEST_F(ParallelInterpreterTest, GridsBeyondTheThreadLimitAreErrors) {
  std::string row;
  for (int64_t i = 0; i <= kMaxVirtualDevices; ++i)
    row += i ? ", @f" : "@f";
  std::string failure = runMain(R"mlir(
    func.func @f() { func.return }
    func.func @main() {
      "interpreter.run_parallel"() {programs = [[)mlir" +
                                row + R"mlir(]]} : () -> ()
      func.return
    }
  )mlir");
  EXPECT_EQ(failure, "error");
  EXPECT_THAT(diagnostics,
              HasSubstr("runs 1 x " + std::to_string(kMaxVirtualDevices + 1) +
                        " processes; the interpreter runs at most"));
}

} // namespace
