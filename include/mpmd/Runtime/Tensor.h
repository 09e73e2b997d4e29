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
#include <string>
#include <vector>

namespace mlir::mpmd::runtime {

/// Element types. f16 and bf16 are stored as their 16-bit patterns and
/// computed in f32; i1 is one byte (0 or 1).
enum class DType { F64, F32, F16, BF16, I1, I8, I16, I32, I64, UI8, UI16, UI32, UI64 };

size_t dtypeSize(DType dtype);
const char *dtypeName(DType dtype);
bool isFloat(DType dtype);
bool isSignedInt(DType dtype);
bool isUnsignedInt(DType dtype); // i1 counts as unsigned
bool isHalf(DType dtype);        // f16 or bf16

float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value); // round to nearest even
float bf16ToFloat(uint16_t bits);
uint16_t floatToBf16(float value); // round to nearest even

using Shape = std::vector<int64_t>;
int64_t numElementsOf(const Shape &shape);
/// Row-major strides, in elements.
std::vector<int64_t> rowMajorStrides(const Shape &shape);
std::string shapeToString(const Shape &shape);

/// The dtype and shape a program input or output has: what runners check
/// tensors against.
struct TensorSpec {
  DType dtype;
  Shape shape;
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
  /// index arithmetic and checks, not for kernels' inner loops).
  double elementAsDouble(int64_t index) const;
  int64_t elementAsInt(int64_t index) const;
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
