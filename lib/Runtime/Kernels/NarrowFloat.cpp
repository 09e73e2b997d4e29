//===- NarrowFloat.cpp - Codecs of the floats narrower than f32 -----------===//
//
// One description per format (exponent and mantissa bits, bias and how it
// spends its special encodings) drives both directions, so every format is
// decoded and rounded by the same code. Decoding the 8-bit and narrower
// formats reads a 256-entry table built once; encoding rounds with exact
// power-of-two scaling in f64 (every value of these formats and of f32 is
// exact there), O(1) per element. Tested bit for bit against llvm::APFloat
// in unittests/Runtime/NarrowFloatTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Tensor.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace mlir::mpmd::runtime {

namespace {

/// How a format uses its special encodings (MLIR's naming: FN = finite
/// and NaN, no infinity; UZ = unsigned zero, the -0 pattern is the NaN).
enum class Specials {
  Ieee,       // all-ones exponent: infinity (mantissa 0) or NaN
  NanAllOnes, // FN: no infinity; sign + all ones is NaN
  NanNegZero, // FNUZ: no infinity, no -0; the -0 pattern is the only NaN
  FiniteOnly, // f4/f6 FN: neither infinity nor NaN
  Unsigned,   // E8M0FNU: no sign, no zero, no subnormals; all ones is NaN
};

struct Format {
  int bits, exponentBits, mantissaBits, bias;
  Specials specials;

