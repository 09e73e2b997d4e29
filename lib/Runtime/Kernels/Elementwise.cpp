//===- Elementwise.cpp - Unary, binary, compare, select, convert ----------===//
//
// Each kernel instantiates one loop per (operation, C++ type) with the
// operation inlined, so the compiler vectorizes the plain arithmetic ones
// (add, multiply, ...) at -O3. Integer division by zero and shifts past the
// width have defined results (XLA's): x / 0 = -1, x % 0 = x, MIN / -1 = MIN,
// shifts by >= bits give 0 (or the sign for arithmetic right shifts).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"

#include "Dispatch.h"
#include "ElementwiseLoops.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

namespace mlir::mpmd::runtime {

using detail::visitStorageType;

namespace detail {

Tensor widenForCompute(const Tensor &tensor) {
  DType dtype = tensor.dtype();
  if (dtype == DType::TF32)
    return tensor.bitcast(DType::F32, tensor.shape());
  if (isSubByteInt(dtype))
    return tensor.bitcast(isSignedInt(dtype) ? DType::I8 : DType::UI8,
                          tensor.shape());
  if (!isNarrowFloat(dtype))
    return tensor;
  Tensor wide = Tensor::empty(DType::F32, tensor.shape());
  float *out = wide.data<float>();
  int64_t count = tensor.numElements();
  if (dtype == DType::BF16) {
    const uint16_t *in = tensor.data<uint16_t>();
    for (int64_t i = 0; i < count; ++i)
      out[i] = bf16ToFloat(in[i]);
  } else if (dtype == DType::F16) {
    const uint16_t *in = tensor.data<uint16_t>();
    for (int64_t i = 0; i < count; ++i)
      out[i] = halfToFloat(in[i]);
  } else {
    const uint8_t *in = tensor.data<uint8_t>();
    for (int64_t i = 0; i < count; ++i)
      out[i] = narrowFloatToFloat(dtype, in[i]);
  }
  return wide;
}

Tensor roundToDType(const Tensor &wide, DType dtype) {
  Tensor narrow = Tensor::empty(dtype, wide.shape());
  int64_t count = wide.numElements();
  if (isSubByteInt(dtype)) {
    const int8_t *in = wide.data<int8_t>();
    int8_t *out = narrow.data<int8_t>();
    for (int64_t i = 0; i < count; ++i)
      out[i] = static_cast<int8_t>(wrapToSubByteInt(
          dtype, isSignedInt(dtype) ? in[i] : static_cast<uint8_t>(in[i])));
    return narrow;
  }
  const float *in = wide.data<float>();
  switch (dtype) {
  case DType::BF16:
    for (int64_t i = 0; i < count; ++i)
      narrow.data<uint16_t>()[i] = floatToBf16(in[i]);
    break;
  case DType::F16:
    for (int64_t i = 0; i < count; ++i)
      narrow.data<uint16_t>()[i] = floatToHalf(in[i]);
    break;
  case DType::TF32:
    for (int64_t i = 0; i < count; ++i)
      narrow.data<uint32_t>()[i] = doubleToNarrowFloat(dtype, in[i]);
    break;
  default:
    for (int64_t i = 0; i < count; ++i)
      narrow.data<uint8_t>()[i] =
          static_cast<uint8_t>(doubleToNarrowFloat(dtype, in[i]));
  }
  return narrow;
}

} // namespace detail

namespace {

using detail::kIsFloat;
using detail::map2;

#ifdef MPMD_ELEMENTWISE_AVX2
/// Whether this CPU runs the loops compiled for AVX2 (twice the SSE width).
bool hasAvx2() {
  static const bool supported = __builtin_cpu_supports("avx2");
  return supported;
}
#endif

/// The per-element loops, for f32 in the AVX2 build when the CPU has it.
template <typename T>
void unaryLoop(UnaryKind kind, const T *in, T *out, int64_t count) {
#ifdef MPMD_ELEMENTWISE_AVX2
  if constexpr (std::is_same_v<T, float>)
    if (hasAvx2())
      return detail::unaryLoopAvx2(kind, in, out, count);
#endif
  detail::unaryLoop<T>(kind, in, out, count);
}

template <typename T>
void binaryLoop(BinaryKind kind, const T *lhs, const T *rhs, T *out,
                int64_t count) {
#ifdef MPMD_ELEMENTWISE_AVX2
  if constexpr (std::is_same_v<T, float>)
    if (hasAvx2())
      return detail::binaryLoopAvx2(kind, lhs, rhs, out, count);
#endif
  detail::binaryLoop<T>(kind, lhs, rhs, out, count);
}

} // namespace

bool supportsUnary(UnaryKind kind, DType dtype) {
  if (isComplex(dtype))
    return detail::supportsComplexUnary(kind);
  switch (kind) {
  case UnaryKind::Abs: case UnaryKind::Negate: case UnaryKind::Sign:
    return dtype != DType::I1;
  case UnaryKind::Not:
    return !isFloat(dtype);
  case UnaryKind::PopCount: case UnaryKind::CountLeadingZeros:
    return !isFloat(dtype) && dtype != DType::I1;
  default:
    return isFloat(dtype);
  }
}

bool supportsBinary(BinaryKind kind, DType dtype) {
  if (isComplex(dtype))
    return detail::supportsComplexBinary(kind);
  switch (kind) {
  case BinaryKind::Add: case BinaryKind::Multiply: case BinaryKind::Maximum:
  case BinaryKind::Minimum:
    return true;
  case BinaryKind::Subtract: case BinaryKind::Divide: case BinaryKind::Remainder:
  case BinaryKind::Power:
    return dtype != DType::I1;
  case BinaryKind::Atan2:
    return isFloat(dtype);
  case BinaryKind::And: case BinaryKind::Or: case BinaryKind::Xor:
    return !isFloat(dtype);
  case BinaryKind::ShiftLeft: case BinaryKind::ShiftRightArithmetic:
  case BinaryKind::ShiftRightLogical:
    return !isFloat(dtype) && dtype != DType::I1;
  }
  return false;
}

namespace {

/// popcnt and count_leading_zeros of i2/i4/ui2/ui4 count the type's own
/// bits, not those of the byte that stores them.
Tensor subByteBitCount(UnaryKind kind, const Tensor &operand) {
  DType dtype = operand.dtype();
  int64_t bits = dtypeBitWidth(dtype);
  Tensor result = Tensor::empty(dtype, operand.shape());
  for (int64_t i = 0, e = operand.numElements(); i < e; ++i) {
    uint32_t value = static_cast<uint32_t>(operand.elementAsInt(i)) &
                     ((1u << bits) - 1);
    int64_t count = kind == UnaryKind::PopCount
                        ? std::popcount(value)
                        : bits - std::bit_width(value);
    result.data<int8_t>()[i] = static_cast<int8_t>(count);
  }
  return result;
}

/// shift_right_logical of i2/i4: the shift sees the type's bits only.
Tensor subByteShiftRightLogical(const Tensor &lhs, const Tensor &rhs) {
  DType dtype = lhs.dtype();
  int64_t bits = dtypeBitWidth(dtype);
  Tensor result = Tensor::empty(dtype, lhs.shape());
  for (int64_t i = 0, e = lhs.numElements(); i < e; ++i) {
    uint64_t value = static_cast<uint64_t>(lhs.elementAsInt(i)) &
                     ((uint64_t(1) << bits) - 1);
    uint64_t amount = static_cast<uint64_t>(rhs.elementAsInt(i)) &
                      ((uint64_t(1) << bits) - 1);
    int64_t shifted = amount >= static_cast<uint64_t>(bits)
                          ? 0
                          : static_cast<int64_t>(value >> amount);
    result.data<int8_t>()[i] =
        static_cast<int8_t>(wrapToSubByteInt(dtype, shifted));
  }
  return result;
}

} // namespace

Tensor unary(UnaryKind kind, const Tensor &operand) {
  if (isComplex(operand.dtype()))
    return detail::complexUnary(kind, operand);
  if (isSubByteInt(operand.dtype()) &&
      (kind == UnaryKind::PopCount || kind == UnaryKind::CountLeadingZeros))
    return subByteBitCount(kind, operand);
  Tensor input = detail::widenForCompute(operand);
  Tensor result = Tensor::empty(input.dtype(), input.shape());
  visitStorageType(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    unaryLoop<T>(kind, input.data<T>(), result.data<T>(), input.numElements());
  });
  return roundsAfterEachOp(operand.dtype()) ? detail::roundToDType(result, operand.dtype())
                                 : result;
}

