//===- FusionTest.cpp - Fused elementwise chains ---------------------------===//
//
// The planner (which ops form a chain) on the shapes the example models
// have, and the interpreter with and without fusion on randomized chains:
// the results must be the same bits (fusion keeps every element's
// operations and their order).
//
//===----------------------------------------------------------------------===//

#include "Fusion.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/InitAllDialects.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/Random.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::mpmd::runtime;

namespace {

bool sameBits(const Tensor &a, const Tensor &b);

class FusionTest : public ::testing::Test {
protected:
  FusionTest() {
    DialectRegistry registry;
    mpmd::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
  }

  OwningOpRef<ModuleOp> parse(llvm::StringRef text) {
    return parseSourceString<ModuleOp>(text, &context);
  }

  /// The ops of `block` that run (are not fused away), in block order, with
  /// " (chain)" after a chain's root.
  static std::vector<std::string> runningOps(Block &block,
                                             const FusionPlan &plan) {
    std::vector<std::string> names;
    for (Operation &op : block.without_terminator())
      if (!plan.isFusedAway(&op))
        names.push_back(op.getName().getStringRef().str() +
                        (plan.getChain(&op)             ? " (chain)"
                         : plan.getAccumulatingDot(&op) ? " (accumulating)"
                                                        : ""));
    return names;
  }

  MLIRContext context;
};

TEST_F(FusionTest, FusesTheTanhBackwardIntoOnePass) {
  // The MLP's backward through tanh: dz = dout * (1 - h * h).
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main(%dout: tensor<32x128xf32>, %h: tensor<32x128xf32>) -> tensor<32x128xf32> {
      %one = stablehlo.constant dense<1.0> : tensor<32x128xf32>
      %square = stablehlo.multiply %h, %h : tensor<32x128xf32>
      %slope = stablehlo.subtract %one, %square : tensor<32x128xf32>
      %dz = stablehlo.multiply %dout, %slope : tensor<32x128xf32>
      func.return %dz : tensor<32x128xf32>
    })mlir");
  ASSERT_TRUE(module);
  Block &body = module->lookupSymbol<func::FuncOp>("main").front();
  FusionPlan plan = FusionPlan::build(body);
  EXPECT_EQ(runningOps(body, plan),
            (std::vector<std::string>{"stablehlo.constant",
                                      "stablehlo.multiply (chain)"}));
  const FusedChain *chain = plan.getChain(&*std::prev(body.end(), 2));
  ASSERT_TRUE(chain);
  // h (read once for h * h), the splat 1 (read as a scalar), dout.
  ASSERT_EQ(chain->inputs.size(), 3u);
  EXPECT_EQ(chain->inputStrides[1], (std::vector<int64_t>{0, 0}));
  ASSERT_EQ(chain->operations.size(), 3u);
  EXPECT_EQ(chain->operations[0].lhs, 0);
  EXPECT_EQ(chain->operations[0].rhs, 0);
  EXPECT_EQ(chain->operations[2].rhs, 4); // the slope: slot inputs + 1
}

TEST_F(FusionTest, ReadsBroadcastsInPlace) {
  // A norm's centering: x - broadcast(mean) over the last dimension.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main(%x: tensor<4x8x16xf32>, %mean: tensor<4x8xf32>) -> tensor<4x8x16xf32> {
      %b = stablehlo.broadcast_in_dim %mean, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x16xf32>
      %c = stablehlo.subtract %x, %b : tensor<4x8x16xf32>
      func.return %c : tensor<4x8x16xf32>
    })mlir");
  ASSERT_TRUE(module);
  Block &body = module->lookupSymbol<func::FuncOp>("main").front();
  FusionPlan plan = FusionPlan::build(body);
  EXPECT_EQ(runningOps(body, plan),
            (std::vector<std::string>{"stablehlo.subtract (chain)"}));
  const FusedChain *chain = plan.getChain(&*std::prev(body.end(), 2));
  ASSERT_TRUE(chain);
  EXPECT_EQ(chain->inputStrides[1], (std::vector<int64_t>{8, 1, 0}));
}