  uint32_t signBit() const {
    return specials == Specials::Unsigned ? 0 : uint32_t(1) << (bits - 1);
  }
  uint32_t exponentField() const { return (uint32_t(1) << exponentBits) - 1; }
  uint32_t mantissaField() const { return (uint32_t(1) << mantissaBits) - 1; }
  /// The smallest normal exponent (subnormals share it).
  int minExponent() const {
    return specials == Specials::Unsigned ? -bias : 1 - bias;
  }
  /// The largest finite value and its pattern.
  uint32_t maxFinitePattern() const {
    switch (specials) {
    case Specials::Ieee:
      return ((exponentField() - 1) << mantissaBits) | mantissaField();
    case Specials::NanAllOnes:
      return (exponentField() << mantissaBits) | (mantissaField() - 1);
    case Specials::NanNegZero: case Specials::FiniteOnly:
      return (exponentField() << mantissaBits) | mantissaField();
    case Specials::Unsigned:
      return exponentField() - 1;
    }
    return 0;
  }
  uint32_t nanPattern(bool negative) const {
    switch (specials) {
    case Specials::Ieee: // quiet NaN
      return (negative ? signBit() : 0) | (exponentField() << mantissaBits) |
             (uint32_t(1) << (mantissaBits - 1));
    case Specials::NanAllOnes:
      return (negative ? signBit() : 0) | (exponentField() << mantissaBits) |
             mantissaField();
    case Specials::NanNegZero: return signBit();
    case Specials::FiniteOnly: return negative ? signBit() : 0; // APFloat's
    case Specials::Unsigned: return exponentField();
    }
    return 0;
  }
};

const Format &formatOf(DType dtype) {
  static const Format f16{16, 5, 10, 15, Specials::Ieee},
      bf16{16, 8, 7, 127, Specials::Ieee}, tf32{19, 8, 10, 127, Specials::Ieee},
      e4m3fn{8, 4, 3, 7, Specials::NanAllOnes}, e5m2{8, 5, 2, 15, Specials::Ieee},
      e4m3fnuz{8, 4, 3, 8, Specials::NanNegZero},
      e5m2fnuz{8, 5, 2, 16, Specials::NanNegZero},
      e4m3b11fnuz{8, 4, 3, 11, Specials::NanNegZero},
      e3m4{8, 3, 4, 3, Specials::Ieee}, e4m3{8, 4, 3, 7, Specials::Ieee},
      e8m0fnu{8, 8, 0, 127, Specials::Unsigned},
      e2m1fn{4, 2, 1, 1, Specials::FiniteOnly},
      e2m3fn{6, 2, 3, 1, Specials::FiniteOnly},
      e3m2fn{6, 3, 2, 3, Specials::FiniteOnly};
  switch (dtype) {
  case DType::F16: return f16;
  case DType::BF16: return bf16;
  case DType::TF32: return tf32;
  case DType::F8E4M3FN: return e4m3fn;
  case DType::F8E5M2: return e5m2;
  case DType::F8E4M3FNUZ: return e4m3fnuz;
  case DType::F8E5M2FNUZ: return e5m2fnuz;
  case DType::F8E4M3B11FNUZ: return e4m3b11fnuz;
  case DType::F8E3M4: return e3m4;
  case DType::F8E4M3: return e4m3;
  case DType::F8E8M0FNU: return e8m0fnu;
  case DType::F4E2M1FN: return e2m1fn;
  case DType::F6E2M3FN: return e2m3fn;
  case DType::F6E3M2FN: return e3m2fn;
  default: return f16; // callers pass narrow floats only
  }
}

double decode(const Format &format, uint32_t pattern) {
  bool negative = pattern & format.signBit();
  uint32_t exponent = (pattern >> format.mantissaBits) & format.exponentField();
  uint32_t mantissa = pattern & format.mantissaField();
  double sign = negative ? -1.0 : 1.0;
  switch (format.specials) {
  case Specials::Ieee:
    if (exponent == format.exponentField())
      return mantissa ? std::nan("") : sign * INFINITY;
    break;
  case Specials::NanAllOnes:
    if (exponent == format.exponentField() && mantissa == format.mantissaField())
      return std::nan("");
    break;
  case Specials::NanNegZero:
    if (pattern == format.signBit())
      return std::nan("");
    break;
  case Specials::FiniteOnly: break;
  case Specials::Unsigned:
    if (exponent == format.exponentField())
      return std::nan("");
    return std::ldexp(1.0, int(exponent) - format.bias);
  }
  if (exponent == 0) // subnormal
    return sign * std::ldexp(double(mantissa),
                             format.minExponent() - format.mantissaBits);
  return sign * std::ldexp(double(mantissa | (format.mantissaField() + 1)),
                           int(exponent) - format.bias - format.mantissaBits);
}

uint32_t encode(const Format &format, double value) {
  bool negative = std::signbit(value);
  if (std::isnan(value))
    return format.nanPattern(negative);
  if (format.specials == Specials::Unsigned && negative && value != 0)
    return format.nanPattern(false);
  uint32_t sign = negative ? format.signBit() : 0;
  // FNUZ types have no -0: zeros (and what underflows to them) are +0.
  uint32_t zero = format.specials == Specials::NanNegZero ? 0 : sign;
  uint32_t maxPattern = format.maxFinitePattern();
  auto overflow = [&]() -> uint32_t {
    switch (format.specials) {
    case Specials::Ieee: return sign | (format.exponentField() << format.mantissaBits);
    case Specials::FiniteOnly: return sign | maxPattern;
    default: return format.nanPattern(negative);
    }
  };
  double magnitude = std::fabs(value);
  if (std::isinf(magnitude))
    return format.specials == Specials::FiniteOnly ? sign : overflow();
  if (magnitude == 0)
    return zero;
  // Round to a multiple of the quantum of the value's binade (the
  // subnormal quantum below the normal range): exact scaling, then
  // nearbyint rounds ties to even.
  int exponent;
  std::frexp(magnitude, &exponent);
  exponent = std::max(exponent - 1, format.minExponent());
  int quantumExponent = exponent - format.mantissaBits;
  double steps = std::nearbyint(std::ldexp(magnitude, -quantumExponent));
  if (steps == 0) // underflow: E8M0 has no zero, its pattern 0 is 2^-127
    return zero;
  double rounded = std::ldexp(steps, quantumExponent);
  if (rounded > decode(format, maxPattern))
    return overflow();
  std::frexp(rounded, &exponent);
  --exponent;
  if (exponent < format.minExponent()) // subnormal: biased exponent 0
    return sign | uint32_t(std::ldexp(rounded, format.mantissaBits -
                                                   format.minExponent()));
  uint32_t mantissa = uint32_t(std::ldexp(rounded, format.mantissaBits - exponent)) &
                      format.mantissaField();
  return sign | (uint32_t(exponent + format.bias) << format.mantissaBits) |
         mantissa;
}

/// The decoded values of every pattern of a format of at most 8 bits.
struct ByteTable {
  std::array<float, 256> values;
  explicit ByteTable(DType dtype) {
    const Format &format = formatOf(dtype);
    for (uint32_t pattern = 0; pattern < 256; ++pattern)
      values[pattern] = pattern >> format.bits
                            ? std::nanf("")
                            : static_cast<float>(decode(format, pattern));
  }
};

const ByteTable &byteTable(DType dtype) {
  // One per format of at most 8 bits, built on first use (thread-safe).
  switch (dtype) {
#define MPMD_BYTE_TABLE(NAME)                                                  \
  case DType::NAME: {                                                          \
    static const ByteTable table(DType::NAME);                                 \
    return table;                                                              \
  }
    MPMD_BYTE_TABLE(F8E4M3FN)
    MPMD_BYTE_TABLE(F8E5M2)
    MPMD_BYTE_TABLE(F8E4M3FNUZ)
    MPMD_BYTE_TABLE(F8E5M2FNUZ)
    MPMD_BYTE_TABLE(F8E4M3B11FNUZ)
    MPMD_BYTE_TABLE(F8E3M4)
    MPMD_BYTE_TABLE(F8E4M3)
    MPMD_BYTE_TABLE(F8E8M0FNU)
    MPMD_BYTE_TABLE(F4E2M1FN)
    MPMD_BYTE_TABLE(F6E2M3FN)
#undef MPMD_BYTE_TABLE
  default: {
    static const ByteTable table(DType::F6E3M2FN);
    return table;
  }
  }
}

} // namespace

float narrowFloatToFloat(DType dtype, uint32_t bits) {
  switch (dtype) {
  case DType::F16: return halfToFloat(static_cast<uint16_t>(bits));
  case DType::BF16: return bf16ToFloat(static_cast<uint16_t>(bits));
  case DType::TF32: return std::bit_cast<float>(bits);
  default: return byteTable(dtype).values[bits & 0xff];
  }
}

uint32_t doubleToNarrowFloat(DType dtype, double value) {
  uint32_t pattern = encode(formatOf(dtype), value);
  // tf32 is kept as the f32 of the same value.
  return dtype == DType::TF32 ? pattern << 13 : pattern;
}

int64_t wrapToSubByteInt(DType dtype, int64_t value) {
  int bits = dtype == DType::I2 || dtype == DType::UI2 ? 2 : 4;
  uint64_t low = static_cast<uint64_t>(value) & ((uint64_t(1) << bits) - 1);
  if (isSignedInt(dtype) && (low >> (bits - 1)))
    return static_cast<int64_t>(low) - (int64_t(1) << bits);
  return static_cast<int64_t>(low);
}

} // namespace mlir::mpmd::runtime
