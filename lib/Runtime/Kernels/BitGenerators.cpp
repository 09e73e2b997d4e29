//===- BitGenerators.cpp - Counter-based random bit generators ------------===//

#include "mpmd/Runtime/BitGenerators.h"

#include <cassert>
#include <cstring>

namespace mlir::mpmd::runtime {

namespace {

uint32_t rotateLeft(uint32_t x, int bits) {
  return (x << bits) | (x >> (32 - bits));
}

uint32_t low32(uint64_t x) { return static_cast<uint32_t>(x); }
uint32_t high32(uint64_t x) { return static_cast<uint32_t>(x >> 32); }
uint64_t join64(uint32_t low, uint32_t high) {
  return static_cast<uint64_t>(low) | static_cast<uint64_t>(high) << 32;
}

/// How many bits each element of `dtype` holds (its storage).
int64_t randomBitWidth(DType dtype) {
  return static_cast<int64_t>(dtypeSize(dtype)) * 8;
}

/// 32-bit words from a generator and the number of counters they used.
struct Words32 {
  std::vector<uint32_t> words;
  uint64_t countersUsed;
};

/// Threefry: counter i (state[1] + i) gives the pair (y0_i, y1_i); XLA's
/// 32-bit output is every y0, then every y1 (the last one dropped for an
/// odd count), from ceil(count / 2) counters.
Words32 threefryWords32(uint64_t key, uint64_t counter, int64_t count) {
  int64_t half = (count + 1) / 2;
  Words32 result{std::vector<uint32_t>(count), static_cast<uint64_t>(half)};
  for (int64_t i = 0; i < half; ++i) {
    uint64_t c = counter + static_cast<uint64_t>(i);
    std::array<uint32_t, 2> y =
        threefry2x32({low32(c), high32(c)}, {low32(key), high32(key)});
    result.words[i] = y[0];
    if (half + i < count)
      result.words[half + i] = y[1];
  }
  return result;
}

/// A 128-bit Philox counter (low, high) plus `i`.
std::array<uint32_t, 4> philoxCounter(uint64_t low, uint64_t high,
                                      uint64_t i) {
  uint64_t sum = low + i;
  if (sum < low)
    ++high;
  return {low32(sum), high32(sum), low32(high), high32(high)};
}

/// Philox: counter block i gives four words, output round-robin (block i
/// fills words 4i .. 4i+3), from ceil(count / 4) blocks.
Words32 philoxWords32(uint64_t key, uint64_t counterLow, uint64_t counterHigh,
                      int64_t count) {
  int64_t blocks = (count + 3) / 4;
  Words32 result{std::vector<uint32_t>(count), static_cast<uint64_t>(blocks)};
  for (int64_t b = 0; b < blocks; ++b) {
    std::array<uint32_t, 4> y =
        philox4x32(philoxCounter(counterLow, counterHigh, b),
                   {low32(key), high32(key)});
    for (int64_t j = 0; j < 4 && 4 * b + j < count; ++j)
      result.words[4 * b + j] = y[j];
  }
  return result;
}

} // namespace

std::array<uint32_t, 2> threefry2x32(std::array<uint32_t, 2> counter,
                                     std::array<uint32_t, 2> key) {
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  // The key schedule's third word makes the injected keys differ even for
  // a zero key (the paper's parity constant).
  const uint32_t schedule[3] = {key[0], key[1],
                                0x1BD11BDAu ^ key[0] ^ key[1]};
  uint32_t x0 = counter[0] + schedule[0];
  uint32_t x1 = counter[1] + schedule[1];
  for (int round = 0; round < 20; ++round) {
    x0 += x1;
    x1 = rotateLeft(x1, kRotations[round % 8]) ^ x0;
    // A key injection after every four rounds, numbered from 1.
    if (round % 4 == 3) {
      uint32_t injection = static_cast<uint32_t>((round + 1) / 4);
      x0 += schedule[injection % 3];
      x1 += schedule[(injection + 1) % 3] + injection;
    }
  }
  return {x0, x1};
}

std::array<uint32_t, 4> philox4x32(std::array<uint32_t, 4> counter,
                                   std::array<uint32_t, 2> key) {
  constexpr uint64_t kMultiplier0 = 0xD2511F53u, kMultiplier1 = 0xCD9E8D57u;
  constexpr uint32_t kBump0 = 0x9E3779B9u, kBump1 = 0xBB67AE85u;
  std::array<uint32_t, 4> x = counter;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += kBump0;
      key[1] += kBump1;
    }
    uint64_t product0 = kMultiplier0 * x[0];
    uint64_t product1 = kMultiplier1 * x[2];
    x = {high32(product1) ^ x[1] ^ key[0], low32(product1),
         high32(product0) ^ x[3] ^ key[1], low32(product0)};
  }
  return x;
}

bool supportsRandomBits(DType dtype) {
  if (isComplex(dtype) || isSubByteInt(dtype) || dtype == DType::I1 ||
      dtype == DType::TF32 || dtype == DType::F4E2M1FN ||
      dtype == DType::F6E2M3FN || dtype == DType::F6E3M2FN)
    return false;
  int64_t bits = randomBitWidth(dtype);
  return bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

RandomBits generateRandomBits(BitGenerator generator,
                              const std::vector<uint64_t> &state, DType dtype,
                              const Shape &shape) {
  assert(supportsRandomBits(dtype) && "rng_bit_generator output type");
  assert((generator == BitGenerator::ThreeFry ? state.size() == 2
                                              : state.size() == 2 ||
                                                    state.size() == 3) &&
         "rng_bit_generator state size");
  Tensor output = Tensor::empty(dtype, shape);
  int64_t count = output.numElements();
  bool wide = randomBitWidth(dtype) == 64;
  // 64-bit outputs take two 32-bit words each; narrower ones one word,
  // truncated to their width (XLA converts u32 to u16 / u8).
  int64_t wordCount = wide ? 2 * count : count;
  uint64_t key = state[0];
  uint64_t counterHigh = state.size() == 3 ? state[2] : 0;
  Words32 words;
  std::vector<uint64_t> next = state;
  if (generator == BitGenerator::ThreeFry) {
    if (wide) {
      // A counter per element: its (y0, y1) joined.
      auto *out = output.data<uint64_t>();
      for (int64_t i = 0; i < count; ++i) {
        uint64_t c = state[1] + static_cast<uint64_t>(i);
        std::array<uint32_t, 2> y =
            threefry2x32({low32(c), high32(c)}, {low32(key), high32(key)});
        out[i] = join64(y[0], y[1]);
      }
      next[1] = state[1] + static_cast<uint64_t>(count);
      return {next, output};
    }
    words = threefryWords32(key, state[1], wordCount);
    next[1] = state[1] + words.countersUsed;
  } else {
    words = philoxWords32(key, state[1], counterHigh, wordCount);
    uint64_t low = state[1] + words.countersUsed;
    next[1] = low;
    if (state.size() == 3 && low < state[1])
      ++next[2];
  }
  std::byte *out = output.bytes();
  size_t size = dtypeSize(dtype);
  for (int64_t i = 0; i < count; ++i) {
    uint64_t value = wide ? join64(words.words[2 * i], words.words[2 * i + 1])
                          : words.words[i];
    // Little endian: the low bytes are the truncated value.
    std::memcpy(out + i * size, &value, size);
  }
  return {next, output};
}

} // namespace mlir::mpmd::runtime