void unaryInto(UnaryKind kind, const Tensor &operand, Tensor &out) {
  visitStorageType(operand.dtype(), [&](auto tag) {
    using T = decltype(tag);
    unaryLoop<T>(kind, operand.data<T>(), out.data<T>(), operand.numElements());
  });
}

void binaryInto(BinaryKind kind, const Tensor &lhs, const Tensor &rhs,
                Tensor &out) {
  visitStorageType(lhs.dtype(), [&](auto tag) {
    using T = decltype(tag);
    binaryLoop<T>(kind, lhs.data<T>(), rhs.data<T>(), out.data<T>(),
                  lhs.numElements());
  });
}

Tensor binary(BinaryKind kind, const Tensor &lhs, const Tensor &rhs) {
  if (isComplex(lhs.dtype()))
    return detail::complexBinary(kind, lhs, rhs);
  if (isSubByteInt(lhs.dtype()) && kind == BinaryKind::ShiftRightLogical)
    return subByteShiftRightLogical(lhs, rhs);
  if (roundsAfterEachOp(lhs.dtype())) {
    Tensor wideLhs = detail::widenForCompute(lhs), wideRhs = detail::widenForCompute(rhs);
    return detail::roundToDType(binary(kind, wideLhs, wideRhs), lhs.dtype());
  }
  Tensor result = Tensor::empty(lhs.dtype(), lhs.shape());
  binaryInto(kind, lhs, rhs, result);
  return result;
}