TEST_F(FusionTest, KeepsValuesUsedOutsideTheChain) {
  // %square is returned too, so it is computed on its own; a single kernel
  // reading only plain inputs is left alone (nothing to save).
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
      %square = stablehlo.multiply %x, %x : tensor<8xf32>
      %t = stablehlo.tanh %square : tensor<8xf32>
      %sum = stablehlo.add %t, %y : tensor<8xf32>
      func.return %square, %sum : tensor<8xf32>, tensor<8xf32>
    })mlir");
  ASSERT_TRUE(module);
  Block &body = module->lookupSymbol<func::FuncOp>("main").front();
  FusionPlan plan = FusionPlan::build(body);
  EXPECT_EQ(runningOps(body, plan),
            (std::vector<std::string>{"stablehlo.multiply",
                                      "stablehlo.add (chain)"}));
}

TEST_F(FusionTest, LeavesHalfTypesAlone) {
  // f16 rounds after every op: a chain would skip the roundings.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main(%x: tensor<8xf16>) -> tensor<8xf16> {
      %a = stablehlo.multiply %x, %x : tensor<8xf16>
      %b = stablehlo.add %a, %x : tensor<8xf16>
      func.return %b : tensor<8xf16>
    })mlir");
  ASSERT_TRUE(module);
  Block &body = module->lookupSymbol<func::FuncOp>("main").front();
  FusionPlan plan = FusionPlan::build(body);
  EXPECT_EQ(runningOps(body, plan),
            (std::vector<std::string>{"stablehlo.multiply", "stablehlo.add"}));
}

TEST_F(FusionTest, DotsReadTransposesInPlace) {
  // x^T w, w' transposed on the right, a batched transpose, and a
  // transpose whose folding would reorder the dot's free dimensions.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main(%x: tensor<48x40xf32>, %w: tensor<48x24xf32>, %v: tensor<24x48xf32>,
                    %b: tensor<3x48x40xf32>, %c: tensor<5x7x48xf32>)
        -> (tensor<40x24xf32>, tensor<40x24xf32>, tensor<3x40x24xf32>, tensor<40x5x7xf32>) {
      %xt = stablehlo.transpose %x, dims = [1, 0] : (tensor<48x40xf32>) -> tensor<40x48xf32>
      %p = stablehlo.dot_general %xt, %w, contracting_dims = [1] x [0] : (tensor<40x48xf32>, tensor<48x24xf32>) -> tensor<40x24xf32>
      %xt2 = stablehlo.transpose %x, dims = [1, 0] : (tensor<48x40xf32>) -> tensor<40x48xf32>
      %vt = stablehlo.transpose %v, dims = [1, 0] : (tensor<24x48xf32>) -> tensor<48x24xf32>
      %q = stablehlo.dot_general %xt2, %vt, contracting_dims = [1] x [0] : (tensor<40x48xf32>, tensor<48x24xf32>) -> tensor<40x24xf32>
      %bt = stablehlo.transpose %b, dims = [0, 2, 1] : (tensor<3x48x40xf32>) -> tensor<3x40x48xf32>
      %wb = stablehlo.broadcast_in_dim %w, dims = [1, 2] : (tensor<48x24xf32>) -> tensor<3x48x24xf32>
      %r = stablehlo.dot_general %bt, %wb, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x40x48xf32>, tensor<3x48x24xf32>) -> tensor<3x40x24xf32>
      %ct = stablehlo.transpose %c, dims = [1, 0, 2] : (tensor<5x7x48xf32>) -> tensor<7x5x48xf32>
      %s = stablehlo.dot_general %x, %ct, contracting_dims = [0] x [2] : (tensor<48x40xf32>, tensor<7x5x48xf32>) -> tensor<40x7x5xf32>
      %st = stablehlo.transpose %s, dims = [0, 2, 1] : (tensor<40x7x5xf32>) -> tensor<40x5x7xf32>
      func.return %p, %q, %r, %st : tensor<40x24xf32>, tensor<40x24xf32>, tensor<3x40x24xf32>, tensor<40x5x7xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto main = module->lookupSymbol<func::FuncOp>("main");
  Block &body = main.front();
  FusionPlan plan = FusionPlan::build(body);
  std::vector<std::string> folded;
  for (Operation &op : body)
    if (auto transpose = dyn_cast<stablehlo::TransposeOp>(op))
      folded.push_back(plan.isFusedAway(transpose) ? "folded" : "runs");
  EXPECT_EQ(folded, (std::vector<std::string>{"folded", "folded", "folded",
                                              "folded", "runs", "runs"}));
  std::vector<Tensor> arguments;
  for (auto [index, shape] : llvm::enumerate(std::vector<Shape>{
           {48, 40}, {48, 24}, {24, 48}, {3, 48, 40}, {5, 7, 48}}))
    arguments.push_back(randomTensor(DType::F32, shape, index));
  Interpreter fused(*module), unfused(*module, {/*fuseElementwise=*/false});
  FailureOr<std::vector<Tensor>> expected = unfused.run(main, arguments);
  FailureOr<std::vector<Tensor>> actual = fused.run(main, arguments);
  ASSERT_TRUE(succeeded(expected) && succeeded(actual));
  for (size_t i = 0; i < expected->size(); ++i) {
    TensorDifference difference = compareTensors((*actual)[i], (*expected)[i]);
    EXPECT_LE(difference.maxAbsolute, 1e-5 * difference.maxExpectedMagnitude)
        << "result " << i;
  }
}

