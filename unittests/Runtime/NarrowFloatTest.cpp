//===- NarrowFloatTest.cpp - narrow float codecs against llvm::APFloat ----===//
//
// The runtime's codecs (NarrowFloat.cpp, plain C++) must give MLIR's
// APFloat results bit for bit: they are what constants and the StableHLO
// reference semantics use. Decoding is checked on every pattern, rounding
// on a stride through all f32 patterns, random f64 values, and the
// midpoints between neighbouring values (ties) and their neighbours.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/Tensor.h"

#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"

#include <bit>
#include <cmath>
#include <limits>
#include <random>

using namespace mlir::mpmd::runtime;
using llvm::APFloat;
using llvm::APInt;

namespace {

struct Case {
  DType dtype;
  const llvm::fltSemantics &semantics;
  unsigned bits;
};

std::vector<Case> cases() {
  return {{DType::F8E5M2, APFloat::Float8E5M2(), 8},
          {DType::F8E4M3, APFloat::Float8E4M3(), 8},
          {DType::F8E3M4, APFloat::Float8E3M4(), 8},
          {DType::F8E4M3FN, APFloat::Float8E4M3FN(), 8},
          {DType::F8E4M3FNUZ, APFloat::Float8E4M3FNUZ(), 8},
          {DType::F8E5M2FNUZ, APFloat::Float8E5M2FNUZ(), 8},
          {DType::F8E4M3B11FNUZ, APFloat::Float8E4M3B11FNUZ(), 8},
          {DType::F8E8M0FNU, APFloat::Float8E8M0FNU(), 8},
          {DType::F4E2M1FN, APFloat::Float4E2M1FN(), 4},
          {DType::F6E2M3FN, APFloat::Float6E2M3FN(), 6},
          {DType::F6E3M2FN, APFloat::Float6E3M2FN(), 6},
          {DType::F16, APFloat::IEEEhalf(), 16},
          {DType::BF16, APFloat::BFloat(), 16},
          {DType::TF32, APFloat::FloatTF32(), 19}};
}

/// The stored pattern of a type's own bits (tf32 is kept as an f32).
uint32_t stored(DType dtype, uint32_t pattern) {
  return dtype == DType::TF32 ? pattern << 13 : pattern;
}

uint32_t apfloatRounding(const Case &c, double value) {
  APFloat converted(value);
  bool losesInfo;
  converted.convert(c.semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  return stored(c.dtype, converted.bitcastToAPInt().getZExtValue());
}

void expectSameRounding(const Case &c, double value) {
  // Any NaN is a NaN (APFloat keeps payload bits we do not), and
  // f8E8M0FNU has no sign: negatives are NaN here, not APFloat's
  // sign-in-the-exponent pattern.
  if (std::isnan(value) ||
      (c.dtype == DType::F8E8M0FNU && value < 0))
    return;
  EXPECT_EQ(doubleToNarrowFloat(c.dtype, value), apfloatRounding(c, value))
      << dtypeName(c.dtype) << " of " << value;
}

TEST(NarrowFloatTest, DecodesEveryPatternAsAPFloat) {
  for (const Case &c : cases()) {
    uint32_t count = c.bits <= 16 ? 1u << c.bits : 1u << 16;
    for (uint32_t i = 0; i < count; ++i) {
      // tf32: 2^16 patterns spread over its 2^19.
      uint32_t pattern = c.bits <= 16 ? i : i * 8 + 5;
      double expected = APFloat(c.semantics, APInt(c.bits, pattern)).convertToDouble();
      float actual = narrowFloatToFloat(c.dtype, stored(c.dtype, pattern));
      // f8E8M0FNU's all-ones pattern is its NaN (APFloat reads it as inf).
      if (c.dtype == DType::F8E8M0FNU && pattern == 0xff) {
        EXPECT_TRUE(std::isnan(actual));
        continue;
      }
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(actual)) << dtypeName(c.dtype) << " " << pattern;
        continue;
      }
      EXPECT_EQ(actual, expected) << dtypeName(c.dtype) << " " << pattern;
      EXPECT_EQ(std::signbit(actual), std::signbit(expected));
    }
  }
}

TEST(NarrowFloatTest, RoundsAsAPFloat) {
  std::mt19937_64 random(42);
  for (const Case &c : cases()) {
    for (uint64_t bits = 0; bits < (uint64_t(1) << 32); bits += 65537)
      expectSameRounding(c, std::bit_cast<float>(static_cast<uint32_t>(bits)));
    for (int i = 0; i < 20000; ++i)
      expectSameRounding(c, std::bit_cast<double>(random()));
    constexpr double kInfinity = std::numeric_limits<double>::infinity();
    for (double special : {0.0, -0.0, kInfinity, -kInfinity, 1e300, -1e300,
                           1e-300, -1e-300, 5e-324})
      expectSameRounding(c, special);
    // Ties and their neighbours between each pair of finite neighbours.
    uint32_t count = c.bits <= 16 ? 1u << c.bits : 0;
    for (uint32_t pattern = 0; pattern + 1 < count; ++pattern) {
      double low = narrowFloatToFloat(c.dtype, pattern);
      double high = narrowFloatToFloat(c.dtype, pattern + 1);
      if (!std::isfinite(low) || !std::isfinite(high))
        continue;
      double middle = (low + high) / 2;
      for (double value : {middle, std::nextafter(middle, kInfinity),
                           std::nextafter(middle, -kInfinity), low * 1.5,
                           low * 2.5})
        expectSameRounding(c, value);
    }
  }
}

TEST(NarrowFloatTest, SubByteIntegersWrap) {
  EXPECT_EQ(wrapToSubByteInt(DType::I4, 8), -8);
  EXPECT_EQ(wrapToSubByteInt(DType::I4, -9), 7);
  EXPECT_EQ(wrapToSubByteInt(DType::UI4, -1), 15);
  EXPECT_EQ(wrapToSubByteInt(DType::I2, 2), -2);
  EXPECT_EQ(wrapToSubByteInt(DType::UI2, 5), 1);
}

TEST(NarrowFloatTest, ConvertRoundsOnceFromF64) {
  // 1 + 2^-11 + 2^-40 is just above a tie of f16: once rounded it goes up;
  // rounded through f32 first it would land on the tie and go to even (1).
  Tensor x = Tensor::empty(DType::F64, {1});
  x.data<double>()[0] = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(convert(x, DType::F16).elementAsDouble(0), 1.0 + std::ldexp(1.0, -10));
}

} // namespace
