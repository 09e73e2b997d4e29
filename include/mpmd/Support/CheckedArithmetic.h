//===- CheckedArithmetic.h - Sizes that report overflow ---------*- C++ -*-===//
//
// Sizes computed from user input (tensor shapes and element widths, mesh axis
// sizes, pad amounts, configuration fields) are products and sums of int64
// values that can leave the int64 range; a wrapped size becomes a too small
// buffer or a silently wrong result. Every such size is computed here: an
// empty result means the exact value does not fit in int64, and the caller
// reports it with the type or field it came from. Plain C++ (no MLIR), so
// that the runtime uses the same functions as the compiler.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_SUPPORT_CHECKEDARITHMETIC_H
#define MPMD_SUPPORT_CHECKEDARITHMETIC_H

#include <cstdint>
#include <optional>

namespace mlir::mpmd {

/// `lhs + rhs`, or none when it does not fit in int64.
inline std::optional<int64_t> checkedAdd(int64_t lhs, int64_t rhs) {
  int64_t sum;
  if (__builtin_add_overflow(lhs, rhs, &sum))
    return std::nullopt;
  return sum;
}

/// `lhs * rhs`, or none when it does not fit in int64.
inline std::optional<int64_t> checkedMul(int64_t lhs, int64_t rhs) {
  int64_t product;
  if (__builtin_mul_overflow(lhs, rhs, &product))
    return std::nullopt;
  return product;
}

/// `initial` times the product of `factors` (sizes: dimensions, axis sizes),
/// or none when it does not fit in int64. A zero factor makes the product 0
/// however large the others are: a tensor with a zero dimension is empty.
template <typename Range>
std::optional<int64_t> checkedProduct(const Range &factors,
                                      int64_t initial = 1) {
  for (int64_t factor : factors)
    if (factor == 0)
      return 0;
  std::optional<int64_t> product = initial;
  for (int64_t factor : factors) {
    product = checkedMul(*product, factor);
    if (!product)
      return std::nullopt;
  }
  return product;
}

} // namespace mlir::mpmd

#endif // MPMD_SUPPORT_CHECKEDARITHMETIC_H
