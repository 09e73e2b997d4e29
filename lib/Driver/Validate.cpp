//===- Validate.cpp - Reference replay of a partitioned run ---------------===//

#include "mpmd/Driver/Validate.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/Kernels.h"

#include "llvm/Support/Format.h"

#include <cmath>
#include <limits>

namespace mlir::mpmd::driver {

using runtime::DType;
using runtime::Tensor;

namespace {

llvm::Error makeValidationError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The default tolerance of the least precise floating-point type `module`
/// computes with (0 without floats). Partitioning reorders sums (partial
/// products all-reduced, accumulations split by microbatch), and each
/// order rounds in the type it runs in, so an f32 output of a program
/// computing in bf16 differs by bf16 roundings, not f32 ones.
double getComputeTypeTolerance(ModuleOp module) {
  unsigned narrowest = 0;
  auto visit = [&](Type type) {
    if (auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type)))
      if (narrowest == 0 || floatType.getFPMantissaWidth() < narrowest)
        narrowest = floatType.getFPMantissaWidth();
  };
  module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      visit(type);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          visit(arg.getType());
  });
  if (narrowest == 0)
    return 0;
  // f64 has 53 mantissa bits, f32 24; f16, bf16 and narrower take the
  // 16-bit tolerance.
  if (narrowest >= 53)
    return getDefaultTolerance(DType::F64);
  if (narrowest >= 24)
    return getDefaultTolerance(DType::F32);
  return getDefaultTolerance(DType::BF16);
}

/// max|a - b| / max|b| (0 when equal, infinity when b is all zeros).
double getNormwiseRelative(const runtime::TensorDifference &difference) {
  return difference.maxAbsolute == 0 ? 0
         : difference.maxExpectedMagnitude == 0
             ? std::numeric_limits<double>::infinity()
             : difference.maxAbsolute / difference.maxExpectedMagnitude;
}

/// Moves every finite non-zero element of `tensor` by one ulp, up and down
/// alternately (so that sums of inputs do not all drift one way).
template <typename T> void moveByOneUlp(Tensor &tensor) {
  T *values = tensor.data<T>();
  for (int64_t i = 0, n = tensor.numElements(); i < n; ++i)
    if (std::isfinite(values[i]) && values[i] != 0)
      values[i] = std::nextafter(
          values[i], i % 2 ? std::numeric_limits<T>::infinity()
                           : -std::numeric_limits<T>::infinity());
}

/// `inputs` with every f32/f64 element moved by one ulp; empty when none
/// of them is f32 or f64.
std::vector<Tensor> getPerturbedInputs(const std::vector<Tensor> &inputs) {
  std::vector<Tensor> perturbed;
  bool moved = false;
  for (const Tensor &input : inputs) {
    if (input.dtype() == DType::F32 || input.dtype() == DType::F64) {
      Tensor copy = input.clone();
      input.dtype() == DType::F32 ? moveByOneUlp<float>(copy)
                                  : moveByOneUlp<double>(copy);
      perturbed.push_back(std::move(copy));
      moved = true;
    } else {
      perturbed.push_back(input);
    }
  }
  if (!moved)
    perturbed.clear();
  return perturbed;
}

} // namespace

bool ValidationReport::passed() const {
  return llvm::all_of(outputs,
                      [](const OutputCheck &check) { return check.passed; });
}