TEST_F(FusionTest, AddsDotProductsIntoTheAddend) {
  // The last backward fragment of the MLP: the gradients of earlier
  // microbatches summed in order, this microbatch's x^T dz added last, the
  // SGD step; then a residual x + x w whose addend the dot also reads, and
  // an addend read through a transpose folded into its dot.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @main(%g0: tensor<48x48xf32>, %g1: tensor<48x48xf32>, %g2: tensor<48x48xf32>,
                    %x: tensor<40x48xf32>, %dz: tensor<40x48xf32>, %w: tensor<48x48xf32>)
        -> (tensor<48x48xf32>, tensor<48x48xf32>, tensor<48x48xf32>) {
      %lr = stablehlo.constant dense<0.5> : tensor<48x48xf32>
      %s1 = stablehlo.add %g0, %g1 : tensor<48x48xf32>
      %s2 = stablehlo.add %s1, %g2 : tensor<48x48xf32>
      %dw = stablehlo.dot_general %x, %dz, contracting_dims = [0] x [0] : (tensor<40x48xf32>, tensor<40x48xf32>) -> tensor<48x48xf32>
      %g = stablehlo.add %s2, %dw : tensor<48x48xf32>
      %step = stablehlo.multiply %g, %lr : tensor<48x48xf32>
      %new = stablehlo.subtract %w, %step : tensor<48x48xf32>
      %xw = stablehlo.dot_general %new, %w, contracting_dims = [1] x [0] : (tensor<48x48xf32>, tensor<48x48xf32>) -> tensor<48x48xf32>
      %residual = stablehlo.add %xw, %new : tensor<48x48xf32>
      %m = stablehlo.multiply %residual, %residual : tensor<48x48xf32>
      %mt = stablehlo.transpose %m, dims = [1, 0] : (tensor<48x48xf32>) -> tensor<48x48xf32>
      %p = stablehlo.dot_general %mt, %w, contracting_dims = [1] x [0] : (tensor<48x48xf32>, tensor<48x48xf32>) -> tensor<48x48xf32>
      %q = stablehlo.add %p, %m : tensor<48x48xf32>
      func.return %new, %residual, %q : tensor<48x48xf32>, tensor<48x48xf32>, tensor<48x48xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto main = module->lookupSymbol<func::FuncOp>("main");
  Block &body = main.front();
  FusionPlan plan = FusionPlan::build(body);
  // The add of the dot leaves the chain of the sum: the earlier gradients
  // are one chain, the product goes into their sum, the SGD step is a
  // second chain. The dots and the transpose run at their adds.
  EXPECT_EQ(runningOps(body, plan),
            (std::vector<std::string>{
                "stablehlo.constant", "stablehlo.add (chain)",
                "stablehlo.add (accumulating)", "stablehlo.subtract (chain)",
                "stablehlo.add (accumulating)", "stablehlo.multiply",
                "stablehlo.add (accumulating)"}));
  std::vector<Tensor> arguments;
  for (auto [index, shape] : llvm::enumerate(std::vector<Shape>{
           {48, 48}, {48, 48}, {48, 48}, {40, 48}, {40, 48}, {48, 48}}))
    arguments.push_back(randomTensor(DType::F32, shape, index));
  std::vector<Tensor> copies;
  for (const Tensor &argument : arguments)
    copies.push_back(argument.clone());
  Interpreter fused(*module), unfused(*module, {/*fuseElementwise=*/false});
  FailureOr<std::vector<Tensor>> expected = unfused.run(main, arguments);
  FailureOr<std::vector<Tensor>> actual = fused.run(main, arguments);
  ASSERT_TRUE(succeeded(expected) && succeeded(actual));
  // A contraction of 40 or 48 fits in one of BLAS's blocks: the gemm adds
  // its finished dot products to the addend, the same sums as the add.
  for (size_t i = 0; i < expected->size(); ++i)
    EXPECT_TRUE(sameBits((*actual)[i], (*expected)[i])) << "result " << i;
  // The caller's tensors were read, never written.
  for (size_t i = 0; i < arguments.size(); ++i)
    EXPECT_TRUE(sameBits(arguments[i], copies[i])) << "argument " << i;
}