namespace {

/// Elements per tile of a fused chain: 4 KiB of f32 per slot, so that the
/// inputs and temporaries of a short chain stay in L1 while the per-tile
/// dispatch (a switch per operation) is amortized over 1024 elements.
constexpr int64_t kFusedTileElements = 1024;

/// Copies elements [start, start + count) of the result's row-major order,
/// read from `input` through its strides, to `tile`.
template <typename T>
void gatherTile(const FusedInput &input, const Shape &shape, int64_t start,
                int64_t count, T *tile) {
  const T *data = input.tensor.data<T>();
  int64_t rank = shape.size();
  if (rank == 0) {
    tile[0] = data[0];
    return;
  }
  // The result index of `start`, then runs along the innermost dimension.
  std::vector<int64_t> index(rank);
  for (int64_t d = rank - 1, rest = start; d >= 0; --d) {
    index[d] = rest % shape[d];
    rest /= shape[d];
  }
  int64_t offset = 0;
  for (int64_t d = 0; d < rank; ++d)
    offset += index[d] * input.strides[d];
  const int64_t inner = shape[rank - 1], step = input.strides[rank - 1];
  for (int64_t done = 0; done < count;) {
    int64_t run = std::min(inner - index[rank - 1], count - done);
    const T *source = data + offset;
    if (step == 0)
      std::fill(tile + done, tile + done + run, source[0]);
    else
      for (int64_t i = 0; i < run; ++i)
        tile[done + i] = source[i * step];
    done += run;
    offset += run * step;
    index[rank - 1] += run;
    // Carry into the outer dimensions.
    for (int64_t d = rank - 1; d > 0 && index[d] == shape[d]; --d) {
      offset += input.strides[d - 1] - index[d] * input.strides[d];
      index[d] = 0;
      ++index[d - 1];
    }
  }
}

template <typename T>
void runFused(const std::vector<FusedOperation> &operations,
              const std::vector<FusedInput> &inputs, Tensor &out) {
  const Shape &shape = out.shape();
  const int64_t count = out.numElements();
  if (count == 0 || operations.empty())
    return;
  const int64_t tile = std::min(count, kFusedTileElements);
  const int64_t numInputs = inputs.size();
  const std::vector<int64_t> plainStrides = rowMajorStrides(shape);
  enum class Access { Plain, Repeated, Gathered };
  // Plain inputs are read in place; an input repeated over every element
  // fills its tile once; others are gathered per tile.
  std::vector<Access> access(numInputs);
  for (int64_t i = 0; i < numInputs; ++i) {
    bool repeated = std::all_of(inputs[i].strides.begin(),
                                inputs[i].strides.end(),
                                [](int64_t step) { return step == 0; });
    access[i] = inputs[i].strides == plainStrides ? Access::Plain
                : repeated                        ? Access::Repeated
                                                  : Access::Gathered;
  }
  // A tile per slot; plain inputs and the last operation (which writes
  // `out`) leave theirs unused. Not a std::vector: bool chains need a plain
  // array of bool.
  std::unique_ptr<T[]> scratch(new T[(numInputs + operations.size()) * tile]);
  auto slotTile = [&](int64_t slot) { return scratch.get() + slot * tile; };
  std::vector<const T *> slots(numInputs + operations.size());
  for (int64_t i = 0; i < numInputs; ++i)
    if (access[i] == Access::Repeated) {
      T value = inputs[i].tensor.template data<T>()[0];
      std::fill(slotTile(i), slotTile(i) + tile, value);
      slots[i] = slotTile(i);
    }
  T *result = out.data<T>();
  for (int64_t start = 0; start < count; start += tile) {
    const int64_t n = std::min(tile, count - start);
    for (int64_t i = 0; i < numInputs; ++i) {
      if (access[i] == Access::Plain) {
        slots[i] = inputs[i].tensor.template data<T>() + start;
      } else if (access[i] == Access::Gathered) {
        gatherTile<T>(inputs[i], shape, start, n, slotTile(i));
        slots[i] = slotTile(i);
      }
    }
    for (size_t j = 0; j < operations.size(); ++j) {
      const FusedOperation &operation = operations[j];
      T *target = j + 1 == operations.size() ? result + start
                                             : slotTile(numInputs + j);
      if (operation.isUnary)
        unaryLoop<T>(operation.unary, slots[operation.lhs], target, n);
      else
        binaryLoop<T>(operation.binary, slots[operation.lhs],
                      slots[operation.rhs], target, n);
      slots[numInputs + j] = target;
    }
  }
}

} // namespace

