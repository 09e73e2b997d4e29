//===- BitGeneratorsTest.cpp - Threefry and Philox ------------------------===//

#include "mpmd/Runtime/BitGenerators.h"

#include "gtest/gtest.h"

#include <array>
#include <cstdint>
#include <vector>

using namespace mlir::mpmd::runtime;

namespace {

using Pair = std::array<uint32_t, 2>;
using Quad = std::array<uint32_t, 4>;

// Known-answer vectors of the Random123 distribution (Salmon et al.,
// SC 2011): zeros, all ones, and the digits of pi.
TEST(BitGeneratorsTest, Threefry2x32KnownAnswers) {
  EXPECT_EQ(threefry2x32({0, 0}, {0, 0}), (Pair{0x6b200159, 0x99ba4efe}));
  EXPECT_EQ(threefry2x32({0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
            (Pair{0x1cb996fc, 0xbb002be7}));
  EXPECT_EQ(threefry2x32({0x243f6a88, 0x85a308d3}, {0x13198a2e, 0x03707344}),
            (Pair{0xc4923a9c, 0x483df7a0}));
}

TEST(BitGeneratorsTest, Philox4x32KnownAnswers) {
  EXPECT_EQ(philox4x32({0, 0, 0, 0}, {0, 0}),
            (Quad{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                       {0xffffffff, 0xffffffff}),
            (Quad{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                       {0xa4093822, 0x299f31d0}),
            (Quad{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

// The pi-digits vectors again, through rng_bit_generator's state: a u64
// splits into two u32 words low word first, the key is state[0] and the
// counter state[1] (ThreeFry) or the 128-bit state[1] + 2^64 state[2]
// (Philox), so the first block of output is the published one.
TEST(BitGeneratorsTest, StateLayoutReachesTheKnownAnswers) {
  RandomBits threeFry = generateRandomBits(
      BitGenerator::ThreeFry, {0x0370734413198a2eull, 0x85a308d3243f6a88ull},
      DType::UI64, {1});
  EXPECT_EQ(threeFry.output.data<uint64_t>()[0], 0x483df7a0c4923a9cull);
  RandomBits philox = generateRandomBits(
      BitGenerator::Philox,
      {0x299f31d0a4093822ull, 0x85a308d3243f6a88ull, 0x0370734413198a2eull},
      DType::UI32, {4});
  const uint32_t *words = philox.output.data<uint32_t>();
  EXPECT_EQ((Quad{words[0], words[1], words[2], words[3]}),
            (Quad{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
  EXPECT_EQ(philox.state,
            (std::vector<uint64_t>{0x299f31d0a4093822ull,
                                   0x85a308d3243f6a89ull,
                                   0x0370734413198a2eull}));
}

// The spec's rng_bit_generator example (THREE_FRY, state [1, 2], 2x2 ui64)
// lists XLA's output: one counter per element, key state[0].
TEST(BitGeneratorsTest, ThreeFry64MatchesTheSpecExample) {
  RandomBits bits =
      generateRandomBits(BitGenerator::ThreeFry, {1, 2}, DType::UI64, {2, 2});
  EXPECT_EQ(bits.state, (std::vector<uint64_t>{1, 6}));
  const uint64_t *out = bits.output.data<uint64_t>();
  EXPECT_EQ(out[0], 9236835810183407956ull);
  EXPECT_EQ(out[1], 16087790271692313299ull);
  EXPECT_EQ(out[2], 18212823393184779219ull);
  EXPECT_EQ(out[3], 2658481902456610144ull);
}

// 32-bit ThreeFry: ceil(n / 2) counters; every first word, then every
// second word (the last one dropped for odd n).
TEST(BitGeneratorsTest, ThreeFry32TakesFirstWordsThenSecondWords) {
  const uint64_t key = 0x0000000700000003ull, counter = 0xfffffffffull;
  RandomBits bits =
      generateRandomBits(BitGenerator::ThreeFry, {key, counter}, DType::UI32, {3});
  EXPECT_EQ(bits.state, (std::vector<uint64_t>{key, counter + 2}));
  Pair first = threefry2x32({0xffffffff, 0xf}, {3, 7});
  Pair second = threefry2x32({0x0, 0x10}, {3, 7});
  const uint32_t *out = bits.output.data<uint32_t>();
  EXPECT_EQ(out[0], first[0]);
  EXPECT_EQ(out[1], second[0]);
  EXPECT_EQ(out[2], first[1]);
}

// 8- and 16-bit outputs are the 32-bit ones truncated; floats get the bits.
TEST(BitGeneratorsTest, NarrowOutputsTruncateTheWords) {
  RandomBits wide =
      generateRandomBits(BitGenerator::Philox, {9, 4}, DType::UI32, {6});
  RandomBits half =
      generateRandomBits(BitGenerator::Philox, {9, 4}, DType::BF16, {6});
  RandomBits byte =
      generateRandomBits(BitGenerator::Philox, {9, 4}, DType::I8, {6});
  EXPECT_EQ(half.state, wide.state);
  EXPECT_EQ(byte.state, wide.state);
  for (int i = 0; i < 6; ++i) {
    uint32_t word = wide.output.data<uint32_t>()[i];
    EXPECT_EQ(half.output.data<uint16_t>()[i], static_cast<uint16_t>(word));
    EXPECT_EQ(byte.output.data<uint8_t>()[i], static_cast<uint8_t>(word));
  }
}

// Philox: block i of the 128-bit counter (state[1] low, state[2] high)
// gives outputs 4i .. 4i+3; a carry out of the low word reaches the high.
TEST(BitGeneratorsTest, PhiloxRoundRobinAndCarry) {
  const uint64_t key = 0x1234567890abcdefull;
  RandomBits bits = generateRandomBits(
      BitGenerator::Philox, {key, ~uint64_t(0), 5}, DType::UI32, {6});
  EXPECT_EQ(bits.state, (std::vector<uint64_t>{key, 1, 6}));
  Pair k{0x90abcdef, 0x12345678};
  Quad block0 = philox4x32({0xffffffff, 0xffffffff, 5, 0}, k);
  Quad block1 = philox4x32({0, 0, 6, 0}, k);
  const uint32_t *out = bits.output.data<uint32_t>();
  for (int j = 0; j < 4; ++j)
    EXPECT_EQ(out[j], block0[j]);
  EXPECT_EQ(out[4], block1[0]);
  EXPECT_EQ(out[5], block1[1]);
}

TEST(BitGeneratorsTest, Philox64JoinsWordPairs) {
  RandomBits bits =
      generateRandomBits(BitGenerator::Philox, {2, 10}, DType::F64, {3});
  // Six 32-bit words: two blocks.
  EXPECT_EQ(bits.state, (std::vector<uint64_t>{2, 12}));
  Quad block0 = philox4x32({10, 0, 0, 0}, {2, 0});
  Quad block1 = philox4x32({11, 0, 0, 0}, {2, 0});
  auto join = [](uint32_t low, uint32_t high) {
    return uint64_t(low) | uint64_t(high) << 32;
  };
  const uint64_t *out = bits.output.data<uint64_t>();
  EXPECT_EQ(out[0], join(block0[0], block0[1]));
  EXPECT_EQ(out[1], join(block0[2], block0[3]));
  EXPECT_EQ(out[2], join(block1[0], block1[1]));
}

TEST(BitGeneratorsTest, SupportedOutputTypes) {
  EXPECT_TRUE(supportsRandomBits(DType::UI64));
  EXPECT_TRUE(supportsRandomBits(DType::F32));
  EXPECT_TRUE(supportsRandomBits(DType::F8E4M3FN));
  EXPECT_FALSE(supportsRandomBits(DType::I4));
  EXPECT_FALSE(supportsRandomBits(DType::I1));
  EXPECT_FALSE(supportsRandomBits(DType::C64));
  EXPECT_FALSE(supportsRandomBits(DType::TF32));
}

} // namespace