/// A random function of elementwise ops on tensor<37x53xT> (several tiles,
/// rows crossing tile boundaries): arguments a0..a2 of that shape, r
/// (37), c (53) and s (scalar) to broadcast, splat constants; values are
/// reused (chains are DAGs) and some escape through the return.
std::string randomChain(std::mt19937 &random, llvm::StringRef element,
                        llvm::ArrayRef<const char *> unaryOps,
                        llvm::ArrayRef<const char *> binaryOps) {
  const std::string full = llvm::formatv("tensor<37x53x{0}>", element).str();
  std::string body;
  llvm::raw_string_ostream os(body);
  std::vector<std::string> values = {"%a0", "%a1", "%a2"};
  int64_t next = 0;
  auto pick = [&](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(random);
  };
  // An operand: mostly an existing value, sometimes a new broadcast or
  // splat constant (used once).
  auto operand = [&]() -> std::string {
    std::string name = llvm::formatv("%v{0}", next++).str();
    switch (pick(8)) {
    case 0:
      os << llvm::formatv("    {0} = stablehlo.broadcast_in_dim %r, dims = [0] "
                          ": (tensor<37x{1}>) -> {2}\n",
                          name, element, full);
      return name;
    case 1:
      os << llvm::formatv("    {0} = stablehlo.broadcast_in_dim %c, dims = [1] "
                          ": (tensor<53x{1}>) -> {2}\n",
                          name, element, full);
      return name;
    case 2:
      os << llvm::formatv("    {0} = stablehlo.broadcast_in_dim %s, dims = [] "
                          ": (tensor<{1}>) -> {2}\n",
                          name, element, full);
      return name;
    case 3:
      os << llvm::formatv("    {0} = stablehlo.constant dense<{1}> : {2}\n",
                          name, element == "i32" ? "3" : "0.75", full);
      return name;
    default:
      return values[values.size() - 1 - pick(std::min<size_t>(values.size(), 4))];
    }
  };
  const int64_t ops = 2 + pick(12);
  for (int64_t i = 0; i < ops; ++i) {
    std::string name = llvm::formatv("%v{0}", next++).str();
    if (pick(3) == 0) {
      std::string x = operand();
      os << llvm::formatv("    {0} = stablehlo.{1} {2} : {3}\n", name,
                          unaryOps[pick(unaryOps.size())], x, full);
    } else {
      std::string x = operand(), y = operand();
      os << llvm::formatv("    {0} = stablehlo.{1} {2}, {3} : {4}\n", name,
                          binaryOps[pick(binaryOps.size())], x, y, full);
    }
    values.push_back(name);
  }
  // The last value and a random earlier one leave the function.
  std::string escaping = values[3 + pick(values.size() - 3)];
  return llvm::formatv(
             "func.func @main(%a0: {0}, %a1: {0}, %a2: {0}, %r: "
             "tensor<37x{1}>, %c: tensor<53x{1}>, %s: tensor<{1}>) -> ({0}, "
             "{0}) {{\n{2}    func.return {3}, {4} : {0}, {0}\n}\n",
             full, element, body, values.back(), escaping)
      .str();
}

