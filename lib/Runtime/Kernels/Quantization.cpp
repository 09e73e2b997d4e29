//===- Quantization.cpp - Uniform quantization kernels --------------------===//

#include "mpmd/Runtime/Quantization.h"

#include "mpmd/Runtime/Kernels.h"

#include <cassert>

namespace mlir::mpmd::runtime {

namespace {

/// `values[slice]` for every element of `shape` (the slice is the index
/// along `type.axis`; always 0 per-tensor) as an f64 tensor, converted to
/// `dtype`.
template <typename T>
Tensor broadcastParameter(const std::vector<T> &values,
                          const QuantizedElementType &type, const Shape &shape,
                          DType dtype) {
  Tensor result = Tensor::empty(DType::F64, shape);
  double *out = result.data<double>();
  int64_t count = result.numElements();
  if (!type.axis) {
    for (int64_t i = 0; i < count; ++i)
      out[i] = static_cast<double>(values[0]);
  } else {
    int64_t stride = rowMajorStrides(shape)[*type.axis];
    int64_t size = shape[*type.axis];
    for (int64_t i = 0; i < count; ++i)
      out[i] = static_cast<double>(values[(i / stride) % size]);
  }
  return dtype == DType::F64 ? result : convert(result, dtype);
}

Tensor scalarOf(DType dtype, double value) {
  Tensor scalar = Tensor::empty(DType::F64, {});
  *scalar.data<double>() = value;
  return dtype == DType::F64 ? scalar : convert(scalar, dtype);
}

} // namespace

Tensor dequantize(const Tensor &storage, const QuantizedElementType &type) {
  assert(storage.dtype() == type.storage && "not the storage type");
  Tensor difference = binary(
      BinaryKind::Subtract, convert(storage, DType::I64),
      broadcastParameter(type.zeroPoints, type, storage.shape(), DType::I64));
  return binary(BinaryKind::Multiply, convert(difference, type.expressed),
                broadcastParameter(type.scales, type, storage.shape(),
                                   type.expressed));
}

Tensor quantize(const Tensor &floats, const QuantizedElementType &type) {
  assert(floats.dtype() == type.expressed && "not the expressed type");
  const Shape &shape = floats.shape();
  Tensor scaled = binary(
      BinaryKind::Divide, floats,
      broadcastParameter(type.scales, type, shape, type.expressed));
  Tensor shifted = binary(
      BinaryKind::Add, scaled,
      broadcastParameter(type.zeroPoints, type, shape, type.expressed));
  Tensor clamped =
      clamp(scalarOf(type.expressed, static_cast<double>(type.storageMin)),
            shifted,
            scalarOf(type.expressed, static_cast<double>(type.storageMax)));
  // Converting to the storage type truncates (and saturates) an integral
  // value: exact, up to the largest i32 in f32 (2^31, saturated).
  return convert(unary(UnaryKind::RoundNearestEven, clamped), type.storage);
}

} // namespace mlir::mpmd::runtime