void fusedElementwise(const std::vector<FusedOperation> &operations,
                      const std::vector<FusedInput> &inputs, Tensor &out) {
  assert(!roundsAfterEachOp(out.dtype()) && !isComplex(out.dtype()) &&
         "narrow types round after every op; complex is not fused");
  visitStorageType(out.dtype(), [&](auto tag) {
    runFused<decltype(tag)>(operations, inputs, out);
  });
}

namespace {

/// Integers whose order is IEEE-754's totalOrder of the floats: the f64 bit
/// patterns, with the magnitude bits of negative values flipped so that a
/// larger magnitude sorts lower. Widening to f64 keeps every value, sign
/// and the order of NaNs by sign.
Tensor totalOrderKeys(const Tensor &floats) {
  Tensor wide = convert(floats, DType::F64);
  Tensor keys = Tensor::empty(DType::I64, floats.shape());
  const double *in = wide.data<double>();
  int64_t *out = keys.data<int64_t>();
  for (int64_t i = 0, e = floats.numElements(); i < e; ++i) {
    int64_t bits = std::bit_cast<int64_t>(in[i]);
    out[i] = bits < 0 ? bits ^ std::numeric_limits<int64_t>::max() : bits;
  }
  return keys;
}

} // namespace

Tensor compare(CompareKind kind, const Tensor &lhs, const Tensor &rhs,
               bool totalOrder) {
  if (isComplex(lhs.dtype()))
    return detail::complexCompare(kind, lhs, rhs);
  if (totalOrder && isFloat(lhs.dtype()))
    return compare(kind, totalOrderKeys(lhs), totalOrderKeys(rhs));
  Tensor a = detail::widenForCompute(lhs), b = detail::widenForCompute(rhs);
  Tensor result = Tensor::empty(DType::I1, lhs.shape());
  bool *out = result.data<bool>();
  int64_t count = lhs.numElements();
  visitStorageType(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *x = a.data<T>(), *y = b.data<T>();
    switch (kind) {
    case CompareKind::EQ: return map2(x, y, out, count, [](T p, T q) { return p == q; });
    case CompareKind::NE: return map2(x, y, out, count, [](T p, T q) { return p != q; });
    case CompareKind::LT: return map2(x, y, out, count, [](T p, T q) { return p < q; });
    case CompareKind::LE: return map2(x, y, out, count, [](T p, T q) { return p <= q; });
    case CompareKind::GT: return map2(x, y, out, count, [](T p, T q) { return p > q; });
    case CompareKind::GE: return map2(x, y, out, count, [](T p, T q) { return p >= q; });
    }
  });
  return result;
}

