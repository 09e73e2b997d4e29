//===- Dispatch.h - dtype → C++ type dispatch for the kernels ---*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. `visitStorageType(dtype, f)` calls `f(T{})` with
// the C++ type that stores `dtype` (bool for i1, uint16_t for f16/bf16), so
// a kernel is written once as a template.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_RUNTIME_KERNELS_DISPATCH_H
#define MPMD_LIB_RUNTIME_KERNELS_DISPATCH_H

#include "mpmd/Runtime/Tensor.h"

#include <cstdint>

namespace mlir::mpmd::runtime::detail {

template <typename F> decltype(auto) visitStorageType(DType dtype, F &&f) {
  switch (dtype) {
  case DType::F64: return f(double{});
  case DType::F32: return f(float{});
  case DType::F16: case DType::BF16: case DType::UI16: return f(uint16_t{});
  case DType::I1: return f(bool{});
  case DType::I8: return f(int8_t{});
  case DType::I16: return f(int16_t{});
  case DType::I32: return f(int32_t{});
  case DType::I64: return f(int64_t{});
  case DType::UI8: return f(uint8_t{});
  case DType::UI32: return f(uint32_t{});
  case DType::UI64: return f(uint64_t{});
  }
  return f(float{});
}

/// f16/bf16 tensors widened to f32 (others returned as they are), and back.
Tensor widenHalf(const Tensor &tensor);
Tensor narrowToHalf(const Tensor &tensor, DType half);

/// Copies the elements of `shape` from `src` to `dst`, each given as an
/// element offset and strides (in elements; source strides may be 0 or
/// negative).
void stridedCopy(const Shape &shape, const Tensor &src, int64_t srcOffset,
                 const std::vector<int64_t> &srcStrides, Tensor &dst,
                 int64_t dstOffset, const std::vector<int64_t> &dstStrides);

} // namespace mlir::mpmd::runtime::detail

#endif // MPMD_LIB_RUNTIME_KERNELS_DISPATCH_H
