//===- InterpreterTest.cpp - The interpreter's C++ API --------------------===//
//
// mpmd interpret covers functions without arguments; the executor calls
// functions with arguments and reads their results, which these tests do.
//
//===----------------------------------------------------------------------===//

#include "mpmd/InitAllDialects.h"
#include "mpmd/Runtime/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::mpmd::runtime;

namespace {

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() {
    DialectRegistry registry;
    mpmd::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
  }

  OwningOpRef<ModuleOp> parse(llvm::StringRef text) {
    return parseSourceString<ModuleOp>(text, &context);
  }

  MLIRContext context;
};

TEST_F(InterpreterTest, RunsAFunctionOnArguments) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func private @scale(%x: tensor<2xf32>, %s: tensor<f32>) -> tensor<2xf32> {
      %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2xf32>
      %r = stablehlo.multiply %x, %b : tensor<2xf32>
      func.return %r : tensor<2xf32>
    }
    func.func @main(%x: tensor<2xf32>, %s: tensor<f32>) -> (tensor<2xf32>, tensor<f32>) {
      %r = func.call @scale(%x, %s) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
      func.return %r, %s : tensor<2xf32>, tensor<f32>
    })mlir");
  ASSERT_TRUE(module);
  Tensor x = Tensor::empty(DType::F32, {2});
  x.data<float>()[0] = 1.5f;
  x.data<float>()[1] = -2.0f;
  Tensor s = Tensor::empty(DType::F32, {});
  s.data<float>()[0] = 4.0f;
  Interpreter interpreter(*module);
  auto main = module->lookupSymbol<func::FuncOp>("main");
  FailureOr<std::vector<Tensor>> results = interpreter.run(main, {x, s});
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 2u);
  EXPECT_EQ((*results)[0].shape(), (Shape{2}));
  EXPECT_EQ((*results)[0].valuesToString(), "[6, -8]");
  // A returned argument is the caller's tensor, not a copy.
  EXPECT_TRUE((*results)[1].sharesBufferWith(s));
  EXPECT_FALSE(interpreter.getFirstCheckFailure());
}

TEST_F(InterpreterTest, UnsupportedOpFailsWithADiagnostic) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main() -> tensor<ui32> {
      %p = "stablehlo.partition_id"() : () -> tensor<ui32>
      func.return %p : tensor<ui32>
    })mlir");
  ASSERT_TRUE(module);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    message = diagnostic.str();
    return success();
  });
  Interpreter interpreter(*module);
  auto main = module->lookupSymbol<func::FuncOp>("main");
  EXPECT_TRUE(failed(interpreter.run(main, {})));
  EXPECT_EQ(message, "'stablehlo.partition_id' is not supported by the interpreter");
}

TEST_F(InterpreterTest, CheckFailuresAreRecordedUntilReset) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main(%x: tensor<2xi32>) {
      check.expect_eq_const %x, dense<[1, 2]> : tensor<2xi32>
      func.return
    })mlir");
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  auto main = module->lookupSymbol<func::FuncOp>("main");
  Tensor x = Tensor::empty(DType::I32, {2});
  x.data<int32_t>()[0] = 1;
  x.data<int32_t>()[1] = 3;
  ASSERT_TRUE(succeeded(interpreter.run(main, {x})));
  ASSERT_TRUE(interpreter.getFirstCheckFailure());
  EXPECT_NE(interpreter.getFirstCheckFailure()->find("element 1 is [3], expected [2]"),
            std::string::npos);
  interpreter.resetCheckFailures();
  x.data<int32_t>()[1] = 2;
  ASSERT_TRUE(succeeded(interpreter.run(main, {x})));
  EXPECT_FALSE(interpreter.getFirstCheckFailure());
}

} // namespace