Tensor select(const Tensor &pred, const Tensor &onTrue, const Tensor &onFalse) {
  Tensor result = Tensor::empty(onTrue.dtype(), onTrue.shape());
  int64_t count = onTrue.numElements();
  const bool *condition = pred.data<bool>();
  if (isComplex(onTrue.dtype())) { // element copies of the pairs
    size_t size = dtypeSize(onTrue.dtype());
    for (int64_t i = 0; i < count; ++i) {
      const Tensor &chosen = condition[pred.rank() == 0 ? 0 : i] ? onTrue : onFalse;
      std::memcpy(result.bytes() + i * size, chosen.bytes() + i * size, size);
    }
    return result;
  }
  visitStorageType(onTrue.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *a = onTrue.data<T>(), *b = onFalse.data<T>();
    T *out = result.data<T>();
    if (pred.rank() == 0) {
      const T *chosen = condition[0] ? a : b;
      std::copy(chosen, chosen + count, out);
      return;
    }
    // Both sides loaded first: a select of two values, not a branch on
    // the condition (a relu mask's is mispredicted half of the time).
    for (int64_t i = 0; i < count; ++i) {
      T onTrueValue = a[i], onFalseValue = b[i];
      out[i] = condition[i] ? onTrueValue : onFalseValue;
    }
  });
  return result;
}

Tensor clamp(const Tensor &min, const Tensor &operand, const Tensor &max) {
  Tensor lo = detail::widenForCompute(min), x = detail::widenForCompute(operand),
         hi = detail::widenForCompute(max);
  Tensor result = Tensor::empty(x.dtype(), x.shape());
  int64_t count = x.numElements();
  visitStorageType(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *low = lo.data<T>(), *in = x.data<T>(), *high = hi.data<T>();
    int64_t lowStep = lo.rank() == 0 ? 0 : 1, highStep = hi.rank() == 0 ? 0 : 1;
    T *out = result.data<T>();
    for (int64_t i = 0; i < count; ++i) {
      T value = in[i], a = low[i * lowStep], b = high[i * highStep];
      value = value < a ? a : value;
      out[i] = value > b ? b : value;
    }
  });
  return roundsAfterEachOp(operand.dtype()) ? detail::roundToDType(result, operand.dtype())
                                 : result;
}

Tensor isFinite(const Tensor &operand) {
  Tensor x = detail::widenForCompute(operand);
  Tensor result = Tensor::empty(DType::I1, x.shape());
  bool *out = result.data<bool>();
  visitStorageType(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *in = x.data<T>();
    for (int64_t i = 0, e = x.numElements(); i < e; ++i) {
      if constexpr (kIsFloat<T>)
        out[i] = std::isfinite(in[i]);
      else
        out[i] = true;
    }
  });
  return result;
}

namespace {

/// One value of a float type of `Bits` with `kExponentBits` and
/// `kMantissaBits`, reduced as `reducePrecision` says: round the mantissa at
/// its last kept bit (adding half an ulp less one, plus the kept bit for
/// ties to even, may carry into the exponent), then flush what leaves the
/// reduced exponent range.
template <typename Bits, int kExponentBits, int kMantissaBits>
Bits reducePrecisionBits(Bits bits, int exponentBits, int mantissaBits) {
  constexpr Bits kExponentMask = ((Bits(1) << kExponentBits) - 1)
                                 << kMantissaBits;
  constexpr Bits kSignMask = Bits(1) << (kExponentBits + kMantissaBits);
  constexpr Bits kMantissaMask = (Bits(1) << kMantissaBits) - 1;
  bool isNan = (bits & kExponentMask) == kExponentMask && (bits & kMantissaMask);
  if (isNan)
    return bits;
  if (mantissaBits < kMantissaBits) {
    int dropped = kMantissaBits - mantissaBits;
    Bits lastKeptBit = Bits(1) << dropped;
    Bits tiesToEven = (bits & lastKeptBit) >> dropped;
    bits = (bits + (lastKeptBit >> 1) - 1 + tiesToEven) & ~(lastKeptBit - 1);
  }
  if (exponentBits < kExponentBits) {
    constexpr Bits kBias = (Bits(1) << (kExponentBits - 1)) - 1;
    Bits reducedBias = (Bits(1) << (exponentBits - 1)) - 1;
    Bits exponent = bits & kExponentMask;
    if (exponent > (kBias + reducedBias) << kMantissaBits)
      bits = (bits & kSignMask) | kExponentMask;
    else if (exponent <= (kBias - reducedBias) << kMantissaBits)
      bits &= kSignMask;
  }
  return bits;
}

} // namespace

