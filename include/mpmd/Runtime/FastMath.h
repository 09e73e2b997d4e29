//===- FastMath.h - Vectorizable exp and tanh for f32 -----------*- C++ -*-===//
//
// glibc's expf/tanhf are scalar calls (tanhf goes through expm1f): in a
// tanh MLP they took a fifth of the step. These are branch-free inline
// functions the compiler vectorizes inside the elementwise loops, accurate
// to a few ulp (FastMathTest measures the bound over the float range):
//
// * exp(x): x = n ln2 + r with |r| <= ln2/2 (ln2 split in two parts, so
//   n ln2 is exact), exp(r) by its Taylor polynomial of degree 7 (truncation
//   below 2^-27 relative), times 2^n built in two exponent fields so that
//   results fall gradually into subnormals and overflow to inf.
// * tanh(x): for |x| < 0.55 the odd Taylor series to x^19 (terms shrink by
//   (2x/pi)^2 < 0.13 each); above, (1 - t) / (1 + t) with t = exp(-2|x|),
//   which has no cancellation there (t < 1/3). The sign is copied back, so
//   tanh(-0) = -0; NaN stays NaN.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_FASTMATH_H
#define MPMD_RUNTIME_FASTMATH_H

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace mlir::mpmd::runtime {

// Always inlined: the kernels compile these once per ISA
// (ElementwiseAvx2.cpp), and an out-of-line copy built for one ISA must not
// serve the other's calls.
[[gnu::always_inline]] inline float fastExp(float x) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2High = 0.693145751953125f; // 12 significant bits
  constexpr float kLn2Low = 1.42860682030941723212e-6f;
  // Adding 1.5 * 2^23 rounds to an integer held in the low mantissa bits.
  constexpr float kRoundingShift = 12582912.0f;
  // exp overflows above ~88.72 and is below half the smallest subnormal
  // under ~-103.97; clamping keeps n in [-150, 128] (NaN passes through).
  x = std::min(std::max(x, -104.0f), 88.8f);
  float shifted = x * kLog2e + kRoundingShift;
  float n = shifted - kRoundingShift;
  int32_t exponent = std::bit_cast<int32_t>(shifted) -
                     std::bit_cast<int32_t>(kRoundingShift);
  float r = x - n * kLn2High - n * kLn2Low;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  int32_t half = exponent >> 1;
  float scaleLow = std::bit_cast<float>((half + 127) << 23);
  float scaleHigh = std::bit_cast<float>((exponent - half + 127) << 23);
  return p * scaleLow * scaleHigh;
}

[[gnu::always_inline]] inline float fastTanh(float x) {
  float a = std::fabs(x);
  // Series: tanh(a) = a + a^3 (c3 + a^2 (c5 + ...)), c_k from the
  // Bernoulli numbers.
  float a2 = a * a;
  float s = -443861162.0f / 1856156927625.0f;
  s = s * a2 + 6404582.0f / 10854718875.0f;
  s = s * a2 - 929569.0f / 638512875.0f;
  s = s * a2 + 21844.0f / 6081075.0f;
  s = s * a2 - 1382.0f / 155925.0f;
  s = s * a2 + 62.0f / 2835.0f;
  s = s * a2 - 17.0f / 315.0f;
  s = s * a2 + 2.0f / 15.0f;
  s = s * a2 - 1.0f / 3.0f;
  float series = a + a * a2 * s;
  float t = fastExp(-2.0f * a);
  float quotient = (1.0f - t) / (1.0f + t);
  return std::copysign(a < 0.55f ? series : quotient, x);
}

/// 1 / (1 + exp(-x)).
[[gnu::always_inline]] inline float fastLogistic(float x) {
  return 1.0f / (1.0f + fastExp(-x));
}

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_FASTMATH_H
