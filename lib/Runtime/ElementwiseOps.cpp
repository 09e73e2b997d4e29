//===- ElementwiseOps.cpp - Ops the interpreter runs as map kernels -------===//

#include "ElementwiseOps.h"

#include "llvm/ADT/StringMap.h"

namespace mlir::mpmd::runtime {

namespace {

const llvm::StringMap<UnaryKind> &unaryOps() {
  static const llvm::StringMap<UnaryKind> ops = {
      {"stablehlo.abs", UnaryKind::Abs},
      {"stablehlo.negate", UnaryKind::Negate},
      {"stablehlo.not", UnaryKind::Not},
      {"stablehlo.sign", UnaryKind::Sign},
      {"stablehlo.exponential", UnaryKind::Exp},
      {"stablehlo.exponential_minus_one", UnaryKind::Expm1},
      {"stablehlo.log", UnaryKind::Log},
      {"stablehlo.log_plus_one", UnaryKind::Log1p},
      {"stablehlo.logistic", UnaryKind::Logistic},
      {"stablehlo.sqrt", UnaryKind::Sqrt},
      {"stablehlo.rsqrt", UnaryKind::Rsqrt},
      {"stablehlo.cbrt", UnaryKind::Cbrt},
      {"stablehlo.tanh", UnaryKind::Tanh},
      {"stablehlo.sine", UnaryKind::Sine},
      {"stablehlo.cosine", UnaryKind::Cosine},
      {"stablehlo.tan", UnaryKind::Tan},
      {"chlo.tan", UnaryKind::Tan},
      {"chlo.erf", UnaryKind::Erf},
      {"chlo.erfc", UnaryKind::Erfc},
      {"chlo.lgamma", UnaryKind::Lgamma},
      {"chlo.sinh", UnaryKind::Sinh},
      {"chlo.cosh", UnaryKind::Cosh},
      {"chlo.asin", UnaryKind::Asin},
      {"chlo.acos", UnaryKind::Acos},
      {"chlo.atan", UnaryKind::Atan},
      {"chlo.asinh", UnaryKind::Asinh},
      {"chlo.acosh", UnaryKind::Acosh},
      {"chlo.atanh", UnaryKind::Atanh},
      {"stablehlo.floor", UnaryKind::Floor},
      {"stablehlo.ceil", UnaryKind::Ceil},
      {"stablehlo.round_nearest_afz", UnaryKind::RoundAwayFromZero},
      {"stablehlo.round_nearest_even", UnaryKind::RoundNearestEven},
      {"stablehlo.popcnt", UnaryKind::PopCount},
      {"stablehlo.count_leading_zeros", UnaryKind::CountLeadingZeros},
  };
  return ops;
}

const llvm::StringMap<BinaryKind> &binaryOps() {
  static const llvm::StringMap<BinaryKind> ops = {
      {"stablehlo.add", BinaryKind::Add},
      {"stablehlo.subtract", BinaryKind::Subtract},
      {"stablehlo.multiply", BinaryKind::Multiply},
      {"stablehlo.divide", BinaryKind::Divide},
      {"stablehlo.remainder", BinaryKind::Remainder},
      {"stablehlo.power", BinaryKind::Power},
      {"stablehlo.maximum", BinaryKind::Maximum},
      {"stablehlo.minimum", BinaryKind::Minimum},
      {"stablehlo.atan2", BinaryKind::Atan2},
      {"stablehlo.and", BinaryKind::And},
      {"stablehlo.or", BinaryKind::Or},
      {"stablehlo.xor", BinaryKind::Xor},
      {"stablehlo.shift_left", BinaryKind::ShiftLeft},
      {"stablehlo.shift_right_arithmetic", BinaryKind::ShiftRightArithmetic},
      {"stablehlo.shift_right_logical", BinaryKind::ShiftRightLogical},
  };
  return ops;
}

} // namespace

std::optional<UnaryKind> getUnaryKind(Operation &op) {
  auto found = unaryOps().find(op.getName().getStringRef());
  if (found == unaryOps().end())
    return std::nullopt;
  return found->second;
}

std::optional<BinaryKind> getBinaryKind(Operation &op) {
  auto found = binaryOps().find(op.getName().getStringRef());
  if (found == binaryOps().end())
    return std::nullopt;
  return found->second;
}

} // namespace mlir::mpmd::runtime
