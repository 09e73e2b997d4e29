//===- TensorTest.cpp - Tensors and half-precision conversions ------------===//

#include "mpmd/Runtime/Tensor.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using namespace mlir::mpmd::runtime;

namespace {

TEST(TensorTest, BuffersAreAlignedAndRowMajor) {
  Tensor tensor = Tensor::zeros(DType::F32, {2, 3, 4});
  EXPECT_EQ(reinterpret_cast<uintptr_t>(tensor.bytes()) % 64, 0u);
  EXPECT_EQ(tensor.numElements(), 24);
  EXPECT_EQ(tensor.byteSize(), 96u);
  EXPECT_EQ(tensor.strides(), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(tensor.elementAsDouble(23), 0.0);
}

// Pooled buffers are carved one after another from shared regions, and
// large ones get regions of their own: live buffers of every size class,
// several generations of them (freed ones reused from the pool), must
// never overlap and stay aligned.
TEST(TensorTest, LiveBuffersNeverOverlap) {
  const std::vector<int64_t> floats = {
      4 << 10,        // 16 KiB: the smallest pooled size
      (1 << 18) + 16, // 1 MiB and a bit: not a multiple of a page
      3 << 20,        // 12 MiB: a region holds two
      5 << 20,        // 20 MiB: more than half a region, a region of its own
      1000};          // below the pool: malloc
  // Each tensor filled with its own mark; half of each generation stays
  // alive into the next, so new buffers come from the pool's free lists
  // and from regions that still hold live ones.
  std::vector<std::pair<Tensor, float>> live;
  float nextMark = 0;
  for (int generation = 0; generation < 3; ++generation) {
    for (int copy = 0; copy < 4; ++copy)
      for (int64_t count : floats) {
        Tensor tensor = Tensor::empty(DType::F32, {count});
        ASSERT_EQ(reinterpret_cast<uintptr_t>(tensor.bytes()) % 64, 0u);
        std::fill(tensor.data<float>(), tensor.data<float>() + count,
                  nextMark);
        live.emplace_back(std::move(tensor), nextMark++);
      }
    for (const auto &[tensor, mark] : live) {
      const float *data = tensor.data<float>();
      int64_t count = tensor.numElements();
      ASSERT_EQ(std::count(data, data + count, mark), count);
    }
    live.erase(live.begin() + live.size() / 2, live.end());
  }
}

TEST(TensorTest, ReshapeSharesAndCloneCopies) {
  Tensor tensor = Tensor::zeros(DType::I32, {6});
  Tensor view = tensor.reshaped({2, 3});
  Tensor copy = tensor.clone();
  tensor.data<int32_t>()[5] = 7;
  EXPECT_TRUE(view.sharesBufferWith(tensor));
  EXPECT_EQ(view.shape(), (Shape{2, 3}));
  EXPECT_EQ(view.elementAsInt(5), 7);
  EXPECT_FALSE(copy.sharesBufferWith(tensor));
  EXPECT_EQ(copy.elementAsInt(5), 0);
}

TEST(TensorTest, ElementsAsScalarsAndText) {
  Tensor tensor = Tensor::empty(DType::UI32, {2});
  tensor.data<uint32_t>()[0] = 4294967295u;
  tensor.data<uint32_t>()[1] = 3;
  EXPECT_EQ(tensor.elementAsInt(0), 4294967295);
  Tensor scalar = tensor.elementAt(1);
  EXPECT_EQ(scalar.rank(), 0);
  tensor.setElement(0, scalar);
  EXPECT_EQ(tensor.valuesToString(), "[3, 3]");
  Tensor floats = Tensor::empty(DType::F32, {3});
  floats.data<float>()[0] = 0.1f;
  floats.data<float>()[1] = -2.0f;
  floats.data<float>()[2] = 1.0e10f;
  EXPECT_EQ(floats.valuesToString(2), "[0.1, -2, ... (3 elements)]");
}

TEST(TensorTest, HalfConversionsRoundToNearestEven) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // rounds up to inf
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even 1.
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f), 0x3c00);
  EXPECT_EQ(floatToHalf(1.0f + 3 * 0x1p-11f), 0x3c02);
  // Subnormals: the smallest is 2^-24.
  EXPECT_EQ(floatToHalf(0x1p-24f), 0x0001);
  EXPECT_EQ(halfToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(floatToHalf(0x1p-26f), 0x0000);
  for (uint32_t bits = 0; bits < 0x7c00; ++bits)
    ASSERT_EQ(floatToHalf(halfToFloat(bits)), bits) << bits;
}

TEST(TensorTest, Bf16ConversionsRoundToNearestEven) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(bf16ToFloat(0x3f80), 1.0f);
  EXPECT_EQ(floatToBf16(257.0f), floatToBf16(256.0f)); // tie to even
  EXPECT_EQ(floatToBf16(259.0f), floatToBf16(260.0f));
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(NAN))));
  EXPECT_EQ(bf16ToFloat(floatToBf16(-3.5f)), -3.5f);
}

} // namespace
