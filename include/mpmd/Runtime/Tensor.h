//===- Tensor.h - Dense tensors of the runtime ------------------*- C++ -*-===//
//
// A tensor is a dtype, a shape and a shared, 64-byte aligned, row-major
// buffer. Kernels always produce contiguous results, so strides are implied
// by the shape; reshape shares the buffer (O(1)). No MLIR here: the kernels
// and this file are plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_TENSOR_H
#define MPMD_RUNTIME_TENSOR_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd::runtime {

/// Element types (docs/runtime.md, "Element types"). Storage: f16, bf16
/// are their 16-bit patterns; the 8-, 6- and 4-bit floats are their bit
/// pattern in the low bits of one byte; tf32 is an f32 whose value is a
/// tf32 value (its 13 low mantissa bits zero); i2/i4 (ui2/ui4) are one
/// sign- (zero-) extended byte; i1 is one byte (0 or 1); complex<f32> and
/// complex<f64> are (real, imaginary) pairs. Every float narrower than f32
/// and tf32 is computed in f32 and rounded back after each op; i2/i4/ui2/
/// ui4 are computed in 8 bits and wrapped back.
enum class DType {
  F64, F32, F16, BF16, I1, I8, I16, I32, I64, UI8, UI16, UI32, UI64,
  I2, I4, UI2, UI4,
  TF32, F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ, F8E4M3B11FNUZ, F8E3M4,
  F8E4M3, F8E8M0FNU, F4E2M1FN, F6E2M3FN, F6E3M2FN,
  C64, C128
};

/// Bytes per element in memory.
size_t dtypeSize(DType dtype);
/// Bits of the type itself (4 for i4, 19 for tf32, 64 for complex<f32>):
/// what bitcast_convert reinterprets.
int64_t dtypeBitWidth(DType dtype);
const char *dtypeName(DType dtype);
/// Real floating-point types (not complex).
bool isFloat(DType dtype);
bool isComplex(DType dtype);
bool isSignedInt(DType dtype);
bool isUnsignedInt(DType dtype); // i1 counts as unsigned
/// Floats computed in f32 and rounded back after each op: f16, bf16, tf32
/// and the 8-, 6- and 4-bit floats.
bool isNarrowFloat(DType dtype);
/// i2, i4, ui2, ui4: computed in 8 bits and wrapped back after each op.
bool isSubByteInt(DType dtype);
/// Either of the two above: kernels widen, compute and round back.
inline bool roundsAfterEachOp(DType dtype) {
  return isNarrowFloat(dtype) || isSubByteInt(dtype);
}
/// The real type of a complex type's parts (f32 for complex<f32>).
DType complexPartType(DType dtype);

float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value); // round to nearest even
float bf16ToFloat(uint16_t bits);
uint16_t floatToBf16(float value); // round to nearest even
/// A narrow float's stored pattern (see DType) to f32 (exact), and a value
/// to the nearest pattern (ties to even), with MLIR APFloat's rules for
/// what does not fit: overflow is inf where the type has one, else NaN, and
/// the largest finite value for the f4/f6 types (no NaN either; NaN and inf
/// give +-0 there as APFloat does); FNUZ types have no -0 (gives +0) and
/// f8E8M0FNU has no sign and no zero (0 gives 2^-127, negatives NaN).
float narrowFloatToFloat(DType dtype, uint32_t bits);
uint32_t doubleToNarrowFloat(DType dtype, double value);
/// Wraps an integer to i2/i4 (sign-extended) or ui2/ui4.
int64_t wrapToSubByteInt(DType dtype, int64_t value);

using Shape = std::vector<int64_t>;
int64_t numElementsOf(const Shape &shape);
/// Row-major strides, in elements.
std::vector<int64_t> rowMajorStrides(const Shape &shape);
std::string shapeToString(const Shape &shape);

/// An inclusive range of integers.
struct IntegerRange {
  int64_t min;
  int64_t max;
};

/// The dtype and shape a program input or output has: what runners check
/// tensors against.
struct TensorSpec {
  DType dtype;
  Shape shape;
  /// The storage range a quantized type narrows its integers to (e.g.
  /// `i4<-7:7>`), where it is narrower than the dtype's; what random inputs
  /// must respect. nullopt: the dtype's whole range.
  std::optional<IntegerRange> storageRange = std::nullopt;
};
/// "tensor<2x3xf32>".
std::string toString(const TensorSpec &spec);

class Tensor {
public:
  Tensor() = default;
  /// Uninitialized contents.
  static Tensor empty(DType dtype, Shape shape);
  static Tensor zeros(DType dtype, Shape shape);

  DType dtype() const { return dtype_; }
  const Shape &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numElements() const { return numElementsOf(shape_); }
  size_t byteSize() const { return numElements() * dtypeSize(dtype_); }
  std::vector<int64_t> strides() const { return rowMajorStrides(shape_); }

  std::byte *bytes() { return buffer_.get(); }
  const std::byte *bytes() const { return buffer_.get(); }
  template <typename T> T *data() { return reinterpret_cast<T *>(bytes()); }
  template <typename T> const T *data() const {
    return reinterpret_cast<const T *>(bytes());
  }

  /// A view with the same elements in a new shape (shares the buffer).
  Tensor reshaped(Shape shape) const;
  /// A view of the same bytes as another dtype and shape (same byte size).
  Tensor bitcast(DType dtype, Shape shape) const;
  /// A copy that owns its own buffer.
  Tensor clone() const;
  /// True when both tensors share a buffer (reshape views).
  bool sharesBufferWith(const Tensor &other) const {
    return buffer_ == other.buffer_;
  }
  /// True when no other tensor (or view) refers to this buffer, so that a
  /// kernel may overwrite it.
  bool ownsBufferAlone() const { return buffer_.use_count() == 1; }

  /// Element `index` (row-major) as a double / an int64 (for printing,
  /// index arithmetic and checks, not for kernels' inner loops); the real
  /// part of a complex element (elementImagAsDouble: its imaginary part).
  double elementAsDouble(int64_t index) const;
  int64_t elementAsInt(int64_t index) const;
  double elementImagAsDouble(int64_t index) const;
  /// Element `index` as a 0-d tensor, and the reverse.
  Tensor elementAt(int64_t index) const;
  void setElement(int64_t index, const Tensor &scalar);
  /// "[1, 2, 3]" style text of at most `limit` elements.
  std::string valuesToString(int64_t limit = 16) const;

private:
  DType dtype_ = DType::F32;
  Shape shape_;
  std::shared_ptr<std::byte[]> buffer_;
};

/// How far `actual` is from `expected` (same dtype and shape), in f64:
/// the largest absolute difference, the largest difference relative to
/// `expected`'s magnitude at that element (0 where both are 0, infinite
/// where only `expected` is 0), the largest magnitude of `expected`, and
/// whether a NaN sits where the other tensor has none. O(elements).
struct TensorDifference {
  double maxAbsolute = 0;
  double maxRelative = 0;
  double maxExpectedMagnitude = 0;
  bool nanMismatch = false;
};
TensorDifference compareTensors(const Tensor &actual, const Tensor &expected);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_TENSOR_H
