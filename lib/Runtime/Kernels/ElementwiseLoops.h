//===- ElementwiseLoops.h - The per-element loops of the kernels -*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: one loop per (operation, C++ type) with
// the operation inlined, so the compiler vectorizes the plain arithmetic
// ones. Included by Elementwise.cpp (the build's baseline ISA) and by
// ElementwiseAvx2.cpp (compiled with -mavx2, no FMA: every element goes
// through the same IEEE operations, so both give the same bits), and by the
// reduce and scatter kernels for the same maximum and minimum. Internal
// linkage: each includer gets its own copy, compiled for its ISA.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_RUNTIME_KERNELS_ELEMENTWISELOOPS_H
#define MPMD_LIB_RUNTIME_KERNELS_ELEMENTWISELOOPS_H

#include "mpmd/Runtime/FastMath.h"
#include "mpmd/Runtime/Kernels.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace mlir::mpmd::runtime::detail {

/// The f32 loops compiled for AVX2 (ElementwiseAvx2.cpp, in x86-64 builds,
/// where MPMD_ELEMENTWISE_AVX2 is defined); callers check the CPU first.
void unaryLoopAvx2(UnaryKind kind, const float *in, float *out, int64_t count);
void binaryLoopAvx2(BinaryKind kind, const float *lhs, const float *rhs,
                    float *out, int64_t count);

