//===- FastMathTest.cpp - Accuracy of the vectorizable exp and tanh -------===//
//
// Sweeps the float range (every 1009th bit pattern, ~8k values per binade
// and sign) against double-precision libm rounded to float, and checks the
// special values. A sweep of every 7th float gave at most 1 ulp for exp and
// 2 ulp for tanh and logistic.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/FastMath.h"

#include "gtest/gtest.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

using namespace mlir::mpmd::runtime;

namespace {

/// Distance in representable floats (0 when equal, also for +0 and -0).
int64_t ulpDistance(float a, float b) {
  auto ordered = [](float v) {
    int32_t bits = std::bit_cast<int32_t>(v);
    return bits < 0 ? int64_t(INT32_MIN) - bits : int64_t(bits);
  };
  int64_t x = ordered(a), y = ordered(b);
  return x > y ? x - y : y - x;
}

/// The largest ulp error of `fast` against `exact` (in double) over the
/// finite floats in [lo, hi], and where it is.
template <typename Fast, typename Exact>
std::pair<int64_t, float> maxUlpError(Fast fast, Exact exact, float lo,
                                      float hi) {
  int64_t worst = 0;
  float at = 0;
  for (uint32_t bits = 0; bits < 0x7f800000u; bits += 1009)
    for (float x : {std::bit_cast<float>(bits), -std::bit_cast<float>(bits)}) {
      if (x < lo || x > hi)
        continue;
      int64_t error = ulpDistance(fast(x), float(exact(double(x))));
      if (error > worst) {
        worst = error;
        at = x;
      }
    }
  return {worst, at};
}

TEST(FastMathTest, ExpIsWithinOneUlpWhereTheResultIsNormal) {
  auto [error, at] = maxUlpError(fastExp, [](double x) { return std::exp(x); },
                                 -87.0f, 88.7f);
  EXPECT_LE(error, 1) << "at x = " << at;
}

TEST(FastMathTest, ExpLimits) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(fastExp(0.0f), 1.0f);
  EXPECT_EQ(fastExp(89.0f), kInf);
  EXPECT_EQ(fastExp(kInf), kInf);
  EXPECT_EQ(fastExp(-kInf), 0.0f);
  EXPECT_EQ(fastExp(-200.0f), 0.0f);
  EXPECT_TRUE(std::isnan(fastExp(std::nanf(""))));
  // Gradual underflow: exp(-100) is a subnormal, within a subnormal ulp.
  EXPECT_LE(ulpDistance(fastExp(-100.0f), float(std::exp(-100.0))), 1);
  EXPECT_GT(fastExp(-100.0f), 0.0f);
}

TEST(FastMathTest, TanhIsWithinTwoUlpEverywhere) {
  auto [error, at] = maxUlpError(
      fastTanh, [](double x) { return std::tanh(x); },
      -std::numeric_limits<float>::max(), std::numeric_limits<float>::max());
  EXPECT_LE(error, 2) << "at x = " << at;
}

TEST(FastMathTest, TanhSpecialValues) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(fastTanh(kInf), 1.0f);
  EXPECT_EQ(fastTanh(-kInf), -1.0f);
  EXPECT_EQ(fastTanh(20.0f), 1.0f);
  EXPECT_TRUE(std::signbit(fastTanh(-0.0f)));
  EXPECT_EQ(fastTanh(-0.0f), 0.0f);
  EXPECT_EQ(fastTanh(1e-30f), 1e-30f);
  EXPECT_TRUE(std::isnan(fastTanh(std::nanf(""))));
}

TEST(FastMathTest, LogisticFollowsExp) {
  EXPECT_EQ(fastLogistic(0.0f), 0.5f);
  EXPECT_EQ(fastLogistic(200.0f), 1.0f);
  EXPECT_EQ(fastLogistic(-200.0f), 0.0f);
  auto [error, at] = maxUlpError(
      fastLogistic, [](double x) { return 1 / (1 + std::exp(-x)); }, -80.0f,
      80.0f);
  EXPECT_LE(error, 2) << "at x = " << at;
}

} // namespace
