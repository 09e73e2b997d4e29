//===- RandomTest.cpp - Seeded random tensors -----------------------------===//

#include "mpmd/Runtime/Random.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

using namespace mlir::mpmd::runtime;

namespace {

TEST(RandomTest, SplitMix64MatchesTheReferenceSequence) {
  // The first outputs of the reference implementation seeded with 0.
  SplitMix64 generator(0);
  EXPECT_EQ(generator.next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(generator.next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(generator.next(), 0x06c45d188009454full);
}

TEST(RandomTest, SameSeedSameTensorOtherSeedOther) {
  Tensor a = randomTensor(DType::F32, {64}, 3);
  Tensor b = randomTensor(DType::F32, {64}, 3);
  Tensor c = randomTensor(DType::F32, {64}, 4);
  EXPECT_EQ(std::memcmp(a.bytes(), b.bytes(), a.byteSize()), 0);
  EXPECT_NE(std::memcmp(a.bytes(), c.bytes(), a.byteSize()), 0);
}

TEST(RandomTest, ValuesArePinned) {
  // Exact values, so a change of the mapping (which would change every
  // --random-inputs run) is seen.
  EXPECT_EQ(randomTensor(DType::F32, {4}, 0).valuesToString(),
            "[0.7666216, -0.13694406, -0.94713247, 0.9417639]");
  EXPECT_EQ(randomTensor(DType::I32, {6}, 0).valuesToString(),
            "[6, -2, -8, 7, -7, -3]");
  EXPECT_EQ(randomTensor(DType::I1, {4}, 0).valuesToString(),
            "[true, false, false, true]");
}

TEST(RandomTest, FloatsAreInRangeAndExactInTheirDType) {
  for (auto [dtype, bits] :
       {std::pair{DType::F64, 53}, std::pair{DType::F32, 24},
        std::pair{DType::F16, 11}, std::pair{DType::BF16, 8}}) {
    SCOPED_TRACE(dtypeName(dtype));
    Tensor tensor = randomTensor(dtype, {4096}, 11);
    double min = 1, max = -1;
    for (int64_t i = 0; i < tensor.numElements(); ++i) {
      double value = tensor.elementAsDouble(i);
      min = std::min(min, value);
      max = std::max(max, value);
      // On the grid k * 2^(1-bits).
      double scaled = std::ldexp(value, bits - 1);
      EXPECT_EQ(scaled, std::floor(scaled)) << value;
    }
    EXPECT_GE(min, -1.0);
    EXPECT_LT(max, 1.0);
    EXPECT_LT(min, -0.9);
    EXPECT_GT(max, 0.9);
  }
}

TEST(RandomTest, IntegersAreSmall) {
  for (DType dtype : {DType::I8, DType::I16, DType::I32, DType::I64, DType::UI8,
                      DType::UI16, DType::UI32, DType::UI64, DType::I1}) {
    SCOPED_TRACE(dtypeName(dtype));
    Tensor tensor = randomTensor(dtype, {1024}, 5);
    int64_t low = dtype == DType::I1 ? 0 : isSignedInt(dtype) ? -8 : 0;
    int64_t high = dtype == DType::I1 ? 1 : isSignedInt(dtype) ? 7 : 15;
    int64_t min = high, max = low;
    for (int64_t i = 0; i < tensor.numElements(); ++i) {
      min = std::min(min, tensor.elementAsInt(i));
      max = std::max(max, tensor.elementAsInt(i));
    }
    // Every value of the range appears in 1024 draws.
    EXPECT_EQ(min, low);
    EXPECT_EQ(max, high);
  }
}

// A quantized type's narrowed storage range holds every value drawn: a
// narrow range whole, a wide one the usual interval moved into it.
TEST(RandomTest, IntegersStayInTheStorageRange) {
  struct Case {
    DType dtype;
    IntegerRange range;
    IntegerRange drawn;
  };
  for (const Case &c : {Case{DType::I8, {-3, 3}, {-3, 3}},
                        Case{DType::I2, {-1, 1}, {-1, 1}},
                        Case{DType::I4, {-7, 7}, {-2, 1}},
                        Case{DType::UI8, {200, 255}, {200, 215}},
                        Case{DType::UI4, {3, 5}, {3, 5}},
                        Case{DType::I32, {-100, -90}, {-100, -90}},
                        Case{DType::I16, {5, 1000}, {5, 20}}}) {
    SCOPED_TRACE(std::string(dtypeName(c.dtype)) + " in [" +
                 std::to_string(c.range.min) + ", " +
                 std::to_string(c.range.max) + "]");
    Tensor tensor = randomTensor(c.dtype, {1024}, 5, c.range);
    ASSERT_EQ(tensor.dtype(), c.dtype);
    int64_t min = c.drawn.max, max = c.drawn.min;
    for (int64_t i = 0; i < tensor.numElements(); ++i) {
      min = std::min(min, tensor.elementAsInt(i));
      max = std::max(max, tensor.elementAsInt(i));
    }
    EXPECT_EQ(min, c.drawn.min);
    EXPECT_EQ(max, c.drawn.max);
  }
}

// Without a range (or for floats, which have none) nothing changes.
TEST(RandomTest, NoRangeKeepsTheDraws) {
  Tensor plain = randomTensor(DType::I32, {16}, 9);
  Tensor unranged = randomTensor(DType::I32, {16}, 9, std::nullopt);
  EXPECT_EQ(plain.valuesToString(), unranged.valuesToString());
  Tensor floats = randomTensor(DType::F32, {16}, 9, IntegerRange{0, 1});
  EXPECT_EQ(floats.valuesToString(),
            randomTensor(DType::F32, {16}, 9).valuesToString());
}

} // namespace
