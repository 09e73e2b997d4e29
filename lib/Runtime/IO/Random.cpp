//===- Random.cpp - Seeded random tensors ---------------------------------===//

#include "mpmd/Runtime/Random.h"

#include "mpmd/Runtime/Kernels.h"

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

} // namespace

Tensor randomTensor(DType dtype, const Shape &shape, uint64_t seed) {
  SplitMix64 generator(seed);
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
