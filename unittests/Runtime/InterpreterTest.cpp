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

TEST_F(InterpreterTest, ElementwiseOpsReuseTheBufferOfAnOperandThatDies) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %n = stablehlo.negate %x : tensor<4xf32>
      %s = stablehlo.add %n, %y : tensor<4xf32>
      %c = stablehlo.convert %s : (tensor<4xf32>) -> tensor<4xi32>
      %m = stablehlo.multiply %y, %y : tensor<4xf32>
      func.return %s, %m : tensor<4xf32>, tensor<4xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto main = module->lookupSymbol<func::FuncOp>("main");
  auto make = [](std::vector<float> values) {
    Tensor tensor = Tensor::empty(DType::F32, {4});
    std::copy(values.begin(), values.end(), tensor.data<float>());
    return tensor;
  };
  Interpreter interpreter(*module);

  // Arguments the caller still holds are never overwritten.
  Tensor x = make({1, 2, 3, 4}), y = make({10, 20, 30, 40});
  FailureOr<std::vector<Tensor>> results = interpreter.run(main, {x, y});
  ASSERT_TRUE(succeeded(results));
  EXPECT_EQ((*results)[0].valuesToString(), "[9, 18, 27, 36]");
  EXPECT_EQ((*results)[1].valuesToString(), "[100, 400, 900, 1600]");
  EXPECT_EQ(x.valuesToString(), "[1, 2, 3, 4]");
  EXPECT_EQ(y.valuesToString(), "[10, 20, 30, 40]");
  EXPECT_FALSE((*results)[0].sharesBufferWith(x));

  // Moved-in arguments are: negate runs in x's buffer and add reuses it
  // (%n dies there); y dies at multiply, whose result takes its buffer.
  Tensor ownedX = make({1, 2, 3, 4}), ownedY = make({10, 20, 30, 40});
  const std::byte *xBytes = ownedX.bytes(), *yBytes = ownedY.bytes();
  std::vector<Tensor> arguments;
  arguments.push_back(std::move(ownedX));
  arguments.push_back(std::move(ownedY));
  results = interpreter.run(main, std::move(arguments));
  ASSERT_TRUE(succeeded(results));
  EXPECT_EQ((*results)[0].valuesToString(), "[9, 18, 27, 36]");
  EXPECT_EQ((*results)[1].valuesToString(), "[100, 400, 900, 1600]");
  EXPECT_EQ((*results)[0].bytes(), xBytes);
  EXPECT_EQ((*results)[1].bytes(), yBytes);
}

TEST_F(InterpreterTest, UnsupportedOpFailsWithADiagnostic) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main() -> tensor<ui32> {
      %p = stablehlo.custom_call @no_such_target() : () -> tensor<ui32>
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
  EXPECT_EQ(message, "'stablehlo.custom_call' target @no_such_target is not supported by "
                     "the interpreter");
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