/// True when both tensors hold the same bits, any NaN matching any NaN
/// (which NaN an operation on two NaNs returns is the CPU's choice per
/// instruction, not part of the order of operations).
bool sameBits(const Tensor &a, const Tensor &b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape())
    return false;
  for (int64_t i = 0, e = a.numElements(); i < e; ++i) {
    size_t size = dtypeSize(a.dtype());
    if (std::memcmp(a.bytes() + i * size, b.bytes() + i * size, size) == 0)
      continue;
    if (!isFloat(a.dtype()) || !std::isnan(a.elementAsDouble(i)) ||
        !std::isnan(b.elementAsDouble(i)))
      return false;
  }
  return true;
}

void expectFusedEqualsUnfused(MLIRContext &context, llvm::StringRef element,
                              DType dtype,
                              llvm::ArrayRef<const char *> unaryOps,
                              llvm::ArrayRef<const char *> binaryOps) {
  std::mt19937 random(2026);
  int64_t chainsSeen = 0;
  for (int trial = 0; trial < 150; ++trial) {
    std::string text = randomChain(random, element, unaryOps, binaryOps);
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    ASSERT_TRUE(module) << text;
    auto main = module->lookupSymbol<func::FuncOp>("main");
    std::vector<Tensor> arguments;
    for (auto [index, shape] : llvm::enumerate(std::vector<Shape>{
             {37, 53}, {37, 53}, {37, 53}, {37}, {53}, {}}))
      arguments.push_back(randomTensor(dtype, shape, trial * 16 + index));
    // Floats in [-2, 2): exp, log and divisions meet both signs and values
    // below 1.
    if (dtype == DType::F32)
      for (Tensor &argument : arguments)
        for (int64_t i = 0; i < argument.numElements(); ++i)
          argument.data<float>()[i] *= 2;
    Interpreter fused(*module), unfused(*module, {/*fuseElementwise=*/false});
    FailureOr<std::vector<Tensor>> expected = unfused.run(main, arguments);
    FailureOr<std::vector<Tensor>> actual = fused.run(main, arguments);
    ASSERT_TRUE(succeeded(expected) && succeeded(actual)) << text;
    for (size_t i = 0; i < expected->size(); ++i)
      EXPECT_TRUE(sameBits((*actual)[i], (*expected)[i]))
          << "result " << i << " of\n"
          << text << "fused " << (*actual)[i].valuesToString() << "\nunfused "
          << (*expected)[i].valuesToString();
    chainsSeen +=
        FusionPlan::build(main.front()).getChain(&*std::prev(main.front().end(), 2)) != nullptr;
  }
  // Most functions end in a chain; none would mean nothing was tested.
  EXPECT_GT(chainsSeen, 75);
}

TEST_F(FusionTest, RandomFloatChainsGiveTheUnfusedBits) {
  expectFusedEqualsUnfused(
      context, "f32", DType::F32,
      {"tanh", "exponential", "logistic", "negate", "abs", "log", "sqrt"},
      {"add", "subtract", "multiply", "divide", "maximum", "minimum"});
}

TEST_F(FusionTest, RandomIntegerChainsGiveTheUnfusedBits) {
  // Division by zero and shifts past the width have defined results.
  expectFusedEqualsUnfused(
      context, "i32", DType::I32, {"negate", "abs", "not", "popcnt"},
      {"add", "subtract", "multiply", "divide", "remainder", "xor",
       "shift_left", "shift_right_arithmetic", "maximum"});
}

} // namespace
