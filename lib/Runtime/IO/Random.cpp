//===- Random.cpp - Seeded random tensors ---------------------------------===//

#include "mpmd/Runtime/Random.h"

#include "mpmd/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>

namespace mlir::mpmd::runtime {

uint64_t SplitMix64::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

namespace {

/// `bits` high bits of a draw as k * 2^(1-bits) - 1: uniform in [-1, 1) and
/// exact in a float with `bits` significant bits.
double uniform(uint64_t draw, int bits) {
  return std::ldexp(static_cast<double>(draw >> (64 - bits)), 1 - bits) - 1.0;
}

template <typename T, typename Fn> void fill(Tensor &tensor, Fn &&value) {
  T *data = tensor.data<T>();
  for (int64_t i = 0, e = tensor.numElements(); i < e; ++i)
    data[i] = value();
}

/// The interval randomTensor draws integers of `dtype` from.
IntegerRange getDefaultInterval(DType dtype) {
  switch (dtype) {
  case DType::I2: case DType::I4: return {-2, 1};
  case DType::UI2: case DType::UI4: return {0, 3};
  case DType::UI8: case DType::UI16: case DType::UI32: case DType::UI64:
    return {0, 15};
  default: return {-8, 7};
  }
}

} // namespace

Tensor randomTensor(DType dtype, const Shape &shape, uint64_t seed,
                    std::optional<IntegerRange> storageRange) {
  SplitMix64 generator(seed);
  if (storageRange && (isSignedInt(dtype) || isUnsignedInt(dtype))) {
    // The whole range when it is no wider than the default interval, else
    // the default interval moved as little as possible into the range.
    IntegerRange interval = getDefaultInterval(dtype);
    uint64_t width = static_cast<uint64_t>(interval.max - interval.min);
    int64_t low = storageRange->min, high = storageRange->max;
    if (static_cast<uint64_t>(high) - static_cast<uint64_t>(low) > width) {
      low = std::clamp(interval.min, low,
                       high - static_cast<int64_t>(width));
      high = low + static_cast<int64_t>(width);
    }
    // At most 16 values: the draw's high bits modulo the count.
    uint64_t count = static_cast<uint64_t>(high) - static_cast<uint64_t>(low) + 1;
    Tensor wide = Tensor::empty(DType::I64, shape);
    fill<int64_t>(wide, [&] {
      return low + static_cast<int64_t>((generator.next() >> 32) % count);
    });
    return convert(wide, dtype);
  }
  Tensor tensor = Tensor::empty(dtype, shape);
  auto small = [&] { return static_cast<int>(generator.next() >> 60); };
  switch (dtype) {
  case DType::F64:
    fill<double>(tensor, [&] { return uniform(generator.next(), 53); });
    break;
  case DType::F32:
    fill<float>(tensor, [&] {
      return static_cast<float>(uniform(generator.next(), 24));
    });
    break;
  case DType::F16:
    fill<uint16_t>(tensor, [&] {
      return floatToHalf(static_cast<float>(uniform(generator.next(), 11)));
    });
    break;
  case DType::BF16:
    fill<uint16_t>(tensor, [&] {
      return floatToBf16(static_cast<float>(uniform(generator.next(), 8)));
    });
    break;
  case DType::I1:
    fill<uint8_t>(tensor, [&] { return generator.next() >> 63; });
    break;
  case DType::I8:
    fill<int8_t>(tensor, [&] { return small() - 8; });
    break;
  case DType::I16:
    fill<int16_t>(tensor, [&] { return small() - 8; });
    break;
  case DType::I32:
    fill<int32_t>(tensor, [&] { return small() - 8; });
    break;
  case DType::I64:
    fill<int64_t>(tensor, [&] { return small() - 8; });
    break;
  case DType::UI8:
    fill<uint8_t>(tensor, small);
    break;
  case DType::UI16:
    fill<uint16_t>(tensor, small);
    break;
  case DType::UI32:
    fill<uint32_t>(tensor, small);
    break;
  case DType::UI64:
    fill<uint64_t>(tensor, small);
    break;
  case DType::I2: case DType::I4:
    fill<int8_t>(tensor, [&] { return (small() >> 2) - 2; });
    break;
  case DType::UI2: case DType::UI4:
    fill<uint8_t>(tensor, [&] { return small() >> 2; });
    break;
  case DType::C64: { // both parts uniform
    Tensor parts = tensor.bitcast(DType::F32, {tensor.numElements() * 2});
    fill<float>(parts, [&] {
      return static_cast<float>(uniform(generator.next(), 24));
    });
    break;
  }
  case DType::C128: {
    Tensor parts = tensor.bitcast(DType::F64, {tensor.numElements() * 2});
    fill<double>(parts, [&] { return uniform(generator.next(), 53); });
    break;
  }
  default: { // the other narrow floats: uniform values rounded to the type
    Tensor wide = Tensor::empty(DType::F32, shape);
    fill<float>(wide, [&] {
      return static_cast<float>(uniform(generator.next(), 24));
    });
    return convert(wide, dtype);
  }
  }
  return tensor;
}

} // namespace mlir::mpmd::runtime