namespace {

template <typename T>
constexpr bool kIsFloat = std::is_floating_point_v<T>;
template <typename T>
constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Operands and results are either the same buffer (an op computing in
// place, see Interpreter.cpp) or disjoint ones, never partly overlapping.
// Saying so keeps the loops vectorized: with possibly aliasing pointers the
// compiler guards the vector loop with an overlap check, which in-place
// calls fail, falling back to its scalar loop.

template <typename T, typename F>
void map1(const T *in, T *out, int64_t count, F f) {
  if (static_cast<const void *>(in) == out) {
    for (int64_t i = 0; i < count; ++i)
      out[i] = f(out[i]);
    return;
  }
  const T *__restrict source = in;
  T *__restrict target = out;
  for (int64_t i = 0; i < count; ++i)
    target[i] = f(source[i]);
}

template <typename T, typename U, typename F>
void map2(const T *lhs, const T *rhs, U *out, int64_t count, F f) {
  // Only a result of the operands' type can be one of them.
  if constexpr (std::is_same_v<T, U>) {
    if (lhs == out && rhs == out) {
      for (int64_t i = 0; i < count; ++i)
        out[i] = f(out[i], out[i]);
      return;
    }
    if (lhs == out || rhs == out) {
      // One operand is the result, the other is disjoint from it.
      const T *__restrict other = lhs == out ? rhs : lhs;
      T *__restrict target = out;
      if (lhs == out)
        for (int64_t i = 0; i < count; ++i)
          target[i] = f(target[i], other[i]);
      else
        for (int64_t i = 0; i < count; ++i)
          target[i] = f(other[i], target[i]);
      return;
    }
  }
  const T *__restrict first = lhs;
  const T *__restrict second = rhs;
  U *__restrict target = out;
  for (int64_t i = 0; i < count; ++i)
    target[i] = f(first[i], second[i]);
}

/// IEEE-754 maximum and minimum: a NaN operand wins, and -0.0 < +0.0 (the
/// zeros compare equal, so their signs decide).
template <typename T> T floatMax(T a, T b) {
  return (a != a || a > b || (a == b && std::signbit(b))) ? a : b;
}
template <typename T> T floatMin(T a, T b) {
  return (a != a || a < b || (a == b && std::signbit(a))) ? a : b;
}

template <typename T> T intPower(T base, T exponent) {
  if constexpr (std::is_signed_v<T>) {
    if (exponent < 0)
      return base == 1 ? 1 : base == -1 ? (exponent % 2 ? -1 : 1) : 0;
  }
  using Wide = std::make_unsigned_t<T>;
  Wide result = 1, factor = static_cast<Wide>(base);
  for (auto e = static_cast<Wide>(exponent); e; e >>= 1) {
    if (e & 1)
      result *= factor;
    factor *= factor;
  }
  return static_cast<T>(result);
}

template <typename T> T intDivide(T a, T b) {
  if (b == 0)
    return static_cast<T>(-1);
  if constexpr (std::is_signed_v<T>)
    if (a == std::numeric_limits<T>::min() && b == -1)
      return a;
  return a / b;
}

template <typename T> T intRemainder(T a, T b) {
  if (b == 0)
    return a;
  if constexpr (std::is_signed_v<T>)
    if (a == std::numeric_limits<T>::min() && b == -1)
      return 0;
  return a % b;
}

template <typename T> T shiftLeft(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (static_cast<U>(b) >= sizeof(T) * 8)
    return 0;
  return static_cast<T>(static_cast<U>(a) << static_cast<U>(b));
}

template <typename T> T shiftRightLogical(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (static_cast<U>(b) >= sizeof(T) * 8)
    return 0;
  return static_cast<T>(static_cast<U>(a) >> static_cast<U>(b));
}

template <typename T> T shiftRightArithmetic(T a, T b) {
  using S = std::make_signed_t<T>;
  using U = std::make_unsigned_t<T>;
  U amount = static_cast<U>(b);
  if (amount >= sizeof(T) * 8)
    amount = sizeof(T) * 8 - 1;
  return static_cast<T>(static_cast<S>(a) >> amount);
}

template <typename T>
void unaryLoop(UnaryKind kind, const T *in, T *out, int64_t count) {
  if constexpr (kIsFloat<T>) {
    switch (kind) {
    case UnaryKind::Abs: return map1(in, out, count, [](T x) { return std::fabs(x); });
    case UnaryKind::Negate: return map1(in, out, count, [](T x) { return -x; });
    case UnaryKind::Sign:
      return map1(in, out, count, [](T x) {
        return x != x ? x : x > 0 ? T(1) : x < 0 ? T(-1) : x;
      });
    case UnaryKind::Exp:
      if constexpr (std::is_same_v<T, float>)
        return map1(in, out, count, [](T x) { return fastExp(x); });
      else
        return map1(in, out, count, [](T x) { return std::exp(x); });
    case UnaryKind::Expm1: return map1(in, out, count, [](T x) { return std::expm1(x); });
    case UnaryKind::Log: return map1(in, out, count, [](T x) { return std::log(x); });
    case UnaryKind::Log1p: return map1(in, out, count, [](T x) { return std::log1p(x); });
    case UnaryKind::Logistic:
      if constexpr (std::is_same_v<T, float>)
        return map1(in, out, count, [](T x) { return fastLogistic(x); });
      else
        return map1(in, out, count,
                    [](T x) { return T(1) / (T(1) + std::exp(-x)); });
    case UnaryKind::Sqrt: return map1(in, out, count, [](T x) { return std::sqrt(x); });
    case UnaryKind::Rsqrt:
      return map1(in, out, count, [](T x) { return T(1) / std::sqrt(x); });
    case UnaryKind::Cbrt: return map1(in, out, count, [](T x) { return std::cbrt(x); });
    case UnaryKind::Tanh:
      if constexpr (std::is_same_v<T, float>)
        return map1(in, out, count, [](T x) { return fastTanh(x); });
      else
        return map1(in, out, count, [](T x) { return std::tanh(x); });
    case UnaryKind::Sine: return map1(in, out, count, [](T x) { return std::sin(x); });
    case UnaryKind::Cosine: return map1(in, out, count, [](T x) { return std::cos(x); });
    case UnaryKind::Tan: return map1(in, out, count, [](T x) { return std::tan(x); });
    case UnaryKind::Floor: return map1(in, out, count, [](T x) { return std::floor(x); });
    case UnaryKind::Ceil: return map1(in, out, count, [](T x) { return std::ceil(x); });
    case UnaryKind::RoundAwayFromZero:
      return map1(in, out, count, [](T x) { return std::round(x); });
    case UnaryKind::RoundNearestEven:
      return map1(in, out, count, [](T x) { return std::nearbyint(x); });
    case UnaryKind::Erf: return map1(in, out, count, [](T x) { return std::erf(x); });
    case UnaryKind::Erfc: return map1(in, out, count, [](T x) { return std::erfc(x); });
    case UnaryKind::Lgamma: return map1(in, out, count, [](T x) { return std::lgamma(x); });
    case UnaryKind::Sinh: return map1(in, out, count, [](T x) { return std::sinh(x); });
    case UnaryKind::Cosh: return map1(in, out, count, [](T x) { return std::cosh(x); });
    case UnaryKind::Asin: return map1(in, out, count, [](T x) { return std::asin(x); });
    case UnaryKind::Acos: return map1(in, out, count, [](T x) { return std::acos(x); });
    case UnaryKind::Atan: return map1(in, out, count, [](T x) { return std::atan(x); });
    case UnaryKind::Asinh: return map1(in, out, count, [](T x) { return std::asinh(x); });
    case UnaryKind::Acosh: return map1(in, out, count, [](T x) { return std::acosh(x); });
    case UnaryKind::Atanh: return map1(in, out, count, [](T x) { return std::atanh(x); });
    default: return;
    }
  } else if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    switch (kind) {
    case UnaryKind::Abs:
      return map1(in, out, count, [](T x) {
        if constexpr (std::is_signed_v<T>)
          return x < 0 ? static_cast<T>(U(0) - static_cast<U>(x)) : x;
        else
          return x;
      });
    case UnaryKind::Negate:
      return map1(in, out, count,
                  [](T x) { return static_cast<T>(U(0) - static_cast<U>(x)); });
    case UnaryKind::Not: return map1(in, out, count, [](T x) { return static_cast<T>(~x); });
    case UnaryKind::Sign:
      return map1(in, out, count,
                  [](T x) { return static_cast<T>(x > 0 ? 1 : x < 0 ? -1 : 0); });
    case UnaryKind::PopCount:
      return map1(in, out, count, [](T x) {
        return static_cast<T>(std::popcount(static_cast<U>(x)));
      });
    case UnaryKind::CountLeadingZeros:
      return map1(in, out, count, [](T x) {
        return static_cast<T>(std::countl_zero(static_cast<U>(x)));
      });
    default: return;
    }
  } else { // i1
    if (kind == UnaryKind::Not)
      map1(in, out, count, [](T x) { return !x; });
  }
}

/// The unsigned type integer arithmetic on T wraps in (StableHLO's integer
/// add and multiply wrap): at least `unsigned`, so that narrow types are not
/// promoted to a signed int that could overflow.
template <typename T>
using WrappingUnsigned =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                       std::make_unsigned_t<T>>;

template <typename T>
void binaryLoop(BinaryKind kind, const T *lhs, const T *rhs, T *out,
                int64_t count) {
  switch (kind) {
  case BinaryKind::Add:
    if constexpr (std::is_same_v<T, bool>)
      return map2(lhs, rhs, out, count, [](T a, T b) { return a || b; });
    else if constexpr (kIsInt<T>)
      return map2(lhs, rhs, out, count, [](T a, T b) {
        return static_cast<T>(static_cast<WrappingUnsigned<T>>(a) +
                              static_cast<WrappingUnsigned<T>>(b));
      });
    else
      return map2(lhs, rhs, out, count, [](T a, T b) { return static_cast<T>(a + b); });
  case BinaryKind::Multiply:
    if constexpr (std::is_same_v<T, bool>)
      return map2(lhs, rhs, out, count, [](T a, T b) { return a && b; });
    else if constexpr (kIsInt<T>)
      return map2(lhs, rhs, out, count, [](T a, T b) {
        return static_cast<T>(static_cast<WrappingUnsigned<T>>(a) *
                              static_cast<WrappingUnsigned<T>>(b));
      });
    else
      return map2(lhs, rhs, out, count, [](T a, T b) { return static_cast<T>(a * b); });
  case BinaryKind::Maximum:
    if constexpr (kIsFloat<T>)
      return map2(lhs, rhs, out, count, floatMax<T>);
    else
      return map2(lhs, rhs, out, count, [](T a, T b) { return a > b ? a : b; });
  case BinaryKind::Minimum:
    if constexpr (kIsFloat<T>)
      return map2(lhs, rhs, out, count, floatMin<T>);
    else
      return map2(lhs, rhs, out, count, [](T a, T b) { return a < b ? a : b; });
  default: break;
  }
  if constexpr (kIsFloat<T>) {
    switch (kind) {
    case BinaryKind::Subtract: return map2(lhs, rhs, out, count, [](T a, T b) { return a - b; });
    case BinaryKind::Divide: return map2(lhs, rhs, out, count, [](T a, T b) { return a / b; });
    case BinaryKind::Remainder:
      return map2(lhs, rhs, out, count, [](T a, T b) { return std::fmod(a, b); });
    case BinaryKind::Power:
      return map2(lhs, rhs, out, count, [](T a, T b) { return std::pow(a, b); });
    case BinaryKind::Atan2:
      return map2(lhs, rhs, out, count, [](T a, T b) { return std::atan2(a, b); });
    default: return;
    }
  } else if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    switch (kind) {
    case BinaryKind::Subtract:
      return map2(lhs, rhs, out, count, [](T a, T b) {
        return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
      });
    case BinaryKind::Divide: return map2(lhs, rhs, out, count, intDivide<T>);
    case BinaryKind::Remainder: return map2(lhs, rhs, out, count, intRemainder<T>);
    case BinaryKind::Power: return map2(lhs, rhs, out, count, intPower<T>);
    case BinaryKind::And: return map2(lhs, rhs, out, count, [](T a, T b) { return static_cast<T>(a & b); });
    case BinaryKind::Or: return map2(lhs, rhs, out, count, [](T a, T b) { return static_cast<T>(a | b); });
    case BinaryKind::Xor: return map2(lhs, rhs, out, count, [](T a, T b) { return static_cast<T>(a ^ b); });
    case BinaryKind::ShiftLeft: return map2(lhs, rhs, out, count, shiftLeft<T>);
    case BinaryKind::ShiftRightLogical: return map2(lhs, rhs, out, count, shiftRightLogical<T>);
    case BinaryKind::ShiftRightArithmetic: return map2(lhs, rhs, out, count, shiftRightArithmetic<T>);
    default: return;
    }
  } else { // i1
    switch (kind) {
    case BinaryKind::And: return map2(lhs, rhs, out, count, [](T a, T b) { return a && b; });
    case BinaryKind::Or: return map2(lhs, rhs, out, count, [](T a, T b) { return a || b; });
    case BinaryKind::Xor: return map2(lhs, rhs, out, count, [](T a, T b) { return a != b; });
    default: return;
    }
  }
}

} // namespace
} // namespace mlir::mpmd::runtime::detail

#endif // MPMD_LIB_RUNTIME_KERNELS_ELEMENTWISELOOPS_H
