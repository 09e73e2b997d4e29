//===- ExampleTesting.h - Running generated examples in tests ---*- C++ -*-===//
//
// What the example tests share: random tensors, and a fixture that parses a
// generated model, runs its unpartitioned @main on the interpreter and checks
// the SGD update it returns against central differences of its loss (the
// backward is derived by hand in each generator; this proves it).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_UNITTESTS_EXAMPLES_EXAMPLETESTING_H
#define MPMD_UNITTESTS_EXAMPLES_EXAMPLETESTING_H

#include "mpmd/Examples/Example.h"

#include "mpmd/InitAllDialects.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/Kernels.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace mlir::mpmd::examples::testing {

inline std::string errorOf(llvm::Expected<ExampleModel> example) {
  if (example)
    return "(no error)";
  return llvm::toString(example.takeError());
}

/// Every element uniform in (-scale, scale).
inline runtime::Tensor randomTensor(runtime::DType dtype, runtime::Shape shape,
                                    double scale, std::mt19937_64 &random) {
  std::uniform_real_distribution<double> uniform(-scale, scale);
  runtime::Tensor tensor = runtime::Tensor::empty(dtype, std::move(shape));
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    if (dtype == runtime::DType::F64)
      tensor.data<double>()[i] = uniform(random);
    else
      tensor.data<float>()[i] = static_cast<float>(uniform(random));
  }
  return tensor;
}

class InterpretedExampleTest : public ::testing::Test {
protected:
  InterpretedExampleTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// Keeps the generated model parsed.
  void parse(llvm::Expected<ExampleModel> example) {
    ASSERT_TRUE(static_cast<bool>(example)) << errorOf(std::move(example));
    module = parseSourceString<ModuleOp>(example->module, &context);
    ASSERT_TRUE(module);
  }

  /// Runs @main: (loss, updated weights...).
  std::vector<runtime::Tensor>
  runMain(const std::vector<runtime::Tensor> &args) {
    runtime::Interpreter interpreter(*module);
    FailureOr<std::vector<runtime::Tensor>> results =
        interpreter.run(module->lookupSymbol<func::FuncOp>("main"), args);
    EXPECT_TRUE(succeeded(results));
    return succeeded(results) ? *results : std::vector<runtime::Tensor>();
  }

  /// With f64 `args` = (x, y, weights..., then `trailingInputs` that are
  /// not weights, e.g. dropout keys) and `results` = runMain(args): every
  /// applied gradient, (w - w') / lr, matches the central difference of the
  /// loss in that weight element. `describe(weight)` names a weight.
  template <typename Describe>
  void
  expectUpdateFollowsLossGradient(std::vector<runtime::Tensor> args,
                                  const std::vector<runtime::Tensor> &results,
                                  double learningRate, Describe describe,
                                  size_t trailingInputs = 0) {
    constexpr double kStep = 1e-6;
    ASSERT_EQ(results.size() + trailingInputs, args.size() - 1);
    for (size_t weight = 0; weight + 1 < results.size(); ++weight) {
      double *values = args[2 + weight].data<double>();
      const double *updated = results[1 + weight].data<double>();
      for (int64_t i = 0; i < args[2 + weight].numElements(); ++i) {
        const double original = values[i];
        values[i] = original + kStep;
        const double plus = runMain(args)[0].data<double>()[0];
        values[i] = original - kStep;
        const double minus = runMain(args)[0].data<double>()[0];
        values[i] = original;
        const double numeric = (plus - minus) / (2 * kStep);
        const double applied = (original - updated[i]) / learningRate;
        EXPECT_NEAR(applied, numeric, 1e-8 + 1e-6 * std::abs(numeric))
            << "dloss/d" << describe(weight) << ", element " << i;
      }
    }
  }

  /// Two runs' f64 results agree element by element within `tolerance`.
  static void expectSameResults(const std::vector<runtime::Tensor> &expected,
                                const std::vector<runtime::Tensor> &actual,
                                double tolerance) {
    ASSERT_EQ(expected.size(), actual.size());
    for (auto [a, b] : llvm::zip(expected, actual))
      for (int64_t i = 0; i < a.numElements(); ++i)
        EXPECT_NEAR(a.data<double>()[i], b.data<double>()[i], tolerance);
  }

  /// `args` converted to f64, for references computed in double.
  static std::vector<runtime::Tensor>
  widenToF64(const std::vector<runtime::Tensor> &args) {
    std::vector<runtime::Tensor> wide;
    for (const runtime::Tensor &arg : args)
      wide.push_back(runtime::convert(arg, runtime::DType::F64));
    return wide;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

} // namespace mlir::mpmd::examples::testing

#endif // MPMD_UNITTESTS_EXAMPLES_EXAMPLETESTING_H