Tensor reducePrecision(const Tensor &operand, int exponentBits,
                       int mantissaBits) {
  // Half types are reduced in f32, where their values are exact, and come
  // back exactly: the reduced format's values fit theirs.
  Tensor x = detail::widenForCompute(operand);
  Tensor result = Tensor::empty(x.dtype(), x.shape());
  int64_t n = x.numElements();
  if (x.dtype() == DType::F32) {
    const float *in = x.data<float>();
    float *out = result.data<float>();
    for (int64_t i = 0; i < n; ++i)
      out[i] = std::bit_cast<float>(reducePrecisionBits<uint32_t, 8, 23>(
          std::bit_cast<uint32_t>(in[i]), exponentBits, mantissaBits));
  } else {
    assert(x.dtype() == DType::F64 && "reduce_precision takes floats");
    const double *in = x.data<double>();
    double *out = result.data<double>();
    for (int64_t i = 0; i < n; ++i)
      out[i] = std::bit_cast<double>(reducePrecisionBits<uint64_t, 11, 52>(
          std::bit_cast<uint64_t>(in[i]), exponentBits, mantissaBits));
  }
  return result.dtype() == operand.dtype() ? result
                                           : convert(result, operand.dtype());
}

namespace {

template <typename From, typename To> To convertValue(From value) {
  if constexpr (std::is_same_v<To, bool>) {
    return value != From(0);
  } else if constexpr (kIsFloat<From> && !kIsFloat<To>) {
    // Saturate out-of-range floats (and map nan to 0) instead of UB.
    if (value != value)
      return To(0);
    if (value <= static_cast<From>(std::numeric_limits<To>::min()))
      return std::numeric_limits<To>::min();
    if (value >= static_cast<From>(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    return static_cast<To>(value);
  } else {
    return static_cast<To>(value);
  }
}

} // namespace

Tensor convert(const Tensor &operand, DType to) {
  DType from = operand.dtype();
  if (isComplex(from) || isComplex(to))
    return detail::convertComplex(operand, to);
  int64_t count = operand.numElements();
  // To a narrow float from f64 or an integer: rounded once from the value
  // in f64 (through f32 it would round twice). Integers past 2^53 are
  // rounded to f64 first.
  if (isNarrowFloat(to) &&
      (from == DType::F64 || (!isFloat(from) && from != DType::I1))) {
    Tensor result = Tensor::empty(to, operand.shape());
    for (int64_t i = 0; i < count; ++i) {
      uint32_t bits = doubleToNarrowFloat(to, operand.elementAsDouble(i));
      std::memcpy(result.bytes() + i * dtypeSize(to), &bits, dtypeSize(to));
    }
    return result;
  }
  Tensor input = detail::widenForCompute(operand);
  // Narrow floats are rounded from f32; sub-byte integers converted to 8
  // bits, then saturated (from floats) or wrapped (from integers).
  DType computeType = isNarrowFloat(to) ? DType::F32
                      : isSubByteInt(to)
                          ? (isSignedInt(to) ? DType::I8 : DType::UI8)
                          : to;
  Tensor result = Tensor::empty(computeType, input.shape());
  visitStorageType(input.dtype(), [&](auto fromTag) {
    using From = decltype(fromTag);
    visitStorageType(computeType, [&](auto toTag) {
      using To = decltype(toTag);
      const From *in = input.data<From>();
      To *out = result.data<To>();
      for (int64_t i = 0; i < count; ++i)
        out[i] = convertValue<From, To>(in[i]);
    });
  });
  if (isSubByteInt(to) && isFloat(from)) {
    int64_t bits = dtypeBitWidth(to);
    int64_t low = isSignedInt(to) ? -(int64_t(1) << (bits - 1)) : 0;
    int64_t high = isSignedInt(to) ? -low - 1 : (int64_t(1) << bits) - 1;
    Tensor saturated = Tensor::empty(to, input.shape());
    for (int64_t i = 0; i < count; ++i)
      saturated.data<int8_t>()[i] = static_cast<int8_t>(
          std::clamp(result.elementAsInt(i), low, high));
    return saturated;
  }
  return roundsAfterEachOp(to) ? detail::roundToDType(result, to) : result;
}

} // namespace mlir::mpmd::runtime