void ValidationReport::print(llvm::raw_ostream &os) const {
  for (auto [index, check] : llvm::enumerate(outputs)) {
    os << llvm::format("output %zu: max abs error %.3g, normwise rel %.3g "
                       "(tolerance %.3g), max elementwise rel %.3g",
                       index, check.difference.maxAbsolute,
                       check.normwiseRelative, check.tolerance,
                       check.difference.maxRelative);
    if (check.difference.nanMismatch)
      os << ", NaNs differ";
    os << (check.passed ? "  ok\n" : "  MISMATCH\n");
  }
  os << "validation: " << (passed() ? "PASS" : "FAIL") << " ("
     << outputs.size() << " outputs against the unpartitioned program)\n";
  // The mismatches the reference's own sensitivity explains, in one note.
  std::vector<size_t> illConditioned;
  double largest = 0;
  for (auto [index, check] : llvm::enumerate(outputs))
    if (check.referenceSensitivity &&
        *check.referenceSensitivity > check.tolerance) {
      illConditioned.push_back(index);
      largest = std::max(largest, *check.referenceSensitivity);
    }
  if (illConditioned.empty())
    return;
  constexpr size_t kListed = 8;
  os << "note: the unpartitioned program itself is that sensitive: when its "
        "floating-point inputs move by one ulp, output"
     << (illConditioned.size() > 1 ? "s " : " ");
  for (auto [i, index] : llvm::enumerate(illConditioned)) {
    if (i == kListed) {
      os << " and " << illConditioned.size() - kListed << " more";
      break;
    }
    os << (i ? ", " : "") << index;
  }
  os << (illConditioned.size() > 1 ? " move" : " moves")
     << llvm::format(" by up to %.3g (normwise), beyond the tolerance: "
                     "these inputs make it too ill-conditioned for any other "
                     "summation order to match, partitioned or not; validate "
                     "with smaller or better-scaled inputs, or a --tolerance "
                     "above that\n",
                     largest);
}

double getDefaultTolerance(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return 1e-12;
  case DType::F32:
    return 1e-5;
  case DType::F16:
  case DType::BF16:
    return 1e-2;
  default:
    return 0;
  }
}

llvm::Expected<ValidationReport>
validateAgainstReference(ModuleOp original, const std::vector<Tensor> &inputs,
                         const std::vector<Tensor> &outputs,
                         std::optional<double> tolerance) {
  func::FuncOp main = getMainFunction(original);
  if (!main)
    return makeValidationError("the reference program has no @main");
  runtime::Interpreter interpreter(original);
  // The executor's devices call BLAS with one thread; OpenBLAS's threaded
  // GEMMs round differently, which an ill-conditioned model (e.g. a deep
  // MLP with saturated tanh) amplifies far beyond any tolerance. Same
  // kernels, same rounding: partitioning itself keeps every op's operands.
  runtime::BlasThreadLimit oneThread(1);
  FailureOr<std::vector<Tensor>> expected = interpreter.run(main, inputs);
  if (failed(expected))
    return makeValidationError("the unpartitioned program cannot run on the "
                               "interpreter (see the error above)");
  if (expected->size() != outputs.size())
    return makeValidationError(
        "the partitioned program has " + std::to_string(outputs.size()) +
        " outputs, the unpartitioned one " + std::to_string(expected->size()));

  const double computeTolerance = getComputeTypeTolerance(original);
  ValidationReport report;
  for (auto [index, pair] : llvm::enumerate(llvm::zip(outputs, *expected))) {
    const auto &[actual, reference] = pair;
    if (actual.dtype() != reference.dtype() ||
        actual.shape() != reference.shape())
      return makeValidationError(
          "output " + std::to_string(index) + " is " +
          runtime::toString({actual.dtype(), actual.shape()}) +
          ", the unpartitioned program's " +
          runtime::toString({reference.dtype(), reference.shape()}));
    OutputCheck check;
    check.difference = runtime::compareTensors(actual, reference);
    const runtime::TensorDifference &difference = check.difference;
    check.normwiseRelative = getNormwiseRelative(difference);
    check.tolerance = tolerance.value_or(std::max(
        getDefaultTolerance(reference.dtype()), computeTolerance));
    check.passed = !difference.nanMismatch &&
                   check.normwiseRelative <= check.tolerance;
    report.outputs.push_back(check);
  }
  if (report.passed())
    return report;
  // A miss: is it partitioning, or would any other order of the same sums
  // miss too? The reference's own sensitivity to its inputs' last bits says.
  std::vector<Tensor> perturbed = getPerturbedInputs(inputs);
  if (perturbed.empty())
    return report;
  FailureOr<std::vector<Tensor>> moved = interpreter.run(main, perturbed);
  if (failed(moved) || moved->size() != expected->size())
    return report;
  for (auto [check, movedOutput, reference] :
       llvm::zip(report.outputs, *moved, *expected))
    if (!check.passed)
      check.referenceSensitivity =
          getNormwiseRelative(runtime::compareTensors(movedOutput, reference));
  return report;
}

} // namespace mlir::mpmd::driver
